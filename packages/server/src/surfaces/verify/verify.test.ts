// Verify against a real server: trust scores of persons and agents (one function, its factors, the same answer on
// the agent's older path), vouches (create, read, list with pagination, revoke, their state rules and auth), a vouch
// lifting an agent over its grant's reputation bound and its revocation putting it back, and the wrong-country rules
// across two cells.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { trustScoreEnvelope, vouchEnvelope, vouchList } from '@svc/schemas';
import { agentToken, call, check, grant, newAgent, signIn, type Json, type Person } from '../../authority/delegations/test-support.js';
import { createActiveFlow, createRecord, grantAll } from '../../consent/records/test-support.js';
import { startTestCells, startTestServer, type TestCells, type TestServer } from '../../testing.js';
import { otherAccountToken, tokenWith, walk } from './test-support.js';

const timeless = ({ computed_at: _at, ...score }: Json) => score;
const factor = (score: Json, name: string) => (score.factors as Json[]).find((f) => f.name === name)!;
const PERSON_FACTORS = ['sign_ins_verified', 'consents_fulfilled', 'consents_revoked', 'age_days', 'vouches_received', 'vouches_revoked'];
const AGENT_FACTORS = ['actions_allowed', 'actions_denied', 'escalations_denied', 'grants_revoked', 'vouches_received', 'vouches_revoked'];

async function scoreOf(server: TestServer, subject: string, token?: string): Promise<Json> {
  const res = await call(server, `/api/v1/trust_scores/${subject}`, token ? { token } : {});
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return trustScoreEnvelope.parse(res.body).trust_score;
}

