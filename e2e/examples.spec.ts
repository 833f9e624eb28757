// Every example under examples/ run as it is, so the quick starts in docs/ cannot rot: the browser examples are
// served by the example backend (examples/site/backend.ts) from their own loopback origin under the policy of
// docs/csp.md and driven in Chromium to completion; the server-side ones run here in Node.
import type { AddressInfo } from 'node:net';
import { createWebhookReceiver } from '../examples/webhook-receiver-node.js';
import { checkReceipt, fetchJwks, fetchSignedReceipt } from '../examples/server/verify-receipt.js';
import { expect, grantConsent, test, watchCsp } from './examples.fixtures.js';

test.describe('browser examples (examples/site)', () => {
  test('script tag: consent field in a plain form, committed by the backend', async ({ page, examples }) => {
    const violations = await watchCsp(page);
    await page.goto(examples.url('/consent-field.html'));
    await page.getByLabel('Email address').fill('ada@example.com');
    await page.getByRole('checkbox', { name: 'Email newsletter' }).check();
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.locator('#outcome')).toHaveText(/^recorded embedded_field cr_/);
    expect(examples.log.signups.at(-1)).toMatchObject({ email: 'ada@example.com', channel: 'embedded_field' });
    expect(await violations()).toEqual([]);
  });

  test('script tag: the snippet over the organisation’s own checkboxes', async ({ page, examples }) => {
    const violations = await watchCsp(page);
    await page.goto(examples.url('/snippet.html'));
    await page.getByLabel('Email address').fill('grace@example.com');
    await page.getByRole('checkbox', { name: 'Email newsletter' }).check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.locator('#outcome')).toHaveText(/^recorded \w+ cr_/);
    expect(examples.log.signups.at(-1)).toMatchObject({ email: 'grace@example.com' });
    expect(examples.log.signups.at(-1)!.error).toBeUndefined();
    expect(await violations()).toEqual([]);
  });

  test('script tag under a nonce-only script policy', async ({ page, examples }) => {
    const violations = await watchCsp(page);
    const response = await page.goto(examples.url('/nonce.html'));
    const policy = response!.headers()['content-security-policy']!;
    const nonce = /script-src 'nonce-([^']+)'/.exec(policy)![1]!;
    expect(await page.locator(`script[nonce]`).count()).toBe(2);
    expect(nonce).not.toBe('NONCE_REPLACE_ME');
    await page.getByLabel('Email address').fill('nonce@example.com');
    await page.getByRole('checkbox', { name: 'Email newsletter' }).check();
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.locator('#outcome')).toHaveText(/^recorded embedded_field cr_/);
    expect(await violations()).toEqual([]);
  });

  test('ESM import in a single-page app', async ({ page, examples }) => {
    const violations = await watchCsp(page);
    await page.goto(examples.url('/spa.html'));
    await page.getByLabel('Email address').fill('linus@example.com');
    await page.getByRole('checkbox', { name: 'Email newsletter' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.locator('#result')).toHaveText('Saved.');
    expect(examples.log.signups.at(-1)).toMatchObject({ email: 'linus@example.com', channel: 'embedded_field' });
    expect(await violations()).toEqual([]);
  });

  test('iframe embed: the backend creates the decision and exchanges the result', async ({ page, examples }) => {
    const violations = await watchCsp(page);
    await page.goto(examples.url('/embed.html'));
    await grantConsent(page.frameLocator('svc-decision iframe'));
    await expect(page.locator('#result')).toHaveText('Verified: newsletter granted');
    expect(examples.log.exchanges.at(-1)).toMatchObject({ purposes_granted: ['newsletter'] });
    expect(await violations()).toEqual([]);
  });

  test('popup embed', async ({ page, examples }) => {
    const violations = await watchCsp(page);
    await page.goto(examples.url('/popup.html'));
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Open the request' }).click()]);
    await grantConsent(popup);
    await expect(page.locator('#result')).toHaveText('Verified: newsletter granted');
    expect(await violations()).toEqual([]);
  });

  test('redirect embed: back at the shop, the backend reads the decision from the service', async ({ page, examples }) => {
    const violations = await watchCsp(page);
    await page.goto(examples.url('/redirect.html'));
    await page.getByRole('button', { name: 'Continue to the request' }).click();
    await grantConsent(page);
    await page.waitForURL(/\/back\.html\?order=/);
    await expect(page.locator('#result')).toHaveText('Came back completed; the service says fulfilled');
    expect(await violations()).toEqual([]);
  });
});

test.describe('server-side examples', () => {
  test('commit a capture, then verify its signed receipt offline with the JWKS', async ({ page, svc, examples }) => {
    await page.goto(examples.url('/consent-field.html'));
    await page.getByLabel('Email address').fill('margaret@example.com');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.locator('#outcome')).toHaveText(/^recorded /);
    const recordId = examples.log.signups.at(-1)!.record_id!;

    const jwks = await fetchJwks(svc.server.url);
    const signed = await fetchSignedReceipt(svc.server.url, svc.server.sandbox.api_token, recordId);
    const receipt = await checkReceipt(signed, jwks);
    expect(JSON.stringify(receipt)).toContain(recordId);
    // A changed receipt does not verify.
    const changed = JSON.parse(JSON.stringify(signed)) as { receipt: Record<string, unknown> };
    changed.receipt.version = 'forged';
    await expect(checkReceipt(changed as never, jwks)).rejects.toThrow();
  });

  test('verify a webhook: the Node receiver takes a real delivery from the service, and refuses a forged one', async ({ svc }) => {
    const seen: string[] = [];
    // The shared service may run ahead on its test clock; the receiver reads the same clock (its `now` option).
    const clock = await svc.api<{ test_clock: { offset_seconds: number } }>('/api/v1/test_clock/advance', { json: { seconds: 0 } });
    expect(clock.status, JSON.stringify(clock.body)).toBe(200);
    const offsetMs = clock.body.test_clock.offset_seconds * 1000;
    const options = {
      secrets: 'whsec_not_yet',
      now: () => Date.now() + offsetMs,
      onEvent: (event: { id: string; type: string }) => void seen.push(event.type),
    };
    const receiver = createWebhookReceiver(options);
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
    try {
      const app = svc.server.sandbox.application_id;
      const created = await svc.api<{ webhook_endpoint: { id: string; secret: string } }>(`/api/v1/applications/${app}/webhook_endpoints`, {
        json: { webhook_endpoint: { url, events: ['consent.granted'] } },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      options.secrets = created.body.webhook_endpoint.secret;
      const sent = await svc.api(`/api/v1/applications/${app}/webhook_endpoints/${created.body.webhook_endpoint.id}/test`, { json: {} });
      expect(sent.status, JSON.stringify(sent.body)).toBeLessThan(300);
      await expect.poll(() => seen, { timeout: 10_000 }).toEqual(['webhook.test']);

      const body = JSON.stringify({ id: 'evt_forged', type: 'webhook.test', created_at: new Date().toISOString(), data: {} });
      const t = Math.floor(options.now() / 1000);
      const forged = await fetch(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'x-svc-timestamp': String(t), 'x-svc-signature': `t=${t},v1=${'0'.repeat(64)}` },
      });
      expect(forged.status).toBe(400);
      expect(seen).toEqual(['webhook.test']);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
