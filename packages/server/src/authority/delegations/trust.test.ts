// What an agent cannot get around, tried the way the agent would: an approval carries only the bound it was asked
// about (never the jurisdiction or the daily allowance), a value bound needs a value, and re-delegating cannot
// multiply the daily allowance.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../testing.js';
import {
  agentToken,
  approveAsPrincipal,
  call,
  check,
  grant,
  newAgent,
  signIn,
  type Agent,
  type Json,
  type Person,
} from './test-support.js';

let server: TestServer;
let ada: Person;
let agent: Agent;

before(async () => {
  server = await startTestServer();
  ada = await signIn(server, 'ada@example.com');
  agent = await newAgent(server, 'Shopping agent');
});
after(() => server.dispose());

const paymentGrant = (extra: Json = {}) => ({
  delegation_type: 'ai_agent',
  delegated_scopes: ['payments:write', 'bookings:read'],
  bounds: { value: { max_per_transaction: 100, currency: 'EUR' }, escalation: { allowed: true }, jurisdiction: { allowed: ['DE'] } },
  ...extra,
});
const pay = (extra: Json = {}) => ({
  scope: 'payments:write',
  action: 'write',
  value: 40,
  currency: 'EUR',
  jurisdiction: 'DE',
  description: 'Pay',
  ...extra,
});
// A read moves no money: under a value bound it says so (value 0).
const read = { scope: 'bookings:read', action: 'read', value: 0, currency: 'EUR', jurisdiction: 'DE', description: 'Read a booking' };
const errorsOf = (body: Json) => (body.errors ?? []).map((e: { path: string; code: string }) => [e.path, e.code]);

/** The escalation an action opened (asserts 202). */
async function escalated(token: string, action: Json): Promise<Json> {
  const res = await check(server, token, action);
  assert.equal(res.status, 202, JSON.stringify(res.body));
  return res.body.authority_check.escalation;
}

/** The principal approves the escalation on its hosted decision. */
const approve = (escalationId: string) => approveAsPrincipal(server, escalationId, ada);

/** Seconds from the server's clock (read off an answer's `checked_at`) to just after the next UTC midnight. */
const toNextUtcDay = (checkedAt: string) => {
  const at = Date.parse(checkedAt);
  return Math.ceil((Date.UTC(new Date(at).getUTCFullYear(), new Date(at).getUTCMonth(), new Date(at).getUTCDate() + 1) - at) / 1000) + 60;
};

describe('an approval lifts only the bound that escalated', () => {
  it('an action beyond the jurisdiction bound is refused outright, never put to the principal, even when its scope would escalate first', async () => {
    const g = await grant(server, ada, agent.id, paymentGrant({ delegated_scopes: ['bookings:read'] }));
    const token = await agentToken(server, g.id, agent);
    const abroad = await check(server, token, pay({ jurisdiction: 'US' }));
    assert.equal(abroad.status, 403, JSON.stringify(abroad.body));
    assert.equal(abroad.body.code, 'bound_exceeded');
    assert.deepEqual(errorsOf(abroad.body), [['jurisdiction', 'jurisdiction']]);
    const askedAhead = await call(server, '/api/v1/oap/escalations', { token, json: pay({ jurisdiction: 'US', action: 'delete' }) });
    assert.equal(askedAhead.status, 403, JSON.stringify(askedAhead.body));
    assert.deepEqual(errorsOf(askedAhead.body), [['jurisdiction', 'jurisdiction']]);
    const asked = await call(server, '/api/v1/oap/escalations', { token: ada.token });
    assert.deepEqual(
      asked.body.escalations.filter((e: Json) => e.delegation_grant_id === g.id),
      [],
      'the principal is never asked what no one can approve',
    );
  });

  it('an approved value escalation does not pass a second action on a one-a-day grant, and is still there tomorrow', async () => {
    const g = await grant(server, ada, agent.id, paymentGrant({ max_actions_per_day: 1 }));
    const token = await agentToken(server, g.id, agent);
    const esc = await escalated(token, pay({ value: 240 }));
    assert.equal(esc.trigger, 'value');
    await approve(esc.id);
    const first = await check(server, token, read);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const second = await check(server, token, pay({ value: 240, escalation_id: esc.id }));
    assert.equal(second.status, 403, JSON.stringify(second.body));
    assert.equal(second.body.code, 'bound_exceeded');
    assert.deepEqual(errorsOf(second.body), [['sequence', 'sequence']]);
    assert.equal(
      (await call(server, `/api/v1/oap/escalations/${esc.id}`, { token })).body.escalation.used_at,
      null,
      'a refused use does not spend the approval',
    );

    server.advance(toNextUtcDay(first.body.authority_check.checked_at));
    const tomorrow = await agentToken(server, g.id, agent);
    const used = await check(server, tomorrow, pay({ value: 240, escalation_id: esc.id }));
    assert.equal(used.status, 200, JSON.stringify(used.body));
    assert.equal(used.body.authority_check.remaining_today, 0, 'the approved action counts against the day it is used on');
  });

  it('an action beyond the value bound once the allowance is used up is refused, not escalated', async () => {
    const g = await grant(server, ada, agent.id, paymentGrant({ max_actions_per_day: 1 }));
    const token = await agentToken(server, g.id, agent);
    assert.equal((await check(server, token, read)).status, 200);
    const above = await check(server, token, pay({ value: 240 }));
    assert.equal(above.status, 403, JSON.stringify(above.body));
    assert.deepEqual(errorsOf(above.body), [['sequence', 'sequence']]);
    const askedAhead = await call(server, '/api/v1/oap/escalations', { token, json: pay({ value: 240 }) });
    assert.equal(askedAhead.status, 403, JSON.stringify(askedAhead.body));
    assert.deepEqual(errorsOf(askedAhead.body), [['sequence', 'sequence']]);
  });

  it("an approved value escalation does not outlast the grant's time bound", async () => {
    const now = Date.parse(
      (await check(server, await agentToken(server, (await grant(server, ada, agent.id, paymentGrant())).id, agent), read)).body
        .authority_check.checked_at,
    );
    const g = await grant(
      server,
      ada,
      agent.id,
      paymentGrant({ bounds: { ...paymentGrant().bounds, time: { not_after: new Date(now + 2 * 3600_000).toISOString() } } }),
    );
    const token = await agentToken(server, g.id, agent);
    const esc = await escalated(token, pay({ value: 240 }));
    await approve(esc.id);
    server.advance(3 * 3600);
    const late = await check(server, await agentToken(server, g.id, agent), pay({ value: 240, escalation_id: esc.id }));
    assert.equal(late.status, 403, JSON.stringify(late.body));
    assert.deepEqual(errorsOf(late.body), [['time', 'time']]);
  });

  it('one approval is enough for an action beyond two bounds the principal was asked about together', async () => {
    const g = await grant(server, ada, agent.id, paymentGrant({ delegated_scopes: ['bookings:read'] }));
    const token = await agentToken(server, g.id, agent);
    const esc = await escalated(token, pay({ value: 240 }));
    assert.equal(esc.trigger, 'scope');
    await approve(esc.id);
    const used = await check(server, token, pay({ value: 240, escalation_id: esc.id }));
    assert.equal(used.status, 200, JSON.stringify(used.body));
  });
});

