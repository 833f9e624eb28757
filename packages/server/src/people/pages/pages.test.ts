// The people's pages on the trust URL (`/decisions`, …): signed in through the service's own OpenID provider, back
// to the page they started from and never elsewhere, the elements' token endpoint, and the page's own guarantees.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Browser, personAccessToken } from '../../platform/oauth/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { returnToOf } from './routes.js';

let server: TestServer;
const origin = () => new URL(server.url).origin;
const same = () => ({ origin: origin() });
const fetchMetadata = { 'sec-fetch-site': 'same-origin' };

before(async () => {
  server = await startTestServer();
});
after(() => server.dispose());

/** Signs `email` in from `/session/sign_in` with `returnTo`; answers the browser and where the callback sent it. */
async function signIn(email: string, returnTo: string, browser = new Browser(server.url)): Promise<{ browser: Browser; landed: string }> {
  const start = await browser.request('/session/sign_in', { form: { return_to: returnTo }, headers: same() });
  assert.equal(start.status, 303);
  const location = start.headers.get('location') ?? '';
  assert.match(location, /^\/oauth\/authorize\?client_id=oc_/, 'the sign-in starts at the provider, on this origin');
  const back = await browser.authorize(location, email);
  assert.equal(back.origin, origin());
  assert.equal(back.pathname, '/session/callback');
  const landed = await browser.request(`${back.pathname}${back.search}`);
  assert.equal(landed.status, 303);
  return { browser, landed: landed.headers.get('location') ?? '' };
}

/** The elements' token for `browser`'s session (a same-origin request). */
const tokenOf = (browser: Browser, headers: Record<string, string> = fetchMetadata) =>
  browser.request('/session/access_token', { method: 'POST', headers });

const api = (path: string, token: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });

/** The service's own person (the trust center client's organisation's) with `email`. */
const servicePerson = (email: string) =>
  server.context.db
    .prepare(`SELECT p.id FROM persons p JOIN oauth_clients c ON c.account_id = p.account_id WHERE c.name = 'Trust Center' AND p.email = ?`)
    .pluck()
    .get(email) as string | undefined;

describe('where a sign-in may come back to', () => {
  it('is only a path of a people page on the trust origin, whatever is asked', () => {
    const o = 'https://trust.example';
    for (const evil of [
      'https://evil.example/',
      '//evil.example',
      '//evil.example/decisions',
      '/\\evil.example',
      '/\t/evil.example',
      'javascript:alert(1)',
      'decisions',
      '/unknown',
      '/decisions/dec_123',
      '/session/access_token',
      '/oauth/authorize',
      '',
      `/${'a'.repeat(3000)}`,
    ]) {
      assert.equal(returnToOf(evil, o), '/decisions', evil);
    }
    assert.equal(returnToOf(undefined, o), '/decisions');
    assert.equal(returnToOf(['/inbox'], o), '/decisions');
    assert.equal(returnToOf('/inbox?kind=approval', o), '/inbox?kind=approval');
    assert.equal(returnToOf('/decisions/../inbox', o), '/inbox');
  });

  it('a sign-in asked to return to another site lands on /decisions', async () => {
    for (const evil of ['https://evil.example/', '//evil.example', '/not-a-family']) {
      const { landed } = await signIn('mallory@example.com', evil);
      assert.equal(landed, '/decisions', evil);
    }
  });

  it('a pending sign-in cookie rewritten to another site still lands on the trust origin', async () => {
    const { browser } = await signIn('mallory@example.com', '/decisions');
    const state = 'forged-state';
    const cookie = `svc_trust_sign_in=${state}.${Buffer.from('//evil.example/decisions', 'utf8').toString('base64url')}`;
    const res = await browser.request(`/session/callback?code=x&state=${state}`, { headers: { cookie } });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/decisions');
  });

  it('refuses a sign-in or a sign-out started from another site', async () => {
    const { browser } = await signIn('mallory@example.com', '/decisions');
    for (const path of ['/session/sign_in', '/session/sign_out']) {
      for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site', origin: origin() }, {}] as Record<
        string,
        string
      >[]) {
        const res = await browser.request(path, { form: { return_to: '/decisions' }, headers });
        assert.equal(res.status, 403, `${path} ${JSON.stringify(headers)}`);
        assert.equal(res.headers.get('x-frame-options'), 'DENY');
      }
    }
    assert.equal((await tokenOf(browser)).status, 200, 'the person is still signed in');
  });
});

