// <svc-decision> as a customer uses it: the organisation's server (this test's Node side) creates a decision, its
// page (http://localhost:<port>) loads the element from the service's /sdk/v1/svc.js as a script tag and shows it,
// the person decides in the service's page (http://127.0.0.1:<port>), and the organisation's server trusts only
// what the service confirms.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test, type ElementSite, type SeenEvent } from './decision-element.fixtures.js';
import type { Decision, Service } from './fixtures.js';

const types = (events: SeenEvent[], ...only: string[]) =>
  events.filter((e) => only.length === 0 || only.includes(e.type)).map((e) => e.type);
const detailOf = (events: SeenEvent[], type: string) => events.find((e) => e.type === type)?.detail ?? {};
const frame = (page: Page) => page.frameLocator('svc-decision iframe');

async function consentDecision(
  svc: Service,
  site: ElementSite,
  mode: 'embed' | 'popup' | 'redirect',
  extra: Record<string, unknown> = {},
): Promise<Decision> {
  return svc.createDecision({
    kind: 'consent',
    subject_ref: svc.server.sandbox.flow_id,
    delivery_mode: mode,
    embed_origin: site.origin,
    ...extra,
  });
}

/** Waits until the host page has seen an event of `type`, then returns everything it saw. */
async function until(page: Page, events: (page: Page) => Promise<SeenEvent[]>, type: string): Promise<SeenEvent[]> {
  await expect.poll(async () => types(await events(page)), { timeout: 10_000 }).toContain(type);
  return events(page);
}

/** The standard consent path of the sandbox flow: intro, sign-in, code, review with the newsletter ticked. */
async function grantConsent(ui: ReturnType<typeof frame> | Page): Promise<void> {
  await ui.getByRole('button', { name: 'Continue' }).click();
  await ui.getByLabel('Email address').fill('ada@example.com');
  await ui.getByRole('button', { name: 'Continue' }).click();
  const code = (await ui.locator('.sandbox code').textContent())!;
  await ui.getByLabel('Code').fill(code);
  await ui.getByRole('button', { name: 'Verify' }).click();
  await ui.getByRole('checkbox', { name: /Email newsletter/ }).check();
  await ui.getByRole('button', { name: 'Agree' }).click();
}

