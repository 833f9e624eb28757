// The Trust Inbox in Chromium against the reference server: a person signs in at `/inbox` through the service's own
// hosted sign-in pages (no consent screen for the service itself), sees what organisations ask of them (a consent, an
// approval of another organisation's workflow, and two approvals of an agent's escalations, one per trigger), filters
// by kind, trigger and application and sorts both ways with the keyboard alone, never sees another person's rows, is
// told plainly when nothing waits, opens a row on its hosted decision page, and signs out. Every page is axe-clean
// under the strict CSP with no violation; the retired `/oap/escalations` answers 301 to `/inbox`.
import { createClient } from '@svc/client';
import type { Page } from '@playwright/test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { audit, confirmByCode, expect, otherOrganisation, problems, test, type Service } from './fixtures.js';
import { agentGrant, personToken } from './people.fixtures.js';

/** Two escalations of an agent the person authorised: one above its value bound, one outside its scope. */
async function escalations(svc: Service, email: string): Promise<void> {
  const { agentToken } = await agentGrant(svc, email);
  const asAgent = createClient({ baseUrl: svc.server.url, agentToken });
  const value = await asAgent.authority.check({
    scope: 'payments:write',
    action: 'write',
    value: 240,
    currency: 'EUR',
    description: 'Pay the plumber',
  });
  expect(value.outcome).toBe('escalated');
  await new Promise((r) => setTimeout(r, 5));
  const scope = await asAgent.authority.check({
    scope: 'bookings:write',
    action: 'write',
    value: 80,
    currency: 'EUR',
    description: 'Book the car service',
  });
  expect(scope.outcome).toBe('escalated');
}

const rowTitles = (page: Page) => page.locator('.inbox-row h3').allTextContents();

