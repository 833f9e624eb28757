// @web/test-runner plugin for the React and Vue tests (frameworks/*.browser.test.*): React 19 ships CommonJS only,
// which a browser cannot import, so this serves one esbuild bundle of react, react-dom and the JSX runtime in
// development mode (React's warnings are what the tests listen for) behind an ES module per entry point, with the
// entry's named exports; and it points `vue` at Vue's browser build with the template compiler
// (vue.esm-browser.js, development mode), so tests compile templates with `isCustomElement` as a Vue app does.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const PREFIX = '/__frameworks__/';

/** Each React entry point a test may import, and the module that serves it. */
const reactEntries = {
  react: 'react',
  'react/jsx-runtime': 'react-jsx-runtime',
  'react/jsx-dev-runtime': 'react-jsx-dev-runtime',
  'react-dom': 'react-dom',
  'react-dom/client': 'react-dom-client',
};
const binding = (name) => `entry_${name.replace(/\W/g, '_')}`;

async function bundleReact() {
  const entries = Object.entries(reactEntries);
  const result = await build({
    stdin: { contents: entries.map(([specifier, name]) => `export * as ${binding(name)} from '${specifier}';`).join('\n'), resolveDir: process.cwd() },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"development"' },
  });
  return result.outputFiles[0].text;
}

/** An ES module for one React entry point: its default and named exports, out of the shared bundle. */
function facade(specifier) {
  const name = reactEntries[specifier];
  // Read in a child process: React's development build patches the console, which the runner's own console minds.
  const keys = JSON.parse(execFileSync(process.execPath, ['-e', `console.log(JSON.stringify(Object.keys(require(${JSON.stringify(specifier)}))))`],
    { cwd: process.cwd(), encoding: 'utf8' }));
  const names = keys.filter((n) => n !== 'default' && /^[A-Za-z_$][\w$]*$/.test(n));
  return `import { ${binding(name)} as entry } from './react.bundle.js';\n` +
    'export default entry.default ?? entry;\n' +
    `export const { ${names.join(', ')} } = entry;\n`;
}

export function frameworksPlugin() {
  let react;
  return {
    name: 'svc-frameworks',
    resolveImport({ source }) {
      if (source in reactEntries) return `${PREFIX}${reactEntries[source]}.js`;
      if (source === 'vue') return `${PREFIX}vue.js`;
      return undefined;
    },
    async serve(context) {
      if (!context.path.startsWith(PREFIX)) return undefined;
      const name = context.path.slice(PREFIX.length).replace(/\.js$/, '');
      if (name === 'vue') return { body: readFileSync(require.resolve('vue/dist/vue.esm-browser.js'), 'utf8'), type: 'js' };
      if (name === 'react.bundle') return { body: await (react ??= bundleReact()), type: 'js' };
      const specifier = Object.keys(reactEntries).find((s) => reactEntries[s] === name);
      return specifier ? { body: facade(specifier), type: 'js' } : undefined;
    },
  };
}
