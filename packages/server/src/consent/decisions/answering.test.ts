// Who may answer a decision addressed to a person: only that person, proven on the page (their signed-in session on
// the trust URL, or the page's code to their address). Each case is what an attacker would try: the organisation
// holding the session token, another person with their own email or their own session.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AuthorizationReceiptRecord, ConsentReceiptRecord } from '@svc/schemas';
import {
  agentToken,
  call,
  check,
  grant,
  newAgent,
  signIn,
  type Agent,
  type Json,
  type Person,
} from '../../authority/delegations/test-support.js';
import { Browser, personAccessToken } from '../../platform/oauth/test-support.js';
import type { PageData } from '../../hosted/pages/page-data.js';
import { fetchReceipt } from '../records/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { createConsent, createDecision, ok, proveAddressee, step } from './test-support.js';

let server: TestServer;
let ada: Person;
let agent: Agent;

before(async () => {
  server = await startTestServer();
  ada = await signIn(server, 'ada@example.com');
  agent = await newAgent(server, 'Shopping agent');
});
after(() => server.dispose());

/** A fresh 5,000 EUR escalation of Ada's agent (her grant allows 100 EUR a payment), read as the organisation. */
async function escalation(): Promise<{ id: string; token: string }> {
  const g = await grant(server, ada, agent.id, {
    delegation_type: 'ai_agent',
    delegated_scopes: ['payments:write'],
    bounds: { actions: ['write'], value: { max_per_transaction: 100, currency: 'EUR' }, escalation: { allowed: true } },
  });
  const token = await agentToken(server, g.id, agent);
  const asked = await check(server, token, {
    scope: 'payments:write',
    action: 'write',
    value: 5000,
    currency: 'EUR',
    description: 'Buy a car',
  });
  assert.equal(asked.status, 202, JSON.stringify(asked.body));
  const id = asked.body.authority_check.escalation.id as string;
  // The organisation's admin token reads the escalation and its approval's session token.
  const read = await call(server, `/api/v1/oap/escalations/${id}`);
  assert.equal(read.status, 200, JSON.stringify(read.body));
  return { id, token: read.body.escalation.decision.session_token };
}

const escalationStatus = async (id: string) => (await call(server, `/api/v1/oap/escalations/${id}`)).body.escalation.status as string;

/** A browser signed in on the trust URL as `email` (the provider's session cookie), the way `/inbox` signs people in. */
async function browserOf(email: string): Promise<Browser> {
  const browser = new Browser(server.url);
  await personAccessToken(server, email, 'openid', browser);
  return browser;
}

/** One participant step from `browser` (its cookies), as the hosted page sends it. */
function stepFrom(browser: Browser, token: string, body: Json): Promise<Response> {
  return browser.request(`/decisions/${token}/transitions`, { json: body, headers: { origin: server.url } });
}

/** The page data `browser` is shown for the decision. */
async function pageFor(browser: Browser, token: string): Promise<PageData> {
  const html = await (await browser.request(`/decisions/${token}`)).text();
  return JSON.parse(/<script type="application\/json" id="svc-decision-data">(.*?)<\/script>/s.exec(html)![1]!) as PageData;
}

async function receiptOf(token: string): Promise<AuthorizationReceiptRecord> {
  const decision = (await call(server, `/api/v1/decisions/${token}`)).body.decision as { record_id: string };
  const receipt = await fetchReceipt(server, decision.record_id);
  assert.equal(receipt.status, 200, JSON.stringify(receipt.body));
  return receipt.body.consent_receipt as AuthorizationReceiptRecord;
}

async function refused(res: Response, status: number, code: string): Promise<void> {
  const body = (await res.json()) as { message?: string; code?: string };
  assert.equal(res.status, status, JSON.stringify(body));
  assert.equal(body.code, code);
  assert.ok(body.message, 'the refusal says why');
}

