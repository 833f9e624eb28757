// The organisation's console in Chromium against the reference server, as its account users use it: the sandbox's
// console admin signs in, creates an API token (its value shown once), allows an origin, finds a failed webhook
// delivery and redelivers it, draws and downloads an evidence package that verifies offline, and checks the audit
// chain, where each of their changes stands with them as its actor. A signed-in person who is no account user gets
// 403 on every organisation family; a viewer sees no change controls and the API refuses their changes.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Page } from '@playwright/test';
import { verifyEvidencePackage } from '@svc/client';
import { audit, expect, problems, test, type Service } from './fixtures.js';

const FAMILIES = [
  '/applications',
  '/agent_identities',
  '/application_agents',
  '/authorities',
  '/policies',
  '/clean_rooms',
  '/transfer_register',
  '/residency_posture',
  '/evidence_packages',
  '/modules',
  '/governance',
];

const RETRY_DELAYS_SECONDS = [30, 120, 900, 3600];

/** A flow of one purpose, its records the webhook's events. */
const FLOW = {
  title: 'Newsletter',
  description: 'The monthly newsletter.',
  config: {
    locale: 'en',
    policy_url: 'https://shop.example/privacy',
    consent_duration: 'P1Y',
    purposes: [{ key: 'newsletter', label: 'Email newsletter', description: 'A monthly email.', basis: 'consent', mechanism: 'explicit' }],
  },
};