describe('a value bound needs a value', () => {
  it('an action with no value under a value bound is refused (422) naming value, as one with no jurisdiction is refused naming jurisdiction', async () => {
    const g = await grant(server, ada, agent.id, paymentGrant());
    const token = await agentToken(server, g.id, agent);
    const before = (await call(server, `/api/v1/delegations/${g.id}`)).body.delegation_grant;
    const { value: _v, currency: _c, ...valueless } = pay();
    const noValue = await check(server, token, valueless);
    assert.equal(noValue.status, 422, JSON.stringify(noValue.body));
    assert.equal(noValue.body.code, 'validation_failed');
    assert.deepEqual(errorsOf(noValue.body), [['value', 'required_by_bound']]);
    assert.match(noValue.body.message, /must name its value/);
    const { jurisdiction: _j, ...nowhere } = pay();
    const noJurisdiction = await check(server, token, nowhere);
    assert.equal(noJurisdiction.status, 422);
    assert.equal(noJurisdiction.body.code, 'validation_failed');
    assert.deepEqual(errorsOf(noJurisdiction.body), [['jurisdiction', 'required_by_bound']]);
    const { jurisdiction: _j2, ...blank } = valueless;
    assert.deepEqual(
      errorsOf((await check(server, token, blank)).body),
      [
        ['jurisdiction', 'required_by_bound'],
        ['value', 'required_by_bound'],
      ],
      'every missing field is named',
    );
    const askedAhead = await call(server, '/api/v1/oap/escalations', { token, json: valueless });
    assert.equal(askedAhead.status, 422, 'a blank amount is never put to the principal');
    assert.deepEqual(errorsOf(askedAhead.body), [['value', 'required_by_bound']]);
    assert.equal((await call(server, '/api/v1/oap/escalations?status=pending', { token })).body.escalations.length, 0, 'nobody was asked');
    assert.deepEqual((await call(server, `/api/v1/delegations/${g.id}`)).body.delegation_grant, before, 'nothing was counted');
    const readOnly = await grant(server, ada, agent.id, { ...paymentGrant(), bounds: { jurisdiction: { allowed: ['DE'] } } });
    assert.equal(
      (await check(server, await agentToken(server, readOnly.id, agent), valueless)).status,
      200,
      'without a value bound no value is needed',
    );
  });
});