describe("an escalation's approval is the principal's own act", () => {
  it("the organisation cannot approve with the session token it reads, on the escalation's decision or one it opens", async () => {
    const esc = await escalation();
    await refused(await step(server, esc.token, { action: 'approve' }), 403, 'sign_in_required');
    await refused(await step(server, esc.token, { action: 'counter', proposal: 'Approve it anyway' }), 403, 'sign_in_required');
    const own = await createDecision(server, { kind: 'approval', subject_ref: esc.id, delivery_mode: 'popup' });
    await refused(await step(server, own.session_token, { action: 'approve' }), 403, 'sign_in_required');
    assert.equal(await escalationStatus(esc.id), 'pending', 'nothing was decided');
    assert.equal((await call(server, `/api/v1/decisions/${esc.token}`)).body.decision.status, 'pending');
  });

  it('another person cannot have the code sent to their own address', async () => {
    const esc = await escalation();
    await refused(await step(server, esc.token, { action: 'send_code', email: 'mallory@example.com' }), 422, 'email_mismatch');
    await refused(await step(server, esc.token, { action: 'approve' }), 403, 'sign_in_required');
    assert.equal(await escalationStatus(esc.id), 'pending');
  });

  it('another person signed in on the trust URL is told the request is not theirs', async () => {
    const esc = await escalation();
    const mallory = await browserOf('mallory@example.com');
    const page = await pageFor(mallory, esc.token);
    assert.deepEqual(page.addressee, { email: 'ada@example.com', proven: false, signed_in_as: 'mallory@example.com' });
    await refused(await stepFrom(mallory, esc.token, { action: 'approve' }), 403, 'not_addressee');
    assert.equal(await escalationStatus(esc.id), 'pending');
  });

  it('the principal signed in on the trust URL approves, and the receipt records the session and when', async () => {
    const esc = await escalation();
    const before = server.context.clock.now();
    const browser = await browserOf('ada@example.com');
    const after = server.context.clock.now();
    const page = await pageFor(browser, esc.token);
    assert.deepEqual(page.addressee, { email: 'ada@example.com', proven: true, signed_in_as: null });
    server.advance(60);
    const res = await stepFrom(browser, esc.token, { action: 'approve' });
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(await escalationStatus(esc.id), 'approved');
    const receipt = await receiptOf(esc.token);
    assert.equal(receipt.pii_principal_id, ada.id, 'the principal is identified');
    const auth = receipt.extensions?.authentication;
    assert.equal(auth?.method, 'trust_session');
    // The sign-in's time, in the provider's whole seconds (the sign-in may cross a second), not the answer's 60 s later.
    const at = Date.parse(auth!.authenticated_at);
    assert.ok(at >= Math.floor(before / 1000) * 1000 && at <= after, `${auth!.authenticated_at} is during the sign-in`);
  });

  it('the principal proves it with the code sent to their address, and the receipt records the code and when', async () => {
    const esc = await escalation();
    const page = await pageFor(new Browser(server.url), esc.token);
    assert.deepEqual(page.addressee, { email: 'ada@example.com', proven: false, signed_in_as: null });
    const sent = await ok(server, esc.token, { action: 'send_code' });
    assert.equal(sent.progress.status, 'verifying');
    const wrong = sent.sandbox_code === '000000' ? '000001' : '000000';
    await refused(await step(server, esc.token, { action: 'verify', code: wrong }), 422, 'wrong_code');
    await refused(await step(server, esc.token, { action: 'approve' }), 403, 'sign_in_required');
    server.advance(30);
    const verifiedAt = new Date(server.context.clock.now()).toISOString();
    await ok(server, esc.token, { action: 'verify', code: sent.sandbox_code! });
    server.advance(30);
    const done = await ok(server, esc.token, { action: 'deny' });
    assert.equal(done.completion?.outcome, 'denied');
    const receipt = await receiptOf(esc.token);
    const auth = receipt.extensions?.authentication;
    assert.equal(auth?.method, 'email_code');
    // When the code was checked: after the clock reached `verifiedAt`, and 30 seconds before the answer.
    const at = Date.parse(auth!.authenticated_at);
    assert.ok(at >= Date.parse(verifiedAt) && at < Date.parse(verifiedAt) + 30_000, auth!.authenticated_at);
    assert.ok(Date.parse(receipt.extensions!.captured_at!) - at >= 30_000, 'the answer came after the code');
  });
});

