// Every page of a person's trust center, as the nav lists it, in Chromium against the reference server: signed in,
// each page's element settles (its list or its empty state, never an error or a sign-in prompt), nothing is logged or
// refused by the strict CSP, and at 375 px the page is axe-clean and never scrolls sideways, left to right or right
// to left.
import { audit, expect, problems, signInOnTrustUrl, test } from './fixtures.js';

test('every page of the trust center works for a signed-in person, axe-clean at 375 px', async ({ page, svc }) => {
  test.setTimeout(300_000); // One axe audit per page on a loaded machine.
  const seen = problems(page);
  await signInOnTrustUrl(page, svc, 'every-page@example.com');
  const nav = page.getByRole('navigation', { name: 'Your pages' });
  const paths = await nav.getByRole('link').evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  // The people's seventeen families and the Trust Inbox, each once.
  expect(paths).toHaveLength(18);
  expect(new Set(paths).size).toBe(18);

  await page.setViewportSize({ width: 375, height: 740 });
  for (const path of paths) {
    await page.goto(`${svc.origin}${path}`);
    await expect(nav.locator('[aria-current="page"]'), path).toHaveAttribute('href', path);
    const element = page.locator('main [token-url]');
    if (path !== '/inbox') {
      // The element's status settles where a person with nothing yet (or something) should see it.
      await expect
        .poll(() => element.evaluate((el) => (el as HTMLElement & { status: string }).status), { message: path })
        .toMatch(/^(ready|empty)$/);
    }
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(sideways, `${path} scrolls sideways at 375 px`).toBeLessThanOrEqual(0);
    await audit(page, `${path} at 375 px`);
    // Right to left, as a page in Arabic or Hebrew embeds it: still no sideways scroll.
    await page.evaluate(() => document.documentElement.setAttribute('dir', 'rtl'));
    const mirrored = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(mirrored, `${path} scrolls sideways right to left`).toBeLessThanOrEqual(0);
  }
  expect(seen).toEqual([]);
});
