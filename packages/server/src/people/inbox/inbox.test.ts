// The Trust Inbox over HTTP: what waits for a person (addressed to their verified email by any organisation), its
// filters, orders and pages, who may read it, and the hosted page `/inbox` with its sign-in through the service's
// own OpenID provider.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { inboxList, type InboxDecision } from '@svc/schemas';
import { hashSecret, newId, newSecret } from '../../infra/ids.js';
import { createDecision, ok, proveAddressee } from '../../consent/decisions/test-support.js';
import { agentToken, call, check, grant, newAgent, type Agent, type Json, type Person } from '../../authority/delegations/test-support.js';
import { Browser, personAccessToken } from '../../platform/oauth/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';

let server: TestServer;
let ada: Person;
let adaElsewhere: string;
let bob: Person;
let agent: Agent;
let other: { token: string; applicationId: string };

/** A second account (its own application and admin token), written straight into storage: the API has no signup. */
function otherAccount(): { token: string; applicationId: string; accountId: string } {
  const db = server.context.db;
  const now = new Date().toISOString();
  const accountId = newId('acct_');
  const applicationId = newId('tp_dev_');
  const token = newSecret();
  db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').run(accountId, 'Other organisation', now);
  db.prepare(
    `INSERT INTO applications (id, account_id, name, environment, created_at, updated_at) VALUES (?, ?, 'Other shop', 'development', ?, ?)`,
  ).run(applicationId, accountId, now, now);
  db.prepare(
    `INSERT INTO api_tokens (id, account_id, name, permissions, token_hash, created_at) VALUES (?, ?, 'other', '["read","write","admin"]', ?, ?)`,
  ).run(newId('api_token_'), accountId, hashSecret(token), now);
  return { token, applicationId, accountId };
}

/** A person signed in through the sandbox's client with `scope`. */
async function signIn(email: string, scope = 'openid email inbox:read'): Promise<Person> {
  const token = await personAccessToken(server, email, scope);
  const me = await call(server, '/api/v1/me', { token });
  assert.equal(me.status, 200, JSON.stringify(me.body));
  return { token, id: me.body.person.id };
}

/** The inbox as `token` reads it (asserts 200 and the schema). */
async function inbox(
  token: string,
  query = '',
  headers: Record<string, string> = {},
): Promise<{ decisions: InboxDecision[]; next_cursor: string | null }> {
  const res = await call(server, `/api/v1/inbox${query}`, { token, headers });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const parsed = inboxList.safeParse(res.body);
  assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
  return parsed.data;
}

const tokensOf = (list: { decisions: InboxDecision[] }) => list.decisions.map((d) => d.session_token);

const created: Record<string, string> = {};

