// Server-side rendering, as the guides in docs/quick-start.md do it: the sign-up page of examples/react and of
// examples/vue rendered by each framework's renderToString on the server (examples/ssr/server.ts), then hydrated in
// Chromium by the development builds, which are the ones that report a hydration mismatch. Every console message is
// collected; the page must hydrate without one, and the elements must then work: the decision reaches `ready` and
// completes through the hosted page, and a form submit carries the consent field's capture token to the backend.
import type { Page } from '@playwright/test';
import { watchCsp } from './examples.fixtures.js';
import { grantConsent } from './fixtures.js';
import { expect, test, watchConsole } from './ssr.fixtures.js';

// React: "Hydration failed…", "…didn't match the client…"; Vue: "Hydration node mismatch", "…contains mismatches".
const HYDRATION = /hydrat|did(?:n't| not) match|mismatch/i;

const FRAMEWORKS = [
  ['react', 'React 19'],
  ['vue', 'Vue 3'],
] as const;

/** The page's raw HTML as the server sent it, before any script ran. */
async function serverHtml(url: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return response.text();
}

/** The messages about hydration among those `watchConsole` collected. */
const hydrationMessages = (seen: string[]) => seen.filter((message) => HYDRATION.test(message));

for (const [framework, name] of FRAMEWORKS) {
  test.describe(`${name}: renderToString on the server, hydrated in the browser`, () => {
    test('the server sends the host markup: the element tags with their attributes, and the form', async ({ ssr }) => {
      const html = await serverHtml(ssr.url(`/${framework}.html`));
      const app = /<main id="app">([\s\S]*)<\/main>/.exec(html)![1]!;
      expect(app).toMatch(/^<svc-provider base-url="http:\/\/127\.0\.0\.1:\d+" publishable-key="pk_test_\w+">/);
      // A decision created for this request, its token in the attribute; empty inside: the shadow content waits.
      expect(app).toMatch(/<svc-decision token="dts_[\w-]{40,}"><\/svc-decision>/);
      expect(app).toMatch(/<form action="\/signup" method="post">.*<input id="email" [^>]*name="email"/);
      expect(app).toMatch(
        /<svc-consent-field name="consent" flow="flw_\w+"><\/svc-consent-field><button type="submit">Sign up<\/button><\/form>/,
      );
      expect(app).not.toContain('<template');
      // Each request is another visitor with a decision of their own.
      const again = await serverHtml(ssr.url(`/${framework}.html`));
      expect(/token="(dts_[\w-]+)"/.exec(again)![1]).not.toBe(/token="(dts_[\w-]+)"/.exec(app)![1]);
    });

    test('hydrates with no warning, then the decision and the consent field work', async ({ page, ssr }) => {
      const seen = watchConsole(page);
      const violations = await watchCsp(page);
      await page.goto(ssr.url(`/${framework}.html`));

      // The decision upgraded over the server's markup and its hosted page said svc:ready.
      const decision = page.locator('svc-decision');
      await expect(decision).toHaveJSProperty('status', 'ready');
      // The consent field rendered the flow's purposes in its shadow root.
      await expect(page.getByRole('checkbox', { name: /Email newsletter/ })).toBeVisible();

      // The component's svc-complete handler (attached by hydration) hands the exchange token to the backend.
      await grantConsent(page.frameLocator('svc-decision iframe'));
      await expect(page.locator('#result')).toHaveText('Verified: newsletter granted');
      await expect(decision).toHaveJSProperty('status', 'complete');

      await page.getByLabel('Email address').fill(`${framework}@example.com`);
      await page.getByRole('checkbox', { name: /Email newsletter/ }).check();
      await page.getByRole('button', { name: 'Sign up' }).click();
      await expect(page.locator('#outcome')).toHaveText(/^recorded embedded_field cr_/);
      expect(ssr.log.signups.at(-1)).toMatchObject({ email: `${framework}@example.com`, channel: 'embedded_field' });

      expect(hydrationMessages(seen)).toEqual([]);
      expect(seen.filter((message) => message.startsWith('pageerror:'))).toEqual([]);
      expect(await violations()).toEqual([]);
    });

    test('the console watch does report a mismatch: server HTML without the consent field', async ({ page, ssr }) => {
      const seen = watchConsole(page);
      await serveWithoutField(page, `/${framework}.html`);
      await page.goto(ssr.url(`/${framework}.html`));
      await expect.poll(() => hydrationMessages(seen).length).toBeGreaterThan(0);
    });
  });
}

/** Serves `path` as the server rendered it, less the `<svc-consent-field>`: what the client renders no longer matches. */
async function serveWithoutField(page: Page, path: string): Promise<void> {
  await page.route(`**${path}`, async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(/<svc-consent-field [^>]*><\/svc-consent-field>/, '');
    await route.fulfill({ response, body: html });
  });
}
