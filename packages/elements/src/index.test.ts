import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const src = fileURLToPath(new URL('./', import.meta.url));
const root = fileURLToPath(new URL('../../../', import.meta.url));
const built = new URL('../dist/index.js', import.meta.url);

/**
 * Imports `specifiers` in a fresh Node (no DOM globals) and returns each module's export names. From source it runs
 * tsx with this package's tsconfig: the workspace root's tsconfig would compile the Lit decorators as standard ones.
 */
function importInNode(specifiers: string[]): string[][] {
  // Lit's Node build installs a shim registry as globalThis.customElements; window and document never appear.
  const script = `const absent = (names) => { for (const name of names) if (name in globalThis) throw new Error(name + ' exists'); };
absent(['window', 'document', 'customElements', 'HTMLElement']);
const out = [];
for (const s of ${JSON.stringify(specifiers)}) out.push(Object.keys(await import(s)).sort());
absent(['window', 'document']);
const { define } = await import(${JSON.stringify(pathToFileURL(join(src, 'internal/define.ts')).href)});
const { SvcDecision, SvcProvider } = await import(${JSON.stringify(specifiers[0])});
console.warn = () => {};
define('svc-decision', SvcDecision);
define('svc-decision', SvcProvider);
console.log(JSON.stringify(out));`;
  const output = execFileSync(process.execPath, ['--conditions=source', '--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    env: { ...process.env, TSX_TSCONFIG_PATH: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) },
    encoding: 'utf8',
  });
  return JSON.parse(output.trim().split('\n').at(-1)!) as string[][];
}

/** Every browser-bound source file (not tests), relative to src/. */
function sources(dir = src): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.includes('.test.') ? [path.slice(src.length)] : [];
  });
}

describe('@svc/elements entry', () => {
  it('imports with no window, document or customElements, as server-side rendering does, and defines twice', () => {
    const [index, svc] = importInNode([pathToFileURL(join(src, 'index.ts')).href, pathToFileURL(join(src, 'svc.ts')).href]);
    // The decision element's share of the API (other elements add theirs beside it).
    const decision = ['DecisionErrorCode', 'SvcDecision', 'SvcProvider', 'readRedirectResult', 'svcConfigContext'];
    for (const name of decision) assert.ok(index!.includes(name), `index exports ${name}`);
    // The script-tag entry too (it reads its own URL, which in Node is a file URL and names no service), with the
    // capture helper beside the elements.
    for (const name of [...decision, 'attachCapture', 'autoAttach', 'CaptureError', 'CaptureErrorCode']) {
      assert.ok(svc!.includes(name), `svc exports ${name}`);
    }
  });

  it('imports the built module too, when there is one', { skip: !existsSync(built) && 'not built' }, () => {
    const [index] = importInNode([built.href]);
    assert.ok(index!.includes('SvcDecision'));
  });

  it('imports nothing from Node in browser-bound code', () => {
    const files = sources();
    assert.ok(files.length >= 15, 'found the sources to check');
    for (const file of files) {
      const source = readFileSync(join(src, file), 'utf8');
      // frameworks/ holds the generated React and Vue declarations: they import types only, so nothing at run time.
      if (file.startsWith('frameworks/')) {
        assert.ok(!/^import (?!type )/m.test(source) && /^export \{\};?$|^declare module /m.test(source), `${file} is declarations only`);
        continue;
      }
      // @svc/schemas gives types only (`import type`, `export type`): none of its zod code reaches a bundle.
      for (const [statement, type] of source.matchAll(/^(?:import|export) (type )?[^;]*?from '@svc\/schemas'/gm)) {
        assert.ok(type, `${file} imports values from @svc/schemas: ${statement}`);
      }
      // @svc/client's main entry is browser code (its command line is a bin of its own, never imported from it);
      // uPlot draws the console's charts.
      for (const [, specifier] of source.matchAll(/\bfrom\s+'([^']+)'/g)) {
        assert.ok(
          /^(lit(\/[a-z/-]+\.js)?|@lit\/context|@svc\/(protocol|capture|schemas|client)|uplot|svc:chunks|\.{1,2}\/[a-z/.-]+\.js)$/.test(
            specifier!,
          ),
          `${file} imports ${specifier}`,
        );
      }
    }
  });
});