before(async () => {
  server = await startTestServer();
  ada = await signIn('ada@example.com');
  bob = await signIn('bob@example.com');
  agent = await newAgent(server, 'Travel agent');
  other = otherAccount();

  // Ada signs in through another organisation's own client too: another person (per account), the same email.
  const client = await call(server, `/api/v1/applications/${other.applicationId}/oauth_clients`, {
    headers: { authorization: `Bearer ${other.token}` },
    json: { oauth_client: { name: 'Other shop app', client_type: 'confidential', redirect_uris: ['https://shop.example/cb'] } },
  });
  assert.equal(client.status, 201, JSON.stringify(client.body));
  adaElsewhere = await personAccessToken(
    {
      url: server.url,
      sandbox: {
        ...server.sandbox,
        oauth_client_id: client.body.oauth_client.client_id,
        oauth_client_secret: client.body.oauth_client.client_secret,
        oauth_redirect_uri: 'https://shop.example/cb',
      },
    },
    'ADA@example.com',
    'openid inbox:read',
  );

  // t0: a consent addressed to Ada (15 minutes), and one to Bob, and one to no one.
  created.consent = (
    await createDecision(server, {
      kind: 'consent',
      subject_ref: server.sandbox.flow_id,
      delivery_mode: 'redirect',
      addressee: { email: ' Ada@Example.com ' },
    })
  ).session_token;
  created.bobConsent = (
    await createDecision(server, {
      kind: 'consent',
      subject_ref: server.sandbox.flow_id,
      delivery_mode: 'redirect',
      addressee: { email: 'bob@example.com' },
    })
  ).session_token;
  created.nobody = (
    await createDecision(server, { kind: 'consent', subject_ref: server.sandbox.flow_id, delivery_mode: 'redirect' })
  ).session_token;
  server.advance(60);
  // t0+1m: the agent Ada authorised goes above its value bound (24 hours) and outside its scope.
  const g = await grant(server, ada, agent.id, {
    delegation_type: 'ai_agent',
    delegated_scopes: ['payments:write'],
    bounds: { actions: ['write'], value: { max_per_transaction: 100, currency: 'EUR' }, escalation: { allowed: true } },
  });
  const token = await agentToken(server, g.id, agent);
  const value = await check(server, token, {
    scope: 'payments:write',
    action: 'write',
    value: 240,
    currency: 'EUR',
    description: 'Pay the flight',
  });
  assert.equal(value.status, 202, JSON.stringify(value.body));
  created.valueEscalation = value.body.authority_check.escalation.id;
  server.advance(60);
  const scope = await check(server, token, {
    scope: 'bookings:write',
    action: 'write',
    value: 80,
    currency: 'EUR',
    description: 'Book a hotel',
  });
  assert.equal(scope.status, 202, JSON.stringify(scope.body));
  created.scopeEscalation = scope.body.authority_check.escalation.id;
  for (const key of ['valueEscalation', 'scopeEscalation']) {
    const esc = await call(server, `/api/v1/oap/escalations/${created[key]}`);
    created[`${key}Decision`] = esc.body.escalation.decision.session_token;
  }
  server.advance(60);
  // t0+3m: another organisation asks Ada for an approval of its own workflow (15 minutes).
  created.otherApproval = (
    await createDecision(
      server,
      { kind: 'approval', subject_ref: 'expense-42', delivery_mode: 'redirect', addressee: { email: 'ada@example.com' } },
      { authorization: `Bearer ${other.token}` },
    )
  ).session_token;
});
after(() => server.dispose());

