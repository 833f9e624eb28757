// The docs cannot rot: every fenced code block in docs/*.md names, on the line before it, the file it is copied
// from (`<!-- from: examples/... -->`), and must appear there verbatim (up to a common indentation). Those files
// are the runnable examples e2e/examples.spec.ts and e2e/ssr.spec.ts drive. There is no exception: React and Vue
// are installed, so their guides run too.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = new URL('..', import.meta.url).pathname;
const docsDir = join(root, 'docs');

interface Block {
  doc: string;
  line: number;
  marker: string;
  code: string[];
}

/** The fenced blocks of a markdown text, each with the HTML comment on the (non-blank) line before its fence. */
export function blocksOf(doc: string, text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const fence = /^(\s*)(```+|~~~+)/.exec(lines[i]!);
    if (!fence) continue;
    let j = i + 1;
    while (j < lines.length && !lines[j]!.trimStart().startsWith(fence[2]!)) j += 1;
    let k = i - 1;
    while (k >= 0 && lines[k]!.trim() === '') k -= 1;
    blocks.push({ doc, line: i + 1, marker: k >= 0 ? lines[k]!.trim() : '', code: lines.slice(i + 1, j) });
    i = j;
  }
  return blocks;
}

function dedent(lines: string[]): string[] {
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length));
  return lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0).trimEnd());
}

/** Whether `snippet` appears in `source` as consecutive lines, up to a common indentation. */
export function appearsIn(snippet: string[], source: string): boolean {
  const want = dedent(snippet).join('\n');
  const lines = source.split('\n');
  for (let i = 0; i + snippet.length <= lines.length; i += 1) {
    if (dedent(lines.slice(i, i + snippet.length)).join('\n') === want) return true;
  }
  return false;
}

const docs = existsSync(docsDir) ? readdirSync(docsDir).filter((f) => f.endsWith('.md')) : [];

describe('docs snippets', () => {
  it('finds the docs', () => {
    assert.ok(docs.includes('quick-start.md') && docs.includes('csp.md'), `docs/ holds ${docs.join(', ')}`);
  });

  for (const name of docs) {
    const text = readFileSync(join(docsDir, name), 'utf8');
    for (const block of blocksOf(name, text)) {
      // The script tag's release block is written from the build by `pnpm sri --write`; scripts/sri.test.ts checks it.
      if (block.marker.startsWith('<!-- sri:')) continue;
      it(`${name}:${block.line} is copied from a runnable file`, () => {
        const from = /^<!-- from: (\S+) -->$/.exec(block.marker);
        assert.ok(from, `${name}:${block.line}: put <!-- from: path --> on the line before the fence`);
        const path = join(root, from[1]!);
        assert.ok(existsSync(path), `${name}:${block.line}: ${from[1]} does not exist`);
        assert.ok(appearsIn(block.code, readFileSync(path, 'utf8')), `${name}:${block.line}: the snippet is not verbatim in ${from[1]}`);
      });
    }
  }

  it('compares up to indentation, and nothing else', () => {
    assert.ok(appearsIn(['a', '  b'], 'x\n    a\n      b\ny'));
    assert.ok(!appearsIn(['a', 'b'], 'a\nc\nb'));
    assert.ok(!appearsIn(['a', '  b'], 'a\nb'));
  });
});
