import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { consentExchange, consentVerification, decisionEnvelope, errorBody, type ConsentExchange, type Decision } from '@svc/schemas';
import { hashSecret, newId, newSecret } from '../../infra/ids.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { ALIAS_SUNSET } from './routes.js';
import { allowOrigin, createConsent, createDecision, exchange, grantStandard, ok, step, toReview, verify } from './test-support.js';

async function body<T = Record<string, unknown>>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/** A second account with its own admin API token, written straight into storage (the API has no account signup). */
function otherAccount(server: TestServer): string {
  const db = server.context.db;
  const now = new Date().toISOString();
  const accountId = newId('acct_');
  const token = newSecret();
  db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').run(accountId, 'Other', now);
  db.prepare(
    `INSERT INTO applications (id, account_id, name, environment, created_at, updated_at) VALUES (?, ?, 'Other app', 'development', ?, ?)`,
  ).run(newId('tp_dev_'), accountId, now, now);
  db.prepare(
    `INSERT INTO api_tokens (id, account_id, name, permissions, token_hash, created_at) VALUES (?, ?, 'other', '["read","write","admin"]', ?, ?)`,
  ).run(newId('api_token_'), accountId, hashSecret(token), now);
  return token;
}

async function readOnlyToken(server: TestServer): Promise<string> {
  const res = await server.api('/api/v1/api_tokens', { method: 'POST', json: { api_token: { name: 'reader', permissions: ['read'] } } });
  assert.equal(res.status, 201);
  return (await body<{ api_token: { token: string } }>(res)).api_token.token;
}