async function vouch(server: TestServer, voucher: Person, vouchee: string, statement?: string): Promise<Json> {
  const res = await call(server, '/api/v1/vouches', {
    token: voucher.token,
    json: { vouchee_id: vouchee, ...(statement ? { statement } : {}) },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return vouchEnvelope.parse(res.body).vouch;
}

function refused(res: { status: number; body: Json }, status: number, code?: string): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.ok(typeof res.body.message === 'string' && res.body.message.length > 0);
  if (code) assert.equal(res.body.code, code, JSON.stringify(res.body));
}

describe('trust scores', () => {
  let server: TestServer;
  let ada: Person;
  let bob: Person;

  before(async () => {
    server = await startTestServer();
    ada = await signIn(server, 'ada@example.com');
    bob = await signIn(server, 'bob@example.com');
  });
  after(() => server.dispose());

  it('scores a person from what the service holds: verified sign-ins, consents in force, age, vouches', async () => {
    const first = await scoreOf(server, ada.id);
    assert.equal(first.subject_id, ada.id);
    assert.equal(first.subject_type, 'person');
    assert.deepEqual(
      first.factors.map((f: Json) => f.name),
      PERSON_FACTORS,
    );
    assert.deepEqual(factor(first, 'sign_ins_verified'), { name: 'sign_ins_verified', weight: 2, value: 1, contribution: 2, cap: 10 });
    assert.equal(first.score, 52, 'fifty, and two for the verified sign-in');

    // A second sign-in counts; a consent in force counts one point; thirty days of age one more.
    ada = await signIn(server, 'ada@example.com');
    const flowId = await createActiveFlow(server);
    const record = await createRecord(server, { flow_id: flowId, subject: { email: 'ada@example.com' }, decisions: grantAll });
    server.advance(61 * 86_400);
    const later = await scoreOf(server, ada.id);
    assert.equal(factor(later, 'sign_ins_verified').value, 2);
    assert.deepEqual(factor(later, 'consents_fulfilled'), { name: 'consents_fulfilled', weight: 1, value: 1, contribution: 1, cap: 10 });
    assert.deepEqual(factor(later, 'age_days'), { name: 'age_days', weight: 0.0333, value: 61, contribution: 2, cap: 10 });
    assert.equal(later.score, 50 + 4 + 1 + 2);

    // Withdrawing is a right: the consent stops counting, and the withdrawal itself costs nothing.
    const withdrawn = await call(server, `/api/v1/consent_records/${record.id}/withdraw`, { json: {} });
    assert.equal(withdrawn.status, 200, JSON.stringify(withdrawn.body));
    const after = await scoreOf(server, ada.id);
    assert.deepEqual(factor(after, 'consents_revoked'), { name: 'consents_revoked', weight: 0, value: 1, contribution: 0, cap: 0 });
    assert.equal(factor(after, 'consents_fulfilled').value, 0);
    assert.equal(after.score, 50 + 4 + 2);
    // Deterministic: asked again, the same answer (but for the time it was computed).
    assert.deepEqual(timeless(await scoreOf(server, ada.id)), timeless(after));
  });

  it("answers an agent's score with the same function as the agent's own path", async () => {
    const agent = await newAgent(server, 'Scored agent');
    const score = await scoreOf(server, agent.id);
    assert.equal(score.subject_type, 'agent');
    assert.deepEqual(
      score.factors.map((f: Json) => f.name),
      AGENT_FACTORS,
    );
    assert.equal(score.score, 50);
    const old = await call(server, `/api/v1/agent_identities/${agent.id}/trust_score`);
    assert.equal(old.status, 200);
    assert.deepEqual(timeless(old.body.trust_score), timeless(score));
    // A person of the account may read an agent's score before delegating to it.
    assert.deepEqual(timeless(await scoreOf(server, agent.id, ada.token)), timeless(score));
  });

  it("lets a person read their own score and nobody else's; the organisation reads its people's", async () => {
    assert.equal((await scoreOf(server, ada.id, ada.token)).subject_id, ada.id);
    refused(await call(server, `/api/v1/trust_scores/${ada.id}`, { token: bob.token }), 404);
    assert.equal((await scoreOf(server, bob.id, await tokenWith(server, ['read']))).subject_id, bob.id);
    refused(await call(server, `/api/v1/trust_scores/${ada.id}`, { token: otherAccountToken(server) }), 404);
    refused(
      await call(server, `/api/v1/trust_scores/${ada.id}`, {
        headers: { authorization: '', 'x-publishable-key': server.sandbox.publishable_key },
      }),
      403,
      'publishable_key_not_allowed',
    );
    refused(await call(server, '/api/v1/trust_scores/prs_us_nobodyAtAllHere12345'), 404);
    refused(await call(server, '/api/v1/trust_scores/agt_dev_nobody'), 404);
    refused(await call(server, '/api/v1/trust_scores/tp_dev_whatever'), 404);
  });
});

describe('vouches', () => {
  let server: TestServer;
  let ada: Person;
  let bob: Person;
  let carol: Person;
  let readOnly: string;

  before(async () => {
    server = await startTestServer();
    [ada, bob, carol] = [
      await signIn(server, 'ada@example.com'),
      await signIn(server, 'bob@example.com'),
      await signIn(server, 'carol@example.com'),
    ];
    readOnly = await tokenWith(server, ['read']);
  });
  after(() => server.dispose());

  it("creates a vouch with the voucher's token, and it counts in the vouchee's score", async () => {
    const before = await scoreOf(server, bob.id);
    const v = await vouch(server, ada, bob.id, 'Bob repaired my bike.');
    assert.match(v.id, /^vch_us_[0-9A-Za-z]{20}$/);
    assert.deepEqual(
      { ...v, id: '', created_at: '' },
      {
        id: '',
        voucher_id: ada.id,
        vouchee_id: bob.id,
        vouchee_type: 'person',
        statement: 'Bob repaired my bike.',
        status: 'active',
        created_at: '',
        revoked_at: null,
      },
    );
    const after = await scoreOf(server, bob.id);
    assert.deepEqual(factor(after, 'vouches_received'), { name: 'vouches_received', weight: 5, value: 1, contribution: 5, cap: 20 });
    assert.equal(after.score, before.score + 5);
    // Read by the voucher, the vouchee and the organisation; nobody else.
    for (const token of [ada.token, bob.token, readOnly])
      assert.deepEqual((await call(server, `/api/v1/vouches/${v.id}`, { token })).body.vouch, v);
    refused(await call(server, `/api/v1/vouches/${v.id}`, { token: carol.token }), 404);
    refused(await call(server, `/api/v1/vouches/${v.id}`, { token: otherAccountToken(server) }), 404);
    refused(
      await call(server, `/api/v1/vouches/${v.id}`, {
        headers: { authorization: '', 'x-publishable-key': server.sandbox.publishable_key },
      }),
      403,
    );
    refused(await call(server, '/api/v1/vouches/vch_us_00000000000000000000'), 404);
  });

  it("keeps one active vouch per pair, never for oneself, only for the account's persons and live agents", async () => {
    await vouch(server, carol, ada.id);
    refused(await call(server, '/api/v1/vouches', { token: carol.token, json: { vouchee_id: ada.id } }), 409, 'vouch_exists');
    refused(await call(server, '/api/v1/vouches', { token: carol.token, json: { vouchee_id: carol.id } }), 422, 'self_vouch');
    refused(
      await call(server, '/api/v1/vouches', { token: carol.token, json: { vouchee_id: 'prs_us_nobodyAtAllHere12345' } }),
      422,
      'vouchee_not_found',
    );
    refused(
      await call(server, '/api/v1/vouches', { token: carol.token, json: { vouchee_id: 'agt_dev_nobody' } }),
      422,
      'vouchee_not_found',
    );
    const revoked = await newAgent(server, 'Gone agent');
    assert.equal((await call(server, `/api/v1/agent_identities/${revoked.id}/revoke`, { method: 'POST' })).status, 200);
    refused(await call(server, '/api/v1/vouches', { token: carol.token, json: { vouchee_id: revoked.id } }), 422, 'vouchee_revoked');
    refused(await call(server, '/api/v1/vouches', { token: carol.token, json: { vouchee_id: 'tp_dev_x' } }), 422, 'validation_failed');
    // Vouching is a person's: an API token cannot, whatever it holds.
    refused(await call(server, '/api/v1/vouches', { json: { vouchee_id: ada.id } }), 403, 'person_token_required');
    refused(await call(server, '/api/v1/vouches', { token: readOnly, json: { vouchee_id: ada.id } }), 403);
  });

  it("lists a person's given and received vouches, and the account's for an API token, page by page", async () => {
    const given = await call(server, '/api/v1/vouches?direction=given', { token: ada.token });
    assert.deepEqual(
      vouchList.parse(given.body).vouches.map((v) => v.vouchee_id),
      [bob.id],
    );
    const received = await call(server, '/api/v1/vouches?direction=received', { token: ada.token });
    assert.deepEqual(
      received.body.vouches.map((v: Json) => v.voucher_id),
      [carol.id],
    );
    const both = await call(server, '/api/v1/vouches', { token: ada.token });
    assert.equal(both.body.vouches.length, 2);
    assert.deepEqual(
      (await call(server, '/api/v1/vouches', { token: bob.token })).body.vouches.map((v: Json) => v.voucher_id),
      [ada.id],
    );

    await vouch(server, bob, carol.id);
    const { items, pages } = await walk(server, '/api/v1/vouches', 'vouches', 1, readOnly);
    assert.equal(items.length, 3);
    assert.equal(pages, 3);
    assert.equal(new Set(items.map((v) => v.id)).size, 3, 'no page repeats a vouch');
    assert.deepEqual(
      (await walk(server, `/api/v1/vouches?vouchee_id=${carol.id}`, 'vouches', 2)).items.map((v) => v.voucher_id),
      [bob.id],
    );
    assert.equal((await call(server, '/api/v1/vouches', { token: otherAccountToken(server) })).body.vouches.length, 0);
    refused(await call(server, '/api/v1/vouches?limit=0'), 400);
    refused(await call(server, '/api/v1/vouches?cursor=nonsense'), 400, 'invalid_cursor');
    refused(await call(server, '/api/v1/vouches?direction=sideways', { token: ada.token }), 400);
  });

  it('is revoked by its voucher alone, once; a revoked vouch counts against the vouchee; a new one may follow', async () => {
    const v = (await call(server, `/api/v1/vouches?direction=given`, { token: ada.token })).body.vouches[0] as Json;
    refused(await call(server, `/api/v1/vouches/${v.id}/revoke`, { token: bob.token, method: 'POST' }), 403, 'not_your_vouch');
    refused(await call(server, `/api/v1/vouches/${v.id}/revoke`, { method: 'POST' }), 403, 'person_token_required');
    refused(await call(server, `/api/v1/vouches/${v.id}/revoke`, { token: carol.token, method: 'POST' }), 404);
    const done = await call(server, `/api/v1/vouches/${v.id}/revoke`, { token: ada.token, method: 'POST' });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.vouch.status, 'revoked');
    assert.ok(done.body.vouch.revoked_at);
    refused(await call(server, `/api/v1/vouches/${v.id}/revoke`, { token: ada.token, method: 'POST' }), 409, 'illegal_transition');
    const score = await scoreOf(server, bob.id);
    assert.equal(factor(score, 'vouches_received').value, 0);
    assert.deepEqual(factor(score, 'vouches_revoked'), { name: 'vouches_revoked', weight: -5, value: 1, contribution: -5, cap: 20 });
    assert.equal((await call(server, '/api/v1/vouches?status=revoked', { token: ada.token })).body.vouches.length, 1);
    const again = await vouch(server, ada, bob.id);
    assert.notEqual(again.id, v.id);
  });
});

