// Breach scope over HTTP, against two country cells: what a leaked API token, agent token or publishable key could
// have touched in a window, counted from what each cell records; the identifier never comes back (not even in an
// error); the evidence package verifies offline; bad input is a 4xx with a message; only admin tokens may ask.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { verifyEvidencePackage } from '@svc/client';
import {
  capture,
  captureFlowConfig,
  createActiveFlow as createCaptureFlow,
  validDecisions,
} from '../../../consent/captures/test-support.js';
import { agentToken, check, grant, newAgent, signIn } from '../../../authority/delegations/test-support.js';
import { call, jwksOf, newToken } from '../evidence/test-support.js';
import { createActiveFlow, createRecord, grantAll } from '../../../consent/records/test-support.js';
import { startTestCells, type TestCells, type TestServer } from '../../../testing.js';

type Json = Record<string, any>;

let cells: TestCells;
let us: TestServer;
let de: TestServer;
let accountId: string;
const PATH = '/api/v1/breach_scope';
const EVIDENCE = '/api/v1/breach_scope/evidence_package';
const longAgo = '2020-01-01T00:00:00Z';

before(async () => {
  cells = await startTestCells(['US', 'DE']);
  us = cells.cells.US!;
  de = cells.cells.DE!;
  accountId = us.context.db.prepare('SELECT account_id FROM applications WHERE id = ?').pluck().get(us.sandbox.application_id) as string;
  // A subject in each country.
  const usFlow = await createActiveFlow(us);
  await createRecord(us, { flow_id: usFlow, subject: { email: 'ada@example.com', country: 'US' }, decisions: grantAll });
  await createRecord(de, { flow_id: usFlow, subject: { email: 'grete@example.de', country: 'DE' }, decisions: grantAll });
  await createRecord(de, {
    flow_id: usFlow,
    subject: { email: 'grete@example.de', country: 'DE' },
    decisions: grantAll,
    idempotency_key: 'second',
  });
});
after(() => cells.dispose());

const fingerprint = (id: string) => `sha256:${createHash('sha256').update(id).digest('hex')}`;

/** What the account holds in every cell, counted straight from the databases. */
function reach(): { subjects: number; records: number } {
  let subjects = 0;
  let records = 0;
  for (const cell of [us, de]) {
    const db = cell.context.db;
    subjects += db.prepare('SELECT COUNT(*) FROM persons WHERE account_id = ?').pluck().get(accountId) as number;
    for (const t of ['consent_records', 'authorization_records', 'notice_records'])
      records += db.prepare(`SELECT COUNT(*) FROM ${t} WHERE account_id = ?`).pluck().get(accountId) as number;
  }
  return { subjects, records };
}

async function scope(server: TestServer, body: Json, headers?: Record<string, string>) {
  return call(server, PATH, { json: body, ...(headers ? { headers } : {}) });
}

/** The answer names neither the identifier nor anything of it but its fingerprint. */
function assertNoIdentifier(text: string, ...identifiers: string[]): void {
  for (const id of identifiers) assert.ok(!text.includes(id), `the answer holds ${id.slice(0, 12)}…`);
}