describe('POST /api/v1/decisions', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  it('creates a consent decision with a kind-uniform session: dts_ token, url, embed_url, status, deadline_at', async () => {
    const res = await server.api('/api/v1/decisions', {
      method: 'POST',
      json: { kind: 'consent', subject_ref: server.sandbox.flow_id, delivery_mode: 'embed', embed_origin: server.url, state: 'xyz' },
    });
    assert.equal(res.status, 201);
    const json = await body(res);
    const { decision } = decisionEnvelope.parse(json);
    assert.match(decision.session_token, /^dts_us_[A-Za-z0-9_-]{43}$/);
    assert.equal(decision.url, `${server.sandbox.trust_url}/decisions/${decision.session_token}`);
    assert.equal(decision.embed_url, `${decision.url}/embed`);
    assert.equal(decision.status, 'pending');
    assert.equal(decision.kind, 'consent');
    assert.equal(decision.flow_id, server.sandbox.flow_id);
    assert.equal(decision.flow_version, 1);
    assert.equal(decision.application_id, server.sandbox.application_id);
    assert.equal(decision.state, 'xyz');
    assert.equal(decision.outcome, null);
    assert.equal(Date.parse(decision.deadline_at) - Date.parse(decision.created_at), 15 * 60 * 1000);
    assert.equal(res.headers.get('location'), `/api/v1/decisions/${decision.session_token}`);
  });

  it("freezes the active version's terms into the decision, byte for byte as JSON.stringify writes them", async () => {
    const decision = await createConsent(server);
    const stored = server.context.db.prepare('SELECT terms FROM decisions WHERE id = ?').pluck().get(decision.id) as string;
    const version = server.context.db
      .prepare('SELECT title, description, config FROM flow_versions WHERE flow_id = ? AND version = ?')
      .get(server.sandbox.flow_id, decision.flow_version) as { title: string; description: string | null; config: string };
    assert.equal(stored, JSON.stringify({ title: version.title, description: version.description, config: JSON.parse(version.config) }));
  });

  it('gives every decision a different session token', async () => {
    const tokens = new Set<string>();
    for (let i = 0; i < 20; i += 1) tokens.add((await createConsent(server)).session_token);
    assert.equal(tokens.size, 20);
  });

  it('accepts the publishable key (the browser SDK creates sessions), which still cannot read them back', async () => {
    const decision = await createDecision(
      server,
      {
        kind: 'consent',
        subject_ref: server.sandbox.flow_id,
        delivery_mode: 'popup',
      },
      { 'x-publishable-key': server.sandbox.publishable_key },
    );
    assert.equal(decision.delivery_mode, 'popup');
    const read = await server.api(`/api/v1/decisions/${decision.session_token}`, {
      headers: { 'x-publishable-key': server.sandbox.publishable_key },
    });
    assert.equal(read.status, 403);
  });

  it('refuses a read-only API token (403) and a missing credential (401)', async () => {
    const reader = await readOnlyToken(server);
    const res = await server.api('/api/v1/decisions', {
      method: 'POST',
      headers: { authorization: `Bearer ${reader}` },
      json: { kind: 'consent', subject_ref: server.sandbox.flow_id, delivery_mode: 'popup' },
    });
    assert.equal(res.status, 403);
    const anonymous = await fetch(`${server.url}/api/v1/decisions`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(anonymous.status, 401);
    assert.ok(errorBody.safeParse(await anonymous.json()).success);
  });

  it('rejects a session against a draft flow with 422 flow_not_active (Errors rule 7)', async () => {
    const created = await server.api('/api/v1/flows', {
      method: 'POST',
      json: {
        flow: {
          pattern: 'standard',
          title: 'Draft',
          config: { purposes: [{ key: 'x', label: 'X', basis: 'consent', mechanism: 'explicit' }] },
        },
      },
    });
    assert.equal(created.status, 201);
    const { flow } = await body<{ flow: { id: string; status: string } }>(created);
    assert.equal(flow.status, 'draft');
    const res = await server.api('/api/v1/decisions', {
      method: 'POST',
      json: { kind: 'consent', subject_ref: flow.id, delivery_mode: 'popup' },
    });
    assert.equal(res.status, 422);
    const json = await body<{ code: string; message: string; errors: { path: string }[] }>(res);
    assert.equal(json.code, 'flow_not_active');
    assert.equal(json.errors[0]?.path, 'subject_ref');
    // Once active, the same request succeeds.
    assert.equal((await server.api(`/api/v1/flows/${flow.id}/activate`, { method: 'POST' })).status, 200);
    await createDecision(server, { kind: 'consent', subject_ref: flow.id, delivery_mode: 'popup' });
  });

  it('answers an unknown flow with 404 flow_not_found, also for a flow of another account', async () => {
    const res = await server.api('/api/v1/decisions', {
      method: 'POST',
      json: { kind: 'consent', subject_ref: 'flw_dev_nope', delivery_mode: 'popup' },
    });
    assert.equal(res.status, 404);
    assert.equal((await body(res)).code, 'flow_not_found');
    const other = otherAccount(server);
    const foreign = await server.api('/api/v1/decisions', {
      method: 'POST',
      headers: { authorization: `Bearer ${other}` },
      json: { kind: 'consent', subject_ref: server.sandbox.flow_id, delivery_mode: 'popup' },
    });
    assert.equal(foreign.status, 404);
  });

  it('rejects an embed_origin outside the allowed origins with 422 embed_origin_not_allowed (Errors rule 8)', async () => {
    const res = await server.api('/api/v1/decisions', {
      method: 'POST',
      json: { kind: 'consent', subject_ref: server.sandbox.flow_id, delivery_mode: 'embed', embed_origin: 'https://evil.example' },
    });
    assert.equal(res.status, 422);
    const json = await body<{ code: string; message: string; errors: { path: string; code: string }[] }>(res);
    assert.equal(json.code, 'embed_origin_not_allowed');
    assert.deepEqual(
      json.errors.map((e) => e.path),
      ['embed_origin'],
    );
    // The message says how to allow it, with the command a developer can paste.
    const app = server.sandbox.application_id;
    assert.match(json.message, new RegExp(`svc origins add https://evil\\.example --app ${app}\``));
    assert.match(json.message, new RegExp(`POST /api/v1/applications/${app}/allowed_origins`));
    // The same origin, once registered, is accepted.
    await allowOrigin(server, 'https://shop.example');
    await createConsent(server, { embed_origin: 'https://shop.example' });
  });

  it('requires embed_origin for embed, and an origin (no path, no trailing slash)', async () => {
    for (const embed of [undefined, `${server.url}/`, `${server.url}/page`, 'not a url', 'javascript:alert(1)']) {
      const res = await server.api('/api/v1/decisions', {
        method: 'POST',
        json: {
          kind: 'consent',
          subject_ref: server.sandbox.flow_id,
          delivery_mode: 'embed',
          ...(embed !== undefined ? { embed_origin: embed } : {}),
        },
      });
      assert.equal(res.status, 422, String(embed));
      const json = await body<{ errors: { path: string }[] }>(res);
      assert.deepEqual(
        json.errors.map((e) => e.path),
        ['embed_origin'],
        String(embed),
      );
    }
  });

  it('validates the creation request strictly: unknown fields, wrong enums, bad redirect_uri', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'consent', subject_ref: server.sandbox.flow_id, delivery_mode: 'popup', extra: 1 }, 'extra'],
      [{ kind: 'signature_request', subject_ref: 'x', delivery_mode: 'popup' }, 'kind'],
      [{ kind: 'consent', subject_ref: server.sandbox.flow_id, delivery_mode: 'iframe' }, 'delivery_mode'],
      [{ kind: 'consent', delivery_mode: 'popup' }, 'subject_ref'],
      [
        { kind: 'consent', subject_ref: server.sandbox.flow_id, delivery_mode: 'redirect', redirect_uri: 'javascript:alert(1)' },
        'redirect_uri',
      ],
      [{ kind: 'consent', subject_ref: server.sandbox.flow_id, delivery_mode: 'popup', scope: 7 }, 'scope'],
    ];
    for (const [json, path] of cases) {
      const res = await server.api('/api/v1/decisions', { method: 'POST', json });
      assert.equal(res.status, 422, JSON.stringify(json));
      const errors = (await body<{ errors: { path: string }[] }>(res)).errors;
      assert.ok(
        errors.some((e) => e.path === path),
        `${path} in ${JSON.stringify(errors)}`,
      );
    }
    const malformed = await server.api('/api/v1/decisions', {
      method: 'POST',
      body: '{"kind":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(malformed.status, 400);
  });

  it('holds a publishable key to redirect_uris on an allowed origin; an API token may send people anywhere http(s)', async () => {
    const pk = { 'x-publishable-key': server.sandbox.publishable_key };
    const res = await server.api('/api/v1/decisions', {
      method: 'POST',
      headers: pk,
      json: {
        kind: 'consent',
        subject_ref: server.sandbox.flow_id,
        delivery_mode: 'redirect',
        redirect_uri: 'https://elsewhere.example/back',
      },
    });
    assert.equal(res.status, 422);
    assert.equal((await body(res)).code, 'redirect_uri_not_allowed');
    await createDecision(
      server,
      { kind: 'consent', subject_ref: server.sandbox.flow_id, delivery_mode: 'redirect', redirect_uri: `${server.url}/back?x=1` },
      pk,
    );
    const d = await createDecision(server, {
      kind: 'consent',
      subject_ref: server.sandbox.flow_id,
      delivery_mode: 'redirect',
      redirect_uri: 'https://elsewhere.example/back',
    });
    assert.equal(d.redirect_uri, 'https://elsewhere.example/back');
  });

  it('creates an approval with an escalation id as subject_ref, carrying scope and state', async () => {
    const d = await createDecision(server, {
      kind: 'approval',
      subject_ref: 'esc_123',
      delivery_mode: 'popup',
      scope: 'payments:write',
      state: 'Pay 240 EUR',
    });
    assert.equal(d.kind, 'approval');
    assert.equal(d.subject_ref, 'esc_123');
    assert.equal(d.flow_id, null);
    assert.equal(d.scope, 'payments:write');
    assert.equal(d.status, 'pending');
  });
});

