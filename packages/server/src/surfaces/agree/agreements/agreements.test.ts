// Agreements end to end against a real server: parties in two countries sign, counter, decline or run out of time
// through their signing sessions (decisions of kind signature_request); the agreement moves pending ->
// partially_signed -> active at the quorum; one webhook per outcome; the receipt (the set of signatures) verifies
// offline and fails once a byte changes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SvcAgreementVerificationError, verifyAgreementReceipt, verifyReceipt, type WebhookEvent } from '@svc/client';
import { signatureDecisionData, type Agreement, type Decision, type SignedAgreementReceipt } from '@svc/schemas';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import type { PageData, TransitionRequest, TransitionResult } from '../../../hosted/pages/page-data.js';
import { startTestServer, type TestServer } from '../../../testing.js';
import { createActiveFlow, grantAll } from '../../../consent/records/test-support.js';
import { createEndpoint, delivered, startReceiver, waitFor, type Receiver } from '../../../platform/webhooks/test-support.js';

const TEXT = 'Tenancy agreement\n\n1. The tenant pays rent monthly.\n2. Either party may end it with three months\u2019 notice.\n';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const SIGNATURE_EVENTS = ['signature.signed', 'signature.declined', 'signature.expired', 'signature.countered'];

type Party = { email: string; home_country: string; name?: string };
const PARTIES: Party[] = [
  { email: 'Anna@Example.de', home_country: 'DE', name: 'Anna Schmidt' },
  { email: 'bob@example.com', home_country: 'US' },
  { email: 'clara@example.de', home_country: 'DE' },
];

async function body<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text) as T;
}

async function refused(res: Response, code: string, status = 422): Promise<void> {
  const json = await body<{ code: string; message: string }>(res, status);
  assert.equal(json.code, code, json.message);
  assert.ok(json.message);
}

function createAgreement(server: TestServer, overrides: Record<string, unknown> = {}): Promise<Response> {
  return server.api('/api/v1/agreements', {
    method: 'POST',
    json: { agreement: { title: 'Tenancy', document: { text: TEXT, sha256: sha256(TEXT) }, parties: PARTIES, quorum: 2, ...overrides } },
  });
}

