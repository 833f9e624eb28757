// Server-side rendering imports the SDK in Node: every entry of every browser package (each subpath of its exports
// map) must import in a Node with no DOM and touch no browser global while doing so. Each entry is imported on its
// own, in a fresh Node where reading `window`, `document`, `customElements`, `HTMLElement`, ... throws (no-dom.mjs).
// They are the built packages, what npm users get (no-dom.mjs reads the source line of each read, which only the
// files Node runs give: through tsx, a line of TypeScript is not the line that ran).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));
const guard = pathToFileURL(fileURLToPath(new URL('./no-dom.mjs', import.meta.url))).href;

/** The packages a browser loads (the server is Node's alone), by folder. */
const BROWSER_PACKAGES = ['protocol', 'capture', 'elements', 'client'];

/**
 * Every module a package's exports map offers: not `./browser/*` (script-tag bundles built for browsers, not modules
 * for Node) nor `./package.json`.
 */
function entries(folder: string): { name: string; specifiers: string[] } {
  const manifest = JSON.parse(readFileSync(join(root, 'packages', folder, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, unknown>;
  };
  const subpaths = Object.keys(manifest.exports).filter((subpath) => !subpath.includes('*') && !subpath.endsWith('.json'));
  return { name: manifest.name, specifiers: subpaths.map((subpath) => manifest.name + subpath.slice(1)) };
}

interface Imported {
  /** The module's export names. */
  exports: string[];
  /** Its string exports. */
  values: Record<string, string>;
  error?: string;
  refused: string[];
}

/** Imports `specifier` in a fresh Node behind no-dom.mjs. */
async function importWithoutDom(specifier: string): Promise<Imported> {
  const script = `let exports = [], values = {}, error;
try {
  const module = await import(${JSON.stringify(specifier)});
  exports = Object.keys(module);
  values = Object.fromEntries(Object.entries(module).filter(([, value]) => typeof value === 'string'));
} catch (e) { error = String(e && e.stack || e); }
// What the module scheduled for later (a microtask, a zero timer) runs before the answer.
await new Promise((resolve) => setTimeout(resolve, 0));
console.log(JSON.stringify({ exports, values, error, refused: globalThis.__svcDomReads }));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', guard, '--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Imported;
}

describe('browser packages import in Node with no DOM (server-side rendering)', () => {
  it('the guard refuses any read of a DOM global but a typeof test, even one the code catches', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-no-dom-'));
    const probe = join(dir, 'probe.mjs');
    writeFileSync(
      probe,
      `export const kind = typeof document;
export const title = (() => { try { return document.title; } catch { return 'caught'; } })();
export const optional = (() => { try { return globalThis.window?.location; } catch { return 'caught'; } })();
`,
    );
    const imported = await importWithoutDom(pathToFileURL(probe).href).finally(() => rmSync(dir, { recursive: true }));
    assert.equal(imported.error, undefined);
    assert.deepEqual(imported.exports, ['kind', 'optional', 'title']);
    assert.deepEqual(imported.values, { kind: 'undefined', optional: 'caught', title: 'caught' });
    assert.equal(imported.refused.length, 2, imported.refused.join('\n'));
    assert.match(imported.refused[0]!, /^document read by /);
    assert.match(imported.refused[1]!, /^window read by /);
  });

  for (const folder of BROWSER_PACKAGES) {
    const { name, specifiers } = entries(folder);
    const built = existsSync(join(root, 'packages', folder, 'dist'));
    describe(name, { concurrency: 4, skip: !built && 'not built (pnpm run build)' }, () => {
      for (const specifier of specifiers) {
        it(`import '${specifier}' touches no window, document, customElements or HTMLElement`, async () => {
          const { error, refused } = await importWithoutDom(specifier);
          assert.equal(error, undefined, `import '${specifier}' failed without a DOM`);
          assert.deepEqual(refused, [], `import '${specifier}' read browser globals`);
        });
      }
    });
  }
});
