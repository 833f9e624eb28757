// Guessing limits per target, as an attacker meets them: sign-in codes per email (across fresh codes), device user
// codes per client address and for the whole device flow, client secrets per client and address and per client.
// Past a limit the answer is 429 Too Many Requests (RFC 6585 section 4) with Retry-After (RFC 9110 section 10.2.3)
// and RateLimit-Policy, the right secret is refused too, another target is unaffected, and the right secret passes
// once the wait is over (the test clock ends the window).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as oauth from 'oauth4webapi';
import { startTestServer, type TestServer } from '../../testing.js';
import { configureGuessLimits } from './guessing.js';
import { Browser, discover, fetchFrom, insecure, pushedAuthorization } from './test-support.js';

let server: TestServer;
const WINDOW = 900;
// Two limits are lowered for this file, so that guessing spread over addresses takes few requests to show.
const DEVICE_FLOW_POINTS = 25;
const CLIENT_POINTS = 15;

before(async () => {
  server = await startTestServer();
  configureGuessLimits(server.context, {
    limits: {
      device_user_code_all: { points: DEVICE_FLOW_POINTS, windowSeconds: WINDOW },
      client_secret_all: { points: CLIENT_POINTS, windowSeconds: WINDOW },
    },
  });
});
after(() => server.dispose());

/** Moves the test clock to the start of a window, so that no window ends halfway through a test. */
function freshWindow(): void {
  const ms = WINDOW * 1000;
  server.advance((ms - (server.context.clock.now() % ms)) / 1000);
}

/** Asserts the 429 of `policy` and answers its Retry-After in seconds. */
function assertLimited(res: Response, policy: string, points: number): number {
  assert.equal(res.status, 429);
  const retryAfter = Number(res.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= WINDOW, `Retry-After: ${retryAfter}`);
  assert.equal(res.headers.get('ratelimit-policy'), `"${policy}";q=${points};w=${WINDOW}`);
  assert.equal(res.headers.get('ratelimit'), `"${policy}";r=0;t=${retryAfter}`);
  return retryAfter;
}

describe('sign-in codes: a guessing limit per email, whatever code is current', () => {
  /** Asks for a code for `email` on the interaction `uid` (a fresh authorization when none): the uid and the code. */
  async function askCode(browser: Browser, email: string, uid?: string): Promise<{ uid: string; code: string }> {
    let at = uid;
    if (!at) {
      const { url } = await pushedAuthorization(server);
      at = /\/oauth\/interaction\/([^/?]+)/.exec((await browser.follow(url)).url)![1]!;
    }
    const res = await browser.request(`/oauth/interaction/${at}/sign_in`, { form: { email } });
    return { uid: at, code: new URL(res.headers.get('location')!, server.url).searchParams.get('code')! };
  }
  const verify = (browser: Browser, uid: string, code: string) => browser.request(`/oauth/interaction/${uid}/verify`, { form: { code } });
  const wrong = (code: string) => (code === '000000' ? '111111' : '000000');
  const signedIn = (res: Response) => res.status === 303 && !/error=|\/oauth\/interaction\//.test(res.headers.get('location') ?? '');

  it('answers 429 (RFC 6585) with Retry-After after ten wrong codes for one email across fresh codes, refuses the right code, spares another email, and lets it pass after the wait', async () => {
    freshWindow();
    const attacker = new Browser(server.url);
    let { uid, code } = await askCode(attacker, 'victim@example.com');
    for (let round = 0; round < 2; round += 1) {
      for (let i = 0; i < 5; i += 1) {
        const res = await verify(attacker, uid, wrong(code));
        assert.match(res.headers.get('location') ?? '', /error=code/, `round ${round}, guess ${i}`);
      }
      // A fresh code: it used to bring five more tries with it.
      ({ code } = await askCode(attacker, 'victim@example.com', uid));
    }
    const refused = await verify(attacker, uid, code); // the right, current code
    const retryAfter = assertLimited(refused, 'sign_in_code', 10);
    assert.match(refused.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await refused.text(), /Too many wrong codes/);

    const bystander = new Browser(server.url);
    const other = await askCode(bystander, 'bystander@example.com');
    assert.ok(signedIn(await verify(bystander, other.uid, other.code)), 'another email signs in');

    server.advance(retryAfter);
    ({ code } = await askCode(attacker, 'victim@example.com', uid));
    assert.ok(signedIn(await verify(attacker, uid, code)), 'the right code passes after the wait');
  });
});