describe('breach scope of an API token', () => {
  it('a token never used did nothing: zero, with its coverage and caveats', async () => {
    const t = await newToken(us, ['read']);
    const res = await scope(us, { credential_type: 'api_token', credential_id: t.id, window: { from: longAgo } });
    assert.equal(res.status, 200, res.text);
    const s = res.body.breach_scope as Json;
    assert.deepEqual(s.credential, { type: 'api_token', fingerprint: fingerprint(t.id) });
    assert.equal(s.window.from, '2020-01-01T00:00:00.000Z');
    assert.ok(Date.parse(s.window.to) > Date.parse(s.window.from));
    assert.equal(s.used_in_window, false);
    assert.equal(s.subjects_affected, 0);
    assert.equal(s.records_count, 0);
    assert.equal(s.coverage, 'partly_recorded');
    assert.ok(s.caveats.length >= 2 && s.caveats.every((c: unknown) => typeof c === 'string'));
    assert.ok(
      s.caveats.some((c: string) => /OAuth access/.test(c)),
      'names the unrecorded credential types',
    );
    assert.deepEqual(s.scopes_involved, ['read']);
    assertNoIdentifier(res.text, t.id, t.token);
  });

  it('a token used in the window could have read everything of the account in every country (by id or by the raw token)', async () => {
    const t = await newToken(us, ['read']);
    assert.equal((await call(de, '/api/v1/me', { headers: { authorization: `Bearer ${t.token}` } })).status, 200);
    const expected = reach();
    assert.ok(expected.subjects >= 2 && expected.records >= 3);
    for (const [server, id] of [
      [us, t.id],
      [de, t.token],
    ] as const) {
      const res = await scope(server, { credential_type: 'api_token', credential_id: id, window: { from: longAgo } });
      assert.equal(res.status, 200, res.text);
      const s = res.body.breach_scope as Json;
      assert.equal(s.credential.fingerprint, fingerprint(id));
      assert.equal(s.used_in_window, true);
      assert.equal(s.subjects_affected, expected.subjects);
      assert.equal(s.records_count, expected.records);
      assert.deepEqual(
        (s.countries as Json[]).map((c) => c.country),
        ['US', 'DE'],
      );
      assert.equal((s.countries as Json[]).find((c) => c.country === 'DE')!.subjects_affected, 1);
      assertNoIdentifier(res.text, t.id, t.token);
      assert.ok(!res.text.includes('@'), 'counts only');
    }
  });

  it('a window before the token existed, or after its last recorded use, finds nothing', async () => {
    const t = await newToken(us, ['read']);
    assert.equal((await call(us, '/api/v1/me', { headers: { authorization: `Bearer ${t.token}` } })).status, 200);
    const before = await scope(us, {
      credential_type: 'api_token',
      credential_id: t.id,
      window: { from: longAgo, to: '2021-01-01T00:00:00Z' },
    });
    assert.equal(before.body.breach_scope.used_in_window, false);
    assert.equal(before.body.breach_scope.subjects_affected, 0);
    assert.ok((before.body.breach_scope.caveats as string[]).some((c) => /not valid/.test(c)));
    us.advance(3600);
    const from = new Date(us.context.clock.now() - 600_000).toISOString();
    const later = await scope(us, { credential_type: 'api_token', credential_id: t.id, window: { from } });
    assert.equal(later.status, 200, later.text);
    assert.equal(later.body.breach_scope.used_in_window, false);
    assert.equal(later.body.breach_scope.records_count, 0);
    assert.ok((later.body.breach_scope.caveats as string[]).some((c) => /last recorded use precedes/.test(c)));
  });

  it('counts the changes the service attributes to the token, and what an admin token could have issued', async () => {
    const w = await newToken(us, ['read', 'write']);
    const from = new Date(us.context.clock.now() - 1000).toISOString();
    const agent = await call(us, '/api/v1/agent_identities', {
      json: { display_name: 'Leaky bot' },
      headers: { authorization: `Bearer ${w.token}` },
    });
    assert.equal(agent.status, 201, agent.text);
    const res = await scope(us, { credential_type: 'api_token', credential_id: w.id, window: { from } });
    assert.equal(res.body.breach_scope.used_in_window, true);
    assert.deepEqual(res.body.breach_scope.events_by_type, { 'agent_identity.created': 1 });
    assert.deepEqual(res.body.breach_scope.scopes_involved, ['read', 'write']);

    const admin = us.context.db.prepare("SELECT id FROM api_tokens WHERE name = 'Sandbox admin'").pluck().get() as string;
    const a = await scope(us, { credential_type: 'api_token', credential_id: admin, window: { from } });
    assert.equal(a.body.breach_scope.used_in_window, true);
    assert.ok(a.body.breach_scope.events_by_type['api_token.created_in_window'] >= 0);
    assert.ok((a.body.breach_scope.caveats as string[]).some((c) => /held admin/.test(c)));
  });
});