describe('an allowance cannot be multiplied by re-delegating', () => {
  const subGrant = (token: string, parentId: string, delegateId: string, extra: Json = {}) =>
    call(server, '/api/v1/delegations', {
      token,
      json: {
        delegate_id: delegateId,
        delegation_grant: { ...paymentGrant({ max_actions_per_day: 2 }), parent_grant_id: parentId, ...extra },
      },
    });

  it('an agent cannot delegate to itself, nor to another identity of its own OAuth client', async () => {
    const g = await grant(server, ada, agent.id, paymentGrant({ max_actions_per_day: 2, allow_sub_delegation: true }));
    const token = await agentToken(server, g.id, agent);
    const self = await subGrant(token, g.id, agent.id);
    assert.equal(self.status, 422, JSON.stringify(self.body));
    assert.equal(self.body.code, 'self_delegation');
    assert.deepEqual(errorsOf(self.body), [['delegate_id', 'self_delegation']]);
    assert.equal(typeof self.body.message, 'string');

    const twin = await call(server, '/api/v1/agent_identities', {
      json: { display_name: 'Shopping agent (twin)', oauth_application_id: agent.clientId },
    });
    assert.equal(twin.status, 201, JSON.stringify(twin.body));
    const toTwin = await subGrant(token, g.id, twin.body.agent_identity.id);
    assert.equal(toTwin.status, 422, JSON.stringify(toTwin.body));
    assert.equal(toTwin.body.code, 'self_delegation');
  });

  it('a person delegate cannot re-delegate to themselves', async () => {
    const bob = await signIn(server, 'bob@example.com');
    const g = await grant(server, ada, bob.id, {
      delegation_type: 'caregiver',
      delegated_scopes: ['escalations:read'],
      allow_sub_delegation: true,
    });
    const self = await call(server, '/api/v1/delegations', {
      token: bob.token,
      json: {
        delegate_id: bob.id,
        delegation_grant: { delegation_type: 'caregiver', delegated_scopes: ['escalations:read'], parent_grant_id: g.id },
      },
    });
    assert.equal(self.status, 422, JSON.stringify(self.body));
    assert.equal(self.body.code, 'self_delegation');
  });

  it("every action under a sub-grant counts against the root grant's daily allowance", async () => {
    const g = await grant(server, ada, agent.id, paymentGrant({ max_actions_per_day: 2, allow_sub_delegation: true }));
    const token = await agentToken(server, g.id, agent);
    const helper = await newAgent(server, 'Helper agent');
    const child = await subGrant(token, g.id, helper.id);
    assert.equal(child.status, 201, JSON.stringify(child.body));
    const helperToken = await agentToken(server, child.body.delegation_grant.id, helper);
    const statuses: number[] = [];
    for (const t of [helperToken, helperToken, token, helperToken, token]) statuses.push((await check(server, t, read)).status);
    assert.deepEqual(statuses, [200, 200, 403, 403, 403], 'two actions a day across the whole chain');
    const over = await check(server, token, read);
    assert.deepEqual(errorsOf(over.body), [['sequence', 'sequence']]);
  });

  it("the root's agent and the sub-grant's racing for the root's last action: exactly one passes", async () => {
    const g = await grant(server, ada, agent.id, paymentGrant({ max_actions_per_day: 1, allow_sub_delegation: true }));
    const token = await agentToken(server, g.id, agent);
    const helper = await newAgent(server, 'Racing helper');
    const child = await subGrant(token, g.id, helper.id, { max_actions_per_day: 1 });
    assert.equal(child.status, 201, JSON.stringify(child.body));
    const helperToken = await agentToken(server, child.body.delegation_grant.id, helper);
    const results = await Promise.all([token, helperToken, token, helperToken, token, helperToken].map((t) => check(server, t, read)));
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 403, 403, 403, 403, 403]);
  });

  it("a grandchild's actions count against each grant above it; the root keeps what is left of its own", async () => {
    const g = await grant(server, ada, agent.id, paymentGrant({ max_actions_per_day: 5, allow_sub_delegation: true }));
    const token = await agentToken(server, g.id, agent);
    const helper = await newAgent(server, 'Middle agent');
    const child = await subGrant(token, g.id, helper.id, { allow_sub_delegation: true });
    assert.equal(child.status, 201, JSON.stringify(child.body));
    const helperToken = await agentToken(server, child.body.delegation_grant.id, helper);
    const leaf = await newAgent(server, 'Leaf agent');
    const grandchild = await subGrant(helperToken, child.body.delegation_grant.id, leaf.id);
    assert.equal(grandchild.status, 201, JSON.stringify(grandchild.body));
    const leafToken = await agentToken(server, grandchild.body.delegation_grant.id, leaf);

    assert.equal((await check(server, leafToken, read)).status, 200);
    const leafSecond = await check(server, leafToken, read);
    assert.equal(leafSecond.status, 200);
    assert.equal(leafSecond.body.authority_check.remaining_today, 0);
    const middle = await check(server, helperToken, read);
    assert.equal(middle.status, 403, "the middle grant's two are spent by the grant under it");
    assert.deepEqual(errorsOf(middle.body), [['sequence', 'sequence']]);
    const root = await check(server, token, read);
    assert.equal(root.status, 200, JSON.stringify(root.body));
    assert.equal(root.body.authority_check.remaining_today, 2, 'five a day, three used across the chain');
  });
});
