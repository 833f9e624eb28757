// Delegated authority through the client against a running reference server: a person grants an agent bounded
// authority, the agent's OAuth client exchanges the grant, the agent checks actions (allowed, escalated, denied),
// waits for the principal's answer and uses an approval once; suspension and revocation stop it; a human delegate
// acts with their own token and the grant header; trust scores.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, type SvcClient } from '../lib/client.js';
import { SvcAuthenticationError, SvcEscalationOutcomeError, SvcHttpError, SvcNotFoundError, SvcPermissionError } from '../lib/errors.js';
import { SvcOAuthError } from '../oauth/errors.js';
import type { AuthorityCheckRequest, CreateDelegationRequest, Escalation } from '@svc/schemas';
import { signInPerson } from '../testing/oauth.test.helper.js';
import { answerAsAddressee } from '../testing/participant.test.helper.js';
import { rejection } from '../testing/rejection.test.helper.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { exchangeDelegationGrant } from './token-exchange.js';

/** An agent identity linked to its own confidential OAuth client, allowed the token exchange. */
interface Agent {
  id: string;
  clientId: string;
  clientSecret: string;
}

describe('delegated authority against the reference server', () => {
  let server: TestServer;
  let svc: SvcClient;
  let ada: SvcClient;
  let adaId: string;
  let bob: SvcClient;
  let bobToken: string;
  let bobId: string;
  let agent: Agent;

  /** Registers an OAuth client for the agent's runtime (through the API token) and the agent identity linked to it. */
  async function newAgent(name: string): Promise<Agent> {
    const res = await server.api(`/api/v1/applications/${server.sandbox.application_id}/oauth_clients`, {
      method: 'POST',
      json: {
        oauth_client: {
          name: `${name} runtime`,
          client_type: 'confidential',
          redirect_uris: ['https://agent.example/cb'],
          grant_types: ['urn:ietf:params:oauth:grant-type:token-exchange'],
        },
      },
    });
    assert.equal(res.status, 201, await res.clone().text());
    const { oauth_client: client } = (await res.json()) as { oauth_client: { client_id: string; client_secret: string } };
    const identity = await svc.agentIdentities.create({
      display_name: name,
      agent_type: 'autonomous',
      oauth_application_id: client.client_id,
    });
    return { id: identity.id, clientId: client.client_id, clientSecret: client.client_secret };
  }

  const paymentGrant = (
    bounds: Record<string, unknown> = {},
    extra: Partial<CreateDelegationRequest['delegation_grant']> = {},
  ): CreateDelegationRequest => ({
    delegate_id: agent.id,
    delegation_grant: {
      delegation_type: 'ai_agent',
      delegated_scopes: ['payments:write', 'bookings:read'],
      max_actions_per_day: 10,
      bounds: {
        actions: ['read', 'write'],
        value: { max_per_transaction: 100, currency: 'EUR' },
        escalation: { allowed: true },
        jurisdiction: { allowed: ['DE', 'FR'] },
        ...bounds,
      },
      ...extra,
    },
  });

  /** A client acting as `agent` under a fresh grant from Ada. */
  async function agentUnder(request: CreateDelegationRequest, who: Agent = agent): Promise<{ grantId: string; client: SvcClient }> {
    const grant = await ada.delegations.create(request);
    const { access_token } = await exchangeDelegationGrant({
      baseUrl: server.url,
      clientId: who.clientId,
      clientSecret: who.clientSecret,
      delegationGrantId: grant.id,
    });
    return { grantId: grant.id, client: createClient({ baseUrl: server.url, agentToken: access_token }) };
  }

  /** Ada answers an escalation on its hosted decision (read with the API token, which sees the decision). */
  async function answer(escalationId: string, action: 'approve' | 'deny'): Promise<void> {
    const { decision } = await svc.escalations.get(escalationId);
    assert.ok(decision, 'the organisation sees the decision to put in front of the principal');
    await answerAsAddressee(server.url, decision.session_token, action);
  }

  const pay = (value: number, extra: Partial<AuthorityCheckRequest> = {}): AuthorityCheckRequest => ({
    scope: 'payments:write',
    action: 'write',
    value,
    currency: 'EUR',
    jurisdiction: 'FR',
    description: `Pay ${value} EUR`,
    ...extra,
  });

  before(async () => {
    server = await startTestServer();
    svc = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
    ada = createClient({ baseUrl: server.url, accessToken: (await signInPerson(server, 'ada@example.com', 'openid')).access_token });
    bobToken = (await signInPerson(server, 'bob@example.com', 'openid')).access_token;
    bob = createClient({ baseUrl: server.url, accessToken: bobToken });
    adaId = ((await ada.me()) as { person: { id: string } }).person.id;
    bobId = ((await bob.me()) as { person: { id: string } }).person.id;
    agent = await newAgent('Travel agent');
  });
  after(() => server.dispose());

  it('a person grants an agent bounded authority, and reads it back and in their list', async () => {
    const grant = await ada.delegations.create(paymentGrant());
    assert.match(grant.id, /^dlg_us_/);
    assert.equal(grant.status, 'active');
    assert.equal(grant.principal_id, adaId);
    assert.equal(grant.delegate_id, agent.id);
    assert.equal(grant.delegate_type, 'agent');
    assert.deepEqual(grant.bounds.value, { max_per_transaction: 100, currency: 'EUR' });
    assert.deepEqual(await ada.delegations.get(grant.id), grant);
    const mine: string[] = [];
    for await (const g of ada.delegations.list({ role: 'principal', status: 'active', limit: 2 })) mine.push(g.id);
    assert.ok(mine.includes(grant.id));
    assert.deepEqual((await bob.delegations.list({ role: 'principal' }).page()).items, [], "Bob sees none of Ada's grants");
  });

  it("the agent's OAuth client exchanges the grant (basic or post, all scopes or fewer); refusals are SvcOAuthError", async () => {
    const grant = await ada.delegations.create(paymentGrant());
    const base = { baseUrl: server.url, clientId: agent.clientId, clientSecret: agent.clientSecret, delegationGrantId: grant.id };
    const all = await exchangeDelegationGrant(base);
    assert.match(all.access_token, /^ra_agent_/);
    assert.deepEqual(all.scope?.split(' ').sort(), ['bookings:read', 'payments:write']);
    assert.ok(all.expires_in > 0 && all.expires_in <= 3600);
    const fewer = await ada.delegations.exchange(grant.id, {
      clientId: agent.clientId,
      clientSecret: agent.clientSecret,
      scope: ['bookings:read'],
      authMethod: 'client_secret_post',
    });
    assert.equal(fewer.scope, 'bookings:read');

    const me = await createClient({ baseUrl: server.url, agentToken: all.access_token }).me();
    assert.equal(me.kind, 'agent');
    if (me.kind !== 'agent') return;
    assert.equal(me.agent_identity.id, agent.id);
    assert.equal(me.delegation_grant.id, grant.id);
    assert.equal(me.delegation_grant.principal_id, adaId);

    const wider = await rejection(exchangeDelegationGrant({ ...base, scope: 'payments:refund' }), SvcOAuthError);
    assert.equal(wider.reason, 'invalid_scope');
    assert.equal(wider.status, 400);
    assert.match(wider.message, /payments:refund/);
    const other = await newAgent('Other agent');
    const stranger = await rejection(
      exchangeDelegationGrant({ ...base, clientId: other.clientId, clientSecret: other.clientSecret }),
      SvcOAuthError,
    );
    assert.equal(stranger.reason, 'invalid_request');
    assert.match(stranger.message, /not a delegation grant made to this client's agent/);
    const wrongSecret = await rejection(exchangeDelegationGrant({ ...base, clientSecret: 'not-the-secret' }), SvcOAuthError);
    assert.equal(wrongSecret.reason, 'invalid_client');
    assert.equal(wrongSecret.status, 401);
  });

  it('the agent checks actions: allowed within bounds, denied beyond jurisdiction, escalated above the value bound', async () => {
    const { grantId, client } = await agentUnder(paymentGrant());
    const allowed = await client.authority.check(pay(40));
    assert.equal(allowed.outcome, 'allowed');
    if (allowed.outcome === 'allowed') {
      assert.equal(allowed.check.delegation_grant_id, grantId);
      assert.equal(allowed.check.remaining_today, 9);
    }

    const denied = await client.authority.check(pay(40, { jurisdiction: 'US' }));
    assert.equal(denied.outcome, 'denied');
    if (denied.outcome === 'denied') {
      assert.equal(denied.bound, 'jurisdiction');
      assert.deepEqual(
        denied.errors.map((e) => e.code),
        ['jurisdiction'],
      );
      assert.ok(denied.message.length > 0);
    }

    const escalated = await client.authority.check(pay(240));
    assert.equal(escalated.outcome, 'escalated');
    if (escalated.outcome !== 'escalated') return;
    assert.equal(escalated.check.bound, 'value');
    assert.equal(escalated.escalation.status, 'pending');
    assert.equal(escalated.escalation.trigger, 'value');
    assert.equal(escalated.escalation.decision, undefined, 'the agent never sees the decision');
    assert.ok(escalated.retryAfter !== undefined && escalated.retryAfter > 0, 'the service says when to look again');
  });

  it('waitFor polls until the principal approves (honouring Retry-After); the approval lets the action through once', async () => {
    const { client } = await agentUnder(paymentGrant());
    const action = pay(240);
    const result = await client.authority.check(action);
    assert.equal(result.outcome, 'escalated');
    if (result.outcome !== 'escalated') return;
    const { id } = result.escalation;
    const early = await rejection(client.authority.check({ ...action, escalation_id: id }), SvcHttpError);
    assert.equal(early.status, 409);
    assert.equal(early.reason, 'escalation_not_approved');

    const started = Date.now();
    const waiting = client.escalations.waitFor(id, { outcome: 'approved', pollIntervalMs: 50, timeoutMs: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await answer(id, 'approve');
    const approved = await waiting;
    assert.equal(approved.status, 'approved');
    assert.ok(approved.decided_at);
    assert.ok(
      Date.now() - started >= (result.retryAfter ?? 0) * 1000 - 100,
      "the second read waited for the service's Retry-After, not the 50 ms fallback",
    );

    const passes = await client.authority.check({ ...action, escalation_id: id });
    assert.equal(passes.outcome, 'allowed');
    const replay = await rejection(client.authority.check({ ...action, escalation_id: id }), SvcHttpError);
    assert.equal(replay.reason, 'escalation_used');
    assert.equal((await client.escalations.get(id)).used_at !== null, true);
  });

  it('waitFor({ outcome: approved }) rejects with SvcEscalationOutcomeError when the principal denies', async () => {
    const { client } = await agentUnder(paymentGrant());
    const result = await client.authority.check(pay(500));
    assert.equal(result.outcome, 'escalated');
    if (result.outcome !== 'escalated') return;
    await answer(result.escalation.id, 'deny');
    const err = await rejection(client.escalations.waitFor(result.escalation.id, { outcome: 'approved' }), SvcEscalationOutcomeError);
    assert.equal(err.escalation.status, 'denied');
    assert.equal(err.expected, 'approved');
    assert.equal((await client.escalations.waitFor(result.escalation.id)).status, 'denied', 'without an outcome, the denial resolves');
  });

  it('without the escalation bound, above the value bound is a denial naming the value bound', async () => {
    const { client } = await agentUnder(paymentGrant({ escalation: undefined }));
    const result = await client.authority.check(pay(240));
    assert.equal(result.outcome, 'denied');
    assert.equal(result.outcome === 'denied' && result.bound, 'value');
  });

  it('the agent asks for approval itself; escalations are listed by who may see them', async () => {
    const { client, grantId } = await agentUnder(paymentGrant());
    const request = {
      scope: 'payments:write',
      action: 'write',
      value: 80,
      currency: 'EUR',
      jurisdiction: 'DE',
      description: 'May I book the later train?',
    } as const;
    // Beyond a bound no approval can lift, the request itself is refused, naming the bound.
    const abroad = await rejection(client.escalations.create({ ...request, jurisdiction: 'US' }), SvcPermissionError);
    assert.equal(abroad.reason, 'bound_exceeded');
    assert.equal(abroad.errors[0]?.code, 'jurisdiction');
    const asked = await client.escalations.create(request);
    assert.equal(asked.trigger, 'escalation');
    assert.equal(asked.status, 'pending');
    const own: Escalation[] = [];
    for await (const e of client.escalations.list({ trigger: 'escalation' })) own.push(e);
    assert.deepEqual(
      own.map((e) => e.id),
      [asked.id],
    );
    assert.ok(own.every((e) => e.delegation_grant_id === grantId && e.decision === undefined));
    const asPrincipal = await ada.escalations.list({ status: 'pending', limit: 100 }).page();
    assert.ok(asPrincipal.items.some((e) => e.id === asked.id && e.decision?.url));
    assert.ok((await svc.escalations.list({ limit: 100 }).page()).items.some((e) => e.id === asked.id));
    await rejection(bob.escalations.get(asked.id), SvcNotFoundError);
  });

  it('suspension pauses the agent (grant_suspended), resume restores it, revocation stops its token; revoked is final', async () => {
    const { grantId, client } = await agentUnder(paymentGrant());
    assert.equal((await ada.delegations.suspend(grantId)).status, 'suspended');
    const paused = await rejection(client.authority.check(pay(10)), SvcPermissionError);
    assert.equal(paused.reason, 'grant_suspended');
    assert.equal((await ada.delegations.resume(grantId)).status, 'active');
    assert.equal((await client.authority.check(pay(10))).outcome, 'allowed');

    const revoked = await ada.delegations.revoke(grantId);
    assert.equal(revoked.status, 'revoked');
    assert.ok(revoked.revoked_at);
    const stopped = await rejection(client.authority.check(pay(10)), SvcAuthenticationError);
    assert.equal(stopped.reason, 'invalid_token');
    const again = await rejection(ada.delegations.resume(grantId), SvcHttpError);
    assert.equal(again.status, 409);
    assert.equal(again.reason, 'invalid_transition');
    const exchange = await rejection(
      ada.delegations.exchange(grantId, { clientId: agent.clientId, clientSecret: agent.clientSecret }),
      SvcOAuthError,
    );
    assert.equal(exchange.reason, 'invalid_request');
  });

  it("a human delegate acts in the principal's context with their own access token and delegationGrantId, within the delegated scopes", async () => {
    const grant = await ada.delegations.create({
      delegate_id: bobId,
      delegation_grant: { delegation_type: 'power_of_attorney', delegated_scopes: ['escalations:read'] },
    });
    assert.equal(grant.delegate_type, 'person');
    const delegate = createClient({ baseUrl: server.url, accessToken: bobToken, delegationGrantId: grant.id });
    const me = await delegate.me();
    assert.equal(me.kind, 'person');
    if (me.kind !== 'person') return;
    assert.equal(me.person.id, adaId, "the call acts in Ada's context");
    assert.equal(me.delegation?.delegation_grant_id, grant.id);
    assert.equal(me.delegation?.delegate.id, bobId);
    assert.deepEqual(me.delegation?.delegated_scopes, ['escalations:read']);
    // Escalations are within the delegated scopes: Bob sees Ada's.
    const { client } = await agentUnder(paymentGrant());
    assert.equal((await client.authority.check(pay(300))).outcome, 'escalated');
    const seen = await delegate.escalations.list({ limit: 100 }).page();
    assert.ok(seen.items.length > 0 && seen.items.every((e) => e.principal_id === adaId));
    // Delegations are not: refused naming the scope bound.
    const outside = await rejection(delegate.delegations.list().page(), SvcPermissionError);
    assert.equal(outside.reason, 'bound_exceeded');
    assert.equal(outside.errors[0]?.code, 'scope');
    // Without the header Bob is himself again; after revocation the header is refused.
    assert.equal(((await bob.me()) as { person: { id: string } }).person.id, bobId);
    await ada.delegations.revoke(grant.id);
    const ended = await rejection(delegate.me(), SvcPermissionError);
    assert.equal(ended.reason, 'grant_not_active');
  });

  it("reads an agent's trust score with the API token; an unknown agent is SvcNotFoundError", async () => {
    const score = await svc.agentIdentities.trustScore(agent.id);
    assert.equal(score.subject_id, agent.id);
    assert.ok(Number.isInteger(score.score) && score.score >= 0 && score.score <= 100);
    assert.ok(score.factors.length > 0);
    await rejection(svc.agentIdentities.trustScore('agt_dev_doesnotexist0000'), SvcNotFoundError);
  });
});