describe('GET /api/v1/decisions/{session_token}', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  it('reads the decision for its owner and 404s for anyone else and for malformed tokens', async () => {
    const d = await createConsent(server);
    const res = await server.api(`/api/v1/decisions/${d.session_token}`);
    assert.equal(res.status, 200);
    assert.deepEqual((await body<{ decision: Decision }>(res)).decision, d);
    const other = otherAccount(server);
    assert.equal((await server.api(`/api/v1/decisions/${d.session_token}`, { headers: { authorization: `Bearer ${other}` } })).status, 404);
    for (const token of ['dts_nope', 'x', `${d.session_token}x`, '..%2F..%2Fetc%2Fpasswd']) {
      assert.equal((await server.api(`/api/v1/decisions/${token}`)).status, 404, token);
    }
  });

  it('reports expired once the deadline passes on the server clock', async () => {
    const d = await createConsent(server);
    server.advance(15 * 60 - 1);
    assert.equal((await body<{ decision: Decision }>(await server.api(`/api/v1/decisions/${d.session_token}`))).decision.status, 'pending');
    server.advance(1);
    const after = (await body<{ decision: Decision }>(await server.api(`/api/v1/decisions/${d.session_token}`))).decision;
    assert.equal(after.status, 'expired');
    assert.equal(after.outcome, null);
  });

  it('shows the outcome and consent_transaction_id once completed', async () => {
    const d = await createConsent(server);
    await grantStandard(server, d.session_token);
    const after = (await body<{ decision: Decision }>(await server.api(`/api/v1/decisions/${d.session_token}`))).decision;
    assert.equal(after.status, 'fulfilled');
    assert.equal(after.outcome, 'granted');
    assert.match(after.consent_transaction_id ?? '', /^ctxn_/);
    assert.ok(after.completed_at);
  });
});

