// The hosted decision pages in Chromium, embedded by a host site on another origin: the consent paths of the spec,
// decline, approvals, host cancel, deadlines, redirect mode, and the protocol v2 messages the page posts.
import AxeBuilder from '@axe-core/playwright';
import { messageSchema } from '@svc/protocol';
import { expect, ofTypes, test, type Decision, type Received, type Service } from './fixtures.js';

/** Every message is a valid v2 envelope from the service origin, sent by the frame the host opened. */
function expectValidMessages(messages: Received[], svc: Service, kind: string): void {
  expect(messages.length).toBeGreaterThan(0);
  const ids = new Set<string>();
  for (const m of messages) {
    expect(m.origin).toBe(svc.origin);
    expect(m.fromFrame).toBe(true);
    expect(m.data.version).toBe(2);
    expect(m.data.kind).toBe(kind);
    const parsed = messageSchema.safeParse(m.data);
    expect(parsed.success, `${m.data.type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    ids.add(m.data.message_id);
  }
  expect(ids.size, 'message_id is unique per emission').toBe(messages.length);
}

/** The from/to pairs of the svc:state messages. */
const transitions = (messages: Received[]) => ofTypes(messages, 'svc:state').map((m) => `${m.data.payload.from}->${m.data.payload.to}`);

async function embedConsent(svc: Service, host: { origin: string }, flowId: string | null | undefined): Promise<Decision> {
  return svc.createDecision({ kind: 'consent', subject_ref: flowId, delivery_mode: 'embed', embed_origin: host.origin });
}

test.describe('hosted decision page, embedded', () => {
  test('completes a consent on the standard path and posts every message in protocol order', async ({ page, svc, host, messages }) => {
    const decision = await embedConsent(svc, host, svc.server.sandbox.flow_id);
    const cspViolations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/.test(m.text())) cspViolations.push(m.text());
    });
    await page.goto(host.embedPage(decision.embed_url));
    const frame = page.frameLocator('#svc');

    await expect(frame.getByRole('heading', { level: 2, name: /asks for your consent/ })).toBeVisible();
    await frame.getByRole('button', { name: 'Continue' }).click();
    await expect(frame.getByRole('heading', { level: 2, name: 'Sign in with your email' })).toBeFocused();
    await frame.getByLabel('Email address').fill('ada@example.com');
    await frame.getByRole('button', { name: 'Continue' }).click();
    await expect(frame.getByRole('heading', { level: 2, name: 'Confirming it is you' })).toBeVisible();
    const code = (await frame.locator('.sandbox code').textContent())!;
    expect(code).toMatch(/^\d{6}$/);
    await frame.getByLabel('Code').fill(code);
    await frame.getByRole('button', { name: 'Verify' }).click();
    await expect(frame.getByRole('heading', { level: 2, name: 'Review and decide' })).toBeVisible();
    await expect(frame.getByRole('checkbox', { name: /Email newsletter/ })).not.toBeChecked();
    await frame.getByRole('checkbox', { name: /Email newsletter/ }).check();
    await frame.getByRole('button', { name: 'Agree' }).click();
    await expect(frame.getByRole('heading', { level: 2, name: 'Thank you' })).toBeVisible();
    await expect(frame.getByRole('status')).toHaveText('Thank you');

    const all = await messages(page);
    expectValidMessages(all, svc, 'consent');
    const ordered = all.filter((m) => m.data.type !== 'svc:resize' && m.data.type !== 'svc:deadline');
    expect(ordered.map((m) => m.data.type)).toEqual(['svc:ready', 'svc:state', 'svc:state', 'svc:state', 'svc:state', 'svc:complete']);
    expect(ordered[0]!.data.payload).toEqual({
      kind: 'consent',
      session_token: decision.session_token,
      deadline_at: decision.deadline_at,
      branding: { name: 'Sandbox application' },
      mode: 'embed',
      locale: 'en',
    });
    expect(transitions(all)).toEqual([
      'pending->authenticating',
      'authenticating->verifying',
      'verifying->reviewing',
      'reviewing->fulfilled',
    ]);
    expect(ofTypes(all, 'svc:state').map((m) => [m.data.payload.step_index, m.data.payload.total_steps])).toEqual([
      [1, 5],
      [2, 5],
      [3, 5],
      [4, 5],
    ]);
    const resizes = ofTypes(all, 'svc:resize');
    expect(resizes.length).toBeGreaterThan(0);
    expect(resizes[0]!.data.payload.height as number).toBeGreaterThan(100);
    const complete = ordered[5]!;
    expect(complete.data.payload.outcome).toBe('granted');
    expect(complete.data.payload.exchange_token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The host's server exchanges the token (the message proves nothing by itself) and verifies the consent token.
    const exchanged = await svc.api<{ access_token: string; claims: { purposes_granted: string[]; subject: { email: string } } }>(
      `/api/v1/decisions/${decision.session_token}/exchange`,
      { json: { exchange_token: complete.data.payload.exchange_token } },
    );
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.claims.purposes_granted).toEqual(['newsletter']);
    expect(exchanged.body.claims.subject).toEqual({ email: 'ada@example.com' });
    const verified = await svc.api<{ valid: boolean; status: string }>('/api/v1/consent_tokens/verify', {
      json: { consent_token: exchanged.body.access_token },
    });
    expect(verified.body).toMatchObject({ valid: true, status: 'fulfilled' });
    expect(cspViolations).toEqual([]);
  });

  test('declines: svc:complete carries the declined outcome and no consent token is issued', async ({ page, svc, host, messages }) => {
    const decision = await embedConsent(svc, host, svc.server.sandbox.flow_id);
    await page.goto(host.embedPage(decision.embed_url));
    const frame = page.frameLocator('#svc');
    await frame.getByRole('button', { name: 'Decline' }).click();
    await expect(frame.getByRole('heading', { level: 2, name: 'You declined' })).toBeVisible();

    const all = await messages(page);
    expectValidMessages(all, svc, 'consent');
    expect(ofTypes(all, 'svc:ready', 'svc:state', 'svc:complete').map((m) => m.data.type)).toEqual([
      'svc:ready',
      'svc:state',
      'svc:complete',
    ]);
    expect(transitions(all)).toEqual(['pending->declined']);
    const complete = ofTypes(all, 'svc:complete')[0]!;
    expect(complete.data.payload.outcome).toBe('declined');
    const exchanged = await svc.api<{ status: string; access_token?: string }>(`/api/v1/decisions/${decision.session_token}/exchange`, {
      json: { exchange_token: complete.data.payload.exchange_token },
    });
    expect(exchanged.body.status).toBe('declined');
    expect(exchanged.body.access_token).toBeUndefined();
  });

  test('completes an informed consent: disclosure, comprehension check, then consent', async ({ page, svc, host, messages }) => {
    const decision = await embedConsent(svc, host, svc.server.sandbox.informed_flow_id);
    await page.goto(host.embedPage(decision.embed_url));
    const frame = page.frameLocator('#svc');
    await frame.getByRole('button', { name: 'Continue' }).click();
    await expect(frame.getByRole('heading', { level: 2, name: 'About the study' })).toBeFocused();
    await expect(frame.getByText(/withdraw at any time/)).toBeVisible();
    await frame.getByRole('button', { name: 'I have read this' }).click();
    await expect(frame.getByRole('heading', { level: 2, name: 'Check your understanding' })).toBeVisible();
    await frame.getByRole('radio', { name: 'No, never' }).check();
    await frame.getByRole('button', { name: 'Check answer' }).click();
    await expect(frame.getByRole('alert')).toContainText('not right');
    await frame.getByRole('radio', { name: 'Yes, at any time' }).check();
    await frame.getByRole('button', { name: 'Check answer' }).click();
    await expect(frame.getByRole('heading', { level: 2, name: 'Give your consent' })).toBeVisible();
    await frame.getByRole('checkbox', { name: /research study/ }).check();
    await frame.getByRole('button', { name: 'Agree' }).click();
    await expect(frame.getByRole('heading', { level: 2, name: 'Thank you' })).toBeVisible();

    const all = await messages(page);
    expectValidMessages(all, svc, 'consent');
    expect(transitions(all)).toEqual(['pending->informed', 'informed->informed', 'informed->evidenced', 'evidenced->fulfilled']);
    expect(ofTypes(all, 'svc:ready', 'svc:state', 'svc:complete').map((m) => m.data.type)).toEqual([
      'svc:ready',
      'svc:state',
      'svc:state',
      'svc:state',
      'svc:state',
      'svc:complete',
    ]);
    expect(ofTypes(all, 'svc:complete')[0]!.data.payload.outcome).toBe('granted');
  });

  test('follows a host svc:cancel: the decision is cancelled on the server', async ({ page, svc, host, messages }) => {
    const decision = await embedConsent(svc, host, svc.server.sandbox.flow_id);
    await page.goto(host.embedPage(decision.embed_url));
    const frame = page.frameLocator('#svc');
    await expect(frame.getByRole('button', { name: 'Continue' })).toBeVisible();
    await expect.poll(async () => (await messages(page)).some((m) => m.data.type === 'svc:ready')).toBe(true);
    await page.evaluate(() =>
      (window as unknown as { svcCancel(kind: string, reason: string): void }).svcCancel('consent', 'checkout_closed'),
    );
    await expect(frame.getByRole('heading', { level: 2, name: 'Cancelled' })).toBeVisible();
    const all = await messages(page);
    expect(transitions(all)).toEqual(['pending->cancelled']);
    const read = await svc.api<{ decision: { status: string } }>(`/api/v1/decisions/${decision.session_token}`);
    expect(read.body.decision.status).toBe('cancelled');
  });

  test('posts svc:cancel when the person chooses to decide later', async ({ page, svc, host, messages }) => {
    const decision = await embedConsent(svc, host, svc.server.sandbox.flow_id);
    await page.goto(host.embedPage(decision.embed_url));
    const frame = page.frameLocator('#svc');
    await frame.getByRole('button', { name: 'Decide later' }).click();
    await expect(frame.getByRole('heading', { level: 2, name: 'Cancelled' })).toBeVisible();
    const all = await messages(page);
    expectValidMessages(all, svc, 'consent');
    expect(ofTypes(all, 'svc:cancel').map((m) => m.data.payload)).toEqual([{ reason: 'user_cancelled', cancelled_by: 'user' }]);
  });

  test('posts svc:deadline at T-30, T-15, T-5 and T-0, then shows the decision expired', async ({ page, svc, host, messages }) => {
    const decision = await embedConsent(svc, host, svc.server.sandbox.flow_id);
    await page.clock.install();
    await page.goto(host.embedPage(decision.embed_url));
    const frame = page.frameLocator('#svc');
    await expect(frame.getByRole('button', { name: 'Continue' })).toBeVisible();
    await page.clock.runFor(15 * 60 * 1000 + 1000);
    await expect(frame.getByRole('heading', { level: 2, name: 'This request has expired' })).toBeVisible();
    const all = await messages(page);
    expectValidMessages(all, svc, 'consent');
    expect(ofTypes(all, 'svc:deadline').map((m) => [m.data.payload.level, m.data.payload.remaining_seconds])).toEqual([
      ['warning', 30],
      ['warning', 15],
      ['warning', 5],
      ['expired', 0],
    ]);
    expect(transitions(all)).toEqual(['pending->expired']);
  });

  test('posts a fatal svc:error when the server refuses a step because the decision expired', async ({ page, svc, host, messages }) => {
    const decision = await embedConsent(svc, host, svc.server.sandbox.flow_id);
    await page.goto(host.embedPage(decision.embed_url));
    const frame = page.frameLocator('#svc');
    await expect(frame.getByRole('button', { name: 'Continue' })).toBeVisible();
    // The server's clock moves past the deadline while the page still shows the first screen.
    await svc.advance(15 * 60);
    await frame.getByRole('button', { name: 'Continue' }).click();
    await expect(frame.getByRole('heading', { level: 2, name: 'This request has expired' })).toBeVisible();
    const all = await messages(page);
    expectValidMessages(all, svc, 'consent');
    expect(ofTypes(all, 'svc:error').map((m) => m.data.payload)).toEqual([
      { code: 'decision_expired', message: 'This decision has expired.', fatal: true, recoverable_via: 'new_decision' },
    ]);
  });

  test('has no accessibility violations on its screens (axe)', async ({ page, svc }) => {
    const decision = await svc.createDecision({
      kind: 'consent',
      subject_ref: svc.server.sandbox.flow_id,
      delivery_mode: 'embed',
      embed_origin: svc.origin,
    });
    await page.goto(decision.embed_url);
    const check = async () => {
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    };
    await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
    await check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Email address').fill('ada@example.com');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByLabel('Code')).toBeVisible();
    await check();
    await page.getByLabel('Code').fill((await page.locator('.sandbox code').textContent())!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('button', { name: 'Agree' })).toBeVisible();
    await check();
  });
});

test.describe('hosted decision page, popup and redirect', () => {
  test('posts to the opener in popup mode: an approval countered', async ({ page, svc, host }) => {
    const decision = await svc.createDecision({
      kind: 'approval',
      subject_ref: 'esc_e2e_1',
      delivery_mode: 'popup',
      embed_origin: host.origin,
      scope: 'payments:write',
      state: 'Pay invoice INV-7: 240.00 EUR',
    });
    await page.goto(host.popupPage(decision.url));
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Open' }).click()]);
    await expect(popup.getByRole('heading', { level: 2, name: 'What is asked' })).toBeVisible();
    await expect(popup.getByText('Pay invoice INV-7: 240.00 EUR')).toBeVisible();
    await popup.getByRole('button', { name: 'Counter…' }).click();
    await expect(popup.getByRole('heading', { level: 2, name: 'Make a counter-proposal' })).toBeFocused();
    await popup.getByLabel('Your counter-proposal').fill('Pay 200 EUR now, the rest after delivery');
    await popup.getByRole('button', { name: 'Send counter-proposal' }).click();
    await expect(popup.getByRole('heading', { level: 2, name: 'Counter-proposal sent' })).toBeVisible();

    const all = await page.evaluate(() => (window as unknown as { svcMessages: Received[] }).svcMessages);
    expectValidMessages(all, svc, 'approval');
    expect(ofTypes(all, 'svc:ready', 'svc:state', 'svc:complete').map((m) => m.data.type)).toEqual([
      'svc:ready',
      'svc:state',
      'svc:complete',
    ]);
    expect(ofTypes(all, 'svc:ready')[0]!.data.payload.mode).toBe('popup');
    expect(ofTypes(all, 'svc:state')[0]!.data.payload).toEqual({
      from: 'pending',
      to: 'countered',
      kind_payload: { escalation_id: 'esc_e2e_1', outcome: 'countered' },
    });
    const complete = ofTypes(all, 'svc:complete')[0]!.data.payload;
    expect(complete.outcome).toBe('countered');
    const exchanged = await svc.api<{ claims: { counter_proposal: string } }>(`/api/v1/decisions/${decision.session_token}/exchange`, {
      json: { exchange_token: complete.exchange_token },
    });
    expect(exchanged.body.claims.counter_proposal).toBe('Pay 200 EUR now, the rest after delivery');
  });

  test('drops and counts every message when the opener is not an allowed origin', async ({ page, svc, host }) => {
    const decision = await svc.createDecision({ kind: 'approval', subject_ref: 'esc_e2e_2', delivery_mode: 'popup' });
    const before = await svc.metric('trust_surface.postmessage_dropped_total', { reason: 'origin_missing' });
    // Opened from http://127.0.0.1:<port2>: the same host server under an origin nobody registered.
    await page.goto(host.popupPage(decision.url, host.strangerOrigin));
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Open' }).click()]);
    await popup.getByRole('button', { name: 'Approve' }).click();
    await expect(popup.getByRole('heading', { level: 2, name: 'Approved' })).toBeVisible();
    // ready, at least one resize, state, complete: each dropped and counted.
    await expect
      .poll(() => svc.metric('trust_surface.postmessage_dropped_total', { reason: 'origin_missing' }))
      .toBeGreaterThanOrEqual(before + 4);
    expect(await page.evaluate(() => (window as unknown as { svcMessages: unknown[] }).svcMessages)).toEqual([]);
  });

  test('redirect mode lands on redirect_uri with no parameters on success', async ({ page, svc, host }) => {
    const back = host.url('/back?order=7');
    await page.goto(`${svc.origin}/accord/${svc.server.sandbox.informed_flow_id}?redirect_uri=${encodeURIComponent(back)}`);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'I have read this' }).click();
    await page.getByRole('radio', { name: 'Yes, at any time' }).check();
    await page.getByRole('button', { name: 'Check answer' }).click();
    await page.getByRole('button', { name: 'Agree' }).click();
    await page.waitForURL(back);
    expect(page.url()).toBe(back);
  });

  test('redirect mode lands on redirect_uri?error=access_denied on decline', async ({ page, svc, host }) => {
    const back = host.url('/back');
    await page.goto(`${svc.origin}/accord/${svc.server.sandbox.flow_id}?redirect_uri=${encodeURIComponent(back)}`);
    await page.getByRole('button', { name: 'Decline' }).click();
    await page.waitForURL(`${back}?error=access_denied`);
    await expect(page.locator('#location')).toHaveText('/back?error=access_denied');
  });

  test('a draft flow is 404 through its hosted URL', async ({ page, svc }) => {
    const created = await svc.api<{ flow: { id: string } }>('/api/v1/flows', {
      json: {
        flow: {
          pattern: 'standard',
          title: 'Draft',
          config: { purposes: [{ key: 'x', label: 'X', basis: 'consent', mechanism: 'explicit' }] },
        },
      },
    });
    const response = await page.goto(`${svc.origin}/accord/${created.body.flow.id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  });
});
