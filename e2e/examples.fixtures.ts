// Fixtures that run the examples of examples/ as they are: the organisation's backend (examples/site/backend.ts)
// on its own loopback origin (http://localhost:<port>, an allowed origin of the sandbox application) against the
// shared reference server, with a capturable flow for the consent field and the sandbox flow for the decisions.
import type { Page } from '@playwright/test';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createExampleBackend, type BackendLog } from '../examples/site/backend.js';
import { expect, test as base } from './fixtures.js';
export { grantConsent } from './fixtures.js';
import { createCaptureFlow } from './pages/org-site.js';

export interface ExampleSite {
  /** `http://localhost:<port>`. */
  origin: string;
  /** What the backend did. */
  log: BackendLog;
  url(path: string): string;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return (server.address() as AddressInfo).port;
}

export const test = base.extend<object, { examples: ExampleSite }>({
  examples: [
    async ({ svc }, use) => {
      const { sandbox } = svc.server;
      const flowId = await createCaptureFlow(svc.server.url, sandbox.api_token, 'Examples newsletter');
      // The port is known only once listening; the backend reads its origin lazily through this object.
      const options = {
        baseUrl: svc.server.url,
        apiToken: sandbox.api_token,
        publishableKey: sandbox.publishable_key,
        flowId,
        decisionFlowId: sandbox.flow_id ?? undefined,
        origin: '',
      };
      const server = createExampleBackend(options);
      const port = await listen(server);
      options.origin = `http://localhost:${port}`;
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

/**
 * Collects what would show a Content-Security-Policy problem on `page`: console messages that mention the policy,
 * and `securitypolicyviolation` events (listened for before any page script runs).
 */
export async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) seen.push(`console: ${m.text()}`);
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return async () => [...seen, ...(await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []))];
}
