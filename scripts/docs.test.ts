// The docs cannot rot, and what they show runs as pasted. Every fenced code block in README.md and docs/*.md is one
// of three kinds:
// - code, with `<!-- from: path -->` on the line before: the block IS that file, whole. The files are the runnable
//   examples e2e/examples.spec.ts and e2e/ssr.spec.ts drive in a browser (a page script together with its page) and
//   the Node tests run (scripts/examples.test.ts, the webhook receivers' test), so a block never leans on a line
//   the reader cannot see;
// - code, with `<!-- from: path#name -->`: the block is the region `name` of that file (between `#region name` and
//   `#endregion` comments), a whole declaration that parses on its own and uses no name it does not declare (beyond
//   the language's and the browser's), in a file that runs;
// - shell (`sh`, `bash`, `shell`): each `pnpm ...` names a script of package.json or a pnpm command, and each `svc
//   ...` or `pnpm svc ...` a command of the CLI (its `--help` answers with that command's usage).
// Blocks marked `<!-- sri: -->` are written from the build by `pnpm sri --write`; scripts/sri.test.ts checks them.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { run } from '../packages/client/src/cli/run.js';

const root = new URL('..', import.meta.url).pathname;
const docsDir = join(root, 'docs');

interface Block {
  doc: string;
  line: number;
  marker: string;
  lang: string;
  code: string[];
}