describe('a vouch changes what an agent may do (the reputation bound reads the same score)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  it('lifts the agent over a minimum trust score of 55, and its revocation puts it back below', async () => {
    const ada = await signIn(server, 'ada@example.com');
    const carol = await signIn(server, 'carol@example.com');
    const agent = await newAgent(server, 'Shopping agent');
    const g = await grant(server, ada, agent.id, {
      delegation_type: 'ai_agent',
      delegated_scopes: ['payments:write'],
      bounds: { reputation: { min_trust_score: 55 }, escalation: { allowed: true } },
    });
    const token = await agentToken(server, g.id, agent);
    const action = { scope: 'payments:write', action: 'write' };

    const below = await check(server, token, action);
    assert.equal(below.status, 202, JSON.stringify(below.body));
    assert.equal(below.body.authority_check.bound, 'reputation');

    const v = await vouch(server, carol, agent.id, 'It has shopped for me for a year.');
    assert.equal(v.vouchee_type, 'agent');
    assert.equal((await scoreOf(server, agent.id)).score, 55);
    const lifted = await check(server, token, action);
    assert.equal(lifted.status, 200, JSON.stringify(lifted.body));
    assert.equal(lifted.body.authority_check.outcome, 'allowed');

    assert.equal((await call(server, `/api/v1/vouches/${v.id}/revoke`, { token: carol.token, method: 'POST' })).status, 200);
    assert.equal((await scoreOf(server, agent.id)).score, 45);
    const again = await check(server, token, action);
    assert.equal(again.status, 202, JSON.stringify(again.body));
    assert.equal(again.body.authority_check.bound, 'reputation');
  });
});