describe('decisions across a restart', () => {
  it('keeps decisions, completions and consent tokens on the same data directory', async () => {
    const first = await startTestServer();
    const d = await createConsent(first);
    const completion = await grantStandard(first, d.session_token);
    const pendingOne = await createConsent(first);
    await first.close();
    const second = await startTestServer({ dataDir: first.dataDir });
    try {
      const read = await second.api(`/api/v1/decisions/${d.session_token}`);
      assert.equal(read.status, 200);
      assert.equal((await body<{ decision: Decision }>(read)).decision.status, 'fulfilled');
      const exchanged = consentExchange.parse(await (await exchange(second, d.session_token, completion.exchange_token)).json());
      assert.equal(consentVerification.parse(await (await verify(second, exchanged.access_token!)).json()).valid, true);
      assert.equal((await step(second, pendingOne.session_token, { action: 'begin' })).status, 200);
    } finally {
      await second.dispose();
      rmSync(first.dataDir, { recursive: true, force: true });
    }
  });
});

describe('/api/v1/consent_sessions (deprecated alias)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  function assertDeprecated(res: Response, successorPath: string) {
    assert.match(res.headers.get('deprecation') ?? '', /^@\d+$/);
    assert.equal(res.headers.get('sunset'), ALIAS_SUNSET);
    // RFC 8594: an HTTP-date.
    assert.match(res.headers.get('sunset') ?? '', /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    assert.ok(Date.parse(res.headers.get('sunset')!) > Date.now());
    assert.equal(res.headers.get('link'), `<${server.url}${successorPath}>; rel="successor-version"`);
  }

  it('creates, reads and exchanges like /api/v1/decisions, with Deprecation, Sunset and Link headers', async () => {
    const created = await server.api('/api/v1/consent_sessions', {
      method: 'POST',
      json: { kind: 'consent', subject_ref: server.sandbox.flow_id, delivery_mode: 'embed', embed_origin: server.url },
    });
    assert.equal(created.status, 201);
    assertDeprecated(created, '/api/v1/decisions');
    const { decision } = decisionEnvelope.parse(await created.json());

    const read = await server.api(`/api/v1/consent_sessions/${decision.session_token}`);
    assert.equal(read.status, 200);
    assertDeprecated(read, `/api/v1/decisions/${decision.session_token}`);
    assert.deepEqual((await body<{ decision: Decision }>(read)).decision, decision);

    const completion = await grantStandard(server, decision.session_token);
    const exchanged = await exchange(server, decision.session_token, completion.exchange_token, '/api/v1/consent_sessions');
    assert.equal(exchanged.status, 200);
    assertDeprecated(exchanged, `/api/v1/decisions/${decision.session_token}/exchange`);
    const result = consentExchange.parse(await exchanged.json());

    const verified = await server.api('/api/v1/consent_sessions/verify', { method: 'POST', json: { consent_token: result.access_token } });
    assertDeprecated(verified, '/api/v1/consent_tokens/verify');
    assert.equal((await body(verified)).valid, true);
  });

  it('keeps the headers on errors the alias answers (404, 422)', async () => {
    const missing = await server.api('/api/v1/consent_sessions/dts_unknown');
    assert.equal(missing.status, 404);
    assertDeprecated(missing, '/api/v1/decisions/dts_unknown');
    const invalid = await server.api('/api/v1/consent_sessions', { method: 'POST', json: { kind: 'consent' } });
    assert.equal(invalid.status, 422);
    assertDeprecated(invalid, '/api/v1/decisions');
  });

  it('does not mark the current API deprecated', async () => {
    const res = await server.api('/api/v1/decisions', {
      method: 'POST',
      json: { kind: 'approval', subject_ref: 'esc_1', delivery_mode: 'popup' },
    });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('deprecation'), null);
    assert.equal(res.headers.get('sunset'), null);
  });
});

