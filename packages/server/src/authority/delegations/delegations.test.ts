// Delegated authority end to end over HTTP: a person grants an agent bounded authority, the agent's client exchanges
// the grant, the agent acts within bounds, is escalated above them and denied beyond the rest; the principal
// approves once; the authorization receipts prove it; revocation stops the token at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authorizationReceiptRecord } from '@svc/schemas';
import { verifyReceipt } from '@svc/client';
import { startTestServer, type TestServer } from '../../testing.js';
import { agentToken, answer, call, check, exchangeGrant, grant, newAgent, signIn, type Agent, type Person } from './test-support.js';

let server: TestServer;
let ada: Person;
let bob: Person;
let agent: Agent;

before(async () => {
  server = await startTestServer();
  ada = await signIn(server, 'ada@example.com');
  bob = await signIn(server, 'bob@example.com');
  agent = await newAgent(server, 'Travel agent', { capabilities: ['book_travel', 'pay'], operator_name: 'Example Travel Ltd' });
});
after(() => server.dispose());

const paymentGrant = (extra: Record<string, unknown> = {}) => ({
  delegation_type: 'ai_agent',
  delegated_scopes: ['payments:write', 'bookings:read'],
  max_actions_per_day: 5,
  bounds: {
    actions: ['read', 'write'],
    value: { max_per_transaction: 100, currency: 'EUR' },
    escalation: { allowed: true },
    jurisdiction: { allowed: ['DE', 'FR'] },
  },
  ...extra,
});

