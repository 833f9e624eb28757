// Withdrawal ends live consent at once: the organisation that withdraws a record (or the person, through any channel)
// cannot keep using a consent token of it, and the decision that made it moves `fulfilled -> revoked`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { consentVerification, decision as decisionSchema, type ConsentExchange, type Decision } from '@svc/schemas';
import { createConsent, exchange, ok, toReview, verify } from '../decisions/test-support.js';
import { createActiveFlow } from './test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';

describe('withdrawal ends live consent at once', () => {
  let server: TestServer;
  let n = 0;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  /** A granted consent decision, exchanged: its decision, record id and live consent token. */
  async function grantedConsent(granted = ['newsletter']): Promise<{ decision: Decision; recordId: string; consentToken: string }> {
    const d = await createConsent(server);
    await toReview(server, d.session_token, `withdraw${++n}@example.com`);
    const done = await ok(server, d.session_token, { action: 'agree', granted, objected: [] });
    assert.ok(done.completion);
    const res = await exchange(server, d.session_token, done.completion.exchange_token);
    const body = (await res.json()) as ConsentExchange;
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.ok(body.access_token && body.record_id);
    return { decision: d, recordId: body.record_id, consentToken: body.access_token };
  }

  async function withdraw(recordId: string, body: Record<string, unknown> = {}): Promise<Response> {
    return server.api(`/api/v1/consent_records/${recordId}/withdraw`, { method: 'POST', json: body });
  }

  async function readDecision(token: string): Promise<Decision> {
    const res = await server.api(`/api/v1/decisions/${token}`);
    assert.equal(res.status, 200);
    return decisionSchema.parse(((await res.json()) as { decision: unknown }).decision);
  }

  async function verified(consentToken: string) {
    const res = await verify(server, consentToken);
    assert.equal(res.status, 200);
    return consentVerification.parse(await res.json());
  }

  it('the organisation withdraws the record: its live consent token verifies revoked and the decision is revoked', async () => {
    const { decision, recordId, consentToken } = await grantedConsent();
    assert.equal((await readDecision(decision.session_token)).status, 'fulfilled');

    const res = await withdraw(recordId);
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(((await res.json()) as { consent_record: { status: string } }).consent_record.status, 'revoked');

    const result = await verified(consentToken);
    assert.equal(result.valid, false);
    assert.equal(result.status, 'revoked');
    assert.equal(result.flow_id, server.sandbox.flow_id, 'the account still learns which flow the token was of');

    const read = await readDecision(decision.session_token);
    assert.equal(read.status, 'revoked');
    assert.equal(read.outcome, 'granted', 'what the person decided stays on record');
    assert.equal(read.record_id, recordId);
  });

  it("stays revoked: past the token's lifetime and past the decision's deadline", async () => {
    const { decision, recordId, consentToken } = await grantedConsent();
    assert.equal((await withdraw(recordId)).status, 200);
    server.advance(60 * 60);
    assert.equal((await verified(consentToken)).status, 'revoked');
    assert.equal((await readDecision(decision.session_token)).status, 'revoked');
  });

  it('a token already verified once reads revoked after the withdrawal, not a replayable fulfilled', async () => {
    const { recordId, consentToken } = await grantedConsent();
    const first = await verified(consentToken);
    assert.deepEqual([first.valid, first.status], [true, 'fulfilled']);
    assert.equal((await withdraw(recordId)).status, 200);
    const again = await verified(consentToken);
    assert.deepEqual([again.valid, again.status], [false, 'revoked']);
  });

  it('withdrawing one granted purpose revokes the token (its claims no longer hold) while the decision stays fulfilled with the record', async () => {
    const flowId = await createActiveFlow(server);
    const d = await createConsent(server, { subject_ref: flowId });
    await ok(server, d.session_token, { action: 'begin' });
    await ok(server, d.session_token, { action: 'acknowledge' });
    const done = await ok(server, d.session_token, { action: 'agree', granted: ['newsletter', 'research'], objected: [] });
    const ex = (await (await exchange(server, d.session_token, done.completion!.exchange_token)).json()) as ConsentExchange;
    assert.ok(ex.access_token && ex.record_id, JSON.stringify(ex));

    const res = await withdraw(ex.record_id, { purposes: ['research'] });
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(((await res.json()) as { consent_record: { status: string } }).consent_record.status, 'fulfilled');
    const result = await verified(ex.access_token);
    assert.deepEqual([result.valid, result.status], [false, 'revoked']);
    assert.equal((await readDecision(d.session_token)).status, 'fulfilled');
  });

  it("a newer record of the person that declines what the decision granted revokes the decision's token too", async () => {
    const email = `newer${++n}@example.com`;
    const d = await createConsent(server);
    await toReview(server, d.session_token, email);
    const done = await ok(server, d.session_token, { action: 'agree', granted: ['newsletter'], objected: [] });
    const ex = (await (await exchange(server, d.session_token, done.completion!.exchange_token)).json()) as ConsentExchange;
    server.advance(1);
    const later = await createConsent(server);
    await toReview(server, later.session_token, email);
    await ok(server, later.session_token, { action: 'agree', granted: [], objected: [] });
    const result = await verified(ex.access_token!);
    assert.deepEqual([result.valid, result.status], [false, 'revoked']);
    assert.equal((await readDecision(d.session_token)).status, 'revoked');
  });

  it('a consent not withdrawn still verifies fulfilled once', async () => {
    const { consentToken } = await grantedConsent();
    const result = await verified(consentToken);
    assert.deepEqual([result.valid, result.status], [true, 'fulfilled']);
  });
});