describe('exchange and consent tokens', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  it('exchanges a granted consent once for claims and a 5-minute consent token', async () => {
    const meeting = await server.api('/api/v1/meeting_consents', {
      method: 'POST',
      json: { title: 'Weekly review', template: server.sandbox.flow_id },
    });
    assert.equal(meeting.status, 201);
    const meetingId = ((await meeting.json()) as { meeting_consent: { id: string } }).meeting_consent.id;
    const d = await createConsent(server, { scope: 'profile newsletter', state: 'abc', meeting_id: meetingId });
    const completion = await grantStandard(server, d.session_token, ['newsletter']);
    assert.equal(completion.outcome, 'granted');
    assert.match(completion.exchange_token, /^[A-Za-z0-9_-]{43}$/);

    const res = await exchange(server, d.session_token, completion.exchange_token);
    assert.equal(res.status, 200);
    const result = consentExchange.parse(await res.json());
    assert.equal(result.token_type, 'consent_token');
    assert.match(result.access_token ?? '', /^[A-Za-z0-9_-]{43}$/, '32 random bytes, URL-safe base64');
    assert.equal(Buffer.from(result.access_token!, 'base64url').length, 32);
    assert.equal(result.expires_in, 300);
    assert.equal(result.status, 'fulfilled');
    assert.equal(result.outcome, 'granted');
    assert.equal(result.application_id, server.sandbox.application_id);
    assert.equal(result.scope, 'profile newsletter');
    assert.match(result.consent_transaction_id, /^ctxn_/);
    assert.deepEqual(result.provenance, { collection_channel: 'embedded', delivery_mode: 'embed' });
    assert.equal(result.claims.kind, 'consent');
    if (result.claims.kind !== 'consent') return;
    assert.equal(result.claims.flow_id, server.sandbox.flow_id);
    assert.equal(result.claims.flow_version, 1);
    assert.deepEqual(result.claims.purposes_granted, ['newsletter']);
    assert.deepEqual(result.claims.subject, { email: 'ada@example.com' });
    assert.deepEqual(Object.fromEntries(result.claims.purposes.map((p) => [p.key, p.outcome])), {
      newsletter: 'granted',
      analytics: 'noticed',
      service: 'noticed',
      invoices: 'noticed',
    });
    assert.equal(result.claims.state, 'abc');
    assert.equal(result.claims.meeting_id, meetingId);

    const again = await exchange(server, d.session_token, completion.exchange_token);
    assert.equal(again.status, 422);
    assert.equal((await body(again)).code, 'exchange_token_used');
  });

  it('verifies a consent token once; a second verify answers expired (Errors rule 6)', async () => {
    const d = await createConsent(server);
    const completion = await grantStandard(server, d.session_token);
    const { access_token } = consentExchange.parse(await (await exchange(server, d.session_token, completion.exchange_token)).json());
    const first = consentVerification.parse(await (await verify(server, access_token!)).json());
    assert.equal(first.valid, true);
    assert.equal(first.status, 'fulfilled');
    assert.equal(first.flow_id, server.sandbox.flow_id);
    assert.ok(first.expires_at);
    const second = await verify(server, access_token!);
    assert.equal(second.status, 200);
    const secondBody = consentVerification.parse(await second.json());
    assert.equal(secondBody.valid, false);
    assert.equal(secondBody.status, 'expired');
  });

  it('answers expired for a consent token verified after its 5 minutes (test clock)', async () => {
    const d = await createConsent(server);
    const completion = await grantStandard(server, d.session_token);
    const { access_token, expires_in } = consentExchange.parse(
      await (await exchange(server, d.session_token, completion.exchange_token)).json(),
    );
    assert.equal(expires_in, 300);
    server.advance(300);
    const res = consentVerification.parse(await (await verify(server, access_token!)).json());
    assert.deepEqual([res.valid, res.status], [false, 'expired']);
  });

  it('counts the token lifetime from issue: an exchange late in the 5 minutes gets the remaining seconds', async () => {
    const d = await createConsent(server);
    const completion = await grantStandard(server, d.session_token);
    server.advance(200);
    const result = consentExchange.parse(await (await exchange(server, d.session_token, completion.exchange_token)).json());
    assert.equal(result.expires_in, 100);
    server.advance(99);
    assert.equal(consentVerification.parse(await (await verify(server, result.access_token!)).json()).valid, true);
  });

  it('refuses an exchange token after its 5 minutes with exchange_token_expired', async () => {
    const d = await createConsent(server);
    const completion = await grantStandard(server, d.session_token);
    server.advance(301);
    const res = await exchange(server, d.session_token, completion.exchange_token);
    assert.equal(res.status, 422);
    assert.equal((await body(res)).code, 'exchange_token_expired');
  });

  it('refuses a wrong exchange token, one from another decision, and an exchange before completion', async () => {
    const a = await createConsent(server);
    const b = await createConsent(server);
    const notYet = await exchange(server, a.session_token, newSecret());
    assert.equal(notYet.status, 422);
    assert.equal((await body(notYet)).code, 'not_completed');
    const completionB = await grantStandard(server, b.session_token);
    await grantStandard(server, a.session_token);
    for (const wrong of [newSecret(), completionB.exchange_token, 'short']) {
      const res = await exchange(server, a.session_token, wrong);
      assert.equal(res.status, 422);
      assert.equal((await body(res)).code, 'exchange_token_invalid');
    }
    // B's token still works for B: the failed attempts on A did not consume it.
    assert.equal((await exchange(server, b.session_token, completionB.exchange_token)).status, 200);
  });

  it("answers invalid for a token never issued, and for another account's token without consuming it", async () => {
    const unknown = consentVerification.parse(await (await verify(server, newSecret())).json());
    assert.deepEqual([unknown.valid, unknown.status, unknown.expires_at], [false, 'invalid', null]);
    const d = await createConsent(server);
    const completion = await grantStandard(server, d.session_token);
    const { access_token } = consentExchange.parse(await (await exchange(server, d.session_token, completion.exchange_token)).json());
    const other = otherAccount(server);
    const foreign = await server.api('/api/v1/consent_tokens/verify', {
      method: 'POST',
      headers: { authorization: `Bearer ${other}` },
      json: { consent_token: access_token },
    });
    assert.equal(consentVerification.parse(await foreign.json()).status, 'invalid');
    const foreignExchange = await server.api(`/api/v1/decisions/${d.session_token}/exchange`, {
      method: 'POST',
      headers: { authorization: `Bearer ${other}` },
      json: { exchange_token: completion.exchange_token },
    });
    assert.equal(foreignExchange.status, 404);
    assert.equal(consentVerification.parse(await (await verify(server, access_token!)).json()).valid, true);
  });

  it("lets a read-only API token exchange and verify (they reveal outcomes; they change nothing of the caller's)", async () => {
    const reader = await readOnlyToken(server);
    const d = await createConsent(server);
    const completion = await grantStandard(server, d.session_token);
    const res = await server.api(`/api/v1/decisions/${d.session_token}/exchange`, {
      method: 'POST',
      headers: { authorization: `Bearer ${reader}` },
      json: { exchange_token: completion.exchange_token },
    });
    assert.equal(res.status, 200);
    const pk = await server.api('/api/v1/consent_tokens/verify', {
      method: 'POST',
      headers: { 'x-publishable-key': server.sandbox.publishable_key },
      json: { consent_token: newSecret() },
    });
    assert.equal(pk.status, 403);
  });

  it('stores consent and exchange tokens only hashed', async () => {
    const d = await createConsent(server);
    const completion = await grantStandard(server, d.session_token);
    const { access_token } = consentExchange.parse(await (await exchange(server, d.session_token, completion.exchange_token)).json());
    const dump = JSON.stringify([
      server.context.db.prepare('SELECT * FROM decisions').all(),
      server.context.db.prepare('SELECT * FROM consent_tokens').all(),
    ]);
    assert.ok(!dump.includes(access_token!));
    assert.ok(!dump.includes(completion.exchange_token));
    assert.ok(dump.includes(hashSecret(access_token!)));
  });

  it('completes a decline without a consent token; the exchange reports the declined outcome', async () => {
    const d = await createConsent(server);
    await ok(server, d.session_token, { action: 'begin' });
    const declined = await ok(server, d.session_token, { action: 'decline' });
    assert.equal(declined.completion?.outcome, 'declined');
    assert.deepEqual(declined.transition && [declined.transition.from, declined.transition.to], ['authenticating', 'declined']);
    const result: ConsentExchange = consentExchange.parse(
      await (await exchange(server, d.session_token, declined.completion!.exchange_token)).json(),
    );
    assert.equal(result.status, 'declined');
    assert.equal(result.outcome, 'declined');
    assert.equal(result.access_token, undefined);
    assert.equal(result.token_type, undefined);
    assert.equal(result.claims.outcome, 'declined');
    if (result.claims.kind === 'consent') assert.deepEqual(result.claims.purposes_granted, []);
    assert.equal(server.context.db.prepare('SELECT COUNT(*) FROM consent_tokens WHERE decision_id = ?').pluck().get(d.id), 0);
  });

  for (const [action, outcome] of [
    ['approve', 'approved'],
    ['deny', 'denied'],
    ['counter', 'countered'],
  ] as const) {
    it(`completes an approval as ${outcome}, exchanged for its claims without a consent token`, async () => {
      const d = await createDecision(server, {
        kind: 'approval',
        subject_ref: 'esc_42',
        delivery_mode: 'popup',
        scope: 'payments:write',
        state: 'Pay 240 EUR',
      });
      const done = await ok(server, d.session_token, action === 'counter' ? { action, proposal: 'Pay 200 EUR instead' } : { action });
      assert.equal(done.completion?.outcome, outcome);
      assert.deepEqual(done.transition && [done.transition.from, done.transition.to], ['pending', outcome]);
      const result = consentExchange.parse(await (await exchange(server, d.session_token, done.completion!.exchange_token)).json());
      assert.equal(result.status, outcome);
      assert.equal(result.access_token, undefined);
      assert.equal(result.provenance.collection_channel, 'hosted');
      assert.equal(result.claims.kind, 'approval');
      if (result.claims.kind !== 'approval') return;
      assert.equal(result.claims.escalation_id, 'esc_42');
      assert.equal(result.claims.counter_proposal, action === 'counter' ? 'Pay 200 EUR instead' : null);
      assert.equal(result.claims.state, 'Pay 240 EUR');
    });
  }

  it("emits one domain event per completed decision, in the decision's transaction", async () => {
    const seen: { type: string; application_id: string; data: Record<string, unknown> }[] = [];
    server.context.events.on('*', (_ctx, event) => seen.push(event));
    const granted = await createConsent(server);
    await grantStandard(server, granted.session_token);
    const declined = await createConsent(server);
    await ok(server, declined.session_token, { action: 'decline' });
    const approval = await createDecision(server, { kind: 'approval', subject_ref: 'esc_ev', delivery_mode: 'popup' });
    await ok(server, approval.session_token, { action: 'approve' });
    const cancelled = await createConsent(server);
    await ok(server, cancelled.session_token, { action: 'cancel', cancelled_by: 'user' });
    assert.deepEqual(
      seen.map((e) => e.type),
      ['consent.granted', 'consent.denied', 'approval.granted'],
    );
    assert.equal(seen[0]!.application_id, server.sandbox.application_id);
    assert.match(String(seen[0]!.data.consent_token), /^[A-Za-z0-9_-]{43}$/);
    assert.equal(seen[0]!.data.flow_id, server.sandbox.flow_id);
    assert.equal(seen[1]!.data.consent_token, undefined);
    assert.equal(seen[2]!.data.escalation_id, 'esc_ev');
  });

  it('counts created, completed and verified decisions in /metrics', async () => {
    const d = await createConsent(server);
    await toReview(server, d.session_token);
    await step(server, d.session_token, { action: 'agree', granted: [], objected: ['analytics'] });
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    assert.match(metrics, /decisions_created_total\{kind="consent"\} \d+/);
    assert.match(metrics, /decisions_completed_total\{kind="consent",outcome="granted"\} \d+/);
    assert.match(metrics, /consent_tokens_verified_total\{status="expired"\} \d+/);
  });
});