/** The fenced blocks of a markdown text, each with its language and the HTML comment on the (non-blank) line before its fence. */
export function blocksOf(doc: string, text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const fence = /^(\s*)(```+|~~~+)\s*(\S*)/.exec(lines[i]!);
    if (!fence) continue;
    let j = i + 1;
    while (j < lines.length && !lines[j]!.trimStart().startsWith(fence[2]!)) j += 1;
    let k = i - 1;
    while (k >= 0 && lines[k]!.trim() === '') k -= 1;
    const marker = k >= 0 ? lines[k]!.trim() : '';
    blocks.push({ doc, line: i + 1, marker, lang: fence[3] ?? '', code: lines.slice(i + 1, j) });
    i = j;
  }
  return blocks;
}

function dedent(lines: string[]): string[] {
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length));
  return lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0).trimEnd());
}

const trimmed = (lines: string[]) => dedent(lines).join('\n').trim();

/** The lines between `#region name` and the next `#endregion` comment (`//` or `<!-- -->`), or undefined. */
export function regionOf(source: string, name: string): string[] | undefined {
  const lines = source.split('\n');
  const start = lines.findIndex((l) => new RegExp(`^\\s*(//|<!--)\\s*#region ${name}(\\s|-->|$)`).test(l));
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && /^\s*(\/\/|<!--)\s*#endregion/.test(l));
  return end < 0 ? undefined : lines.slice(start + 1, end);
}

/** A file without its region markers: what a reader who copies the whole file gets. */
export function withoutRegionMarkers(source: string): string {
  return source
    .split('\n')
    .filter((l) => !/^\s*(\/\/|<!--)\s*#(end)?region\b/.test(l))
    .join('\n');
}

/** Syntax errors of `code` parsed on its own as a TypeScript/JavaScript module (JSX for .tsx/.jsx). */
export function syntaxErrors(code: string, ext: string): string[] {
  const kind = ext === '.tsx' || ext === '.jsx' ? ts.ScriptKind.TSX : ext === '.js' ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const file = ts.createSourceFile(`snippet${ext}`, code, ts.ScriptTarget.Latest, true, kind);
  const diagnostics = (file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  return diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

/**
 * The names `code` uses but neither declares nor gets from the language and the browser (TypeScript's "Cannot find
 * name"): what a reader pasting the region alone would have to guess.
 */
export function unknownNames(code: string, ext: string): string[] {
  const fileName = `/snippet${ext === '.tsx' || ext === '.jsx' ? '.tsx' : '.ts'}`;
  const options: ts.CompilerOptions = {
    noEmit: true,
    target: ts.ScriptTarget.ESNext,
    lib: ['lib.esnext.d.ts', 'lib.dom.d.ts'],
    types: [],
    noResolve: true,
    jsx: ts.JsxEmit.Preserve,
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) =>
    name === fileName ? ts.createSourceFile(name, code, version) : read(name, version, ...rest);
  const program = ts.createProgram([fileName], options, host);
  return program
    .getSemanticDiagnostics(program.getSourceFile(fileName))
    .filter((d) => [2304, 2552, 2582].includes(d.code))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

const scripts = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: object }).scripts);
/** The scripts of the workspace package named `name`, or undefined. */
function packageScripts(name: string): string[] | undefined {
  for (const dir of readdirSync(join(root, 'packages'))) {
    const file = join(root, 'packages', dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; scripts?: object };
    if (pkg.name === name) return Object.keys(pkg.scripts ?? {});
  }
  return undefined;
}

// pnpm's own commands a reader may type (`pnpm install`, `pnpm exec tsx ...`).
const PNPM_COMMANDS = new Set(['install', 'i', 'add', 'exec', 'dlx', 'run', 'build', 'list', 'why', 'update']);

/** The commands of a shell block: its lines without comments, split at `&&`, `||`, `;` and `|`. */
export function commandsOf(code: string[]): string[][] {
  return code
    .map((l) => l.replace(/(^|\s)#.*$/, ''))
    .flatMap((l) => l.split(/&&|\|\||;|\|/))
    .map((c) => c.trim().split(/\s+/).filter(Boolean))
    .map((words) => words.filter((w, i) => i > 0 || !/^[A-Z_]+=/.test(w)))
    .filter((words) => words.length > 0);
}

async function helpOf(words: string[]): Promise<string> {
  let out = '';
  const io = { env: {}, cwd: root, stdout: (t: string) => void (out += t), stderr: (t: string) => void (out += t) };
  await run([...words, '--help'], io);
  return out;
}

/** Why a command line of a doc names nothing that exists, or undefined when it does. */
export async function unknownCommand(words: string[]): Promise<string | undefined> {
  if (words[0] === 'pnpm' && words[1] === 'svc') return unknownCommand(['svc', ...words.slice(2)]);
  if (words[0] === 'pnpm' && words[1] === '--filter') {
    const found = packageScripts(words[2] ?? '');
    if (!found) return `pnpm --filter ${words[2]}: no package of that name under packages/`;
    const name = words[3] === 'run' ? (words[4] ?? '') : (words[3] ?? '');
    return found.includes(name) || PNPM_COMMANDS.has(name) ? undefined : `pnpm --filter ${words[2]} ${name}: no such script`;
  }
  if (words[0] === 'pnpm') {
    const [, name = '', arg = ''] = words;
    if (name === 'run') return scripts.includes(arg) ? undefined : `pnpm run ${arg}: no such script in package.json`;
    if (scripts.includes(name) || PNPM_COMMANDS.has(name)) return undefined;
    return `pnpm ${name}: neither a script in package.json nor a pnpm command`;
  }
  if (words[0] === 'svc') {
    const named = words.slice(1, 3).filter((w) => /^[a-z][a-z-]*$/.test(w));
    if (named.length === 0) return undefined; // `svc --help`
    const help = await helpOf(named);
    const usage = help.split('\n')[0] ?? '';
    const whole = usage.startsWith(`Usage: svc ${named.join(' ')}`);
    const single = usage.startsWith(`Usage: svc ${named[0]}`) && !usage.includes('<');
    if (!whole && !single) return `svc ${named.join(' ')}: not a command of the CLI (${usage})`;
    const flags = words.filter((w) => /^--[a-z]/.test(w)).map((w) => w.split('=')[0]!);
    const unknown = flags.filter((flag) => !['--json', '--help'].includes(flag) && !help.includes(flag));
    return unknown.length ? `svc ${named.join(' ')}: no option ${unknown.join(', ')} (${usage})` : undefined;
  }
  return undefined;
}

/** The commands written inline in a doc's text (`` `pnpm svc me` ``), outside its fenced blocks. */
export function inlineCommandsOf(text: string): string[][] {
  const prose = text.replace(/^(\s*)(```+|~~~+)[\s\S]*?^\1\2/gm, '');
  return [...prose.matchAll(/`((?:pnpm|svc) [^`]+)`/g)].flatMap((m) => commandsOf([m[1]!]));
}

const docs = existsSync(docsDir) ? readdirSync(docsDir).filter((f) => f.endsWith('.md')) : [];
const texts: [string, string][] = [
  ['README.md', readFileSync(join(root, 'README.md'), 'utf8')],
  ...docs.map((name): [string, string] => [`docs/${name}`, readFileSync(join(docsDir, name), 'utf8')]),
];

function checkCode(block: Block): void {
  const where = `${block.doc}:${block.line}`;
  const from = /^<!-- from: ([^\s#]+)(?:#([\w-]+))? -->$/.exec(block.marker);
  assert.ok(from, `${where}: put <!-- from: path --> (the whole file) or <!-- from: path#region --> on the line before the fence`);
  const path = join(root, from[1]!);
  assert.ok(existsSync(path), `${where}: ${from[1]} does not exist`);
  const source = readFileSync(path, 'utf8');
  if (!from[2]) {
    assert.equal(trimmed(block.code), withoutRegionMarkers(source).trim(), `${where}: the block is not the whole of ${from[1]}`);
    return;
  }
  const region = regionOf(source, from[2]);
  assert.ok(region, `${where}: ${from[1]} has no region ${from[2]} (// #region ${from[2]} ... // #endregion)`);
  assert.equal(trimmed(block.code), trimmed(region), `${where}: the block is not region ${from[2]} of ${from[1]}`);
  const ext = extname(from[1]!);
  if (['.ts', '.tsx', '.js', '.mjs', '.jsx'].includes(ext)) {
    assert.deepEqual(syntaxErrors(trimmed(region), ext), [], `${where}: region ${from[2]} does not parse on its own`);
    assert.deepEqual(unknownNames(trimmed(region), ext), [], `${where}: region ${from[2]} uses names it does not declare`);
  }
}

describe('docs snippets', () => {
  it('finds the docs', () => {
    assert.ok(docs.includes('quick-start.md') && docs.includes('csp.md'), `docs/ holds ${docs.join(', ')}`);
  });

  for (const [name, text] of texts) {
    for (const block of blocksOf(name, text)) {
      if (block.marker.startsWith('<!-- sri:')) continue;
      if (['sh', 'bash', 'shell', 'console'].includes(block.lang)) {
        it(`${name}:${block.line}: each command names a script or CLI command that exists`, async () => {
          for (const words of commandsOf(block.code)) assert.equal(await unknownCommand(words), undefined);
        });
        continue;
      }
      it(`${name}:${block.line} is a runnable file, or a named region of one`, () => checkCode(block));
    }
  }

  for (const [name, text] of texts) {
    const inline = inlineCommandsOf(text);
    if (inline.length === 0) continue;
    it(`${name}: each command written inline names a script or CLI command that exists`, async () => {
      for (const words of inline) assert.equal(await unknownCommand(words), undefined, words.join(' '));
    });
  }

  it('shows only example pages and scripts the end-to-end suite loads', () => {
    const spec = readFileSync(join(root, 'e2e/examples.spec.ts'), 'utf8');
    const shown = texts.flatMap(([, text]) => [...text.matchAll(/<!-- from: examples\/site\/public\/(\S+?) -->/g)].map((m) => m[1]!));
    const pages = readdirSync(join(root, 'examples/site/public')).filter((f) => f.endsWith('.html'));
    const visited = pages.filter((p) => spec.includes(`/${p}`) || spec.includes(`/${p.replace('.', '\\.')}`));
    const loaded = visited.flatMap((p) =>
      [...readFileSync(join(root, 'examples/site/public', p), 'utf8').matchAll(/src="\/([\w-]+\.js)"/g)].map((m) => m[1]!),
    );
    for (const file of shown)
      assert.ok(visited.includes(file) || loaded.includes(file), `${file} is shown in the docs, but e2e never loads it`);
  });

  it('takes whole files and regions, nothing in between', () => {
    const source = 'a\n// #region two\nconst b = 1;\n// #endregion\nc';
    assert.deepEqual(regionOf(source, 'two'), ['const b = 1;']);
    assert.equal(regionOf(source, 'tw'), undefined);
    assert.equal(withoutRegionMarkers(source), 'a\nconst b = 1;\nc');
    assert.notDeepEqual(syntaxErrors('element.addEventListener("x", async () => {\n  await 1;\n', '.js'), []);
    assert.deepEqual(syntaxErrors('export const f = () => <p>{1}</p>;', '.tsx'), []);
    assert.deepEqual(unknownNames('export const f = (a: string) => [a, location.href].join(crypto.randomUUID());', '.ts'), []);
    assert.equal(unknownNames('async function f() { return svc.decisions.create(options); }', '.ts').length, 2);
  });

  it('knows the commands that exist, and the ones that do not', async () => {
    assert.deepEqual(commandsOf(['X=1 pnpm install && pnpm start   # comment', 'pnpm svc records list']), [
      ['pnpm', 'install'],
      ['pnpm', 'start'],
      ['pnpm', 'svc', 'records', 'list'],
    ]);
    assert.equal(await unknownCommand(['pnpm', 'start']), undefined);
    assert.equal(await unknownCommand(['pnpm', 'svc', 'me']), undefined);
    assert.equal(await unknownCommand(['svc', 'delegations', 'create', '<delegate>']), undefined);
    assert.ok(await unknownCommand(['pnpm', 'serve']));
    assert.ok(await unknownCommand(['pnpm', '--filter', '@svc/elements', 'no-such-script']));
    assert.ok(await unknownCommand(['svc', 'records', 'lists']));
    assert.ok(await unknownCommand(['svc', 'delegate', 'create']));
    assert.equal(await unknownCommand(['svc', 'records', 'list', '--flow', 'flw_1']), undefined);
    assert.ok(await unknownCommand(['svc', 'records', 'list', '--flows', 'flw_1']));
    assert.deepEqual(inlineCommandsOf('Run `pnpm svc me`.\n```sh\npnpm nothing\n```\n'), [['pnpm', 'svc', 'me']]);
  });
});