describe('device user codes (RFC 8628): a guessing limit per client address and for the whole flow', () => {
  /** A device authorization of the sandbox client: its user code. */
  async function deviceUserCode(): Promise<string> {
    const as = await discover(server.url);
    const client = { client_id: server.sandbox.oauth_client_id! };
    const auth = oauth.ClientSecretBasic(server.sandbox.oauth_client_secret!);
    const res = await oauth.deviceAuthorizationRequest(as, client, auth, { scope: 'openid' }, insecure);
    return (await oauth.processDeviceAuthorizationResponse(as, client, res)).user_code;
  }

  /** The code form as a person at `address` sees it: posts a code, keeping the form's xsrf value. */
  async function codeForm(address: string) {
    const browser = new Browser(server.url, address);
    let xsrf = /name="xsrf" value="([^"]+)"/.exec(await (await browser.request('/oauth/device')).text())![1]!;
    return async (userCode: string) => {
      const res = await browser.request('/oauth/device', { form: { xsrf, user_code: userCode } });
      const html = await res.text();
      xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? xsrf;
      return { res, html };
    };
  }
  const wrongFor = (userCode: string) => (userCode.startsWith('B') ? 'CCCC-CCCC' : 'BBBB-BBBB');
  const confirms = (userCode: string, answer: { res: Response; html: string }) =>
    answer.res.status === 200 && answer.html.includes(userCode) && answer.html.includes('name="confirm"');

  it('answers 429 with Retry-After after ten wrong user codes from one address, the right code too; another address still connects; the right code passes after the wait', async () => {
    freshWindow();
    const userCode = await deviceUserCode();
    const attacker = await codeForm('127.0.0.1');
    for (let i = 0; i < 10; i += 1) {
      const { res, html } = await attacker(wrongFor(userCode));
      assert.equal(res.status, 200);
      assert.match(html, /not valid or has expired/);
    }
    const refused = await attacker(userCode);
    const retryAfter = assertLimited(refused.res, 'device_user_code', 10);
    assert.match(refused.html, /Too many wrong codes/);
    assert.ok(!refused.html.includes(userCode), 'a limited address learns nothing of the code');

    assert.ok(confirms(userCode, await (await codeForm('127.0.0.2'))(userCode)), 'another address is unaffected');

    server.advance(retryAfter);
    assert.ok(confirms(userCode, await attacker(userCode)), 'the right code passes after the wait');
  });

  it('answers 429 to every address once the flow as a whole has seen its limit of wrong codes (guessing spread over addresses)', async () => {
    freshWindow();
    const userCode = await deviceUserCode();
    const spread = ['127.0.0.11', '127.0.0.12', '127.0.0.13'];
    let left = DEVICE_FLOW_POINTS - 1; // each address stays below its own limit of ten
    for (const address of spread) {
      const guess = await codeForm(address);
      const here = Math.min(9, left);
      for (let i = 0; i < here; i += 1) assert.equal((await guess(wrongFor(userCode))).res.status, 200);
      left -= here;
    }
    const fresh = await codeForm('127.0.0.14');
    assert.equal((await fresh(wrongFor(userCode))).res.status, 200); // the last wrong code the flow takes
    const retryAfter = assertLimited((await fresh(userCode)).res, 'device_user_code_all', DEVICE_FLOW_POINTS);
    assertLimited((await (await codeForm('127.0.0.15'))(userCode)).res, 'device_user_code_all', DEVICE_FLOW_POINTS);

    server.advance(retryAfter);
    assert.ok(confirms(userCode, await fresh(userCode)), 'the right code passes after the wait');
  });
});

describe('client secrets at the token endpoint: a guessing limit per client and address, and per client', () => {
  /** A confidential client of the sandbox application: its id and secret. */
  async function confidentialClient(name: string): Promise<{ id: string; secret: string }> {
    const res = await server.api(`/api/v1/applications/${server.sandbox.application_id}/oauth_clients`, {
      method: 'POST',
      json: { oauth_client: { name, client_type: 'confidential', redirect_uris: ['https://shop.example/cb'] } },
    });
    const body = (await res.json()) as { oauth_client: { client_id: string; client_secret: string } };
    return { id: body.oauth_client.client_id, secret: body.oauth_client.client_secret };
  }

  /** A refresh at the token endpoint with `secret` (client_secret_basic), from `address`. */
  function refresh(clientId: string, secret: string, address = '127.0.0.1', headers: Record<string, string> = {}) {
    return fetchFrom(address, `${server.url}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
        ...headers,
      },
      body: 'grant_type=refresh_token&refresh_token=not-a-refresh-token',
    });
  }
  /** The client authenticated: the refresh token (made up) is what fails. */
  const authenticated = async (res: Response) => res.status === 400 && ((await res.json()) as { error: string }).error === 'invalid_grant';

  it('answers 429 with an OAuth error body and Retry-After after ten wrong secrets for one client from one address, the right secret too; another client and another address are unaffected; the right secret passes after the wait', async () => {
    freshWindow();
    const guessed = await confidentialClient('Guessed');
    const bystander = await confidentialClient('Bystander');
    for (let i = 0; i < 10; i += 1) {
      const res = await refresh(guessed.id, `ocs_wrong${i}`);
      assert.equal(res.status, 401);
      assert.equal(((await res.json()) as { error: string }).error, 'invalid_client');
    }
    const refused = await refresh(guessed.id, guessed.secret);
    const retryAfter = assertLimited(refused, 'client_secret', 10);
    assert.match(refused.headers.get('content-type') ?? '', /application\/json/);
    const body = (await refused.json()) as { error: string; error_description: string };
    assert.equal(body.error, 'temporarily_unavailable');
    assert.match(body.error_description, /Too many failed authentications/);
    // X-Forwarded-For is the caller's to write: without trusted proxies it names no other address.
    assertLimited(await refresh(guessed.id, guessed.secret, '127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }), 'client_secret', 10);

    assert.ok(await authenticated(await refresh(bystander.id, bystander.secret)), 'another client is unaffected');
    assert.ok(await authenticated(await refresh(guessed.id, guessed.secret, '127.0.0.2')), 'another address is unaffected');

    server.advance(retryAfter);
    assert.ok(await authenticated(await refresh(guessed.id, guessed.secret)), 'the right secret passes after the wait');
  });

  it('answers 429 from every address once one client has seen its limit of wrong secrets (guessing spread over addresses)', async () => {
    freshWindow();
    const guessed = await confidentialClient('Guessed everywhere');
    for (let i = 0; i < CLIENT_POINTS; i += 1) {
      assert.equal((await refresh(guessed.id, `ocs_wrong${i}`, `127.0.0.${20 + (i % 5)}`)).status, 401);
    }
    const retryAfter = assertLimited(await refresh(guessed.id, guessed.secret, '127.0.0.30'), 'client_secret_all', CLIENT_POINTS);
    server.advance(retryAfter);
    assert.ok(await authenticated(await refresh(guessed.id, guessed.secret, '127.0.0.30')), 'the right secret passes after the wait');
  });
});
