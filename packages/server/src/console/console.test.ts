// The organisation's console as an attacker and its users would try it: only an account user of the organisation
// sees its pages and gets a token; the token is an API token of the user's role as it stands now, dies with the
// sign-out, expires, reads only its own account; a viewer cannot change; every change lands on the audit trail with
// the account user as its actor, once, even when replayed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { personFor } from '../consent/records/person.js';
import { isoNow } from '../infra/clock.js';
import { Browser } from '../platform/oauth/test-support.js';
import { startTestServer, type TestServer } from '../testing.js';
import { otherOrganisation } from '../people/test-support.js';
import { CONSOLE_FAMILIES, CONSOLE_TOKEN_PATH } from './families.js';

let server: TestServer;
let accountId: string;
const same = { 'sec-fetch-site': 'same-origin' };

before(async () => {
  server = await startTestServer();
  accountId = ((await (await server.api('/api/v1/me')).json()) as { account: { id: string } }).account.id;
});
after(() => server.dispose());

/** A browser signed in as `email` through the service's provider. */
async function signedIn(email: string): Promise<Browser> {
  const browser = new Browser(server.url);
  const start = await browser.request('/session/sign_in', {
    form: { return_to: '/applications' },
    headers: { origin: new URL(server.url).origin },
  });
  assert.equal(start.status, 303);
  const back = await browser.authorize(start.headers.get('location')!, email);
  const landed = await browser.request(`${back.pathname}${back.search}`);
  assert.equal(landed.headers.get('location'), '/applications', 'the sign-in comes back to the console page');
  return browser;
}

/** The console token of `browser`'s session for `account` (the first of its accounts when undefined). */
async function consoleToken(browser: Browser, account?: string) {
  const res = await browser.request(`${CONSOLE_TOKEN_PATH}${account ? `?account=${account}` : ''}`, { method: 'POST', headers: same });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

const call = (path: string, token: string, init: { method?: string; json?: unknown; headers?: Record<string, string> } = {}) =>
  fetch(`${server.url}${path}`, {
    method: init.method ?? (init.json ? 'POST' : 'GET'),
    headers: { authorization: `Bearer ${token}`, ...(init.json ? { 'content-type': 'application/json' } : {}), ...init.headers },
    ...(init.json ? { body: JSON.stringify(init.json) } : {}),
  });

/** Makes a person of the sandbox account with `email` one of its users in `role`; answers the account user's id. */
async function accountUser(email: string, role: 'admin' | 'viewer'): Promise<string> {
  const userId = personFor(server.context, accountId, email, isoNow(server.context.clock));
  const res = await server.api(`/api/v1/accounts/${accountId}/account_users`, { method: 'POST', json: { user_id: userId, role } });
  assert.equal(res.status, 201, await res.clone().text());
  return ((await res.json()) as { account_user: { id: string; role: string } }).account_user.id;
}

const consoleChanges = async (applicationId = server.sandbox.application_id) => {
  const res = await server.api(`/api/v1/audit/events?application_id=${applicationId}&limit=100`);
  const events = ((await res.json()) as { audit_events: { type: string; data: Record<string, unknown> }[] }).audit_events;
  return events.filter((e) => e.type === 'console.change');
};

describe('the console pages', () => {
  it("sandbox.json's console_email is an admin: every family shows its elements with the account's token URL", async () => {
    assert.equal(server.sandbox.console_email, 'console@example.com');
    const browser = await signedIn(server.sandbox.console_email!);
    for (const family of CONSOLE_FAMILIES) {
      const res = await browser.request(family.path);
      assert.equal(res.status, 200, family.path);
      const html = await res.text();
      for (const { tag } of family.elements)
        assert.match(html, new RegExp(`<${tag} [^>]*token-url="/console/access_token\\?account=${accountId}"`), family.path);
      assert.doesNotMatch(html, / readonly>/, `an admin's ${family.path} has change controls`);
      assert.match(html, /admin of <strong>Sandbox<\/strong>/);
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /script-src http:\/\/[^ ]+\/sdk\/v1\/;/, 'scripts from the SDK only');
      assert.doesNotMatch(csp, /unsafe-inline/);
    }
  });

  it('a signed-out visitor is offered the sign-in, which comes back to the console page', async () => {
    const res = await fetch(`${server.url}/governance`);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /action="\/session\/sign_in"/);
    assert.match(html, /name="return_to" value="\/governance"/);
  });

  it('a signed-in person who is no account user gets 403 on every organisation family, and no token', async () => {
    const browser = await signedIn('stranger@example.com');
    for (const family of CONSOLE_FAMILIES) {
      const res = await browser.request(family.path);
      assert.equal(res.status, 403, family.path);
      assert.match(await res.text(), /not a user of this organisation/);
    }
    const token = await consoleToken(browser, accountId);
    assert.equal(token.status, 403);
    assert.equal(token.body.code, 'not_an_account_user');
  });

  it("another organisation's account user gets 403 for this account's pages and token, and their own shows only theirs", async () => {
    const other = await otherOrganisation(server, 'Rival');
    const userId = personFor(server.context, other.accountId, 'rival-admin@example.com', isoNow(server.context.clock));
    const added = await call(`/api/v1/accounts/${other.accountId}/account_users`, other.token, {
      json: { user_id: userId, role: 'admin' },
    });
    assert.equal(added.status, 201);
    const browser = await signedIn('rival-admin@example.com');
    assert.equal((await browser.request(`/applications?account=${accountId}`)).status, 403);
    assert.equal((await consoleToken(browser, accountId)).status, 403);
    const own = await consoleToken(browser);
    assert.equal(own.status, 200);
    assert.equal(own.body.account_id, other.accountId);
    const theirs = await call(`/api/v1/applications/${server.sandbox.application_id}`, own.body.access_token!);
    assert.equal(theirs.status, 404, "another tenant's application is not found");
  });

  it('the token is asked for from the trust origin only', async () => {
    const browser = await signedIn(server.sandbox.console_email!);
    const res = await browser.request(CONSOLE_TOKEN_PATH, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    assert.equal(res.status, 403);
    assert.equal(((await res.json()) as { code: string }).code, 'cross_site');
    assert.equal(
      (await fetch(`${server.url}${CONSOLE_TOKEN_PATH}`, { method: 'POST', headers: same })).status,
      401,
      'no session, no token',
    );
  });
});

