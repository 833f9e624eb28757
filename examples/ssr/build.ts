/**
 * The build step of the server-rendered examples, which a framework's bundler (Vite, Next.js, Nuxt) does for an
 * app: esbuild bundles each page's hydrate script for the browser, and its render module for Node. `.vue` files are
 * compiled with Vue's own compiler (`vue/compiler-sfc`, as @vitejs/plugin-vue does) and `isCustomElement`.
 */
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compileScript, parse } from 'vue/compiler-sfc';
import { isCustomElement } from '../vue/custom-elements.js';

/** Compiles `.vue` files: the template inlined into the setup script, for the server (`ssr`) or the browser. */
function vueFiles(ssr: boolean): Plugin {
  return {
    name: 'vue-sfc',
    setup(esbuild) {
      esbuild.onLoad({ filter: /\.vue$/ }, ({ path }) => {
        // The parser already tells elements from components, so it needs isCustomElement too (as plugin-vue passes it).
        const { descriptor, errors } = parse(readFileSync(path, 'utf8'), { filename: path, templateParseOptions: { isCustomElement } });
        if (errors.length) throw errors[0];
        const id = createHash('sha256').update(path).digest('hex').slice(0, 8);
        const script = compileScript(descriptor, {
          id,
          inlineTemplate: true,
          templateOptions: { ssr, ssrCssVars: [], compilerOptions: { isCustomElement } },
        });
        return { contents: script.content, loader: 'ts', resolveDir: dirname(path) };
      });
    },
  };
}

const common: BuildOptions = { bundle: true, format: 'esm', target: 'es2022', jsx: 'automatic', logLevel: 'silent' };

/**
 * Bundles `entry` (a hydrate script) for the browser and answers the code. These are development builds of React
 * and Vue: the builds that report a hydration mismatch, which is what the tests listen for.
 */
export async function bundleForBrowser(entry: string): Promise<string> {
  const result = await build({
    ...common,
    entryPoints: [entry],
    platform: 'browser',
    write: false,
    plugins: [vueFiles(false)],
    define: {
      'process.env.NODE_ENV': '"development"',
      __VUE_OPTIONS_API__: 'false',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'true',
    },
  });
  return result.outputFiles[0]!.text;
}

/**
 * Bundles `entry` (a render module) for Node and imports it. Packages stay imports, resolved as Node resolves them:
 * `@svc/elements` loads as on any server, with no DOM.
 */
export async function importForServer<T>(entry: string): Promise<T> {
  const dir = fileURLToPath(new URL('./dist/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `${basename(dirname(entry))}-${basename(entry).replace(/\.[a-z]+$/, '')}.mjs`);
  await build({ ...common, entryPoints: [entry], platform: 'node', packages: 'external', outfile, plugins: [vueFiles(true)] });
  return (await import(`${pathToFileURL(outfile).href}?${Date.now()}`)) as T;
}
