// Guessing credentials and flooding the public pages from one address: failed authentications (401s) and
// credential-less requests are limited per client address; past the failed-authentication limit the address is
// refused before authentication runs, whatever it sends; other addresses never notice.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../testing.js';
import { captureFlowConfig } from '../../consent/captures/test-support.js';
import { afterWaiting, assertLimited, stored } from './test-support.js';

const failedAuth = { name: 'failed_auth', limit: 3, windowSeconds: 60 };
const anonymous = { name: 'anonymous', limit: 5, windowSeconds: 60 };

describe('failed-authentication and anonymous rate limits', () => {
  let server: TestServer;
  const from = (address: string, headers: Record<string, string> = {}) => ({ 'x-forwarded-for': address, ...headers });
  const bearer = (address: string, token: string) => from(address, { authorization: `Bearer ${token}` });
  const newFlow = (address: string, token: string) =>
    server.api('/api/v1/flows', {
      method: 'POST',
      headers: bearer(address, token),
      json: { flow: { pattern: 'standard', title: 'Guarded', config: captureFlowConfig } },
    });

  before(async () => {
    server = await startTestServer({
      rateLimits: {
        failedAuth: { limit: failedAuth.limit, windowSeconds: failedAuth.windowSeconds },
        anonymous: { limit: anonymous.limit, windowSeconds: anonymous.windowSeconds },
        trustedProxies: 1, // so that the test can speak from several addresses
      },
    });
  });
  after(() => server.dispose());

  /** An API token never used yet: its `last_used_at` shows whether authentication ever accepted it. */
  async function unusedToken(): Promise<{ id: string; token: string }> {
    const res = await server.api('/api/v1/api_tokens', { method: 'POST', json: { api_token: { name: 'unused', permissions: ['write'] } } });
    const { api_token } = (await res.json()) as { api_token: { id: string; token: string } };
    return api_token;
  }
  const lastUsed = (id: string) => server.context.db.prepare('SELECT last_used_at FROM api_tokens WHERE id = ?').pluck().get(id);

  it('answers a wrong bearer token guessed in a loop 429 once the address is past its failed authentications, before authentication runs', async () => {
    const valid = await unusedToken();
    for (let i = 0; i < failedAuth.limit; i += 1) {
      const res = await server.api('/api/v1/me', { headers: bearer('203.0.113.9', `guess-${i}`) });
      assert.equal(res.status, 401, `guess ${i} is an ordinary 401`);
    }
    await assertLimited(await server.api('/api/v1/me', { headers: bearer('203.0.113.9', 'guess-next') }), failedAuth);

    const before = stored(server);
    const flows = server.context.db.prepare('SELECT count(*) FROM flows').pluck().get();
    const res = await newFlow('203.0.113.9', valid.token);
    await assertLimited(res, failedAuth);
    assert.equal(lastUsed(valid.id), null, 'authentication never ran: even the valid token was not looked at');
    assert.deepEqual(stored(server), before, 'nothing stored');
    assert.equal(server.context.db.prepare('SELECT count(*) FROM flows').pluck().get(), flows, 'no flow created');

    const elsewhere = await server.api('/api/v1/me', { headers: bearer('198.51.100.9', valid.token) });
    assert.equal(elsewhere.status, 200, "another address's requests are unaffected");
  });

  it('counts requests without any credential as failed authentications', async () => {
    for (let i = 0; i < failedAuth.limit; i += 1) {
      assert.equal((await server.api('/api/v1/me', { headers: from('203.0.113.10', { authorization: '' }) })).status, 401);
    }
    await assertLimited(await server.api('/api/v1/me', { headers: from('203.0.113.10', { authorization: '' }) }), failedAuth);
  });

  it('lets the address authenticate again once the window has passed', async () => {
    for (let i = 0; i < failedAuth.limit; i += 1) {
      await server.api('/api/v1/me', { headers: bearer('203.0.113.11', 'nope') });
    }
    const retryAfter = await assertLimited(
      await server.api('/api/v1/me', { headers: bearer('203.0.113.11', server.sandbox.api_token) }),
      failedAuth,
    );
    const res = await afterWaiting(retryAfter, () =>
      server.api('/api/v1/me', { headers: bearer('203.0.113.11', server.sandbox.api_token) }),
    );
    assert.equal(res.status, 200);
  });

  it('limits credential-less requests outside the API per address: a refused participant step changes nothing', async () => {
    const made = await server.api('/api/v1/decisions', {
      method: 'POST',
      json: { kind: 'consent', subject_ref: server.sandbox.flow_id, delivery_mode: 'popup' },
    });
    const { decision } = (await made.json()) as { decision: { id: string; session_token: string } };
    const row = () => JSON.stringify(server.context.db.prepare('SELECT * FROM decisions WHERE id = ?').get(decision.id));
    for (let i = 0; i < anonymous.limit; i += 1) {
      const res = await fetch(`${server.url}/.well-known/jwks.json`, { headers: from('203.0.113.12') });
      assert.equal(res.status, 200);
    }
    const before = [stored(server), row()];
    const step = () =>
      fetch(`${server.url}/decisions/${decision.session_token}/transitions`, {
        method: 'POST',
        headers: from('203.0.113.12', { 'content-type': 'application/json' }),
        body: JSON.stringify({ action: 'begin' }),
      });
    const retryAfter = await assertLimited(await step(), anonymous);
    assert.deepEqual([stored(server), row()], before, 'the decision did not move and nothing was stored');

    const other = await fetch(`${server.url}/.well-known/jwks.json`, { headers: from('198.51.100.12') });
    assert.equal(other.status, 200, 'another address is unaffected');
    const again = await afterWaiting(retryAfter, step);
    assert.equal(again.status, 200, await again.text());
  });
});