describe('delegation grants', () => {
  it('a person grants an agent bounded authority; the grant and its authorization receipt say exactly what is enforced', async () => {
    const g = await grant(server, ada, agent.id, paymentGrant());
    assert.match(g.id, /^dlg_us_[A-Za-z0-9]{16}$/);
    assert.equal(g.status, 'active');
    assert.equal(g.principal_id, ada.id);
    assert.equal(g.delegate_type, 'agent');
    assert.deepEqual(g.delegated_scopes, ['bookings:read', 'payments:write']);
    assert.equal(g.delegation_chain_root, g.id);
    assert.equal(g.parent_grant_id, null);

    const receipt = await call(server, `/api/v1/authorization_receipts/${g.authorization_record_id}`);
    assert.equal(receipt.status, 200, JSON.stringify(receipt.body));
    const r = receipt.body.authorization_receipt;
    assert.equal(
      authorizationReceiptRecord.safeParse(r).success,
      true,
      JSON.stringify(authorizationReceiptRecord.safeParse(r).error?.issues),
    );
    assert.equal(r.pii_principal_id, ada.id);
    assert.deepEqual(
      r.party_identification.map((p: { party_role: string; party_type?: string; party_id: string }) => [
        p.party_role,
        p.party_type,
        p.party_id,
      ]),
      [
        ['principal', 'natural person', ada.id],
        ['agent', 'software_agent', agent.id],
        ['controller', 'organization', server.sandbox.application_id],
        ['processor', 'organization', r.party_identification[3].party_id],
      ],
    );
    assert.deepEqual(
      Object.keys(r.authority).sort(),
      [
        'action_bounds',
        'escalation_bounds',
        'jurisdiction_bounds',
        'scope_bounds',
        'sequence_bounds',
        'valid_from',
        'value_bounds',
        'withdrawal_method',
      ],
      'each configured bound appears; time and reputation, not configured, do not',
    );
    assert.deepEqual(r.authority.value_bounds, { max_per_transaction: 100, currency: 'EUR' });
    assert.deepEqual(r.authority.sequence_bounds, { max_actions_per_day: 5 });
    assert.deepEqual(
      r.event.map((e: { event_state: string }) => e.event_state),
      ['authority requested', 'authority granted'],
    );
    assert.match(r.extensions.grant_integrity.content_hash, /^sha256:[0-9a-f]{64}$/);
    assert.equal(
      r.extensions.grant_integrity.key_versions.receipt_signing_key,
      (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()).keys[0].kid,
    );
    assert.match(r.extensions.capability_manifest, /^sha256:[0-9a-f]{64}$/);
    assert.equal(r.extensions.delegation_chain_root, undefined, 'a grant made by its principal has no chain root');
    assert.equal(r.extensions.agent_disclosures, undefined);

    const agentRead = await call(server, `/api/v1/agent_identities/${agent.id}`);
    assert.equal(agentRead.body.agent_identity.delegation_grant_id, g.id);
  });

  it("refuses grants that are not a person's to make or that name the wrong delegate, naming the field", async () => {
    const byToken = await call(server, '/api/v1/delegations', { json: { delegate_id: agent.id, delegation_grant: paymentGrant() } });
    assert.equal(byToken.status, 403);
    assert.equal(byToken.body.code, 'person_token_required');
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { delegate_id: agent.id, delegation_grant: { ...paymentGrant(), delegation_type: 'guardian' } },
        'delegation_grant.delegation_type',
        'agent_needs_ai_agent',
      ],
      [
        { delegate_id: bob.id, delegation_grant: { delegation_type: 'ai_agent', delegated_scopes: ['x:read'] } },
        'delegation_grant.delegation_type',
        'person_needs_human_type',
      ],
      [
        {
          delegate_id: bob.id,
          delegation_grant: { delegation_type: 'caregiver', delegated_scopes: ['x:read'], bounds: { actions: ['read'] } },
        },
        'delegation_grant.bounds',
        'bounds_for_agents',
      ],
      [
        { delegate_id: ada.id, delegation_grant: { delegation_type: 'peer', delegated_scopes: ['x:read'] } },
        'delegate_id',
        'self_delegation',
      ],
      [{ delegate_id: 'agt_dev_nope', delegation_grant: paymentGrant() }, 'delegate_id', 'unknown_delegate'],
      [{ delegate_id: agent.id, delegation_grant: { delegation_type: 'ai_agent' } }, 'delegation_grant.delegated_scopes', 'required'],
      [
        { delegate_id: agent.id, delegation_grant: paymentGrant({ expires_at: '2001-01-01T00:00:00Z' }) },
        'delegation_grant.expires_at',
        'in_the_past',
      ],
      [
        { delegate_id: agent.id, delegation_grant: paymentGrant({ bounds: { value: { max_per_transaction: -1, currency: 'EUR' } } }) },
        'delegation_grant.bounds.value.max_per_transaction',
        'too_small',
      ],
    ];
    for (const [json, path, code] of cases) {
      const res = await call(server, '/api/v1/delegations', { token: ada.token, json });
      assert.equal(res.status, 422, `${path}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(
        res.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
        [[path, code]],
        JSON.stringify(res.body),
      );
    }
  });

  it("lists a person's grants by side and status, and hides other people's", async () => {
    const g = await grant(server, ada, bob.id, { delegation_type: 'caregiver', delegated_scopes: ['escalations:read'] });
    const made = await call(server, '/api/v1/delegations?role=principal', { token: ada.token });
    assert.ok(made.body.delegation_grants.some((x: { id: string }) => x.id === g.id));
    const received = await call(server, '/api/v1/delegations?role=delegate', { token: bob.token });
    assert.deepEqual(
      received.body.delegation_grants.map((x: { id: string }) => x.id),
      [g.id],
    );
    assert.equal((await call(server, `/api/v1/delegations/${g.id}`, { token: bob.token })).status, 200);
    const carol = await signIn(server, 'carol@example.com');
    assert.equal((await call(server, `/api/v1/delegations/${g.id}`, { token: carol.token })).status, 404);
    assert.deepEqual((await call(server, '/api/v1/delegations', { token: carol.token })).body.delegation_grants, []);
    const revoked = await call(server, '/api/v1/delegations?status=revoked', { token: ada.token });
    assert.ok(revoked.body.delegation_grants.every((x: { status: string }) => x.status === 'revoked'));
  });
});

describe('agent tokens and bounds', () => {
  it('exchanges a grant (RFC 8693) for an agent token that never outlives the grant', async () => {
    const expiresAt = new Date(Date.now() + 20 * 60_000).toISOString();
    const g = await grant(server, ada, agent.id, paymentGrant({ expires_at: expiresAt }));
    const res = await exchangeGrant(server, g.id, agent);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.match(res.body.access_token, /^ra_agent_[A-Za-z0-9_-]{43}$/);
    assert.equal(res.body.issued_token_type, 'urn:ietf:params:oauth:token-type:access_token');
    assert.equal(res.body.token_type, 'Bearer');
    assert.ok(res.body.expires_in <= 20 * 60 && res.body.expires_in > 19 * 60, String(res.body.expires_in));
    assert.equal(res.body.scope, 'bookings:read payments:write');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const me = await call(server, '/api/v1/me', { token: res.body.access_token });
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.kind, 'agent');
    assert.equal(me.body.agent_identity.id, agent.id);
    assert.equal(me.body.delegation_grant.principal_id, ada.id);
    // Past the grant's expiry the token stops, whatever its own lifetime said.
    server.advance(21 * 60);
    const late = await call(server, '/api/v1/me', { token: res.body.access_token });
    assert.equal(late.status, 401);
    assert.match(late.body.message, /expired/);
    assert.equal((await exchangeGrant(server, g.id, agent)).body.error, 'invalid_request');
  });

  it("refuses an exchange by a client that is not the agent's, of another type, or for wider scopes", async () => {
    const g = await grant(server, ada, agent.id, paymentGrant());
    const other = await newAgent(server, 'Other agent');
    const stolen = await exchangeGrant(server, g.id, other);
    assert.equal(stolen.status, 400);
    assert.equal(stolen.body.error, 'invalid_request');
    assert.match(stolen.body.error_description, /not a delegation grant made to this client's agent/);
    const wrongSecret = await exchangeGrant(server, g.id, { clientId: agent.clientId, clientSecret: 'ocs_wrong' });
    assert.equal(wrongSecret.status, 401);
    assert.equal(wrongSecret.body.error, 'invalid_client');
    const type = await exchangeGrant(server, g.id, agent, { subject_token_type: 'urn:ietf:params:oauth:token-type:access_token' });
    assert.equal(type.body.error, 'invalid_request');
    const wider = await exchangeGrant(server, g.id, agent, { scope: 'payments:write admin' });
    assert.equal(wider.body.error, 'invalid_scope');
    const narrower = await exchangeGrant(server, g.id, agent, { scope: 'bookings:read' });
    assert.equal(narrower.status, 200);
    const denied = await check(server, narrower.body.access_token, {
      scope: 'payments:write',
      action: 'write',
      value: 10,
      currency: 'EUR',
      jurisdiction: 'DE',
    });
    assert.equal(denied.status, 202, 'a token exchanged for fewer scopes acts within those only: more is asked for');
    assert.equal(denied.body.authority_check.bound, 'scope');
  });

  it('allows within bounds, denies beyond jurisdiction and the daily allowance, escalates above the value bound', async () => {
    const g = await grant(server, ada, agent.id, paymentGrant({ max_actions_per_day: 2 }));
    const token = await agentToken(server, g.id, agent);
    const ok = await check(server, token, {
      scope: 'payments:write',
      action: 'write',
      value: 40,
      currency: 'EUR',
      jurisdiction: 'DE',
      description: 'Pay the hotel',
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.authority_check.outcome, 'allowed');
    assert.equal(ok.body.authority_check.remaining_today, 1);

    const abroad = await check(server, token, { scope: 'payments:write', action: 'write', value: 40, currency: 'EUR', jurisdiction: 'US' });
    assert.equal(abroad.status, 403);
    assert.equal(abroad.body.code, 'bound_exceeded');
    assert.deepEqual(
      abroad.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
      [['jurisdiction', 'jurisdiction']],
    );
    const deleting = await check(server, token, {
      scope: 'payments:write',
      action: 'delete',
      value: 40,
      currency: 'EUR',
      jurisdiction: 'DE',
    });
    assert.equal(deleting.status, 202, 'an action outside the action bound is escalated when escalation is allowed');
    assert.equal(deleting.body.authority_check.bound, 'action');

    const above = await check(server, token, {
      scope: 'payments:write',
      action: 'write',
      value: 240,
      currency: 'EUR',
      jurisdiction: 'FR',
      description: 'Pay the flight',
    });
    assert.equal(above.status, 202, JSON.stringify(above.body));
    assert.equal(above.body.authority_check.outcome, 'escalated');
    assert.equal(above.body.authority_check.bound, 'value');
    const esc = above.body.authority_check.escalation;
    assert.equal(esc.trigger, 'value');
    assert.equal(esc.status, 'pending');
    assert.equal(esc.decision, undefined, 'the agent never sees the decision it could approve itself');
    assert.equal(above.headers.get('location'), `/api/v1/oap/escalations/${esc.id}`);
    assert.equal(above.headers.get('retry-after'), '5');

    const last = await check(server, token, { scope: 'bookings:read', action: 'read', value: 0, currency: 'EUR', jurisdiction: 'FR' });
    assert.equal(last.status, 200);
    assert.equal(last.body.authority_check.remaining_today, 0);
    const over = await check(server, token, { scope: 'bookings:read', action: 'read', value: 0, currency: 'EUR', jurisdiction: 'FR' });
    assert.equal(over.status, 403);
    assert.equal(over.body.errors[0].code, 'sequence');
    server.advance(24 * 3600);
    const tomorrowToken = await agentToken(server, g.id, agent);
    assert.equal(
      (await check(server, tomorrowToken, { scope: 'bookings:read', action: 'read', value: 0, currency: 'EUR', jurisdiction: 'FR' }))
        .status,
      200,
      'the allowance is per UTC day',
    );
  });

  it('the principal approves an escalation once; the agent learns it by polling and the action passes exactly once', async () => {
    const g = await grant(server, ada, agent.id, paymentGrant());
    const token = await agentToken(server, g.id, agent);
    const action = {
      scope: 'payments:write',
      action: 'write',
      value: 240,
      currency: 'EUR',
      jurisdiction: 'FR',
      description: 'Pay the flight',
    };
    const esc = (await check(server, token, action)).body.authority_check.escalation;
    const early = await check(server, token, { ...action, escalation_id: esc.id });
    assert.equal(early.status, 409);
    assert.equal(early.body.code, 'escalation_not_approved');

    // The principal sees it with its decision; the agent polls it without.
    const asPrincipal = await call(server, `/api/v1/oap/escalations/${esc.id}`, { token: ada.token });
    assert.match(asPrincipal.body.escalation.decision.url, /\/decisions\/dts_/);
    assert.equal((await call(server, `/api/v1/oap/escalations/${esc.id}`, { token: bob.token })).status, 404);
    const session = await answer(server, esc.id, ada.token, 'approve');
    const polled = await call(server, `/api/v1/oap/escalations/${esc.id}`, { token });
    assert.equal(polled.body.escalation.status, 'approved');
    assert.equal(polled.headers.get('retry-after'), null);

    const mismatch = await check(server, token, { ...action, value: 999, escalation_id: esc.id });
    assert.equal(mismatch.status, 422);
    assert.equal(mismatch.body.code, 'escalation_mismatch');
    const passes = await check(server, token, { ...action, escalation_id: esc.id });
    assert.equal(passes.status, 200, JSON.stringify(passes.body));
    assert.equal(passes.body.authority_check.outcome, 'allowed');
    const replay = await check(server, token, { ...action, escalation_id: esc.id });
    assert.equal(replay.status, 409);
    assert.equal(replay.body.code, 'escalation_used');

    // The approval's receipt is identified and bounded to exactly that action, once.
    const decision = await call(server, `/api/v1/decisions/${session}`);
    assert.equal(decision.body.decision.trigger, 'value', 'the approval decision carries its trigger type');
    const receipt = (await call(server, `/api/v1/authorization_receipts/${decision.body.decision.record_id}`)).body.authorization_receipt;
    assert.equal(receipt.pii_principal_id, ada.id);
    assert.equal(receipt.party_identification[1].party_type, 'software_agent');
    assert.deepEqual(receipt.authority.value_bounds, { max_per_transaction: 240, currency: 'EUR' });
    assert.deepEqual(receipt.authority.sequence_bounds, { max_uses: 1 });
    assert.deepEqual(receipt.authority.jurisdiction_bounds, { allowed: ['FR'] });
    assert.equal(receipt.event[0].approval_id, esc.id);
  });

  it('a denied escalation never lets the action through, and a second decision for it cannot overturn the first', async () => {
    const g = await grant(server, ada, agent.id, paymentGrant());
    const token = await agentToken(server, g.id, agent);
    const action = { scope: 'payments:write', action: 'write', value: 500, currency: 'EUR', jurisdiction: 'DE', description: 'Pay' };
    const esc = (await check(server, token, action)).body.authority_check.escalation;
    // The organisation opens an embedded decision for the same escalation before the principal answers the first.
    const second = await call(server, '/api/v1/decisions', {
      json: { kind: 'approval', subject_ref: esc.id, delivery_mode: 'embed', embed_origin: server.url },
    });
    assert.equal(second.status, 201, JSON.stringify(second.body));
    await answer(server, esc.id, ada.token, 'deny');
    const late = await fetch(`${server.url}/decisions/${second.body.decision.session_token}/transitions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ action: 'approve' }),
    });
    assert.equal(late.status, 422);
    assert.equal(((await late.json()) as { code: string }).code, 'escalation_decided');
    assert.equal((await call(server, `/api/v1/oap/escalations/${esc.id}`, { token })).body.escalation.status, 'denied');
    assert.equal((await check(server, token, { ...action, escalation_id: esc.id })).body.code, 'escalation_not_approved');
    const again = await call(server, '/api/v1/decisions', { json: { kind: 'approval', subject_ref: esc.id, delivery_mode: 'popup' } });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'escalation_decided');
  });

  it('without the escalation bound, beyond a bound is a plain denial naming it', async () => {
    const g = await grant(server, ada, agent.id, paymentGrant({ bounds: { value: { max_per_transaction: 50, currency: 'EUR' } } }));
    const token = await agentToken(server, g.id, agent);
    const res = await check(server, token, { scope: 'payments:write', action: 'write', value: 51, currency: 'EUR' });
    assert.equal(res.status, 403);
    assert.equal(res.body.errors[0].code, 'value');
    assert.match(res.body.message, /does not allow escalation/);
    const usd = await check(server, token, { scope: 'payments:write', action: 'write', value: 1, currency: 'USD' });
    assert.equal(usd.body.errors[0].code, 'value', 'another currency is beyond a value bound');
    const asked = await call(server, '/api/v1/oap/escalations', {
      token,
      json: { scope: 'payments:write', action: 'write', value: 51, currency: 'EUR', description: 'More' },
    });
    assert.equal(asked.status, 403);
    assert.equal(asked.body.errors[0].code, 'escalation');
  });

  it('two actions racing for the last of the daily allowance: exactly one passes', async () => {
    const g = await grant(server, ada, agent.id, paymentGrant({ max_actions_per_day: 1 }));
    const token = await agentToken(server, g.id, agent);
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        check(server, token, { scope: 'bookings:read', action: 'read', value: 0, currency: 'EUR', jurisdiction: 'DE' }),
      ),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 403, 403, 403, 403, 403]);
  });

  it('revocation stops the token mid-run and takes the grants made under it along; suspension pauses it', async () => {
    const g = await grant(server, ada, agent.id, paymentGrant({ allow_sub_delegation: true }));
    const token = await agentToken(server, g.id, agent);
    const helper = await newAgent(server, 'Helper agent');
    const child = await call(server, '/api/v1/delegations', {
      token,
      json: {
        delegate_id: helper.id,
        delegation_grant: {
          ...paymentGrant({ max_actions_per_day: 2 }),
          parent_grant_id: g.id,
          bounds: { ...paymentGrant().bounds, value: { max_per_transaction: 20, currency: 'EUR' } },
        },
      },
    });
    assert.equal(child.status, 201, JSON.stringify(child.body));
    assert.equal(child.body.delegation_grant.delegation_chain_root, g.id);
    const childReceipt = (await call(server, `/api/v1/authorization_receipts/${child.body.delegation_grant.authorization_record_id}`)).body
      .authorization_receipt;
    assert.equal(childReceipt.extensions.delegation_chain_root, g.id);
    const helperToken = await agentToken(server, child.body.delegation_grant.id, helper);

    assert.equal(
      (await check(server, token, { scope: 'bookings:read', action: 'read', value: 0, currency: 'EUR', jurisdiction: 'DE' })).status,
      200,
    );
    const suspended = await call(server, `/api/v1/delegations/${g.id}/suspend`, { token: ada.token, method: 'POST' });
    assert.equal(suspended.body.delegation_grant.status, 'suspended');
    assert.equal(
      (await check(server, token, { scope: 'bookings:read', action: 'read', value: 0, currency: 'EUR', jurisdiction: 'DE' })).body.code,
      'grant_suspended',
    );
    assert.equal(
      (await call(server, '/api/v1/me', { token: helperToken })).status,
      403,
      'a grant made under a suspended one is paused too',
    );
    await call(server, `/api/v1/delegations/${g.id}/resume`, { token: ada.token, method: 'POST' });
    assert.equal(
      (await check(server, token, { scope: 'bookings:read', action: 'read', value: 0, currency: 'EUR', jurisdiction: 'DE' })).status,
      200,
    );

    const revoked = await call(server, `/api/v1/delegations/${g.id}/revoke`, { token: ada.token, method: 'POST' });
    assert.equal(revoked.status, 200);
    assert.equal(revoked.body.delegation_grant.status, 'revoked');
    const after = await check(server, token, { scope: 'bookings:read', action: 'read', value: 0, currency: 'EUR', jurisdiction: 'DE' });
    assert.equal(after.status, 401);
    assert.match(after.body.message, /revoked/);
    assert.equal((await call(server, '/api/v1/me', { token: helperToken })).status, 401);
    assert.equal((await call(server, `/api/v1/delegations/${child.body.delegation_grant.id}`)).body.delegation_grant.status, 'revoked');
    const resume = await call(server, `/api/v1/delegations/${g.id}/resume`, { token: ada.token, method: 'POST' });
    assert.equal(resume.status, 409);
    assert.equal(resume.body.code, 'invalid_transition');

    // The lifecycle is appended at read time; an expiry after revocation is suppressed.
    const receipt = (await call(server, `/api/v1/authorization_receipts/${g.authorization_record_id}?flavor=signed`)).body;
    const states = receipt.receipt.event.map((e: { event_state: string; occurrences?: number }) => e.event_state);
    // Exercises aggregate per UTC day, at the day's last one (after the resumption here).
    assert.deepEqual(states, [
      'authority requested',
      'authority granted',
      'authority suspended',
      'authority resumed',
      'authority exercised',
      'authority revoked',
    ]);
    assert.equal(receipt.receipt.event[4].occurrences, 2);
    const jwks = await (await fetch(`${server.url}/.well-known/jwks.json`)).json();
    const verified = await verifyReceipt(receipt as Parameters<typeof verifyReceipt>[0], jwks);
    assert.equal(verified.record_id, g.authorization_record_id);
    assert.deepEqual((verified as { authority: { value_bounds: unknown } }).authority.value_bounds, {
      max_per_transaction: 100,
      currency: 'EUR',
    });
  });

  it('a sub-delegation may not widen its parent, and needs the parent to allow it', async () => {
    const g = await grant(
      server,
      ada,
      agent.id,
      paymentGrant({ allow_sub_delegation: true, expires_at: new Date(Date.now() + 3600_000 * 48).toISOString() }),
    );
    const token = await agentToken(server, g.id, agent);
    const helper = await newAgent(server, 'Wide helper');
    const wide = await call(server, '/api/v1/delegations', {
      token,
      json: {
        delegate_id: helper.id,
        delegation_grant: {
          delegation_type: 'ai_agent',
          delegated_scopes: ['payments:write', 'admin:write'],
          parent_grant_id: g.id,
          bounds: {
            actions: ['read', 'write', 'delete'],
            value: { max_per_transaction: 1000, currency: 'EUR' },
            escalation: { allowed: true },
          },
        },
      },
    });
    assert.equal(wide.status, 422);
    assert.equal(wide.body.code, 'widens_parent');
    assert.deepEqual(wide.body.errors.map((e: { path: string }) => e.path).sort(), [
      'delegation_grant.bounds.actions',
      'delegation_grant.bounds.jurisdiction.allowed',
      'delegation_grant.bounds.value.max_per_transaction',
      'delegation_grant.delegated_scopes',
      'delegation_grant.expires_at',
      'delegation_grant.max_actions_per_day',
    ]);
    const closed = await grant(server, ada, agent.id, paymentGrant());
    const closedToken = await agentToken(server, closed.id, agent);
    const refused = await call(server, '/api/v1/delegations', {
      token: closedToken,
      json: { delegate_id: helper.id, delegation_grant: { ...paymentGrant(), parent_grant_id: closed.id } },
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'sub_delegation_not_allowed');
    const noParent = await call(server, '/api/v1/delegations', {
      token,
      json: { delegate_id: helper.id, delegation_grant: paymentGrant() },
    });
    assert.equal(noParent.body.code, 'agent_cannot_delegate');
  });
});

