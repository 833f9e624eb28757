/**
 * The organisation's sign-up page rendered on the server, twice: `/react.html` with React's renderToString
 * (examples/react) and `/vue.html` with Vue's (examples/vue). Each request creates a decision for the visitor and
 * renders its session token into the page's `<svc-decision>`; the browser then hydrates the page and the elements
 * render themselves. The example backend (examples/site/backend.ts) does the rest: the stylesheet, the decision
 * exchange, and the sign-up that commits the capture token.
 *
 * Run against a local sandbox (`pnpm start` and `pnpm run build` first), then open http://localhost:3000/react.html:
 *   node --import tsx examples/ssr/server.ts
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createExampleBackend, sandboxOptions, type ExampleBackendOptions, type PageProps } from '../site/backend.js';
import { bundleForBrowser, importForServer } from './build.js';

/** What examples/react/render.tsx and examples/vue/render.ts export. */
type Render = (props: PageProps, script: string) => string | Promise<string>;

const file = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Both server-rendered pages and their hydrate scripts, for createExampleBackend (builds them first: a second or two). */
export async function serverRenderedPages(): Promise<Pick<ExampleBackendOptions, 'pages' | 'scripts'>> {
  const [react, vue, reactScript, vueScript] = await Promise.all([
    importForServer<{ renderSignupPage: Render }>(file('../react/render.tsx')),
    importForServer<{ renderSignupPage: Render }>(file('../vue/render.ts')),
    bundleForBrowser(file('../react/hydrate.tsx')),
    bundleForBrowser(file('../vue/hydrate.ts')),
  ]);
  return {
    pages: {
      '/react.html': (props) => react.renderSignupPage(props, '/react/hydrate.js'),
      '/vue.html': (props) => vue.renderSignupPage(props, '/vue/hydrate.js'),
    },
    scripts: { '/react/hydrate.js': reactScript, '/vue/hydrate.js': vueScript },
  };
}

// Started directly: read the sandbox and listen on PORT (3000).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const port = Number(process.env.PORT ?? 3000);
  const server = createExampleBackend({ ...sandboxOptions(port), ...(await serverRenderedPages()) });
  server.listen(port, () => console.log(`Server-rendered pages on http://localhost:${port}/react.html and /vue.html`));
}
