// Fixtures for the server-side rendering suite: the server-rendered example pages (examples/ssr/server.ts: React's
// and Vue's renderToString, built on the fly with esbuild) on their own loopback origin, an allowed origin of the
// sandbox application, against the shared reference server. Needs `pnpm run build` first (the packages' dist/).
import type { ConsoleMessage, Page } from '@playwright/test';
import type { BackendLog } from '../examples/site/backend.js';
import { createExampleBackend } from '../examples/site/backend.js';
import { serverRenderedPages } from '../examples/ssr/server.js';
import { expect, listen, test as base } from './fixtures.js';
import { createCaptureFlow } from './pages/org-site.js';

export interface SsrSite {
  /** `http://localhost:<port>`. */
  origin: string;
  /** What the backend did. */
  log: BackendLog;
  url(path: string): string;
}

export const test = base.extend<object, { ssr: SsrSite }>({
  ssr: [
    async ({ svc }, use) => {
      const { sandbox } = svc.server;
      const flowId = await createCaptureFlow(svc.server.url, sandbox.api_token, 'SSR newsletter');
      // The port is known only once listening; the backend reads its origin lazily through this object.
      const options = {
        baseUrl: svc.server.url,
        apiToken: sandbox.api_token,
        publishableKey: sandbox.publishable_key,
        flowId,
        decisionFlowId: sandbox.flow_id ?? undefined,
        origin: '',
        ...(await serverRenderedPages()),
      };
      const server = createExampleBackend(options);
      options.origin = `http://localhost:${await listen(server)}`;
      const registered = await svc.api(`/api/v1/applications/${sandbox.application_id}/allowed_origins`, {
        json: { allowed_origin: { origin: options.origin } },
      });
      expect([200, 201]).toContain(registered.status);
      await use({ origin: options.origin, log: server.log, url: (path) => `${options.origin}${path}` });
      await new Promise((resolve) => server.close(resolve));
    },
    { scope: 'worker' },
  ],
});

export { expect };

/** Every console message and uncaught error of `page` from now on, as `type: text`. */
export function watchConsole(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m: ConsoleMessage) => void seen.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (error) => void seen.push(`pageerror: ${error.message}`));
  return seen;
}
