// The spec's ConsentAuthorized: `status` req, `consent_token` req, `consent_token_expires_at` date-time. The
// authorize answer carries them beside `record_id`, and the consent token behaves as the spec's consent token does:
// 32 bytes URL-safe base64, verified once within 5 minutes, `expired` after or on replay, `revoked` once withdrawn.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../testing.js';
import { verify } from '../decisions/test-support.js';
import { authorize, capture, createActiveFlow, validDecisions } from './test-support.js';

interface ConsentAuthorized {
  status: string;
  consent_token: string;
  consent_token_expires_at: string;
  record_id: string;
  committed_at: string;
}

describe('authorize answers ConsentAuthorized', () => {
  let server: TestServer;
  let flowId: string;
  const commit = async (base?: string): Promise<ConsentAuthorized> => {
    const token = (await capture(server, { flow_id: flowId, decisions: validDecisions })).session_token;
    const res = base
      ? await server.api(`${base}/${token}/authorize`, { method: 'POST', json: { subject: { email: 'ada@example.com' } } })
      : await authorize(server, token, { subject: { email: 'ada@example.com' } });
    assert.equal(res.status, 200);
    return ((await res.json()) as { decision: ConsentAuthorized }).decision;
  };
  const verified = async (consentToken: string) =>
    (await (await verify(server, consentToken)).json()) as { valid: boolean; status: string; flow_id?: string; expires_at: string };

  before(async () => {
    server = await startTestServer();
    flowId = await createActiveFlow(server);
  });
  after(() => server.dispose());

  it('carries status, consent_token and consent_token_expires_at (5 minutes on) beside record_id', async () => {
    const authorized = await commit();
    assert.equal(authorized.status, 'fulfilled');
    assert.match(authorized.consent_token, /^[A-Za-z0-9_-]{43}$/, '32 bytes, URL-safe base64');
    assert.equal(Date.parse(authorized.consent_token_expires_at) - Date.parse(authorized.committed_at), 5 * 60 * 1000);
    assert.match(authorized.record_id, /^cr_/);
  });

  it('the consent token verifies once (fulfilled), then reports expired: replays return expired', async () => {
    const { consent_token, consent_token_expires_at } = await commit();
    const first = await verified(consent_token);
    assert.deepEqual([first.valid, first.status, first.flow_id, first.expires_at], [true, 'fulfilled', flowId, consent_token_expires_at]);
    const replay = await verified(consent_token);
    assert.deepEqual([replay.valid, replay.status], [false, 'expired']);
  });

  it('past 5 minutes the consent token reports expired (test clock)', async () => {
    const { consent_token } = await commit();
    server.advance(5 * 60);
    assert.deepEqual(Object.values(await verified(consent_token)).slice(0, 2), [false, 'expired']);
  });

  it('once the record is withdrawn the consent token reports revoked', async () => {
    const { consent_token, record_id } = await commit();
    const withdrawn = await server.api(`/api/v1/consent_records/${record_id}/withdraw`, { method: 'POST', json: {} });
    assert.equal(withdrawn.status, 200);
    assert.deepEqual(Object.values(await verified(consent_token)).slice(0, 2), [false, 'revoked']);
  });

  it('a capture that grants no consent purpose has no consent token to verify (null), as a declined decision', async () => {
    const token = (
      await capture(server, { flow_id: flowId, decisions: { newsletter: { decision: 'declined' }, partners: { decision: 'declined' } } })
    ).session_token;
    const res = await authorize(server, token, { subject: { email: 'bo@example.com' } });
    const { decision } = (await res.json()) as { decision: Record<string, unknown> };
    assert.equal(res.status, 200);
    assert.deepEqual([decision.status, decision.consent_token, decision.consent_token_expires_at], ['fulfilled', null, null]);
    const tokens = server.context.db.prepare('SELECT count(*) FROM consent_tokens WHERE record_id = ?').pluck().get(decision.record_id);
    assert.equal(tokens, 0);
  });

  it('the deprecated alias answers the same fields', async () => {
    const authorized = await commit('/api/v1/consent_sessions');
    assert.equal(authorized.status, 'fulfilled');
    assert.equal((await verified(authorized.consent_token)).status, 'fulfilled');
  });
});
