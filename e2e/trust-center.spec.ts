// A person's own trust center in Chromium against the reference server: at `/decisions` a signed-out visitor is
// sent through the service's own sign-in and back; the page (no script of its own, the script tag's `<svc-records>`
// with a same-origin `token-url`) shows the person's consent records from two organisations and never another
// person's; withdrawing one purpose there takes effect at once and the organisation learns where it happened
// (`person_records` on the receipt's appended event and in its `consent.purpose_revoked` webhook); from
// `/delegations` they revoke an agent's grant (the agent's next call is 401); at `/credentials` they present a
// credential the organisation issued them with only the claims they chose, by keyboard, and a verifier finds exactly
// those claims under the service's signature (`/presentations` lists it); from `/data_requests` they file a request
// the organisation then lists. Axe-clean under the strict CSP, at 375 px too.
import type { Page } from '@playwright/test';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '@svc/client';
import { checkPresentation, issueConsentCredential } from './credentials.fixtures.js';
import { audit, expect, otherOrganisation, problems, test, type Service } from './fixtures.js';
import { agentGrant } from './people.fixtures.js';

const FLOW = {
  locale: 'en',
  policy_url: 'https://shop.example/privacy',
  consent_duration: 'P1Y',
  purposes: [
    { key: 'newsletter', label: 'Email newsletter', description: 'A monthly email about offers.', basis: 'consent', mechanism: 'explicit' },
    { key: 'offers', label: 'Partner offers', description: 'Offers from our partners.', basis: 'consent', mechanism: 'explicit' },
  ],
};
const GRANTED = { newsletter: { decision: 'granted' }, offers: { decision: 'granted' } };