describe('Verify across country cells', () => {
  let cells: TestCells;
  let us: TestServer;
  let de: TestServer;
  before(async () => {
    cells = await startTestCells(['US', 'DE']);
    us = cells.cells.US!;
    de = cells.cells.DE!;
  });
  after(() => cells.dispose());

  it('homes a vouch with its voucher, and answers 421 for persons and vouches of the other cell', async () => {
    const ada = await signIn(us, 'ada@example.com');
    const bob = await signIn(us, 'bob@example.com');
    const jan = await signIn(de, 'jan@example.de');
    assert.match(jan.id, /^prs_de_/);
    const v = await vouch(us, ada, bob.id);
    assert.match(v.id, /^vch_us_/);

    const across = await call(us, '/api/v1/vouches', { token: ada.token, json: { vouchee_id: jan.id } });
    refused(across, 421, 'wrong_country');
    assert.equal(across.body.home_country, 'DE');
    const score = await call(us, `/api/v1/trust_scores/${jan.id}`);
    refused(score, 421, 'wrong_country');
    assert.equal(score.body.home_country, 'DE');
    assert.equal((await scoreOf(de, jan.id)).subject_type, 'person');
    const read = await call(de, `/api/v1/vouches/${v.id}`);
    refused(read, 421, 'wrong_country');
    assert.equal(read.body.home_country, 'US');
    assert.equal(Object.keys(read.body).includes('vouch'), false, 'no resource data');
  });
});
