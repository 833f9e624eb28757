// Playwright fixtures of the capture e2e suites: the shared reference server (from ../fixtures.ts), a capturable
// flow in its sandbox application, and the organisation's site on its own loopback origin.
import type { Page } from '@playwright/test';
import { expect, test as base } from '../fixtures.js';
import { createCaptureFlow, startOrgSite, type OrgSite } from './org-site.js';

/** What a page recorded (record.js): svc events on the way to submitting, and CSP violations. */
export interface Recorded {
  type: 'svc-capture' | 'svc-error' | 'svc-complete' | 'csp';
  target?: string;
  detail: Record<string, unknown>;
}

export const test = base.extend<object, { org: OrgSite; flowId: string }>({
  flowId: [
    async ({ svc }, use) => {
      await use(await createCaptureFlow(svc.server.url, svc.server.sandbox.api_token));
    },
    { scope: 'worker' },
  ],
  org: [
    async ({ svc }, use) => {
      const { sandbox } = svc.server;
      const site = await startOrgSite(
        { baseUrl: svc.server.url, publishableKey: sandbox.publishable_key, apiToken: sandbox.api_token },
        sandbox.application_id,
      );
      await use(site);
      await site.close();
    },
    { scope: 'worker' },
  ],
});

export { expect };

/** What the page's recorder kept (it survives the form's navigation: same origin, same tab). */
export async function recorded(page: Page): Promise<Recorded[]> {
  return page.evaluate(() => JSON.parse(sessionStorage.getItem('svcEvents') ?? '[]') as Recorded[]);
}

/** Console messages about the Content-Security-Policy, collected from now on. */
export function cspConsole(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) seen.push(m.text());
  });
  return seen;
}
