// Properties of the bounds, over generated grants and actions (fast-check): no action outside a grant's bounds is
// ever allowed, a denial always names a bound the action really went beyond, and a sub-delegation the server accepts
// never allows what its parent would not. The last property also runs against the server over HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { DelegationBounds } from '@svc/schemas';
import { startTestServer, type TestServer } from '../../testing.js';
import { failedBounds, firstFailedBound, wideningsOf, type ActionProposal, type CheckState, type GrantTerms } from './bounds.js';
import { agentToken, check, grant, newAgent, signIn, type Agent, type Person } from './test-support.js';

const SCOPES = ['payments:write', 'bookings:read', 'profile:read', 'admin:write'];
const COUNTRIES = ['DE', 'FR', 'US', 'GB'];
const CURRENCIES = ['EUR', 'USD'];
const T0 = Date.parse('2026-06-01T00:00:00Z');
const HOUR = 3600_000;

const subsetOf = <T>(items: readonly T[]) => fc.subarray([...items], { minLength: 1 });
const iso = (ms: number) => new Date(ms).toISOString();

const boundsArb: fc.Arbitrary<DelegationBounds> = fc
  .record(
    {
      actions: fc.option(subsetOf(['read', 'write', 'delete'] as const), { nil: undefined }),
      value: fc.option(fc.record({ max_per_transaction: fc.integer({ min: 1, max: 1000 }), currency: fc.constantFrom(...CURRENCIES) }), {
        nil: undefined,
      }),
      time: fc.option(
        fc
          .integer({ min: -48, max: 48 })
          .chain((from) =>
            fc.record({
              not_before: fc.option(fc.constant(iso(T0 + from * HOUR)), { nil: undefined }),
              not_after: fc.option(
                fc.integer({ min: from + 1, max: 96 }).map((to) => iso(T0 + to * HOUR)),
                { nil: undefined },
              ),
            }),
          )
          .filter((t) => t.not_before !== undefined || t.not_after !== undefined),
        { nil: undefined },
      ),
      escalation: fc.option(fc.record({ allowed: fc.boolean() }), { nil: undefined }),
      reputation: fc.option(fc.record({ min_trust_score: fc.integer({ min: 0, max: 100 }) }), { nil: undefined }),
      jurisdiction: fc.option(fc.record({ allowed: subsetOf(COUNTRIES) }), { nil: undefined }),
    },
    { requiredKeys: [] },
  )
  .map((b) => Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)) as DelegationBounds);

const termsArb: fc.Arbitrary<GrantTerms> = fc.record({
  delegated_scopes: subsetOf(SCOPES),
  max_actions_per_day: fc.option(fc.integer({ min: 1, max: 10 }), { nil: null }),
  expires_at: fc.option(
    fc.integer({ min: 1, max: 200 }).map((h) => iso(T0 + h * HOUR)),
    { nil: null },
  ),
  allow_sub_delegation: fc.boolean(),
  bounds: boundsArb,
});

const actionArb: fc.Arbitrary<ActionProposal> = fc
  .record({
    scope: fc.constantFrom(...SCOPES),
    action: fc.constantFrom('read', 'write', 'delete'),
    value: fc.option(fc.integer({ min: 1, max: 1500 }), { nil: undefined }),
    jurisdiction: fc.option(fc.constantFrom(...COUNTRIES), { nil: undefined }),
  })
  .chain((a) => (a.value === undefined ? fc.constant({ ...a }) : fc.constantFrom(...CURRENCIES).map((currency) => ({ ...a, currency }))));

const stateArb: fc.Arbitrary<CheckState> = fc.record({
  now: fc.integer({ min: -72, max: 120 }).map((h) => T0 + h * HOUR),
  trustScore: fc.integer({ min: 0, max: 100 }),
  allowedToday: fc.integer({ min: 0, max: 12 }),
  ancestors: fc.array(
    fc.record({
      grant_id: fc.constantFrom('dlg_us_AAAAAAAAAAAAAAAA', 'dlg_us_BBBBBBBBBBBBBBBB'),
      max_actions_per_day: fc.integer({ min: 1, max: 10 }),
      allowed_today: fc.integer({ min: 0, max: 12 }),
    }),
    { maxLength: 2 },
  ),
});

