// Preloaded (`node --import`) by ssr-imports.test.ts before it imports one package entry: a server with no DOM,
// where reading `window`, `document` or another browser global throws instead of answering `undefined`, so code that
// catches the error or reads the global only optionally (`globalThis.document?.x`) still shows up. Two kinds of read
// stay allowed: a `typeof` feature test (it answers 'undefined', as on any server), and Lit's own Node build, which
// feature-tests the globals its way and installs a registry shim as `globalThis.customElements` (then a value like
// any other). Every refused read is kept in `globalThis.__svcDomReads`, printed by the child as JSON.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DOM_GLOBALS = [
  'window',
  'document',
  'customElements',
  'HTMLElement',
  'self',
  'location',
  'navigator',
  'localStorage',
  'sessionStorage',
];

// Lit's builds for Node (the `node` export condition): lit-html's and @lit/reactive-element's.
const LIT_NODE = /[\\/]node_modules[\\/](?:\.pnpm[\\/][^\\/]+[\\/]node_modules[\\/])?(?:lit-html|@lit[\\/]reactive-element)[\\/]node[\\/]/;

/** The source line of a stack frame such as `at f (file:///x.js:3:7)`, or '' when it cannot be read. */
function sourceLine(frame) {
  const match = /\(?((?:file:\/\/)?\/[^():]+):(\d+):\d+\)?$/.exec(frame.trim());
  if (!match) return '';
  try {
    const path = match[1].startsWith('file:') ? fileURLToPath(match[1]) : match[1];
    return readFileSync(path, 'utf8').split('\n')[Number(match[2]) - 1] ?? '';
  } catch {
    return '';
  }
}

const refused = (globalThis.__svcDomReads = []);
for (const name of DOM_GLOBALS) {
  let value;
  let assigned = false;
  Object.defineProperty(globalThis, name, {
    configurable: true,
    enumerable: false,
    get() {
      if (assigned) return value;
      const caller = new Error().stack.split('\n')[2] ?? '';
      if (LIT_NODE.test(caller) || new RegExp(`\\btypeof\\s*\\(?\\s*${name}\\b`).test(sourceLine(caller))) return undefined;
      const read = `${name} read by ${caller.trim().replace(/^at /, '')}`;
      refused.push(read);
      throw new ReferenceError(`${read}: no DOM on the server`);
    },
    set(next) {
      value = next;
      assigned = true;
    },
  });
}