describe('human delegates', () => {
  it("a delegate acts in the principal's context within the delegated scopes, with their own token plus the header", async () => {
    const g = await grant(server, ada, bob.id, { delegation_type: 'power_of_attorney', delegated_scopes: ['escalations:read'] });
    const header = { 'x-delegation-grant-id': g.id };
    const me = await call(server, '/api/v1/me', { token: bob.token, headers: header });
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.person.id, ada.id, "the call acts in the principal's context");
    assert.equal(me.body.delegation.delegate.id, bob.id);
    const escalations = await call(server, '/api/v1/oap/escalations', { token: bob.token, headers: header });
    assert.equal(escalations.status, 200);
    assert.ok(escalations.body.escalations.length > 0);
    assert.ok(escalations.body.escalations.every((e: { principal_id: string }) => e.principal_id === ada.id));
    const outside = await call(server, '/api/v1/delegations', { token: bob.token, headers: header });
    assert.equal(outside.status, 403);
    assert.equal(outside.body.code, 'bound_exceeded');
    assert.equal(outside.body.errors[0].code, 'scope');
    const grantAsAda = await call(server, '/api/v1/delegations', {
      token: bob.token,
      headers: header,
      json: { delegate_id: bob.id, delegation_grant: { delegation_type: 'peer', delegated_scopes: ['x'] } },
    });
    assert.equal(grantAsAda.status, 403);
  });

  it('refuses the header on an API token, an agent token, or a grant not made to the caller', async () => {
    const g = await grant(server, ada, bob.id, { delegation_type: 'guardian', delegated_scopes: ['escalations:read'] });
    const header = { 'x-delegation-grant-id': g.id };
    const api = await call(server, '/api/v1/me', { headers: header });
    assert.equal(api.status, 403);
    assert.equal(api.body.code, 'delegation_header_not_allowed');
    const ag = await grant(server, ada, agent.id, paymentGrant());
    const agentCall = await call(server, '/api/v1/me', { token: await agentToken(server, ag.id, agent), headers: header });
    assert.equal(agentCall.body.code, 'delegation_header_not_allowed');
    const carol = await signIn(server, 'carol@example.com');
    const notMine = await call(server, '/api/v1/me', { token: carol.token, headers: header });
    assert.equal(notMine.status, 403);
    assert.equal(notMine.body.code, 'not_delegate');
    const agentGrant = await call(server, '/api/v1/me', { token: bob.token, headers: { 'x-delegation-grant-id': ag.id } });
    assert.equal(agentGrant.body.code, 'not_delegate', "a grant to an agent is not a human delegate's");
    await call(server, `/api/v1/delegations/${g.id}/revoke`, { token: ada.token, method: 'POST' });
    const afterRevoke = await call(server, '/api/v1/me', { token: bob.token, headers: header });
    assert.equal(afterRevoke.body.code, 'grant_not_active');
  });

  it('the operator suspending or revoking the agent identity, or deleting its client, stops its tokens', async () => {
    const own = await newAgent(server, 'Operated agent');
    const g = await grant(server, ada, own.id, paymentGrant());
    const token = await agentToken(server, g.id, own);
    await call(server, `/api/v1/agent_identities/${own.id}/suspend`, { method: 'POST' });
    const paused = await call(server, '/api/v1/me', { token });
    assert.equal(paused.status, 403);
    assert.equal(paused.body.code, 'agent_suspended');
    const refused = await call(server, '/api/v1/delegations', {
      token: ada.token,
      json: { delegate_id: own.id, delegation_grant: paymentGrant() },
    });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.errors[0].code, 'delegate_not_active');
    await call(server, `/api/v1/agent_identities/${own.id}/resume`, { method: 'POST' });
    assert.equal((await call(server, '/api/v1/me', { token })).status, 200);
    await call(server, `/api/v1/agent_identities/${own.id}/revoke`, { method: 'POST' });
    assert.equal((await call(server, '/api/v1/me', { token })).status, 401);

    const other = await newAgent(server, 'Client-less agent');
    const g2 = await grant(server, ada, other.id, paymentGrant());
    const token2 = await agentToken(server, g2.id, other);
    const deleted = await call(server, `/api/v1/applications/${server.sandbox.application_id}/oauth_clients/${other.clientId}`, {
      method: 'DELETE',
    });
    assert.ok(deleted.status === 200 || deleted.status === 204, String(deleted.status));
    assert.equal((await call(server, '/api/v1/me', { token: token2 })).status, 401);
  });

  it('an agent token is refused on organisation endpoints', async () => {
    const g = await grant(server, ada, agent.id, paymentGrant());
    const token = await agentToken(server, g.id, agent);
    const res = await call(server, '/api/v1/flows', { token });
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'agent_token_not_allowed');
  });
});