/** A grant within `parent`: every bound the parent configures kept, no wider; other bounds may be added. */
function narrowerThan(parent: GrantTerms): fc.Arbitrary<GrantTerms> {
  const p = parent.bounds;
  const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
  const hoursBefore = (at: string) => fc.integer({ min: 0, max: 24 }).map((h) => iso(Date.parse(at) - h * HOUR));
  const hoursAfter = (at: string) => fc.integer({ min: 0, max: 24 }).map((h) => iso(Date.parse(at) + h * HOUR));
  return fc.record({
    delegated_scopes: subsetOf(parent.delegated_scopes),
    max_actions_per_day:
      parent.max_actions_per_day !== null
        ? fc.integer({ min: 1, max: parent.max_actions_per_day })
        : fc.option(fc.integer({ min: 1, max: 10 }), { nil: null }),
    expires_at:
      parent.expires_at !== null
        ? hoursBefore(parent.expires_at)
        : fc.option(
            fc.integer({ min: 1, max: 200 }).map((h) => iso(T0 + h * HOUR)),
            { nil: null },
          ),
    allow_sub_delegation: fc.boolean(),
    bounds: fc
      .record({
        actions: p.actions ? subsetOf(p.actions) : opt(subsetOf(['read', 'write', 'delete'] as const)),
        value: p.value
          ? fc.record({
              max_per_transaction: fc.integer({ min: 1, max: p.value.max_per_transaction }),
              currency: fc.constant(p.value.currency),
            })
          : opt(fc.record({ max_per_transaction: fc.integer({ min: 1, max: 1000 }), currency: fc.constantFrom(...CURRENCIES) })),
        time: fc
          .record({
            not_before: p.time?.not_before
              ? hoursAfter(p.time.not_before)
              : opt(fc.integer({ min: -48, max: 0 }).map((h) => iso(T0 + h * HOUR))),
            not_after: p.time?.not_after
              ? hoursBefore(p.time.not_after)
              : opt(fc.integer({ min: 49, max: 96 }).map((h) => iso(T0 + h * HOUR))),
          })
          .map((t) => (t.not_before && t.not_after && Date.parse(t.not_before) >= Date.parse(t.not_after) ? { ...p.time } : t)),
        escalation: p.escalation?.allowed ? opt(fc.record({ allowed: fc.boolean() })) : opt(fc.constant({ allowed: false })),
        reputation: p.reputation
          ? fc.record({ min_trust_score: fc.integer({ min: p.reputation.min_trust_score, max: 100 }) })
          : opt(fc.record({ min_trust_score: fc.integer({ min: 0, max: 100 }) })),
        jurisdiction: p.jurisdiction
          ? fc.record({ allowed: subsetOf(p.jurisdiction.allowed) })
          : opt(fc.record({ allowed: subsetOf(COUNTRIES) })),
      })
      .map((b) => {
        const time = Object.fromEntries(Object.entries(b.time).filter(([, v]) => v !== undefined));
        const out = Object.fromEntries(
          Object.entries({ ...b, time: Object.keys(time).length ? time : undefined }).filter(([, v]) => v !== undefined),
        );
        return out as DelegationBounds;
      }),
  });
}

/** Each bound's own rule, written independently of the implementation: true when the action is within it. */
const within: Record<string, (t: GrantTerms, a: ActionProposal, s: CheckState) => boolean> = {
  scope: (t, a) => t.delegated_scopes.includes(a.scope),
  action: (t, a) => !t.bounds.actions || t.bounds.actions.includes(a.action),
  jurisdiction: (t, a) => !t.bounds.jurisdiction || (a.jurisdiction != null && t.bounds.jurisdiction.allowed.includes(a.jurisdiction)),
  value: (t, a) =>
    !t.bounds.value || (a.value != null && a.currency === t.bounds.value.currency && a.value <= t.bounds.value.max_per_transaction),
  time: (t, _a, s) =>
    !t.bounds.time ||
    ((t.bounds.time.not_before === undefined || s.now >= Date.parse(t.bounds.time.not_before)) &&
      (t.bounds.time.not_after === undefined || s.now <= Date.parse(t.bounds.time.not_after))),
  reputation: (t, _a, s) => !t.bounds.reputation || s.trustScore >= t.bounds.reputation.min_trust_score,
  sequence: (t, _a, s) =>
    (t.max_actions_per_day === null || s.allowedToday < t.max_actions_per_day) &&
    (s.ancestors ?? []).every((a) => a.allowed_today < a.max_actions_per_day),
};
const withinAll = (t: GrantTerms, a: ActionProposal, s: CheckState) => Object.values(within).every((rule) => rule(t, a, s));

