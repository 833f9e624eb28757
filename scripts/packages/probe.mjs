// Loads one entry of an installed package the way a user would (`require` or `import`) and prints, as JSON, what it
// exports and what loading it did beyond what loading the package's dependencies does: files its code touched
// through node:fs, globals it added, handles or timers it left, process listeners it added, environment it changed,
// output it wrote. Copied into the scratch project by packages.test.mjs, so that names resolve from there.
// Usage: node probe.mjs <require|import> <specifier> <package name>
import fs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { dirname, join } from 'node:path';

const [mode, specifier, packageName] = process.argv.slice(2);
const requireHere = createRequire(import.meta.url);
const print = process.stdout.write.bind(process.stdout);

/** Captures what is written to stdout and stderr (console included) until `restore`. */
function capture() {
  const written = [];
  const originals = [process.stdout.write, process.stderr.write];
  process.stdout.write = process.stderr.write = (chunk) => (written.push(String(chunk)), true);
  return () => {
    [process.stdout.write, process.stderr.write] = originals;
    return written;
  };
}

const warnings = [];
process.on('warning', (warning) => warnings.push(`${warning.name}: ${warning.message}`));

// Node makes undici's dispatcher (a global symbol) the first time anything reads fetch, Request or Response, and the
// stdout and stderr handles the first time they are used: Node's laziness, not the package's.
void [globalThis.fetch, globalThis.Request, globalThis.Response, process.stdout, process.stderr];

// What the dependencies do when loaded (zod 4 keeps its registry on globalThis; oidc-provider warns on Node 20) is
// the baseline; a dependency with no main entry (subpaths only) is loaded with the package.
const manifest = requireHere.resolve(`${packageName}/package.json`);
const { dependencies = {} } = JSON.parse(fs.readFileSync(manifest, 'utf8'));
const requireInPackage = createRequire(manifest);
const restoreBaseline = capture();
for (const dependency of Object.keys(dependencies)) {
  try {
    requireInPackage(dependency);
  } catch {
    // types only, or subpaths only
  }
}
restoreBaseline();
await new Promise((resolve) => setImmediate(resolve));
const baselineWarnings = warnings.length;

// Every fs function, so that a read or write by the package's code is seen; calls made by Node's module loader
// (reading the files it loads) are not the package's.
const touched = [];
function watch(target, prefix) {
  for (const name of Object.keys(target)) {
    const original = target[name];
    if (typeof original !== 'function' || /^[A-Z]/.test(name)) continue;
    target[name] = function (...args) {
      const caller = new Error().stack?.split('\n')[2] ?? '';
      if (!caller.includes('node:internal')) touched.push(`${prefix}${name}(${String(args[0])})`);
      return original.apply(this, args);
    };
  }
}
watch(fs, 'fs.');
watch(fs.promises, 'fs.promises.');
syncBuiltinESMExports();

const listeners = () => Object.fromEntries(process.eventNames().map((name) => [String(name), process.listenerCount(name)]));
const before = {
  globals: new Set(Reflect.ownKeys(globalThis)),
  resources: process.getActiveResourcesInfo(),
  listeners: listeners(),
  env: JSON.stringify(process.env),
};

const restore = capture();
let loaded;
let error;
try {
  loaded = mode === 'require' ? requireHere(specifier) : await import(specifier);
} catch (e) {
  error = e instanceof Error ? e.stack : String(e);
}
const written = restore();

// The ESM loader closes the files it read in the background; let that finish (a file the package's own code opened is
// in `touched` already). Timers, servers, sockets and child processes stay in the list.
const loaderIo = (kind) => kind === 'CloseReq' || kind.startsWith('FSReq');
while (process.getActiveResourcesInfo().some(loaderIo)) await new Promise((resolve) => setImmediate(resolve));
const resources = [...process.getActiveResourcesInfo()];
for (const kind of before.resources) {
  const at = resources.indexOf(kind);
  if (at >= 0) resources.splice(at, 1);
}
const after = listeners();
await new Promise((resolve) => setImmediate(resolve));

print(
  JSON.stringify({
    error,
    exports: Object.fromEntries(Object.keys(loaded ?? {}).map((name) => [name, typeof loaded[name]])),
    touched,
    globals: Reflect.ownKeys(globalThis)
      .filter((key) => !before.globals.has(key))
      .map(String),
    resources,
    listeners: Object.keys(after).filter((name) => after[name] !== (before.listeners[name] ?? 0)),
    environmentChanged: JSON.stringify(process.env) !== before.env,
    written,
    warnings: warnings.slice(baselineWarnings),
  }),
  () => process.exit(0),
); // whatever the entry left running