/** Signs `email` in from the console page `path`; the sign-in comes back to it. */
async function signInToConsole(page: Page, svc: Service, email: string, path = '/applications'): Promise<void> {
  await page.goto(`${svc.origin}${path}`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Code').fill((await page.locator('svc-oauth-page .sandbox code').textContent())!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(`${svc.origin}${path}`);
}

/** A loopback URL nothing listens on: every delivery to it fails. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hook`;
}

interface Delivery {
  id: string;
  status: string;
  attempt_count: number;
}

/** A webhook endpoint of the sandbox application whose one delivery failed every attempt, the test clock moved on. */
async function failedDelivery(svc: Service): Promise<{ endpointId: string; delivery: Delivery }> {
  const app = svc.server.sandbox.application_id;
  const made = await svc.api<{ webhook_endpoint: { id: string } }>(`/api/v1/applications/${app}/webhook_endpoints`, {
    json: { webhook_endpoint: { url: await closedPortUrl(), events: ['consent.granted'] } },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const endpointId = made.body.webhook_endpoint.id;
  const flow = await svc.api<{ flow: { id: string } }>('/api/v1/flows', { json: { flow: { pattern: 'standard', ...FLOW } } });
  expect(flow.status, JSON.stringify(flow.body)).toBe(201);
  expect((await svc.api(`/api/v1/flows/${flow.body.flow.id}/activate`, { json: {} })).status).toBe(200);
  const record = await svc.api('/api/v1/consent_records', {
    json: {
      flow_id: flow.body.flow.id,
      subject: { email: 'webhook-subject@example.com' },
      decisions: { newsletter: { decision: 'granted' } },
    },
  });
  expect(record.status, JSON.stringify(record.body)).toBe(201);
  const deliveries = async () =>
    (await svc.api<{ deliveries: Delivery[] }>(`/api/v1/applications/${app}/webhook_endpoints/${endpointId}/deliveries`)).body.deliveries;
  await expect.poll(async () => (await deliveries())[0]?.attempt_count ?? 0, { timeout: 20_000 }).toBe(1);
  for (const [i, seconds] of RETRY_DELAYS_SECONDS.entries()) {
    await svc.advance(seconds + 1);
    await expect.poll(async () => (await deliveries())[0]?.attempt_count ?? 0, { timeout: 20_000 }).toBe(i + 2);
  }
  await expect.poll(async () => (await deliveries())[0]?.status, { timeout: 20_000 }).toBe('failed');
  return { endpointId, delivery: (await deliveries())[0]! };
}

/** A person of the sandbox account with `email`, made one of its account users in `role`. */
async function accountUser(svc: Service, email: string, role: 'admin' | 'viewer'): Promise<void> {
  const me = await svc.api<{ account: { id: string } }>('/api/v1/me');
  const db = svc.server.context.db;
  db.prepare('INSERT INTO persons (id, account_id, email, created_at) VALUES (?, ?, ?, ?)').run(
    `prs_us_console${role}${email.length}`,
    me.body.account.id,
    email,
    new Date().toISOString(),
  );
  const added = await svc.api(`/api/v1/accounts/${me.body.account.id}/account_users`, {
    json: { user_id: `prs_us_console${role}${email.length}`, role },
  });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
}

test("the console admin's first hour: a token shown once, an origin, a redelivery, evidence that verifies, the chain checked", async ({
  page,
  svc,
}) => {
  test.setTimeout(240_000);
  const seen = problems(page);
  const app = svc.server.sandbox.application_id;
  const { endpointId, delivery } = await failedDelivery(svc);
  await signInToConsole(page, svc, svc.server.sandbox.console_email!);
  await expect(page.getByText(/admin of Sandbox/)).toBeVisible();

  // An API token, its value shown once: it works, and after "I have copied it" it is nowhere on the page.
  const tokens = page.locator('svc-applications[view="api_tokens"]');
  await tokens.getByRole('button', { name: 'Create an API token' }).click();
  await tokens.getByLabel('Name').fill('Deploy');
  await tokens.getByRole('checkbox', { name: 'read', exact: true }).check();
  await tokens.getByRole('button', { name: 'Create token' }).click();
  const secret = tokens.locator('[part~="secret-value"]');
  await expect(secret).toBeVisible();
  const value = (await secret.textContent())!.trim();
  const me = await fetch(`${svc.origin}/api/v1/me`, { headers: { authorization: `Bearer ${value}` } });
  expect(me.status).toBe(200);
  await tokens.getByRole('button', { name: 'I have copied it' }).click();
  await expect(secret).toHaveCount(0);
  expect(await page.evaluate((v) => document.documentElement.outerHTML.includes(v), value)).toBe(false);
  await expect(tokens.getByText('Deploy', { exact: true })).toBeVisible();

  // An allowed origin, added on the sandbox application's row.
  const row = page.locator(`svc-applications:not([view]) [data-key="row ${app}"]`);
  await row.getByLabel('Origin to allow').fill('https://shop.example');
  await row.getByRole('button', { name: 'Allow origin' }).click();
  await expect(page.locator('svc-applications:not([view])').getByText('https://shop.example may now call the service')).toBeVisible();
  const origins = await svc.api<{ allowed_origins: { origin: string }[] }>(`/api/v1/applications/${app}/allowed_origins`);
  expect(origins.body.allowed_origins.map((o) => o.origin)).toContain('https://shop.example');

  // The failed delivery, under "Failed", redelivered: queued again, due now.
  const webhooks = page.locator('svc-webhooks');
  const endpoint = webhooks.locator(`[data-key="row ${endpointId}"]`);
  await endpoint.getByLabel('Show deliveries').selectOption('failed');
  await endpoint.getByRole('button', { name: 'Redeliver consent.granted' }).click();
  await expect(webhooks.getByText('Queued again: consent.granted will be sent now.')).toBeVisible();
  const again = await svc.api<{ delivery: Delivery }>(
    `/api/v1/applications/${app}/webhook_endpoints/${endpointId}/deliveries/${delivery.id}`,
  );
  expect(again.body.delivery.status).not.toBe('failed');

  // An evidence package of the transfer register, drawn, downloaded exactly as answered, and verified offline.
  await page.goto(`${svc.origin}/transfer_register`);
  await page.getByRole('button', { name: 'Draw an evidence package' }).click();
  await expect(page.locator('svc-evidence').getByRole('status')).toHaveText(/^Drawn: a signed .* evidence package, evp_/);
  await page.goto(`${svc.origin}/evidence_packages`);
  const packages = page.locator('svc-evidence');
  const downloading = page.waitForEvent('download');
  await packages
    .getByRole('button', { name: /^Download the .* package evp_/ })
    .first()
    .click();
  const file = await (await downloading).path();
  const jwks = await (await fetch(`${svc.origin}/.well-known/jwks.json`)).json();
  const verified = await verifyEvidencePackage(readFileSync(file!, 'utf8'), jwks);
  expect(verified.kid).toBeTruthy();
  await packages
    .getByRole('button', { name: /^Verify the .* package evp_/ })
    .first()
    .click();
  await expect(packages.locator('[part~="verdict"]').first()).toHaveText(/^Verified: evp_\w+ was signed by this service/);

  // The audit chain, checked in the browser; the console's changes stand on it with the account user as actor.
  await page.goto(`${svc.origin}/governance`);
  const trail = page.locator('svc-governance[view="audit"]');
  await trail.getByRole('button', { name: 'Verify the chain' }).click();
  await expect(trail.locator('[part~="verdict"]')).toHaveText(/^The chain of \d+ events verifies/, { timeout: 30_000 });
  const events = await svc.api<{ audit_events: { type: string; data: { actor?: { kind: string }; path?: string } }[] }>(
    `/api/v1/audit/events?application_id=${app}&limit=100`,
  );
  const changes = events.body.audit_events.filter((e) => e.type === 'console.change');
  expect(changes.map((e) => e.data.path)).toEqual(
    expect.arrayContaining([
      '/api/v1/api_tokens',
      `/api/v1/applications/${app}/allowed_origins`,
      `/api/v1/applications/${app}/webhook_endpoints/${endpointId}/deliveries/${delivery.id}/redeliver`,
    ]),
  );
  expect(changes.every((e) => e.data.actor?.kind === 'account_user')).toBe(true);
  await audit(page, 'the console at /governance');
  expect(seen).toEqual([]);
});

test('a signed-in person who is no account user gets 403 on every organisation family', async ({ page, svc }) => {
  await signInToConsole(page, svc, 'not-a-user@example.com', '/modules');
  for (const path of FAMILIES) {
    const res = await page.goto(`${svc.origin}${path}`);
    expect(res?.status(), path).toBe(403);
    await expect(page.getByRole('heading', { name: "This page is for an organisation's account users" })).toBeVisible();
  }
  const token = await page.evaluate(async () => (await fetch('/console/access_token', { method: 'POST' })).status);
  expect(token).toBe(403);
});

test('a viewer reads every page with no change controls, and the API refuses their change', async ({ page, svc }) => {
  await accountUser(svc, 'console-viewer@example.com', 'viewer');
  await signInToConsole(page, svc, 'console-viewer@example.com');
  await expect(page.getByText(/viewer \(read only\) of Sandbox/)).toBeVisible();
  await expect(page.locator('svc-applications[view="api_tokens"]').getByText('Sandbox admin')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create an API token' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Allow origin' })).toHaveCount(0);
  for (const path of FAMILIES) {
    await page.goto(`${svc.origin}${path}`);
    const elements = page.locator('main [token-url]');
    for (const element of await elements.all()) await expect(element).toHaveAttribute('readonly', '');
  }
  // The viewer's own console token, used as the page would: a change is refused, a read answered.
  const answers = await page.evaluate(async (app) => {
    const { access_token } = (await (await fetch('/console/access_token', { method: 'POST' })).json()) as { access_token: string };
    const headers = { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
    const add = await fetch(`/api/v1/applications/${app}/allowed_origins`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ allowed_origin: { origin: 'https://viewer.example' } }),
    });
    const read = await fetch(`/api/v1/applications/${app}/allowed_origins`, { headers });
    return { add: add.status, code: ((await add.json()) as { code: string }).code, read: read.status };
  }, svc.server.sandbox.application_id);
  expect(answers).toEqual({ add: 403, code: 'insufficient_permissions', read: 200 });
});

test("every console page works for the organisation's admin: each element settles, axe-clean at 375 px, never sideways", async ({
  page,
  svc,
}) => {
  test.setTimeout(300_000); // One axe audit per page on a loaded machine.
  const seen = problems(page);
  await signInToConsole(page, svc, svc.server.sandbox.console_email!);
  const nav = page.getByRole('navigation', { name: 'Console' });
  const paths = await nav.getByRole('link').evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  expect(paths.sort()).toEqual([...FAMILIES].sort());
  await page.setViewportSize({ width: 375, height: 740 });
  for (const path of FAMILIES) {
    await page.goto(`${svc.origin}${path}`);
    for (const element of await page.locator('main [token-url]').all()) {
      await expect
        .poll(() => element.evaluate((el) => (el as HTMLElement & { status: string }).status), { message: path })
        .toMatch(/^(ready|empty)$/);
    }
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(sideways, `${path} scrolls sideways at 375 px`).toBeLessThanOrEqual(0);
    await audit(page, `${path} at 375 px`);
  }
  expect(seen).toEqual([]);
});