describe('bounds (properties)', () => {
  it("no action outside a grant's bounds is ever allowed, and every action inside them is", () => {
    fc.assert(
      fc.property(termsArb, actionArb, stateArb, (terms, action, state) => {
        const failure = firstFailedBound(terms, action, state);
        assert.equal(failure === undefined, withinAll(terms, action, state));
      }),
      { numRuns: 5000 },
    );
  });

  it('a refusal names a bound the action really went beyond', () => {
    fc.assert(
      fc.property(termsArb, actionArb, stateArb, (terms, action, state) => {
        const failure = firstFailedBound(terms, action, state);
        if (failure) assert.equal(within[failure.bound]!(terms, action, state), false, failure.bound);
      }),
      { numRuns: 5000 },
    );
  });

  it('every bound the action goes beyond is named, each once, and only those (what an approval is asked to lift)', () => {
    fc.assert(
      fc.property(termsArb, actionArb, stateArb, (terms, action, state) => {
        const named = failedBounds(terms, action, state).map((f) => f.bound);
        assert.deepEqual(
          named,
          Object.keys(within).filter((bound) => !within[bound]!(terms, action, state)),
        );
      }),
      { numRuns: 5000 },
    );
  });

  it('a sub-delegation within its parent is accepted, and never allows what its parent would not', () => {
    const pairs = termsArb.chain((parent) => narrowerThan(parent).map((child) => ({ parent, child })));
    fc.assert(
      fc.property(pairs, actionArb, stateArb, ({ parent, child }, action, state) => {
        assert.deepEqual(wideningsOf(parent, child), []);
        if (!firstFailedBound(child, action, state)) assert.equal(firstFailedBound(parent, action, state), undefined);
      }),
      { numRuns: 5000 },
    );
  });

  it('a sub-delegation that drops or loosens a bound of its parent is refused, naming it', () => {
    fc.assert(
      fc.property(
        termsArb.filter((t) => Object.keys(t.bounds).some((k) => k !== 'escalation')),
        (parent) => {
          const [dropped] = Object.keys(parent.bounds).filter((k) => k !== 'escalation');
          const { [dropped as keyof DelegationBounds]: _gone, ...rest } = parent.bounds;
          const widenings = wideningsOf(parent, { ...parent, bounds: rest });
          assert.ok(
            widenings.some((w) => w.path.startsWith(`delegation_grant.bounds.${dropped}`)),
            JSON.stringify({ dropped, widenings }),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('bounds over HTTP (properties)', () => {
  let server: TestServer;
  let ada: Person;
  let agent: Agent;
  before(async () => {
    server = await startTestServer();
    ada = await signIn(server, 'ada@example.com');
    agent = await newAgent(server, 'Property agent');
  });
  after(() => server.dispose());

  it("no generated action outside a grant's bounds is answered allowed by the server", async () => {
    // Time and the trust score are the server's own; the generated grants keep them open so every run is decidable.
    const httpBounds = boundsArb.map(({ time: _t, reputation: _r, ...rest }) => rest);
    await fc.assert(
      fc.asyncProperty(termsArb, httpBounds, fc.array(actionArb, { minLength: 1, maxLength: 4 }), async (terms, bounds, actions) => {
        const g = await grant(server, ada, agent.id, {
          delegation_type: 'ai_agent',
          delegated_scopes: terms.delegated_scopes,
          bounds,
          ...(terms.max_actions_per_day !== null ? { max_actions_per_day: terms.max_actions_per_day } : {}),
        });
        const token = await agentToken(server, g.id, agent);
        let allowed = 0;
        for (const action of actions) {
          const t: GrantTerms = { ...terms, expires_at: null, bounds };
          const expected = withinAll(t, action, { now: Date.now(), trustScore: 100, allowedToday: allowed, ancestors: [] });
          const res = await check(server, token, action);
          assert.equal(
            res.status === 200,
            expected,
            `${JSON.stringify({ bounds, scopes: terms.delegated_scopes, action })}: ${res.status} ${JSON.stringify(res.body)}`,
          );
          if (res.status === 200) allowed += 1;
          // 422 exactly when the action leaves out a field a bound needs (a value, a jurisdiction): it cannot be held to it.
          const blank =
            (bounds.value !== undefined && action.value == null) || (bounds.jurisdiction !== undefined && action.jurisdiction == null);
          assert.equal(res.status === 422, blank, `${JSON.stringify({ bounds, action })}: ${res.status} ${JSON.stringify(res.body)}`);
          if (res.status !== 200) assert.ok([202, 403, 422].includes(res.status), `${res.status} ${JSON.stringify(res.body)}`);
        }
      }),
      { numRuns: 40 },
    );
  });
});