function step(server: TestServer, token: string, request: TransitionRequest | Record<string, unknown>): Promise<Response> {
  return fetch(`${server.url}/decisions/${token}/transitions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(server.url).origin },
    body: JSON.stringify(request),
  });
}

const ok = async (server: TestServer, token: string, request: TransitionRequest) =>
  body<TransitionResult>(await step(server, token, request), 200);

/** The document, the code (shown on the page in the sandbox), and the typed name's screen. */
async function signIn(server: TestServer, token: string): Promise<void> {
  const sent = await ok(server, token, { action: 'send_code' });
  assert.match(sent.sandbox_code ?? '', /^\d{6}$/);
  assert.deepEqual(sent.transition, { from: 'pending', to: 'verifying', step_index: 1, total_steps: 4 });
  const verified = await ok(server, token, { action: 'verify', code: sent.sandbox_code! });
  assert.deepEqual(verified.transition, { from: 'verifying', to: 'reviewing', step_index: 2, total_steps: 4 });
}

const readAgreement = async (server: TestServer, id: string) =>
  (await body<{ agreement: Agreement }>(await server.api(`/api/v1/agreements/${id}`), 200)).agreement;
const jwksOf = async (server: TestServer) => body<JSONWebKeySet>(await fetch(`${server.url}/.well-known/jwks.json`), 200);

/** Flips one character of `text` at `index` to another base64url character. */
const flip = (text: string, index: number) => text.slice(0, index) + (text[index] === 'A' ? 'B' : 'A') + text.slice(index + 1);

describe('agreements: three parties in two countries, a quorum of two', () => {
  let server: TestServer;
  let receiver: Receiver;
  let secret: string;
  let agreement: Agreement;
  const completions: Record<string, string> = {};
  before(async () => {
    server = await startTestServer();
    receiver = await startReceiver();
    secret = (await createEndpoint(server, receiver.url, SIGNATURE_EVENTS)).secret;
  });
  after(async () => {
    await receiver.close();
    await server.dispose();
  });

  it('creates the agreement pending, with a signing session per party (kind signature_request, inferred from the token)', async () => {
    const res = await createAgreement(server);
    agreement = (await body<{ agreement: Agreement }>(res, 201)).agreement;
    assert.equal(res.headers.get('location'), `/api/v1/agreements/${agreement.id}`);
    assert.match(agreement.id, /^agr_/);
    assert.deepEqual(
      [agreement.status, agreement.quorum_status, agreement.quorum, agreement.document_sha256],
      ['pending', 'open', 2, sha256(TEXT)],
    );
    assert.equal(agreement.parties.length, 3);
    assert.deepEqual(
      agreement.party_details.map((p) => [p.email, p.home_country, p.status]),
      [
        ['anna@example.de', 'DE', 'pending'],
        ['bob@example.com', 'US', 'pending'],
        ['clara@example.de', 'DE', 'pending'],
      ],
    );
    assert.ok(agreement.expires_at);
    for (const party of agreement.party_details) {
      assert.match(party.session_token, /^dts_/);
      assert.equal(party.url, `${server.url}/decisions/${party.session_token}`);
      const { decision } = await body<{ decision: Decision }>(await server.api(`/api/v1/decisions/${party.session_token}`), 200);
      assert.deepEqual(
        [
          decision.kind,
          decision.status,
          decision.subject_ref,
          decision.delivery_mode,
          decision.agreement_id,
          decision.addressee_email,
          decision.home_country,
        ],
        ['signature_request', 'pending', party.id, 'redirect', agreement.id, party.email, party.home_country],
      );
      assert.equal(decision.deadline_at, agreement.expires_at);
    }
  });

  it('serves the hosted signing page: the document as text, its SHA-256, the party and the quorum', async () => {
    const party = agreement.party_details[1]!;
    const res = await fetch(party.url);
    assert.equal(res.status, 200);
    const page = await res.text();
    const data = JSON.parse(/<script type="application\/json" id="svc-decision-data">([\s\S]*?)<\/script>/.exec(page)![1]!) as PageData;
    assert.equal(data.kind, 'signature_request');
    assert.equal(data.total_steps, 4);
    assert.deepEqual(
      data.signature_request && {
        text: data.signature_request.document_text,
        sha: data.signature_request.document_sha256,
        email: data.signature_request.party.email,
        country: data.signature_request.party.home_country,
        quorum: data.signature_request.quorum,
        signed: data.signature_request.signed_count,
      },
      { text: TEXT, sha: sha256(TEXT), email: 'bob@example.com', country: 'US', quorum: 2, signed: 0 },
    );
    assert.equal(data.consent, null);
    assert.equal(data.approval, null);
  });

  it('party 1 signs after the sign-in code: the agreement is partially_signed', async () => {
    const token = agreement.party_details[0]!.session_token;
    await refused(await step(server, token, { action: 'sign', name: 'Anna Schmidt' }), 'sign_in_required');
    await signIn(server, token);
    const done = await ok(server, token, { action: 'sign', name: '  Anna Schmidt ' });
    assert.deepEqual(done.transition, { from: 'reviewing', to: 'signed', step_index: 3, total_steps: 4 });
    assert.equal(done.completion?.outcome, 'signed');
    completions.anna = done.completion!.exchange_token;
    const now = await readAgreement(server, agreement.id);
    assert.deepEqual([now.status, now.quorum_status, now.activated_at], ['partially_signed', 'open', null]);
    assert.deepEqual(
      now.party_details.map((p) => p.status),
      ['signed', 'pending', 'pending'],
    );
  });

  it("refuses a party's second action", async () => {
    const token = agreement.party_details[0]!.session_token;
    await refused(await step(server, token, { action: 'sign', name: 'Anna Schmidt' }), 'decision_completed');
    await refused(await step(server, token, { action: 'decline' }), 'decision_completed');
    await refused(await step(server, token, { action: 'send_code' }), 'decision_completed');
  });

  it('party 2 counters: no signature, a deny vote with the counter-proposal', async () => {
    const token = agreement.party_details[1]!.session_token;
    await signIn(server, token);
    const done = await ok(server, token, { action: 'counter', proposal: 'Two months\u2019 notice instead of three.' });
    assert.equal(done.completion?.outcome, 'countered');
    const now = await readAgreement(server, agreement.id);
    assert.deepEqual([now.status, now.quorum_status], ['partially_signed', 'open']);
  });

  it('party 3 signs: the quorum is reached at the second signature and the agreement is active', async () => {
    const token = agreement.party_details[2]!.session_token;
    await signIn(server, token);
    await ok(server, token, { action: 'sign', name: 'Clara Weber' });
    const now = await readAgreement(server, agreement.id);
    assert.deepEqual([now.status, now.quorum_status], ['active', 'reached']);
    assert.ok(now.activated_at);
  });

  it('sends one webhook per outcome, once each: signature.signed twice, signature.countered once', async () => {
    const events = await delivered(server, receiver, secret);
    assert.deepEqual(
      events.map((e) => e.type),
      ['signature.signed', 'signature.countered', 'signature.signed'],
    );
    assert.equal(new Set(events.map((e) => e.id)).size, 3);
    const [first, countered, last] = events as (WebhookEvent & { data: Record<string, unknown> })[];
    for (const event of events) assert.ok(signatureDecisionData.safeParse(event.data).success, JSON.stringify(event.data));
    assert.deepEqual(
      [first!.data.party_email, first!.data.home_country, first!.data.vote, first!.data.agreement_status, first!.data.signatures],
      ['anna@example.de', 'DE', 'approve', 'partially_signed', 1],
    );
    assert.match(String(first!.data.signature), /^[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.deepEqual(
      [countered!.data.home_country, countered!.data.vote, countered!.data.counter_proposal, countered!.data.signature],
      ['US', 'deny', 'Two months\u2019 notice instead of three.', null],
    );
    assert.deepEqual([last!.data.agreement_status, last!.data.quorum_status, last!.data.signatures], ['active', 'reached', 2]);
    await readAgreement(server, agreement.id);
    assert.deepEqual(await delivered(server, receiver, secret), [], 'nothing more');
  });

  it('records the quorum votes per party', async () => {
    const { quorum_votes } = await body<{ quorum_votes: { party_id: string; vote: string; comment: string | null }[] }>(
      await server.api(`/api/v1/agreements/${agreement.id}/quorum_votes`),
      200,
    );
    const ids = agreement.party_details.map((p) => p.id);
    assert.deepEqual(
      quorum_votes.map((v) => [v.party_id, v.vote, v.comment]),
      [
        [ids[0], 'approve', null],
        [ids[1], 'deny', 'Two months\u2019 notice instead of three.'],
        [ids[2], 'approve', null],
      ],
    );
  });

  it('exchanges a signing session for its claims, with the signature', async () => {
    const token = agreement.party_details[0]!.session_token;
    const exchanged = await body<{ claims: Record<string, unknown>; outcome: string; status: string }>(
      await server.api(`/api/v1/decisions/${token}/exchange`, { method: 'POST', json: { exchange_token: completions.anna } }),
      200,
    );
    assert.deepEqual(
      [exchanged.outcome, exchanged.status, exchanged.claims.kind, exchanged.claims.signed_name, exchanged.claims.agreement_id],
      ['signed', 'signed', 'signature_request', 'Anna Schmidt', agreement.id],
    );
    const jwks = await jwksOf(server);
    const { payload, protectedHeader } = await compactVerify(String(exchanged.claims.signature), createLocalJWKSet(jwks));
    assert.equal(protectedHeader.typ, 'svc-signature+jwt');
    const { authentication, ...signed } = JSON.parse(new TextDecoder().decode(payload)) as {
      authentication: { method: string; authenticated_at: string };
    };
    assert.deepEqual(signed, {
      agreement_id: agreement.id,
      document_sha256: sha256(TEXT),
      party_id: agreement.party_details[0]!.id,
      party_email: 'anna@example.de',
      signed_name: 'Anna Schmidt',
      signed_at: exchanged.claims.decided_at,
    });
    // The signature says how Anna proved it was her (the page's code to her address), and when: before she signed.
    assert.equal(authentication.method, 'email_code');
    assert.ok(authentication.authenticated_at <= String(exchanged.claims.decided_at), authentication.authenticated_at);
  });

  it('answers the receipt, the set of signatures, which verifies offline and fails once one byte changes', async () => {
    const signed = await body<SignedAgreementReceipt>(await server.api(`/api/v1/agreements/${agreement.id}/receipt`), 200);
    assert.deepEqual(
      signed.agreement_receipt.signatures.map((s) => s.party_id),
      [agreement.party_details[0]!.id, agreement.party_details[2]!.id],
    );
    const jwks = await jwksOf(server);
    const verified = await verifyAgreementReceipt(JSON.stringify(signed), jwks);
    assert.deepEqual([verified.status, verified.signed.map((s) => s.signed_name)], ['active', ['Anna Schmidt', 'Clara Weber']]);

    const text = JSON.stringify(signed);
    const at = text.indexOf('Tenancy');
    await assert.rejects(verifyAgreementReceipt(`${text.slice(0, at)}X${text.slice(at + 1)}`, jwks), SvcAgreementVerificationError);
    const jws = signed.agreement_receipt.signatures[0]!.jws;
    const tampered = structuredClone(signed);
    tampered.agreement_receipt.signatures[0]!.jws = flip(jws, jws.length - 5);
    await assert.rejects(verifyAgreementReceipt(tampered, jwks), SvcAgreementVerificationError);
  });

  it('lists agreements with a status filter', async () => {
    const active = await body<{ agreements: Agreement[] }>(await server.api('/api/v1/agreements?status=active'), 200);
    assert.ok(active.agreements.some((a) => a.id === agreement.id));
    const pending = await body<{ agreements: Agreement[] }>(await server.api('/api/v1/agreements?status=pending'), 200);
    assert.ok(!pending.agreements.some((a) => a.id === agreement.id));
    assert.equal((await server.api('/api/v1/agreements?status=signed')).status, 400);
  });
});

describe('agreements: refusals on the signing page', () => {
  let server: TestServer;
  let agreement: Agreement;
  before(async () => {
    server = await startTestServer();
    agreement = (await body<{ agreement: Agreement }>(await createAgreement(server), 201)).agreement;
  });
  after(() => server.dispose());

  it('refuses a wrong code (and counts it), then accepts the right one', async () => {
    const token = agreement.party_details[0]!.session_token;
    const sent = await ok(server, token, { action: 'send_code' });
    const wrong = sent.sandbox_code === '000000' ? '000001' : '000000';
    await refused(await step(server, token, { action: 'verify', code: wrong }), 'wrong_code');
    await refused(await step(server, token, { action: 'sign', name: 'Anna' }), 'sign_in_required');
    const resent = await ok(server, token, { action: 'send_code' });
    assert.equal(resent.transition, null, 'a code sent again changes nothing the host sees');
    if (resent.sandbox_code !== sent.sandbox_code) {
      await refused(await step(server, token, { action: 'verify', code: sent.sandbox_code! }), 'wrong_code');
    }
    await ok(server, token, { action: 'verify', code: resent.sandbox_code! });
  });

  it('refuses an empty typed name, a code for another address, a consent step and a cancel', async () => {
    const token = agreement.party_details[1]!.session_token;
    await refused(await step(server, token, { action: 'send_code', email: 'mallory@example.com' }), 'email_mismatch');
    await refused(await step(server, token, { action: 'agree', granted: [], objected: [] }), 'invalid_transition');
    await refused(await step(server, token, { action: 'approve' }), 'invalid_transition');
    await refused(await step(server, token, { action: 'cancel', cancelled_by: 'user' }), 'invalid_transition');
    await signIn(server, token);
    await refused(await step(server, token, { action: 'sign', name: '   ' }), 'validation_failed');
    await refused(await step(server, token, { action: 'sign' }), 'validation_failed');
    const { decision } = await body<{ decision: Decision }>(await server.api(`/api/v1/decisions/${token}`), 200);
    assert.equal(decision.status, 'reviewing');
  });

  it('a decline with a comment is a deny vote; with two of three parties out the quorum of two is unreachable', async () => {
    const [, bob, clara] = agreement.party_details;
    await ok(server, bob!.session_token, { action: 'decline', comment: 'Not this year.' });
    await signIn(server, clara!.session_token);
    await ok(server, clara!.session_token, { action: 'decline' });
    const now = await readAgreement(server, agreement.id);
    assert.deepEqual([now.status, now.quorum_status], ['pending', 'unreachable']);
    assert.deepEqual(
      now.party_details.map((p) => [p.status, p.vote, p.comment]),
      [
        ['pending', null, null],
        ['declined', 'deny', 'Not this year.'],
        ['declined', 'deny', null],
      ],
    );
  });
});

describe('agreements: expiry', () => {
  let server: TestServer;
  let receiver: Receiver;
  let secret: string;
  before(async () => {
    server = await startTestServer();
    receiver = await startReceiver();
    secret = (await createEndpoint(server, receiver.url, SIGNATURE_EVENTS)).secret;
  });
  after(async () => {
    await receiver.close();
    await server.dispose();
  });

  const inAnHour = (server: TestServer) => new Date(server.context.clock.now() + 3600_000).toISOString();

  it('moves open sessions to expired at the deadline when the agreement is read: signature.expired once per party', async () => {
    const created = (await body<{ agreement: Agreement }>(await createAgreement(server, { quorum: 1, expires_at: inAnHour(server) }), 201))
      .agreement;
    const [anna] = created.party_details;
    await signIn(server, anna!.session_token);
    await ok(server, anna!.session_token, { action: 'sign', name: 'Anna Schmidt' });
    assert.deepEqual(
      (await delivered(server, receiver, secret)).map((e) => e.type),
      ['signature.signed'],
    );
    server.advance(3601);
    const read = await readAgreement(server, created.id);
    assert.deepEqual(
      read.party_details.map((p) => [p.status, p.vote]),
      [
        ['signed', 'approve'],
        ['expired', null],
        ['expired', null],
      ],
    );
    assert.deepEqual([read.status, read.quorum_status], ['active', 'reached']);
    // Every other way of reading changes nothing more.
    await readAgreement(server, created.id);
    for (const party of read.party_details) await server.api(`/api/v1/decisions/${party.session_token}`);
    await fetch(read.party_details[1]!.url);
    const events = await delivered(server, receiver, secret);
    assert.deepEqual(
      events.map((e) => [e.type, (e.data as Record<string, unknown>).party_id, (e.data as Record<string, unknown>).outcome]),
      [
        ['signature.expired', read.party_details[1]!.id, 'expired'],
        ['signature.expired', read.party_details[2]!.id, 'expired'],
      ],
    );
    await refused(await step(server, read.party_details[1]!.session_token, { action: 'send_code' }), 'decision_expired');
    assert.deepEqual(await delivered(server, receiver, secret), []);
  });

  it('sweeps sessions past their deadline without anyone reading them', async () => {
    const created = (await body<{ agreement: Agreement }>(await createAgreement(server, { expires_at: inAnHour(server) }), 201)).agreement;
    server.advance(3601);
    const statuses = () =>
      server.context.db.prepare('SELECT status FROM agreement_parties WHERE agreement_id = ? ORDER BY seq').pluck().all(created.id);
    await waitFor(() => statuses().every((s) => s === 'expired'), 5000, 'the sweep');
    const events = await delivered(server, receiver, secret);
    assert.deepEqual(
      events.map((e) => e.type),
      ['signature.expired', 'signature.expired', 'signature.expired'],
    );
    assert.deepEqual((await readAgreement(server, created.id)).quorum_status, 'unreachable');
    assert.deepEqual(await delivered(server, receiver, secret), []);
  });
});

describe('agreements: creation refusals', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  it('refuses a digest that is not the SHA-256 of the text (422 digest_mismatch)', async () => {
    const res = await createAgreement(server, { document: { text: TEXT, sha256: sha256(`${TEXT} `) } });
    const json = await body<{ code: string; errors: { path: string }[] }>(res, 422);
    assert.equal(json.code, 'digest_mismatch');
    assert.deepEqual(
      json.errors.map((e) => e.path),
      ['agreement.document.sha256'],
    );
  });

  it('refuses a quorum above the number of parties, and one below one', async () => {
    for (const quorum of [4, 0]) {
      const json = await body<{ errors: { path: string }[] }>(await createAgreement(server, { quorum }), 422);
      assert.deepEqual(
        json.errors.map((e) => e.path),
        ['agreement.quorum'],
      );
    }
  });

  it('refuses a party twice, a bad country, embed without or with a foreign origin, a past or far deadline', async () => {
    await refused(
      await createAgreement(server, { parties: [PARTIES[0], { email: 'ANNA@example.de', home_country: 'FR' }] }),
      'validation_failed',
    );
    await refused(
      await createAgreement(server, { parties: [{ email: 'x@example.com', home_country: 'de' }], quorum: 1 }),
      'validation_failed',
    );
    await refused(await createAgreement(server, { delivery_mode: 'embed' }), 'validation_failed');
    await refused(
      await createAgreement(server, { delivery_mode: 'embed', embed_origin: 'https://evil.example' }),
      'embed_origin_not_allowed',
    );
    await refused(
      await createAgreement(server, { expires_at: new Date(server.context.clock.now() - 1000).toISOString() }),
      'expires_at_invalid',
    );
    await refused(
      await createAgreement(server, { expires_at: new Date(server.context.clock.now() + 91 * 86400_000).toISOString() }),
      'expires_at_invalid',
    );
    const { agreements } = await body<{ agreements: Agreement[] }>(await server.api('/api/v1/agreements'), 200);
    assert.deepEqual(agreements, [], 'a refusal leaves nothing behind');
    assert.equal(server.context.db.prepare("SELECT count(*) FROM decisions WHERE kind = 'signature_request'").pluck().get(), 0);
  });

  it('embeds the sessions on an allowed origin', async () => {
    const origin = new URL(server.url).origin;
    const created = (
      await body<{ agreement: Agreement }>(await createAgreement(server, { delivery_mode: 'embed', embed_origin: origin }), 201)
    ).agreement;
    const { decision } = await body<{ decision: Decision }>(
      await server.api(`/api/v1/decisions/${created.party_details[0]!.session_token}`),
      200,
    );
    assert.deepEqual([decision.delivery_mode, decision.embed_origin], ['embed', origin]);
  });

  it('needs write to create and answers 404 for an unknown agreement', async () => {
    const token = await body<{ api_token: { token: string } }>(
      await server.api('/api/v1/api_tokens', { method: 'POST', json: { api_token: { name: 'reader', permissions: ['read'] } } }),
      201,
    );
    const res = await server.api('/api/v1/agreements', {
      method: 'POST',
      headers: { authorization: `Bearer ${token.api_token.token}` },
      json: {},
    });
    assert.equal(res.status, 403);
    await refused(await server.api('/api/v1/agreements/agr_0000000000000000000A'), 'not_found', 404);
    await refused(await server.api('/api/v1/agreements/agr_0000000000000000000A/receipt'), 'not_found', 404);
  });
});

describe('agreements: a consent record captured with a signature carries signature_evidence', () => {
  let server: TestServer;
  let agreement: Agreement;
  let flowId: string;
  before(async () => {
    server = await startTestServer();
    flowId = await createActiveFlow(server);
    agreement = (await body<{ agreement: Agreement }>(await createAgreement(server), 201)).agreement;
    const anna = agreement.party_details[0]!;
    await signIn(server, anna.session_token);
    await ok(server, anna.session_token, { action: 'sign', name: 'Anna Schmidt' });
  });
  after(() => server.dispose());

  const record = (email: string, signature?: Record<string, string>) =>
    server.api('/api/v1/consent_records', {
      method: 'POST',
      json: { flow_id: flowId, subject: { email }, decisions: grantAll, ...(signature ? { signature } : {}) },
    });

  it("points at the agreement's receipt and digests the signature's JWS; the signed receipt verifies offline", async () => {
    const anna = agreement.party_details[0]!;
    const { consent_record } = await body<{ consent_record: { id: string } }>(
      await record('Anna@example.de', { agreement_id: agreement.id, party_id: anna.id }),
      201,
    );
    const { consent_receipt: receipt } = await body<{ consent_receipt: { extensions: Record<string, unknown> } }>(
      await server.api(`/api/v1/consent_receipts/${consent_record.id}`),
      200,
    );
    const signed = await body<SignedAgreementReceipt>(await server.api(`/api/v1/agreements/${agreement.id}/receipt`), 200);
    const jws = signed.agreement_receipt.signatures.find((s) => s.party_id === anna.id)!.jws;
    assert.deepEqual(receipt.extensions.signature_evidence, {
      pointer: `${server.url}/api/v1/agreements/${agreement.id}/receipt`,
      digest: `sha256:${createHash('sha256').update(jws).digest('hex')}`,
    });
    const flavored = await body<{ receipt: Record<string, unknown>; signature: string }>(
      await server.api(`/api/v1/consent_receipts/${consent_record.id}?flavor=signed`),
      200,
    );
    const verified = (await verifyReceipt(flavored, await jwksOf(server))) as { extensions?: Record<string, unknown> };
    assert.deepEqual(verified.extensions?.signature_evidence, receipt.extensions.signature_evidence);
  });

  it('refuses a party who did not sign, a signer who is not the subject, and an unknown party; a record without one has none', async () => {
    const [anna, bob] = agreement.party_details;
    await refused(await record('bob@example.com', { agreement_id: agreement.id, party_id: bob!.id }), 'signature_not_signed');
    await refused(await record('someone@example.com', { agreement_id: agreement.id, party_id: anna!.id }), 'signature_subject_mismatch');
    await refused(
      await record('anna@example.de', { agreement_id: agreement.id, party_id: 'pty_AAAAAAAAAAAAAAAAAAAA' }),
      'signature_not_found',
    );
    await refused(await record('anna@example.de', { agreement_id: 'agr_AAAAAAAAAAAAAAAAAAAA', party_id: anna!.id }), 'signature_not_found');
    const { consent_record } = await body<{ consent_record: { id: string } }>(await record('dora@example.com'), 201);
    const plain = await body<{ consent_receipt: { extensions: Record<string, unknown> } }>(
      await server.api(`/api/v1/consent_receipts/${consent_record.id}`),
      200,
    );
    assert.equal(plain.consent_receipt.extensions.signature_evidence, undefined);
  });
});
