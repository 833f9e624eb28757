// Device-link codes have a guessing limit per person, across links: locking a link after five wrong codes no longer
// lets the person's token guess on at a fresh link. Past ten wrong codes a quarter hour the claim is 429 Too Many
// Requests (RFC 6585 section 4) with Retry-After, the right code too; another person is unaffected; the right code
// passes once the wait is over (test clock).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, signIn, type Json, type Person } from '../../authority/delegations/test-support.js';
import { personAccessToken } from '../../platform/oauth/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';

const LINKS = '/api/v1/device_links';
let server: TestServer;
let ada: Person;
let adaPhone: string;
let bob: Person;
let bobPhone: string;

before(async () => {
  server = await startTestServer();
  ada = await signIn(server, 'ada@example.com');
  adaPhone = await personAccessToken(server, 'ada@example.com');
  bob = await signIn(server, 'bob@example.com');
  bobPhone = await personAccessToken(server, 'bob@example.com');
});
after(() => server.dispose());

async function link(token: string): Promise<{ id: string; code: string }> {
  const res = await call(server, LINKS, { token, json: { device_name: 'Laptop' } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.device_link;
}

const claim = (token: string, code: string) => call(server, `${LINKS}/claim`, { token, json: { code, device_name: 'Phone' } });
const wrongFor = (code: string) => (code.startsWith('A') ? 'BBBB-BBBB' : 'AAAA-AAAA');

describe('device-link codes: a guessing limit per person', () => {
  it('answers 429 with Retry-After after ten wrong codes across fresh links, the right code too; another person is unaffected; the right code passes after the wait', async () => {
    // The start of a window, so that none ends halfway through.
    server.advance((900_000 - (server.context.clock.now() % 900_000)) / 1000);
    for (let round = 0; round < 2; round += 1) {
      const guessed = await link(ada.token); // a fresh link: it used to bring five more tries with it
      for (let i = 0; i < 5; i += 1) assert.equal((await claim(adaPhone, wrongFor(guessed.code))).body.code, 'invalid_code');
    }
    const current = await link(ada.token);
    const refused = await claim(adaPhone, current.code);
    assert.equal(refused.status, 429, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'rate_limited');
    assert.match(refused.body.message as string, /Too many wrong device link codes/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 900, `Retry-After: ${retryAfter}`);
    assert.equal(refused.headers.get('ratelimit-policy'), '"device_link_code";q=10;w=900');
    const unclaimed = (await call(server, `${LINKS}/${current.id}`, { token: ada.token })).body.device_link as Json;
    assert.equal(unclaimed.status, 'pending', 'the refused claim changed nothing');

    const bobs = await link(bob.token);
    assert.equal((await claim(bobPhone, bobs.code)).status, 201, 'another person is unaffected');

    server.advance(retryAfter);
    const fresh = await link(ada.token); // the earlier code has expired meanwhile (ten minutes)
    const claimed = await claim(adaPhone, fresh.code);
    assert.equal(claimed.status, 201, JSON.stringify(claimed.body));
  });
});