describe('breach scope of an agent token', () => {
  it('reaches its principal only, and counts the authority it exercised', async () => {
    const ada = await signIn(us, 'ada@example.com');
    const agent = await newAgent(us, 'Pay bot');
    const g = await grant(us, ada, agent.id, {
      delegation_type: 'ai_agent',
      delegated_scopes: ['payments:write'],
      bounds: { actions: ['write'] },
    });
    const token = await agentToken(us, g.id, agent);
    const from = new Date(us.context.clock.now() - 1000).toISOString();
    const allowed = await check(us, token, { scope: 'payments:write', action: 'write' });
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
    const denied = await check(us, token, { scope: 'payments:write', action: 'delete' });
    assert.equal(denied.status, 403, JSON.stringify(denied.body));
    const tokenId = us.context.db.prepare('SELECT id FROM agent_tokens WHERE grant_id = ?').pluck().get(g.id) as string;
    const adaRecords = us.context.db.prepare('SELECT COUNT(*) FROM consent_records WHERE person_id = ?').pluck().get(ada.id) as number;
    for (const id of [token, tokenId]) {
      const res = await scope(us, { credential_type: 'agent_token', credential_id: id, window: { from } });
      assert.equal(res.status, 200, res.text);
      const s = res.body.breach_scope as Json;
      assert.equal(s.credential.fingerprint, fingerprint(id));
      assert.equal(s.used_in_window, true);
      assert.equal(s.subjects_affected, 1);
      assert.equal(s.records_count, adaRecords);
      assert.deepEqual(s.events_by_type, { 'authority.allowed': 1, 'authority.denied': 1 });
      assert.deepEqual(s.scopes_involved, ['payments:write']);
      assert.equal(s.coverage, 'partly_recorded');
      assertNoIdentifier(res.text, token, tokenId, ada.id, g.id);
    }
    // Asked in the other cell, the same answer: the token is found in its grant's home.
    const fromDe = await scope(de, { credential_type: 'agent_token', credential_id: tokenId, window: { from } });
    assert.equal(fromDe.body.breach_scope.subjects_affected, 1);
    const earlier = await scope(us, {
      credential_type: 'agent_token',
      credential_id: tokenId,
      window: { from: longAgo, to: '2021-01-01T00:00:00Z' },
    });
    assert.equal(earlier.body.breach_scope.subjects_affected, 0);
    assert.deepEqual(earlier.body.breach_scope.events_by_type, {});
  });
});

describe('breach scope of a publishable key', () => {
  it('reads no personal data; counts the captures posted for its application', async () => {
    const from = new Date(us.context.clock.now() - 1000).toISOString();
    const flow = await createCaptureFlow(us, captureFlowConfig);
    await capture(us, { flow_id: flow, decisions: validDecisions });
    await capture(us, { flow_id: flow, decisions: validDecisions });
    const res = await scope(us, { credential_type: 'publishable_key', credential_id: us.sandbox.publishable_key, window: { from } });
    assert.equal(res.status, 200, res.text);
    const s = res.body.breach_scope as Json;
    assert.equal(s.used_in_window, true);
    assert.equal(s.events_by_type['capture.created'], 2);
    assert.equal(s.subjects_affected, 0);
    assert.equal(s.records_count, 0);
    assertNoIdentifier(res.text, us.sandbox.publishable_key);
  });
});

describe('breach scope evidence', () => {
  it('signs the report: it verifies offline with the JWKS alone, holds no identifier, and fails when one character changes', async () => {
    const t = await newToken(us, ['read']);
    const request = { credential_type: 'api_token', credential_id: t.token, window: { from: longAgo, to: '2030-01-01T00:00:00Z' } };
    const res = await call(us, EVIDENCE, { json: request });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.format_type, 'svc.breach_scope.v1');
    const jwks = await jwksOf(us);
    const verified = await verifyEvidencePackage(res.body, jwks, { formatType: 'svc.breach_scope.v1' });
    const payload = verified.payload as Json;
    const report = (await scope(us, request)).body.breach_scope as Json;
    assert.deepEqual({ ...payload.breach_scope, window: null }, { ...report, window: null });
    assert.equal(payload.breach_scope.credential.fingerprint, fingerprint(t.token));
    const decoded = Buffer.from(res.body.package.split('.')[1], 'base64url').toString('utf8');
    assertNoIdentifier(decoded + res.text, t.token, t.id);
    const jws = res.body.package as string;
    for (const i of [5, 20, jws.indexOf('.') + 10, jws.length - 30, jws.length - 2]) {
      const c = jws[i] === 'A' ? 'B' : 'A';
      await assert.rejects(verifyEvidencePackage({ ...res.body, package: jws.slice(0, i) + c + jws.slice(i + 1) }, jwks));
    }
  });
});