/** Calls the API with `token` (JSON in and out). */
async function call<T>(svc: Service, token: string, path: string, json?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(svc.server.url + path, {
    method: json === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** An active flow titled `title` in the organisation of `token`, and a record on it for each email; the records' ids. */
async function recordsIn(svc: Service, token: string, title: string, emails: string[]): Promise<string[]> {
  const flow = await call<{ flow: { id: string } }>(svc, token, '/api/v1/flows', {
    flow: { pattern: 'standard', title, description: `${title}.`, config: FLOW },
  });
  expect(flow.status, JSON.stringify(flow.body)).toBe(201);
  expect((await call(svc, token, `/api/v1/flows/${flow.body.flow.id}/activate`, {})).status).toBe(200);
  const ids: string[] = [];
  for (const email of emails) {
    const made = await call<{ consent_record: { id: string } }>(svc, token, '/api/v1/consent_records', {
      flow_id: flow.body.flow.id,
      subject: { email },
      decisions: GRANTED,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    ids.push(made.body.consent_record.id);
  }
  return ids;
}

/** A webhook receiver on loopback that keeps each event's type and data (the sandbox is a development application). */
async function webhookReceiver(): Promise<{
  url: string;
  events: { type: string; data: Record<string, unknown> }[];
  close(): Promise<void>;
}> {
  const events: { type: string; data: Record<string, unknown> }[] = [];
  const read = async (req: IncomingMessage) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    return JSON.parse(body) as { type: string; data: Record<string, unknown> };
  };
  const http = createServer((req, res) => {
    void read(req).then((event) => {
      events.push({ type: event.type, data: event.data });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/hooks`,
    events,
    close: () => new Promise((resolve) => http.close(() => resolve())),
  };
}

/**
 * The organisation issues `email` a consent credential; on `/credentials` the person presents it to "Corner bank" by
 * keyboard, sharing their email and the newsletter but not the ids; a verifier finds exactly those under the
 * service's signature, and `/presentations` lists what was shared with whom.
 */
async function presentsACredential(page: Page, svc: Service, email: string, organisation: string): Promise<void> {
  const issuer = { baseUrl: svc.server.url, apiToken: svc.server.sandbox.api_token, flowId: svc.server.sandbox.flow_id! };
  const credential = await issueConsentCredential(issuer, email);
  await page.getByRole('link', { name: 'Your credentials' }).click();
  await expect(page).toHaveURL(`${svc.origin}/credentials`);
  const wallet = page.locator('svc-credentials');
  const present = wallet.getByRole('button', { name: `Present: Consent credential from ${organisation}` });
  await expect(present).toBeVisible();
  await audit(page, 'credentials page');

  // The step opens with focus on it; the person names the verifier and ticks two claims, all by keyboard.
  await present.press('Enter');
  await expect(wallet.getByRole('form', { name: 'Choose what to share from your Consent credential.' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(wallet.getByLabel('Who is it for?')).toBeFocused();
  await page.keyboard.type('Corner bank');
  await wallet.getByRole('checkbox', { name: 'Email', exact: true }).press('Space');
  await wallet.getByRole('checkbox', { name: 'Purpose: Email newsletter' }).press('Space');
  await expect(wallet.getByRole('checkbox', { name: /Home country/ })).toBeDisabled();
  await expect(wallet.locator('[part=summary]')).toHaveText(
    'Corner bank will see Purpose: Email newsletter and Email, and Home country (always shared). Nothing else.',
  );
  await audit(page, 'selective disclosure step');
  const answered = page.waitForResponse((res) => res.url().endsWith(`/api/v1/me/credentials/${credential.id}/presentations`));
  await wallet.getByRole('button', { name: 'Present', exact: true }).press('Enter');
  expect((await answered).status()).toBe(201);
  await expect(wallet.locator('[part=result]')).toBeFocused();
  await expect(wallet.getByText('Verified: the signature holds and the credential is not revoked.')).toBeVisible();
  const presentation = await wallet.getByLabel('The presentation to hand over').inputValue();

  // As a verifier: exactly the chosen claims, of this credential, under the service's key; its verifier agrees.
  const checked = await checkPresentation(issuer, presentation);
  expect(presentation.split('~')[0]).toBe(credential.credential.split('~')[0]);
  expect(checked).toEqual({
    disclosed: ['email', 'purposes.newsletter'],
    signedByService: true,
    verification: { valid: true, revoked: false, claims: { email, home_country: 'US', purposes: { newsletter: true } }, undisclosed: 5 },
  });
  await page.keyboard.press('Escape');
  await expect(present).toBeFocused();

  // What was shared, with whom, is on the person's own record of presentations.
  await page.getByRole('link', { name: 'What you presented' }).click();
  await expect(page).toHaveURL(`${svc.origin}/presentations`);
  const row = page.locator('svc-credentials [part=presentation-row]');
  await expect(row).toHaveCount(1);
  await expect(row.locator('[part=heading]')).toHaveText('Shared with Corner bank');
  await expect(row.locator('[part=claim-label]')).toHaveText(['Home country', 'Purpose: Email newsletter', 'Email']);
  await audit(page, 'presentations page');
}

test.describe("a person's trust center", () => {
  test('sign in at /decisions, see records from two organisations, withdraw one purpose (person_records on the receipt and the webhook), revoke an agent, present a credential selectively, file a data request', async ({
    page,
    svc,
  }) => {
    test.setTimeout(240_000); // Eight axe audits on a loaded machine.
    const seen = problems(page);
    const email = 'centre.ada@example.com';
    const hardware = otherOrganisation(svc, 'Hardware store');
    const admin = svc.server.sandbox.api_token;
    const [shopRecord, othersRecord] = await recordsIn(svc, admin, 'Shop newsletter', [email, 'centre.bob@example.com']);
    await recordsIn(svc, hardware.token, 'Hardware club', [email]);
    const { agentToken } = await agentGrant(svc, email);
    const asAgent = createClient({ baseUrl: svc.server.url, agentToken });
    const pay = { scope: 'payments:write', action: 'write', value: 20, currency: 'EUR', description: 'Pay the window cleaner' };
    expect((await asAgent.authority.check(pay)).outcome).toBe('allowed');
    const receiver = await webhookReceiver();
    const endpoint = await svc.api(`/api/v1/applications/${svc.server.sandbox.application_id}/webhook_endpoints`, {
      json: { webhook_endpoint: { url: receiver.url, events: ['consent.purpose_revoked'] } },
    });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);

    try {
      // Signed out: what the page is, and one button; the provider's own pages; back on /decisions.
      const landing = await page.goto(`${svc.origin}/decisions`);
      const csp = landing!.headers()['content-security-policy'] ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      await audit(page, 'signed-out page');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByLabel('Email address').fill(email);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Code').fill((await page.locator('svc-oauth-page .sandbox code').textContent())!);
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect(page).toHaveURL(`${svc.origin}/decisions`);

      // The person's records from both organisations, and nobody else's.
      const records = page.locator('svc-records [part=record]');
      await expect(records).toHaveCount(2);
      const sandbox = (await svc.api<{ account: { name: string } }>('/api/v1/me')).body.account.name;
      await expect(page.locator('svc-records [part=organisation]')).toHaveText(['Hardware store', sandbox]);
      await expect(page.getByText('Hardware club')).toBeVisible();
      await expect(page.getByText('Shop newsletter')).toBeVisible();
      expect(await page.content()).not.toContain(othersRecord!);
      await audit(page, 'records page');

      // Withdraw one purpose of the shop's record, with its confirm step.
      const shop = records.filter({ hasText: 'Shop newsletter' });
      await shop.getByRole('button', { name: 'Withdraw: Email newsletter' }).click();
      const answered = page.waitForResponse((res) => res.url().includes('/withdraw'));
      await page.getByRole('button', { name: 'Yes, withdraw' }).click();
      const answer = await answered;
      expect(answer.status(), await answer.text()).toBe(200);
      await expect(page.getByRole('status').filter({ hasText: 'Withdrawn from' })).toContainText('Email newsletter');
      await expect(shop.getByText('You withdrew your consent.')).toBeVisible();

      // The organisation sees where it happened: on the receipt, and in its webhook.
      const receipt = await svc.api<{ consent_receipt: { event: { event_state: string; purpose_id?: string; event_channel?: string }[] } }>(
        `/api/v1/consent_receipts/${shopRecord}`,
      );
      expect(receipt.status).toBe(200);
      const appended = receipt.body.consent_receipt.event.filter((e) => e.event_channel !== undefined);
      expect(appended.map((e) => [e.purpose_id, e.event_channel])).toEqual([['newsletter', 'person_records']]);
      await expect
        .poll(() => receiver.events.map((e) => [e.type, e.data.record_id, e.data.purpose, e.data.event_channel]), { timeout: 15_000 })
        .toEqual([['consent.purpose_revoked', shopRecord, 'newsletter', 'person_records']]);

      // The person revokes what their agent may do: its next call is refused.
      await page.getByRole('link', { name: 'Who may act for you' }).click();
      await expect(page).toHaveURL(`${svc.origin}/delegations`);
      await expect(page.locator('svc-delegations').getByText('Up to 100.00 EUR per action')).toBeVisible();
      await audit(page, 'delegations page');
      await page.getByRole('button', { name: 'Revoke: Errand agent' }).click();
      await page.getByRole('button', { name: 'Yes, revoke' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Errand agent may no longer act for you.' })).toBeVisible();
      await expect(asAgent.authority.check(pay)).rejects.toMatchObject({ status: 401 });

      await presentsACredential(page, svc, email, sandbox);

      // The person files a data request with the hardware store from their own page; the store sees it.
      await page.getByRole('link', { name: 'Your data requests' }).click();
      await expect(page).toHaveURL(`${svc.origin}/data_requests`);
      await page.getByRole('button', { name: 'New request' }).click();
      await page.getByLabel('Organisation').selectOption({ label: 'Hardware store' });
      await page.getByLabel('A copy of my data').check();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('button', { name: 'Yes, send it' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Sent to Hardware store' })).toBeVisible();
      await expect(page.locator('svc-data-requests').getByText(/Answer due by/)).toBeVisible();
      await audit(page, 'data requests page');
      const filed = await call<{ data_requests: { dsar_type: string; status: string }[] }>(svc, hardware.token, '/api/v1/data_requests');
      expect(filed.body.data_requests.map((r) => [r.dsar_type, r.status])).toEqual([['access', 'received']]);

      // A narrow screen keeps everything reachable.
      await page.setViewportSize({ width: 375, height: 740 });
      await audit(page, 'records page at 375 px');
      expect(seen).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