test.describe('the Trust Inbox', () => {
  test("sign in, filter and sort with the keyboard, open a row, sign out: only the person's rows, axe-clean under the strict CSP", async ({
    page,
    svc,
  }) => {
    test.setTimeout(90_000);
    const seen = problems(page);
    const email = 'inbox.ada@example.com';
    const other = otherOrganisation(svc, 'Hardware store');

    // What organisations ask of the person, oldest first: a consent, another organisation's approval, two escalations.
    const consent = await svc.createDecision({
      kind: 'consent',
      subject_ref: svc.server.sandbox.flow_id,
      delivery_mode: 'redirect',
      addressee: { email: 'Inbox.Ada@Example.com' },
    });
    await new Promise((r) => setTimeout(r, 5));
    const res = await fetch(`${svc.server.url}/api/v1/decisions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${other.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        kind: 'approval',
        subject_ref: 'order-1234',
        scope: 'refunds:write',
        delivery_mode: 'redirect',
        addressee: { email },
      }),
    });
    expect(res.status).toBe(201);
    const approval = ((await res.json()) as { decision: { session_token: string } }).decision;
    await new Promise((r) => setTimeout(r, 5));
    await escalations(svc, email);
    // Someone else's decision, from the same organisation: never on this person's page.
    const bobs = await svc.createDecision({
      kind: 'consent',
      subject_ref: svc.server.sandbox.flow_id,
      delivery_mode: 'redirect',
      addressee: { email: 'inbox.bob@example.com' },
    });

    // Not signed in: what the inbox is, and a button. Axe-clean, the strict CSP, no script.
    const landing = await page.goto(`${svc.origin}/inbox`);
    const csp = landing!.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    await expect(page.getByRole('heading', { level: 1, name: 'Trust Inbox' })).toBeVisible();
    expect(await page.locator('script').count()).toBe(0);
    await audit(page, 'sign-in page');

    // The provider's own pages: email, then the code; no consent screen for the service itself.
    await page.getByRole('button', { name: 'Sign in' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: /Sign in to continue to Trust Inbox/ })).toBeVisible();
    await page.keyboard.type(email);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
    await page.keyboard.type((await page.locator('svc-oauth-page .sandbox code').textContent())!);
    await page.keyboard.press('Enter');

    // Back in the inbox, soonest deadline first: the two 15-minute decisions, then the two 24-hour escalations.
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/inbox');
    await expect(page.getByRole('heading', { level: 2, name: 'Waiting for you' })).toBeVisible();
    const titles = await rowTitles(page);
    expect(titles).toHaveLength(4);
    expect(titles[1]).toBe('Approval requested');
    expect(titles[2]).toMatch(/Pay the plumber/);
    expect(titles[3]).toMatch(/Book the car service/);
    expect(await page.locator(`a[href*="/decisions/${consent.session_token}?from="]`).count()).toBe(1);
    expect(await page.locator(`a[href*="/decisions/${approval.session_token}?from="]`).count()).toBe(1);
    expect(await page.locator(`a[href*="${bobs.session_token}"]`).count(), "another person's row is never shown").toBe(0);
    expect(await page.content()).not.toContain(bobs.session_token);
    await audit(page, 'inbox');

    // Keyboard only: from "Sign out", Tab to the filters, choose with the arrows, Tab to Apply, Enter.
    const tabTo = async (name: string) => {
      for (let i = 0; i < 20; i += 1) {
        await page.keyboard.press('Tab');
        if (
          await page.evaluate((n) => {
            const el = document.activeElement as HTMLElement | null;
            return !!el && (el.labels?.[0]?.textContent ?? el.textContent ?? '').trim() === n;
          }, name)
        )
          return;
      }
      throw new Error(`no focusable ${name}`);
    };
    await page.getByRole('button', { name: 'Sign out' }).focus();
    await tabTo('Kind');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(page.getByLabel('Kind')).toHaveValue('approval');
    await tabTo('Apply');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/kind=approval/);
    expect(await rowTitles(page)).toEqual([titles[1], titles[2], titles[3]]);

    // The approval trigger type: value, then scope.
    await page.getByLabel('Approval trigger').selectOption('value');
    await page.getByRole('button', { name: 'Apply' }).click();
    expect(await rowTitles(page)).toEqual([titles[2]]);
    await page.getByLabel('Approval trigger').selectOption('scope');
    await page.getByRole('button', { name: 'Apply' }).click();
    expect(await rowTitles(page)).toEqual([titles[3]]);
    await expect(page.locator('.inbox-facts').getByText('scope', { exact: true })).toBeVisible();

    // The application: the other organisation's only.
    await page.getByLabel('Kind').selectOption('');
    await page.getByLabel('Approval trigger').selectOption('');
    await page.getByLabel('Application').selectOption({ label: 'Hardware store' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(new RegExp(`application_id=${other.applicationId}`));
    expect(await rowTitles(page)).toEqual([titles[1]]);
    await expect(page.getByText('Scope: refunds:write')).toBeVisible();

    // Newest first, over everything.
    await page.getByLabel('Application').selectOption('');
    await page.getByLabel('Order').selectOption('newest');
    await page.getByRole('button', { name: 'Apply' }).click();
    expect(await rowTitles(page)).toEqual([titles[3], titles[2], titles[1], titles[0]]);
    await expect(page.getByLabel('Order')).toHaveValue('newest');

    // Nothing of this kind: said plainly, with the way back.
    await page.getByLabel('Kind').selectOption('signature_request');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Nothing waits for you' })).toBeVisible();
    await expect(page.getByText('No open decision matches these filters.')).toBeVisible();
    await audit(page, 'empty filter');
    await page.getByRole('link', { name: 'Show everything that waits for you' }).click();
    expect(await rowTitles(page)).toHaveLength(4);

    // A row opens its hosted decision page.
    await page.locator(`a[href^="${svc.origin}/decisions/${approval.session_token}?from="]`).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`${svc.origin}/decisions/${approval.session_token}?from=%2Finbox`);
    await expect(page.getByRole('heading', { name: 'Approval requested' })).toBeVisible();

    // The retired operator inbox sends the browser here, for good.
    const legacy = await page.request.get(`${svc.origin}/oap/escalations`, { maxRedirects: 0 });
    expect(legacy.status()).toBe(301);
    expect(legacy.headers().location).toBe('/inbox');
    await page.goto(`${svc.origin}/oap/escalations`);
    await expect(page).toHaveURL(`${svc.origin}/inbox`);
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();

    // Signing out ends the provider's session: the next visit asks to sign in again.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('status')).toHaveText('You are signed out.');
    await page.goto(`${svc.origin}/inbox`);
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    expect(seen).toEqual([]);
  });

  test('a person nothing waits for is told so plainly', async ({ page, svc }) => {
    const seen = problems(page);
    await page.goto(`${svc.origin}/inbox?kind=approval`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Email address').fill('inbox.carol@example.com');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Code').fill((await page.locator('svc-oauth-page .sandbox code').textContent())!);
    await page.getByRole('button', { name: 'Verify' }).click();
    // The filter the page had before signing in survives it.
    await expect(page).toHaveURL(`${svc.origin}/inbox?kind=approval`);
    await expect(page.getByRole('heading', { level: 2, name: 'Nothing waits for you' })).toBeVisible();
    await page.getByLabel('Kind').selectOption('');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Nothing waits for you' })).toBeVisible();
    await expect(page.getByText('No organisation is waiting for a decision from you.')).toBeVisible();
    expect(await page.locator('.inbox-row').count()).toBe(0);
    await audit(page, 'empty inbox');
    expect(seen).toEqual([]);
  });

  test("<svc-inbox> filters by kind and sorts both ways against the service, and never lists another person's rows", async ({
    page,
    svc,
  }) => {
    const email = 'inbox.sorting@example.com';
    const { token } = await personToken(svc, email, 'openid inbox:read');
    // Three approvals and a consent for the person, created in this order (so their deadlines are in this order too),
    // and one approval for someone else.
    for (const scope of ['first:pay', 'second:pay', 'third:pay']) {
      await svc.createDecision({ kind: 'approval', subject_ref: `errand-${scope}`, scope, delivery_mode: 'popup', addressee: { email } });
      await new Promise((r) => setTimeout(r, 5));
    }
    await svc.createDecision({ kind: 'consent', subject_ref: svc.server.sandbox.flow_id!, delivery_mode: 'popup', addressee: { email } });
    await svc.createDecision({
      kind: 'approval',
      subject_ref: 'not-yours',
      scope: 'other:pay',
      delivery_mode: 'popup',
      addressee: { email: 'someone.else@example.com' },
    });
    const site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Your requests</title>
<script src="${svc.origin}/sdk/v1/svc.js" defer></script></head>
<body><main><h1>Your requests</h1><svc-inbox base-url="${svc.origin}"></svc-inbox></main>
<script>document.querySelector('svc-inbox').accessToken = ${JSON.stringify(token)};</script></body></html>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const origin = `http://localhost:${(site.address() as AddressInfo).port}`;
    expect(
      (await svc.api(`/api/v1/applications/${svc.server.sandbox.application_id}/allowed_origins`, { json: { allowed_origin: { origin } } }))
        .status,
    ).toBeLessThan(300);
    try {
      const seen = problems(page);
      await page.goto(`${origin}/`);
      const inbox = page.locator('svc-inbox');
      const summaries = () => inbox.locator('[part="summary"]').allTextContents();
      await expect.poll(() => inbox.locator('[part="row"]').count()).toBe(4);
      // Deadline ascending by default: the oldest approval first; nobody else's row.
      await inbox.evaluate((el) => el.setAttribute('kind', 'approval'));
      await expect.poll(summaries).toEqual(['Scope: first:pay', 'Scope: second:pay', 'Scope: third:pay']);
      await inbox.evaluate((el) => el.setAttribute('sort', 'newest'));
      await expect.poll(summaries).toEqual(['Scope: third:pay', 'Scope: second:pay', 'Scope: first:pay']);
      await inbox.evaluate((el) => el.setAttribute('kind', 'consent'));
      await expect.poll(() => inbox.locator('[part="row"]').count()).toBe(1);
      await inbox.evaluate((el) => el.removeAttribute('kind'));
      await expect.poll(() => inbox.locator('[part="row"]').count()).toBe(4);
      expect((await summaries()).join(' ')).not.toContain('other:pay');
      await audit(page, 'inbox element, sorted and filtered');
      expect(seen).toEqual([]);
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });

  test("<svc-inbox> from the script tag on an application's own page lists the person's rows; a row answered in its popup passes svc-complete through and leaves", async ({
    page,
    svc,
  }) => {
    const email = 'inbox.element@example.com';
    // The application's single-page app holds the person's access token, with the inbox:read scope they allowed.
    const { token } = await personToken(svc, email, 'openid inbox:read');
    const decision = await svc.createDecision({
      kind: 'approval',
      subject_ref: 'invoice-9',
      scope: 'invoices:pay',
      delivery_mode: 'popup',
      addressee: { email },
    });
    const site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Your requests</title>
<script src="${svc.origin}/sdk/v1/svc.js" defer></script></head>
<body><main><h1>Your requests</h1><svc-inbox base-url="${svc.origin}"></svc-inbox></main>
<script>
window.seen = [];
for (const type of ['svc-inbox-open', 'svc-complete']) document.addEventListener(type, (e) => seen.push(type + ' ' + (e.detail.outcome ?? e.detail.session_token)));
document.querySelector('svc-inbox').accessToken = ${JSON.stringify(token)};
</script></body></html>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const origin = `http://localhost:${(site.address() as AddressInfo).port}`;
    expect(
      (await svc.api(`/api/v1/applications/${svc.server.sandbox.application_id}/allowed_origins`, { json: { allowed_origin: { origin } } }))
        .status,
    ).toBeLessThan(300);
    try {
      const seen = problems(page);
      await page.goto(`${origin}/`);
      const inbox = page.locator('svc-inbox');
      await expect.poll(() => inbox.evaluate((el) => (el as HTMLElement & { status: string }).status)).toBe('ready');
      await expect(inbox.locator('[part="row"]')).toHaveCount(1);
      await expect(inbox.locator('[part="summary"]')).toHaveText('Scope: invoices:pay');
      await audit(page, 'inbox element');
      const popup = page.waitForEvent('popup');
      await inbox.getByRole('button', { name: 'Approval requested' }).click();
      const window = await popup;
      // The application holds her access token, but the service's page has not seen her: she confirms with the code.
      await confirmByCode(window);
      await window.getByRole('button', { name: 'Approve' }).click();
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { seen: string[] }).seen))
        .toEqual([`svc-inbox-open ${decision.session_token}`, 'svc-complete approved']);
      // Answered: the inbox reads the list again, and nothing waits.
      await expect.poll(() => inbox.evaluate((el) => (el as HTMLElement & { status: string }).status)).toBe('empty');
      await expect(inbox.locator('slot[name="empty"] p')).toBeVisible();
      await expect(inbox.getByRole('status')).toHaveText('Nothing waits for you.');
      expect(seen).toEqual([]);
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });
});