describe('breach scope refusals', () => {
  it('answers 404 for a credential the account does not have, echoing nothing of it', async () => {
    for (const [type, id] of [
      ['api_token', 'api_token_doesnotexist0000'],
      ['api_token', 'some-raw-secret-value-123'],
      ['agent_token', 'ra_agent_nothing_here'],
      ['agent_token', 'agtok_nothing'],
      ['publishable_key', 'pk_test_nosuchkey00000'],
      ['publishable_key', 'not-a-key'],
    ] as const) {
      const res = await scope(us, { credential_type: type, credential_id: id, window: { from: longAgo } });
      assert.equal(res.status, 404, `${type} ${id}: ${res.text}`);
      assert.ok(res.body.message);
      assertNoIdentifier(res.text, id);
    }
    // Another account's token is not this account's.
    const now = new Date().toISOString();
    const db = us.context.db;
    db.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acct_breach_other', 'Other', ?)").run(now);
    db.prepare(
      "INSERT INTO api_tokens (id, account_id, name, permissions, token_hash, created_at) VALUES ('api_token_breachother0001', 'acct_breach_other', 'x', '[\"read\"]', 'h', ?)",
    ).run(now);
    assert.equal(
      (await scope(us, { credential_type: 'api_token', credential_id: 'api_token_breachother0001', window: { from: longAgo } })).status,
      404,
    );
  });

  it('refuses bad input with 4xx and a message, never 500', async () => {
    const id = 'api_token_whatever';
    const bad: [unknown, number][] = [
      [{}, 422],
      [{ credential_type: 'oauth_access_token', credential_id: id, window: { from: longAgo } }, 422],
      [{ credential_type: 'api_token', credential_id: '', window: { from: longAgo } }, 422],
      [{ credential_type: 'api_token', credential_id: 'x'.repeat(513), window: { from: longAgo } }, 422],
      [{ credential_type: 'api_token', credential_id: id }, 422],
      [{ credential_type: 'api_token', credential_id: id, window: { from: 'yesterday' } }, 422],
      [{ credential_type: 'api_token', credential_id: id, window: { from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' } }, 422],
      [{ credential_type: 'api_token', credential_id: id, window: { from: longAgo }, extra: 1 }, 422],
      [{ credential_type: 'api_token', credential_id: 42, window: { from: longAgo } }, 422],
      [[], 422],
    ];
    for (const [body, status] of bad) {
      for (const path of [PATH, EVIDENCE]) {
        const res = await call(us, path, { json: body });
        assert.equal(res.status, status, `${path} ${JSON.stringify(body)}: ${res.text}`);
        assert.ok(typeof res.body.message === 'string' && res.body.message.length > 0);
      }
    }
    const malformed = await call(us, PATH, { body: '{"credential_type":', headers: { 'content-type': 'application/json' } });
    assert.equal(malformed.status, 400);
    const empty = await call(us, PATH, { method: 'POST', headers: { 'content-type': 'application/json' } });
    assert.equal(empty.status, 400);
  });

  it('admits admin tokens only', async () => {
    const body = { credential_type: 'publishable_key', credential_id: us.sandbox.publishable_key, window: { from: longAgo } };
    for (const permissions of [['read'], ['read', 'write']]) {
      const t = await newToken(us, permissions);
      for (const path of [PATH, EVIDENCE]) {
        const res = await call(us, path, { json: body, headers: { authorization: `Bearer ${t.token}` } });
        assert.equal(res.status, 403, res.text);
        assert.equal(res.body.code, 'insufficient_permissions');
      }
    }
    for (const path of [PATH, EVIDENCE]) {
      const pk = await call(us, path, { json: body, headers: { 'x-publishable-key': us.sandbox.publishable_key } });
      assert.equal(pk.status, 403);
      assert.equal(pk.body.code, 'publishable_key_not_allowed');
    }
    const admin = await newToken(us, ['admin']);
    assert.equal((await call(us, PATH, { json: body, headers: { authorization: `Bearer ${admin.token}` } })).status, 200);
  });
});