describe('GET /api/v1/inbox', () => {
  it('lists what waits for the person, soonest deadline first, across organisations, each row linking to its hosted page', async () => {
    const list = await inbox(ada.token);
    assert.deepEqual(tokensOf(list), [
      created.consent,
      created.otherApproval,
      created.valueEscalationDecision,
      created.scopeEscalationDecision,
    ]);
    assert.equal(list.next_cursor, null);
    const [consent, approval, value, scope] = list.decisions as [InboxDecision, InboxDecision, InboxDecision, InboxDecision];
    assert.equal(consent.kind, 'consent');
    assert.equal(consent.trigger, null);
    assert.equal(consent.application_id, server.sandbox.application_id);
    assert.equal(consent.application_name, 'Sandbox application');
    assert.equal(consent.url, `${server.url}/decisions/${consent.session_token}`);
    assert.ok(consent.title.length > 0);
    assert.equal(approval.application_id, other.applicationId);
    assert.equal(approval.application_name, 'Other shop');
    assert.equal(approval.trigger, null);
    assert.deepEqual([value.kind, value.trigger, scope.trigger], ['approval', 'value', 'scope']);
    assert.match(value.title, /Pay the flight/);
    assert.match(value.summary ?? '', /Travel agent/);
    assert.ok(Date.parse(consent.deadline_at) < Date.parse(approval.deadline_at));
  });

  it('is the same list for the same verified email signed in through another organisation (a person id is per account)', async () => {
    assert.deepEqual(tokensOf(await inbox(adaElsewhere)), tokensOf(await inbox(ada.token)));
  });

  it("never shows another person's rows, nor decisions addressed to no one", async () => {
    const bobs = await inbox(bob.token);
    assert.deepEqual(tokensOf(bobs), [created.bobConsent]);
    const adas = tokensOf(await inbox(ada.token));
    assert.ok(!adas.includes(created.bobConsent!));
    assert.ok(!adas.includes(created.nobody!));
    const stranger = await signIn('carol@example.com');
    assert.deepEqual(tokensOf(await inbox(stranger.token)), []);
  });

  it('filters by kind, approval trigger and application', async () => {
    assert.deepEqual(tokensOf(await inbox(ada.token, '?kind=consent')), [created.consent]);
    assert.deepEqual(tokensOf(await inbox(ada.token, '?kind=approval')), [
      created.otherApproval,
      created.valueEscalationDecision,
      created.scopeEscalationDecision,
    ]);
    assert.deepEqual(tokensOf(await inbox(ada.token, '?kind=signature_request')), []);
    assert.deepEqual(tokensOf(await inbox(ada.token, '?trigger=value')), [created.valueEscalationDecision]);
    assert.deepEqual(tokensOf(await inbox(ada.token, '?trigger=scope&kind=approval')), [created.scopeEscalationDecision]);
    assert.deepEqual(tokensOf(await inbox(ada.token, '?trigger=reputation')), []);
    assert.deepEqual(tokensOf(await inbox(ada.token, `?application_id=${other.applicationId}`)), [created.otherApproval]);
    assert.deepEqual(tokensOf(await inbox(ada.token, `?application_id=${server.sandbox.application_id}&kind=consent`)), [created.consent]);
    assert.deepEqual(tokensOf(await inbox(ada.token, '?application_id=tp_dev_nothing')), []);
  });

  it('sorts newest first on request', async () => {
    assert.deepEqual(tokensOf(await inbox(ada.token, '?sort=newest')), [
      created.otherApproval,
      created.scopeEscalationDecision,
      created.valueEscalationDecision,
      created.consent,
    ]);
  });

  it('pages like every list, in both orders, never skipping or repeating a row; a cursor belongs to its order', async () => {
    for (const sort of ['deadline', 'newest']) {
      const all = tokensOf(await inbox(ada.token, `?sort=${sort}`));
      const walked: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { decisions: InboxDecision[]; next_cursor: string | null } = await inbox(
          ada.token,
          `?sort=${sort}&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
        );
        assert.ok(page.decisions.length <= 1);
        walked.push(...tokensOf(page));
        cursor = page.next_cursor;
      } while (cursor);
      assert.deepEqual(walked, all, sort);
    }
    const first = await inbox(ada.token, '?limit=2&trigger=value');
    assert.equal(first.next_cursor, null, 'filters in code still end the list');
    const page = await inbox(ada.token, '?limit=1');
    const wrong = await call(server, `/api/v1/inbox?sort=newest&cursor=${page.next_cursor}`, { token: ada.token });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.code, 'invalid_cursor');
    const forged = await call(server, '/api/v1/inbox?cursor=djE6MTI', { token: ada.token });
    assert.equal(forged.status, 400);
    const bad = await call(server, '/api/v1/inbox?kind=everything&sort=oldest', { token: ada.token });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.errors.map((e: Json) => e.path).sort(), ['kind', 'sort']);
  });

  it('refuses an API token, a publishable key, an agent token and a token without the inbox:read scope', async () => {
    const api = await call(server, '/api/v1/inbox');
    assert.equal(api.status, 403);
    assert.equal(api.body.code, 'person_token_required');
    const publishable = await call(server, '/api/v1/inbox', { headers: { 'x-publishable-key': server.sandbox.publishable_key } });
    assert.equal(publishable.status, 403);
    const noScope = await signIn('ada@example.com', 'openid email');
    const narrow = await call(server, '/api/v1/inbox', { token: noScope.token });
    assert.equal(narrow.status, 403);
    assert.equal(narrow.body.code, 'insufficient_scope');
    assert.equal(narrow.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="inbox:read"');
    const anonymous = await call(server, '/api/v1/inbox', { token: 'not-a-token' });
    assert.equal(anonymous.status, 401);
  });

  it("admits a delegate only when the grant delegates inbox:read: they see the principal's inbox", async () => {
    const reader = await grant(server, ada, bob.id, { delegation_type: 'guardian', delegated_scopes: ['inbox:read'] });
    const asDelegate = await inbox(bob.token, '', { 'x-delegation-grant-id': reader.id });
    assert.deepEqual(tokensOf(asDelegate), tokensOf(await inbox(ada.token)));
    const elsewhere = await grant(server, ada, bob.id, { delegation_type: 'guardian', delegated_scopes: ['escalations:read'] });
    const refused = await call(server, '/api/v1/inbox', { token: bob.token, headers: { 'x-delegation-grant-id': elsewhere.id } });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'bound_exceeded');
    const agentTokenValue = await agentToken(
      server,
      (await grant(server, ada, agent.id, { delegation_type: 'ai_agent', delegated_scopes: ['inbox:read'] })).id,
      agent,
    );
    const asAgent = await call(server, '/api/v1/inbox', { token: agentTokenValue });
    assert.equal(asAgent.status, 403, "an agent does not read its principal's inbox");
  });

  it("lists a signing session to its party (by the party's email), titled with the agreement", async () => {
    const text = 'The tenant rents the flat.';
    const res = await call(server, '/api/v1/agreements', {
      json: {
        agreement: {
          title: 'Lease of flat 3',
          quorum: 2,
          document: { text, sha256: createHash('sha256').update(text, 'utf8').digest('hex') },
          parties: [
            { email: 'Frank@Example.com', home_country: 'DE' },
            { email: 'grace@example.com', home_country: 'FR' },
          ],
        },
      },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const frank = await signIn('frank@example.com');
    const list = await inbox(frank.token);
    assert.equal(list.decisions.length, 1);
    const [row] = list.decisions as [InboxDecision];
    assert.deepEqual([row.kind, row.title, row.trigger], ['signature_request', 'Lease of flat 3', null]);
    assert.match(row.summary ?? '', /0 of 2 parties have signed, 2 needed/);
    assert.deepEqual(tokensOf(await inbox(frank.token, '?kind=signature_request')), [row.session_token]);
    assert.deepEqual(tokensOf(await inbox(frank.token, '?kind=consent')), []);
  });

  it('drops a row once it is answered, expired, or its escalation was answered through another decision', async () => {
    const answered = (
      await createDecision(server, {
        kind: 'approval',
        subject_ref: 'po-7',
        delivery_mode: 'redirect',
        addressee: { email: 'dora@example.com' },
      })
    ).session_token;
    const dora = await signIn('dora@example.com');
    assert.deepEqual(tokensOf(await inbox(dora.token)), [answered]);
    await proveAddressee(server, answered);
    await ok(server, answered, { action: 'approve' });
    assert.deepEqual(tokensOf(await inbox(dora.token)), []);

    // Bob's escalation: the organisation opens its own popup decision for it, and Bob answers there. The escalation's
    // own decision (the inbox's row) leaves the inbox though it was never answered itself.
    const bobsGrant = await grant(server, bob, agent.id, {
      delegation_type: 'ai_agent',
      delegated_scopes: ['payments:write'],
      bounds: { actions: ['write'], value: { max_per_transaction: 10, currency: 'EUR' }, escalation: { allowed: true } },
    });
    const token = await agentToken(server, bobsGrant.id, agent);
    const esc = (
      await check(server, token, { scope: 'payments:write', action: 'write', value: 50, currency: 'EUR', description: 'Pay the taxi' })
    ).body.authority_check.escalation;
    const own = (await call(server, `/api/v1/oap/escalations/${esc.id}`, { token: bob.token })).body.escalation.decision.session_token;
    assert.deepEqual(tokensOf(await inbox(bob.token, '?kind=approval')), [own]);
    const popup = await createDecision(server, { kind: 'approval', subject_ref: esc.id, delivery_mode: 'popup' });
    assert.deepEqual(tokensOf(await inbox(bob.token, '?kind=approval')), [own], 'one row per escalation: its own decision');
    await proveAddressee(server, popup.session_token);
    await ok(server, popup.session_token, { action: 'deny' });
    assert.deepEqual(tokensOf(await inbox(bob.token, '?kind=approval')), []);

    // Past the deadline, nothing is listed, whether or not anyone read the decision since.
    server.advance(16 * 60);
    const later = tokensOf(await inbox(ada.token));
    assert.ok(!later.includes(created.consent!) && !later.includes(created.otherApproval!));
    assert.ok(later.includes(created.valueEscalationDecision!));
  });

  it('refuses an addressee on an approval that answers an escalation: its principal is the addressee', async () => {
    const res = await call(server, '/api/v1/decisions', {
      json: { kind: 'approval', subject_ref: created.valueEscalation, delivery_mode: 'popup', addressee: { email: 'mallory@example.com' } },
    });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.equal(res.body.code, 'addressee_not_allowed');
    const invalid = await call(server, '/api/v1/decisions', {
      json: { kind: 'consent', subject_ref: server.sandbox.flow_id, delivery_mode: 'redirect', addressee: { email: 'not an email' } },
    });
    assert.equal(invalid.status, 422);
  });
});

describe('legacy operator inbox URLs', () => {
  it('/oap/escalations answers a permanent redirect to /inbox; the per-row page and the JSON namespace are unchanged', async () => {
    const res = await fetch(`${server.url}/oap/escalations`, { redirect: 'manual' });
    assert.equal(res.status, 301);
    assert.equal(res.headers.get('location'), '/inbox');
    const row = await fetch(`${server.url}/oap/escalations/${created.valueEscalation}`);
    assert.equal(row.status, 200);
    assert.match(await row.text(), /Travel agent/);
    const json = await call(server, '/api/v1/oap/escalations', { token: ada.token });
    assert.equal(json.status, 200);
    assert.ok(json.body.escalations.some((e: Json) => e.id === created.valueEscalation));
  });
});

describe('/inbox (hosted page)', () => {
  const origin = () => new URL(server.url).origin;

  it('asks a person without a session to sign in, under the strict CSP, with no script at all', async () => {
    const res = await fetch(`${server.url}/inbox?kind=approval`);
    assert.equal(res.status, 200);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    const html = await res.text();
    assert.doesNotMatch(html, /<script/);
    assert.match(html, /<form method="post" action="\/inbox\/sign_in">/);
    assert.match(html, /name="kind" value="approval"/);
    const css = await fetch(`${server.url}/inbox/inbox.css`);
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type') ?? '', /text\/css/);
  });

  it('signs in through the provider (no consent screen for the service itself), lists the rows, filters, and signs out', async () => {
    const bobs = (
      await createDecision(server, {
        kind: 'approval',
        subject_ref: 'leave-request-3',
        delivery_mode: 'redirect',
        addressee: { email: 'bob@example.com' },
      })
    ).session_token;
    const browser = new Browser(server.url);
    const start = await browser.request('/inbox/sign_in', { form: { kind: 'approval', sort: 'newest' }, headers: { origin: origin() } });
    assert.equal(start.status, 303);
    assert.match(start.headers.get('location') ?? '', /^\/oauth\/authorize\?client_id=oc_/);
    const back = await browser.authorize(start.headers.get('location')!, 'Bob@Example.com');
    assert.equal(back.pathname, '/inbox/callback');
    assert.ok(back.searchParams.get('code'), 'the provider came back with a code');
    const landed = await browser.request(`${back.pathname}${back.search}`);
    assert.equal(landed.status, 303);
    assert.equal(landed.headers.get('location'), '/inbox?kind=approval&sort=newest', 'the filters survive the sign-in');

    const page = await browser.request('/inbox');
    const html = await page.text();
    assert.equal(page.status, 200);
    assert.match(html, /Signed in as <strong>bob@example\.com<\/strong>/);
    assert.match(html, new RegExp(`href="${server.url}/decisions/${bobs}\\?from=%2Finbox"`), 'the row says it came from the inbox');
    assert.doesNotMatch(html, new RegExp(created.consent!), "Ada's rows are never on Bob's page");

    const empty = await (await browser.request('/inbox?kind=signature_request')).text();
    assert.match(empty, /Nothing waits for you/);
    assert.match(empty, /No open decision matches these filters/);

    const sessions = () => server.context.db.prepare("SELECT COUNT(*) FROM oidc_payloads WHERE model = 'Session'").pluck().get() as number;
    const open = sessions();
    const refused = await browser.request('/inbox/sign_out', { form: {}, headers: { origin: 'https://evil.example' } });
    assert.equal(refused.status, 403);
    assert.equal(sessions(), open, 'another site cannot sign the person out');
    const out = await browser.request('/inbox/sign_out', { form: {}, headers: { origin: origin() } });
    assert.equal(out.status, 303);
    assert.equal(sessions(), open - 1, "signing out ends the provider's session, not only the cookie");
    const after_ = await (await browser.request('/inbox?signed_out')).text();
    assert.match(after_, /You are signed out/);
    assert.match(after_, /action="\/inbox\/sign_in"/);
  });

  it('says plainly when nothing waits, and ignores filters it does not know', async () => {
    const browser = new Browser(server.url);
    const start = await browser.request('/inbox/sign_in', { form: {}, headers: { origin: origin() } });
    const back = await browser.authorize(start.headers.get('location')!, 'erin@example.com');
    await browser.request(`${back.pathname}${back.search}`);
    const res = await browser.request('/inbox?kind=nonsense&cursor=%3Cscript%3E&sort=sideways');
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<h2 id="results">Nothing waits for you<\/h2>/);
    assert.doesNotMatch(html, /<script/);
  });

  it('refuses a sign-in started from another site', async () => {
    const res = await fetch(`${server.url}/inbox/sign_in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    assert.equal(res.status, 403);
  });
});