test.describe('<svc-decision> from the script tag', () => {
  test('embeds a consent; the page gets svc-complete and its server exchanges and verifies the consent token once', async ({
    page,
    svc,
    site,
    events,
  }) => {
    const decision = await consentDecision(svc, site, 'embed');
    await page.goto(site.page({ token: decision.session_token }));
    const element = page.locator('svc-decision');
    await expect(element.locator('iframe')).toHaveAttribute('src', decision.embed_url);
    await expect(frame(page).getByRole('heading', { level: 2, name: /asks for your consent/ })).toBeVisible();
    await until(page, events, 'svc-ready');
    await expect(element.locator('iframe')).toHaveAttribute('title', 'Consent request from Sandbox application');
    const audit = await new AxeBuilder({ page }).analyze();
    expect(audit.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(' ')}`)).toEqual([]);

    await grantConsent(frame(page));
    const seen = await until(page, events, 'svc-complete');
    expect(seen.every((e) => e.target === 'svc-decision' && e.detail.kind === 'consent')).toBe(true);
    expect(types(seen, 'svc-ready', 'svc-state', 'svc-complete')).toEqual([
      'svc-ready',
      'svc-state',
      'svc-state',
      'svc-state',
      'svc-state',
      'svc-complete',
    ]);
    expect(detailOf(seen, 'svc-ready')).toEqual({
      kind: 'consent',
      session_token: decision.session_token,
      deadline_at: decision.deadline_at,
      branding: { name: 'Sandbox application' },
      mode: 'embed',
      locale: 'en',
    });
    // Once complete, the iframe is as tall as the page last said (its 320px minimum dropped: no blank space stays).
    await page.waitForTimeout(300);
    await expect
      .poll(async () => {
        const last = (await events(page)).filter((e) => e.type === 'svc-resize').at(-1)!.detail.height as number;
        return (await element.locator('iframe').boundingBox())!.height - last;
      })
      .toBe(0);

    const complete = detailOf(seen, 'svc-complete');
    expect(complete.outcome).toBe('granted');
    expect(
      await element.evaluate((el) => [(el as unknown as { status: string }).status, (el as unknown as { outcome: string }).outcome]),
    ).toEqual(['complete', 'granted']);

    // The page hands the exchange token to its server, which asks the service: the event itself proves nothing.
    const exchanged = await svc.api<{ access_token: string; claims: { purposes_granted: string[] } }>(
      `/api/v1/decisions/${decision.session_token}/exchange`,
      { json: { exchange_token: complete.exchange_token } },
    );
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.claims.purposes_granted).toEqual(['newsletter']);
    const verify = () =>
      svc.api<{ valid: boolean; status: string }>('/api/v1/consent_tokens/verify', {
        json: { consent_token: exchanged.body.access_token },
      });
    expect((await verify()).body).toMatchObject({ valid: true, status: 'fulfilled' });
    expect((await verify()).body).toMatchObject({ valid: false, status: 'expired' });
  });

  test('reports a decline, and no consent token is issued for it', async ({ page, svc, site, events }) => {
    const decision = await consentDecision(svc, site, 'embed');
    await page.goto(site.page({ token: decision.session_token }));
    await frame(page).getByRole('button', { name: 'Decline' }).click();
    const seen = await until(page, events, 'svc-complete');
    expect(detailOf(seen, 'svc-complete')).toMatchObject({ kind: 'consent', outcome: 'declined' });
    const exchanged = await svc.api<{ status: string; access_token?: string }>(`/api/v1/decisions/${decision.session_token}/exchange`, {
      json: { exchange_token: detailOf(seen, 'svc-complete').exchange_token },
    });
    expect(exchanged.body.status).toBe('declined');
    expect(exchanged.body.access_token).toBeUndefined();
  });

  test('renders an approval the same way and reports it countered', async ({ page, svc, site, events }) => {
    const decision = await svc.createDecision({
      kind: 'approval',
      subject_ref: 'esc_element_1',
      delivery_mode: 'embed',
      embed_origin: site.origin,
      scope: 'payments:write',
      state: 'Pay invoice INV-9: 120.00 EUR',
    });
    await page.goto(site.page({ token: decision.session_token }));
    await expect(frame(page).getByText('Pay invoice INV-9: 120.00 EUR')).toBeVisible();
    await until(page, events, 'svc-ready');
    await expect(page.locator('svc-decision iframe')).toHaveAttribute('title', 'Approval request from Sandbox application');
    await frame(page).getByRole('button', { name: 'Counter…' }).click();
    await frame(page).getByLabel('Your counter-proposal').fill('Pay 100 EUR now, 20 EUR on delivery');
    await frame(page).getByRole('button', { name: 'Send counter-proposal' }).click();
    const seen = await until(page, events, 'svc-complete');
    expect(detailOf(seen, 'svc-complete')).toMatchObject({ kind: 'approval', outcome: 'countered' });
    expect(detailOf(seen, 'svc-state')).toMatchObject({ kind: 'approval', from: 'pending', to: 'countered' });
    const exchanged = await svc.api<{ claims: { counter_proposal: string } }>(`/api/v1/decisions/${decision.session_token}/exchange`, {
      json: { exchange_token: detailOf(seen, 'svc-complete').exchange_token },
    });
    expect(exchanged.body.claims.counter_proposal).toBe('Pay 100 EUR now, 20 EUR on delivery');
  });

  test('ignores a well-formed svc:complete forged by a frame on a third origin', async ({ page, svc, site, events }) => {
    const decision = await consentDecision(svc, site, 'embed');
    await page.goto(site.page({ token: decision.session_token, forge: true }));
    await until(page, events, 'svc-ready');
    await expect.poll(() => page.evaluate(() => (window as unknown as { svcForged: number[] }).svcForged)).toEqual([2]);
    const seen = await events(page);
    expect(types(seen, 'svc-complete')).toEqual([]);
    expect(await page.locator('svc-decision').evaluate((el) => (el as unknown as { status: string }).status)).toBe('ready');
    // The real page still completes normally afterwards.
    await frame(page).getByRole('button', { name: 'Decline' }).click();
    expect(detailOf(await until(page, events, 'svc-complete'), 'svc-complete').outcome).toBe('declined');
  });

  test('refuses to create a session whose embed origin is not an allowed origin', async ({ svc, site }) => {
    const res = await svc.api<{ code: string }>('/api/v1/decisions', {
      json: { kind: 'consent', subject_ref: svc.server.sandbox.flow_id, delivery_mode: 'embed', embed_origin: site.thirdOrigin },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('embed_origin_not_allowed');
  });

  test('expires through the test clock: the page’s own deadline messages, then the element’s expired state', async ({
    page,
    svc,
    site,
    events,
  }) => {
    const decision = await consentDecision(svc, site, 'embed');
    // Leave 8 seconds of the 15 minutes: the page reads the server's clock when it renders.
    await svc.advance((Date.parse(decision.deadline_at) - Date.now()) / 1000 - 8);
    await page.goto(site.page({ token: decision.session_token }));
    const seen = await until(page, events, 'svc-ready');
    await expect(page.locator('svc-decision').getByText('This request has expired.').first()).toBeVisible({ timeout: 15_000 });
    const all = await events(page);
    expect(all.length).toBeGreaterThanOrEqual(seen.length);
    expect(all.filter((e) => e.type === 'svc-deadline').map((e) => [e.detail.level, e.detail.remaining_seconds])).toEqual([
      ['warning', 5],
      ['expired', 0],
    ]);
    await expect(page.locator('svc-decision iframe')).toBeHidden();
    expect(await page.locator('svc-decision').evaluate((el) => (el as unknown as { status: string }).status)).toBe('expired');
    const read = await svc.api<{ decision: { status: string } }>(`/api/v1/decisions/${decision.session_token}`);
    expect(read.body.decision.status).toBe('expired');
  });

  test('popup mode: the element’s button opens the page, the popup’s messages arrive, and closing it is a cancel', async ({
    page,
    svc,
    site,
    events,
  }) => {
    const decision = await consentDecision(svc, site, 'popup');
    await page.goto(site.page({ token: decision.session_token, mode: 'popup' }));
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Open the request' }).click()]);
    await expect(popup).toHaveURL(decision.url);
    await until(page, events, 'svc-ready');
    await expect(page.getByRole('status')).toHaveText('The request is open in another window.');
    await grantConsent(popup);
    const seen = await until(page, events, 'svc-complete');
    expect(detailOf(seen, 'svc-ready').mode).toBe('popup');
    expect(detailOf(seen, 'svc-complete')).toMatchObject({ kind: 'consent', outcome: 'granted' });
    await popup.close();
    await page.waitForTimeout(800);
    expect(types(await events(page), 'svc-cancel')).toEqual([]);

    // A second decision whose window the person closes without deciding.
    const other = await consentDecision(svc, site, 'popup');
    await page.goto(site.page({ token: other.session_token, mode: 'popup' }));
    const [second] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Open the request' }).click()]);
    await until(page, events, 'svc-ready');
    await second.close();
    const closed = await until(page, events, 'svc-cancel');
    expect(detailOf(closed, 'svc-cancel')).toEqual({ reason: 'popup_closed', cancelled_by: 'user', kind: 'consent' });
  });

  test('redirect mode: open() goes to the full page and readRedirectResult reads the way back, unverified', async ({ page, svc, site }) => {
    const declined = await consentDecision(svc, site, 'redirect', { redirect_uri: site.url('/back?order=7') });
    await page.goto(site.page({ token: declined.session_token, mode: 'redirect' }));
    await page.getByRole('button', { name: 'Continue to the request' }).click();
    await expect(page).toHaveURL(declined.url);
    await page.getByRole('button', { name: 'Decline' }).click();
    await page.waitForURL(site.url('/back?order=7&error=access_denied'));
    expect(JSON.parse((await page.locator('#result').textContent())!)).toEqual({
      outcome: 'declined',
      error: 'access_denied',
      verified: false,
    });

    const granted = await consentDecision(svc, site, 'redirect', { redirect_uri: site.url('/back?order=8') });
    await page.goto(site.page({ token: granted.session_token, mode: 'redirect' }));
    await page.locator('svc-decision').evaluate((el) => (el as unknown as { open(): boolean }).open());
    await expect(page).toHaveURL(granted.url);
    await grantConsent(page);
    await page.waitForURL(site.url('/back?order=8'));
    expect(JSON.parse((await page.locator('#result').textContent())!)).toEqual({ outcome: 'completed', error: null, verified: false });
    // What the arrival cannot prove, the service can.
    const read = await svc.api<{ decision: { status: string } }>(`/api/v1/decisions/${granted.session_token}`);
    expect(read.body.decision.status).toBe('fulfilled');
  });
});