describe('decisions addressed with `addressee`', () => {
  it('an approval is answered only after its addressee proves it; its receipt then names them', async () => {
    const d = await createDecision(server, {
      kind: 'approval',
      subject_ref: 'invoice-77',
      delivery_mode: 'popup',
      addressee: { email: 'Grace@Example.com' },
    });
    await refused(await step(server, d.session_token, { action: 'approve' }), 403, 'sign_in_required');
    const mallory = await browserOf('mallory@example.com');
    await refused(await stepFrom(mallory, d.session_token, { action: 'approve' }), 403, 'not_addressee');
    await proveAddressee(server, d.session_token);
    await ok(server, d.session_token, { action: 'approve' });
    const receipt = await receiptOf(d.session_token);
    assert.equal(receipt.anonymous, undefined, 'a proven addressee is identified');
    assert.match(receipt.pii_principal_id ?? '', /^prs_/);
    const principal = receipt.party_identification.find((p) => p.party_role === 'principal');
    assert.equal(principal?.party_name, 'grace@example.com');
    assert.equal(receipt.extensions?.authentication?.method, 'email_code');
  });

  it('an approval addressed to no one stays anonymous and records no authentication', async () => {
    const d = await createDecision(server, { kind: 'approval', subject_ref: 'invoice-78', delivery_mode: 'popup' });
    await refused(await step(server, d.session_token, { action: 'send_code' }), 422, 'invalid_transition');
    await ok(server, d.session_token, { action: 'approve' });
    const receipt = await receiptOf(d.session_token);
    assert.equal(receipt.anonymous, true);
    assert.equal(receipt.extensions?.authentication, undefined);
  });

  it("a consent decision takes only its addressee's email at sign-in", async () => {
    const d = await createConsent(server, { addressee: { email: 'grace@example.com' } });
    await ok(server, d.session_token, { action: 'begin' });
    await refused(await step(server, d.session_token, { action: 'sign_in', email: 'mallory@example.com' }), 422, 'email_mismatch');
    const signedIn = await ok(server, d.session_token, { action: 'sign_in', email: 'GRACE@example.com' });
    await ok(server, d.session_token, { action: 'verify', code: signedIn.sandbox_code! });
    const done = await ok(server, d.session_token, { action: 'agree', granted: ['newsletter'], objected: [] });
    assert.equal(done.completion?.outcome, 'granted');
    const recordId = (await call(server, `/api/v1/decisions/${d.session_token}`)).body.decision.record_id as string;
    const receipt = await fetchReceipt(server, recordId);
    const consent = receipt.body.consent_receipt as ConsentReceiptRecord;
    assert.equal(consent.extensions?.authentication?.method, 'email_code', 'the receipt says how the person was authenticated');
  });
});

describe('a production page never shows the code', () => {
  let prod: TestServer;
  before(async () => {
    prod = await startTestServer();
    // The sandbox's application, moved to production: its pages send codes by email only.
    prod.context.db.prepare("UPDATE applications SET environment = 'production' WHERE id = ?").run(prod.sandbox.application_id);
  });
  after(() => prod.dispose());

  it('holding the session token, the organisation gets no code to answer with', async () => {
    const d = await createDecision(prod, {
      kind: 'approval',
      subject_ref: 'invoice-79',
      delivery_mode: 'popup',
      addressee: { email: 'grace@example.com' },
    });
    const sent = await ok(prod, d.session_token, { action: 'send_code' });
    assert.equal(sent.sandbox_code, undefined);
    assert.equal(sent.progress.status, 'verifying');
    await refused(await step(prod, d.session_token, { action: 'approve' }), 403, 'sign_in_required');
  });
});