describe('a console token', () => {
  it("is an admin's API token: it creates an API token (shown once) and adds an allowed origin, each on the audit trail as the account user", async () => {
    const browser = await signedIn(server.sandbox.console_email!);
    const { body } = await consoleToken(browser);
    assert.equal(body.role, 'admin');
    assert.match(body.access_token!, /^svc_console_/);
    const before = (await consoleChanges()).length;
    const created = await call('/api/v1/api_tokens', body.access_token!, { json: { api_token: { name: 'CI', permissions: ['read'] } } });
    assert.equal(created.status, 201);
    const value = ((await created.json()) as { api_token: { token: string } }).api_token.token;
    const listed = await (await call('/api/v1/api_tokens', body.access_token!)).text();
    assert.ok(!listed.includes(value), 'the new token is never listed again');
    assert.ok(!listed.includes(body.access_token!), 'nor is the console token an API token of the account');
    const origin = await call(`/api/v1/applications/${server.sandbox.application_id}/allowed_origins`, body.access_token!, {
      json: { allowed_origin: { origin: 'https://shop.example' } },
    });
    assert.equal(origin.status, 201);
    const changes = (await consoleChanges()).slice(before);
    assert.deepEqual(
      changes.map((e) => [e.data.method, e.data.path]),
      [
        ['POST', '/api/v1/api_tokens'],
        ['POST', `/api/v1/applications/${server.sandbox.application_id}/allowed_origins`],
      ],
    );
    const admin = server.context.db
      .prepare("SELECT au.id FROM account_users au JOIN persons p ON p.id = au.user_id WHERE p.email = 'console@example.com'")
      .pluck()
      .get() as string;
    for (const e of changes)
      assert.deepEqual(
        (e.data.actor as { kind: string; id: string }).kind === 'account_user' && (e.data.actor as { id: string }).id,
        admin,
      );
  });

  it('a replayed change (same Idempotency-Key) is on the trail once', async () => {
    const browser = await signedIn(server.sandbox.console_email!);
    const token = (await consoleToken(browser)).body.access_token!;
    const before = (await consoleChanges()).length;
    const send = () =>
      call(`/api/v1/applications/${server.sandbox.application_id}/allowed_origins`, token, {
        json: { allowed_origin: { origin: 'https://replay.example' } },
        headers: { 'idempotency-key': 'console-replay-1' },
      });
    assert.equal((await send()).status, 201);
    assert.equal((await send()).status, 201);
    assert.equal((await consoleChanges()).length - before, 1);
  });

  it("of a viewer reads and checks the audit chain, never changes, and the viewer's pages are read-only", async () => {
    await accountUser('viewer@example.com', 'viewer');
    const browser = await signedIn('viewer@example.com');
    const page = await (await browser.request('/applications')).text();
    assert.match(page, /<svc-applications [^>]* readonly>/);
    assert.match(page, /viewer \(read only\) of/);
    const { body } = await consoleToken(browser);
    assert.equal(body.role, 'viewer');
    assert.equal((await call(`/api/v1/applications/${server.sandbox.application_id}/allowed_origins`, body.access_token!)).status, 200);
    assert.equal((await call(`/api/v1/audit/events?application_id=${server.sandbox.application_id}`, body.access_token!)).status, 200);
    const before = (await consoleChanges()).length;
    for (const [path, json] of [
      [`/api/v1/applications/${server.sandbox.application_id}/allowed_origins`, { allowed_origin: { origin: 'https://viewer.example' } }],
      ['/api/v1/api_tokens', { api_token: { name: 'sneaky', permissions: ['read'] } }],
    ] as const) {
      const res = await call(path, body.access_token!, { json });
      assert.equal(res.status, 403, path);
      assert.equal(((await res.json()) as { code: string }).code, 'insufficient_permissions');
    }
    assert.equal((await consoleChanges()).length, before, 'a refused change is not on the trail');
  });

  it("follows the account user's role as it stands now, and dies when the user is removed", async () => {
    const id = await accountUser('demoted@example.com', 'admin');
    const browser = await signedIn('demoted@example.com');
    const token = (await consoleToken(browser)).body.access_token!;
    const add = (origin: string) =>
      call(`/api/v1/applications/${server.sandbox.application_id}/allowed_origins`, token, { json: { allowed_origin: { origin } } });
    assert.equal((await add('https://before.example')).status, 201);
    const patched = await server.api(`/api/v1/accounts/${accountId}/account_users/${id}`, {
      method: 'PATCH',
      json: { account_user: { role: 'viewer' } },
    });
    assert.equal(patched.status, 200);
    assert.equal((await add('https://after.example')).status, 403, 'a lowered role takes effect at once');
    assert.equal((await server.api(`/api/v1/accounts/${accountId}/account_users/${id}`, { method: 'DELETE' })).status, 204);
    assert.equal((await call('/api/v1/applications', token)).status, 401, 'a removed user’s token is dead');
    assert.equal((await browser.request('/applications')).status, 403);
  });

  it('dies with the sign-out and after ten minutes', async () => {
    const browser = await signedIn(server.sandbox.console_email!);
    const first = (await consoleToken(browser)).body.access_token!;
    assert.equal((await call('/api/v1/applications', first)).status, 200);
    server.advance(601);
    assert.equal((await call('/api/v1/applications', first)).status, 401, 'expired');
    const second = (await consoleToken(browser)).body.access_token!;
    assert.equal((await call('/api/v1/applications', second)).status, 200);
    const out = await browser.request('/session/sign_out', {
      form: { return_to: '/applications' },
      headers: { origin: new URL(server.url).origin },
    });
    assert.equal(out.status, 303);
    const res = await call('/api/v1/applications', second);
    assert.equal(res.status, 401);
    assert.match(res.headers.get('www-authenticate') ?? '', /invalid_token/);
  });

  it('a made-up console token is refused like any invalid bearer token', async () => {
    const res = await call('/api/v1/applications', 'svc_console_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    assert.equal(res.status, 401);
    assert.match(((await res.json()) as { message: string }).message, /console token is not valid/);
  });

  it('the owner of an account stays an admin', async () => {
    const id = await accountUser('owner@example.com', 'admin');
    const userId = server.context.db.prepare('SELECT user_id FROM account_users WHERE id = ?').pluck().get(id) as string;
    assert.equal(
      (await server.api(`/api/v1/accounts/${accountId}`, { method: 'PATCH', json: { account: { owner_id: userId } } })).status,
      200,
    );
    const res = await server.api(`/api/v1/accounts/${accountId}/account_users/${id}`, {
      method: 'PATCH',
      json: { account_user: { role: 'viewer' } },
    });
    assert.equal(res.status, 409);
    assert.equal(
      (await server.api(`/api/v1/accounts/${accountId}`, { method: 'PATCH', json: { account: { owner_id: accountId } } })).status,
      200,
    );
  });
});