describe('POST /session/access_token', () => {
  it('answers 401 signed_out without a session, and 403 to another site even with one', async () => {
    const anonymous = await fetch(`${server.url}/session/access_token`, { method: 'POST', headers: fetchMetadata });
    assert.equal(anonymous.status, 401);
    assert.equal((await anonymous.json()).code, 'signed_out');
    assert.match(anonymous.headers.get('cache-control') ?? '', /no-store/);

    const { browser } = await signIn('mallory@example.com', '/decisions');
    for (const headers of [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site', origin: origin() },
      { origin: 'https://evil.example' },
      { origin: 'null' },
      {},
    ] as Record<string, string>[]) {
      const res = await tokenOf(browser, headers);
      assert.equal(res.status, 403, JSON.stringify(headers));
      const body = await res.json();
      assert.equal(body.code, 'cross_site');
      assert.equal(typeof body.message, 'string');
      assert.equal(body.access_token, undefined);
    }
    const forged = await fetch(`${server.url}/session/access_token`, {
      method: 'POST',
      headers: { ...fetchMetadata, cookie: '_session=forged; _session.sig=forged' },
    });
    assert.equal(forged.status, 401);
    assert.equal((await fetch(`${server.url}/session/access_token`)).status, 404, 'only POST');
  });

  it('gives the signed-in person a 10-minute token of the trust center that the API takes like any other', async () => {
    const { browser } = await signIn('Ada@Example.com', '/decisions');
    const res = await tokenOf(browser);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('cache-control') ?? '', /no-store/);
    const body = await res.json();
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 600);
    assert.deepEqual(body.scope.split(' ').sort(), [
      'agreements:read',
      'agreements:write',
      'connections:read',
      'connections:write',
      'credentials:read',
      'credentials:write',
      'data_offers:read',
      'data_offers:write',
      'data_requests:read',
      'data_requests:write',
      'delegations:read',
      'delegations:write',
      'inbox:read',
      'openid',
      'receipts:read',
      'records:read',
      'records:write',
      'vouches:read',
      'vouches:write',
    ]);
    assert.equal(typeof body.access_token, 'string');

    const ada = servicePerson('ada@example.com');
    assert.ok(ada);
    const inbox = await api('/api/v1/inbox', body.access_token);
    assert.equal(inbox.status, 200, await inbox.clone().text());
    const me = await (await api('/api/v1/me', body.access_token)).json();
    assert.equal(me.person.id, ada, 'the token names the signed-in person');
    const userinfo = await (await api('/oauth/userinfo', body.access_token)).json();
    assert.equal(userinfo.sub, ada);
    const records = await api('/api/v1/me/consent_records', body.access_token);
    assert.equal(records.status, 200, await records.clone().text());

    const trustClient = server.context.db.prepare(`SELECT id FROM oauth_clients WHERE name = 'Trust Center'`).pluck().get() as string;
    const introspected = await fetch(`${server.url}/oauth/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: body.access_token, client_id: trustClient }).toString(),
    });
    const info = await introspected.json();
    assert.equal(info.active, true, JSON.stringify(info));
    assert.equal(info.exp - info.iat, 600);
    assert.equal(info.sub, ada);
    assert.equal(info.client_id, trustClient);

    // A second token for the same session: another value, the same person.
    const again = await (await tokenOf(browser)).json();
    assert.notEqual(again.access_token, body.access_token);
    assert.equal((await (await api('/api/v1/me', again.access_token)).json()).person.id, ada);
  });

  it('takes the token as minted only: a value changed by one character is refused', async () => {
    const { browser } = await signIn('bob@example.com', '/decisions');
    const { access_token } = await (await tokenOf(browser)).json();
    assert.equal((await api('/api/v1/inbox', `${access_token}x`)).status, 401);
    assert.equal((await api('/api/v1/inbox', access_token)).status, 200);
  });

  it('signing out ends the session and every token it gave: then 401', async () => {
    const { browser } = await signIn('carol@example.com', '/decisions');
    const { access_token } = await (await tokenOf(browser)).json();
    const out = await browser.request('/session/sign_out', { form: { return_to: '/decisions' }, headers: same() });
    assert.equal(out.status, 303);
    assert.equal(out.headers.get('location'), '/decisions?signed_out');
    const after_ = await tokenOf(browser);
    assert.equal(after_.status, 401);
    assert.equal((await after_.json()).code, 'signed_out');
    assert.equal((await api('/api/v1/inbox', access_token)).status, 401, 'the minted token died with the session');
    const page = await (await browser.request('/decisions?signed_out')).text();
    assert.match(page, /You are signed out/);
    assert.match(page, /action="\/session\/sign_in"/);
  });

  it("gives a browser signed in through an organisation's client the service's person of that email, ended by sign-out", async () => {
    const browser = new Browser(server.url);
    await personAccessToken(server, 'dora@example.com', 'openid', browser);
    const page = await browser.request('/decisions');
    assert.match(await page.text(), /Signed in as <strong>dora@example\.com<\/strong>/);
    const { access_token } = await (await tokenOf(browser)).json();
    const me = await (await api('/api/v1/me', access_token)).json();
    assert.equal(me.person.id, servicePerson('dora@example.com'));
    assert.equal(me.person.email, 'dora@example.com');
    assert.equal((await api('/api/v1/inbox', access_token)).status, 200);
    await browser.request('/session/sign_out', { form: {}, headers: same() });
    assert.equal((await api('/api/v1/inbox', access_token)).status, 401);
  });
});

describe('GET /decisions', () => {
  it('shows a signed-out visitor the sign-in page, script-free, under the strict CSP, never framed', async () => {
    const res = await fetch(`${server.url}/decisions`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    assert.match(res.headers.get('cache-control') ?? '', /no-store/);
    const html = await res.text();
    assert.doesNotMatch(html, /<script/);
    assert.match(html, /<html lang="en">/);
    assert.match(html, /<main id="main"/);
    assert.match(html, /<form method="post" action="\/session\/sign_in">/);
    assert.match(html, /name="return_to" value="\/decisions"/);
    assert.doesNotMatch(html, /svc-records/);
    assert.match(html, /<link rel="stylesheet" href="\/assets\/page.css">/, "the hosted pages' tokens, font and buttons");
    assert.equal((html.match(/class="primary"/g) ?? []).length, 1, 'one primary action: sign in');
  });

  it('signs in through the provider and lands back on /decisions, which shows the element for the person', async () => {
    const { browser, landed } = await signIn('erin@example.com', '/decisions');
    assert.equal(landed, '/decisions');
    const res = await browser.request(landed);
    assert.equal(res.status, 200);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, new RegExp(`script-src ${origin()}/sdk/v1/(;|$)`), csp);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    const html = await res.text();
    assert.match(html, /Signed in as <strong>erin@example\.com<\/strong>/);
    assert.match(html, /<form method="post" action="\/session\/sign_out">/);
    assert.match(html, new RegExp(`<svc-records trust-url="${server.url}" token-url="/session/access_token"></svc-records>`));
    assert.match(html, /<noscript><p class="noscript">[^<]+<\/p><\/noscript>/);
    assert.match(html, /<a href="\/decisions" aria-current="page">Your decisions<\/a>/);
    assert.match(html, /<a href="\/inbox">Inbox<\/a>/);
    assert.match(html, /<a class="skip-link" href="#main">/);
    assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
    // Every script is the SDK's loader by URL: nothing inline.
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    assert.match(scripts[0]![1]!, / src="\/sdk\/v1\/svc\.js"/);
    assert.equal(scripts[0]![2], '');
    const loader = await fetch(`${server.url}/sdk/v1/svc.js`);
    if (loader.ok) {
      const integrity = `sha384-${createHash('sha384')
        .update(Buffer.from(await loader.arrayBuffer()))
        .digest('base64')}`;
      assert.match(scripts[0]![1]!, new RegExp(` integrity="${integrity.replace(/[+/]/g, '\\$&')}" crossorigin="anonymous"`));
    }
    const css = await fetch(`${server.url}/people/people.css`);
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type') ?? '', /text\/css/);
  });

  it('a signed-in person on the inbox is signed in on /decisions too (one session for the people pages)', async () => {
    const { browser, landed } = await signIn('frank@example.com', '/inbox');
    assert.equal(landed, '/inbox');
    const html = await (await browser.request('/decisions')).text();
    assert.match(html, /Signed in as <strong>frank@example\.com<\/strong>/);
    const inbox = await (await browser.request('/inbox')).text();
    assert.match(inbox, /Signed in as <strong>frank@example\.com<\/strong>/);
  });

  it('has no page for a path that is no family', async () => {
    for (const path of ['/clean_room', '/decisions/', '/consoles']) assert.equal((await fetch(`${server.url}${path}`)).status, 404, path);
  });
});
