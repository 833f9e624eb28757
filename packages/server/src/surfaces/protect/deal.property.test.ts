// Properties of the data deal state machine (fast-check), over generated sequences of moves by any actor: no
// sequence reaches a state, or takes a step, the spec's sequence does not allow; final states stay final; nobody
// accepts their own terms. The last property replays generated sequences against the server over HTTP (the person's
// token, the organisation's API token, the test clock) and checks the server answers what the machine says.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { DATA_OFFER_ACTIONS, DATA_OFFER_STATUSES, dataOfferEnvelope, type DataOfferAction, type DataOfferStatus } from '@svc/schemas';
import { startTestServer, type TestServer } from '../../testing.js';
import { dealTransition, DEAL_TRANSITIONS, TERMINAL_DEAL_STATES, turnOf, type DealActor } from './deal.js';
import { call, policy, signIn, type Person } from './test-support.js';

// The spec's sequence, written out independently of the machine: `draft -> offered -> countered -> user_revised ->
// accepted | declined | expired`, with several counter-offers (countered <-> user_revised) before the end.
const OPEN = ['offered', 'countered', 'user_revised'];
const SPEC_STEPS = new Set([
  'draft>offered',
  'offered>countered',
  'countered>user_revised',
  'user_revised>countered',
  ...OPEN.flatMap((from) => ['accepted', 'declined', 'expired'].map((to) => `${from}>${to}`)),
]);

const ACTORS: DealActor[] = ['person', 'organisation', 'service'];
const moveArb = fc.record({ action: fc.constantFrom(...DATA_OFFER_ACTIONS), actor: fc.constantFrom(...ACTORS) });
type Move = { action: DataOfferAction; actor: DealActor };

/** Every move the machine allows from `state`. */
const allowedMoves = (state: DataOfferStatus): Move[] =>
  DATA_OFFER_ACTIONS.flatMap((action) => ACTORS.map((actor) => ({ action, actor }))).filter(
    ({ action, actor }) => dealTransition(state, action, actor).ok,
  );

/** Who proposed the terms on the table in `state` (the person offers and revises, the organisation counters). */
const proposerOf = (state: DataOfferStatus) =>
  state === 'offered' || state === 'user_revised' ? 'person' : state === 'countered' ? 'organisation' : null;

describe('protect: the data deal state machine (properties)', () => {
  it('never reaches a state or takes a step the spec does not allow; final states stay final; nobody accepts their own terms', () => {
    fc.assert(
      fc.property(fc.array(moveArb, { maxLength: 40 }), (moves) => {
        let state: DataOfferStatus = 'draft';
        let final = false;
        for (const { action, actor } of moves) {
          const step = dealTransition(state, action, actor);
          assert.ok((DATA_OFFER_STATUSES as readonly string[]).includes(state));
          if (final) assert.equal(step.ok, false, `left final state ${state} by ${action}`);
          if (!step.ok) {
            assert.match(step.message, new RegExp(`from ${state} to`));
            continue;
          }
          assert.ok(SPEC_STEPS.has(`${state}>${step.to}`), `${state} -> ${step.to} is not a step of the spec's sequence`);
          if (action === 'accept') assert.notEqual(actor, proposerOf(state), `${actor} accepted their own terms`);
          if (action === 'expire') assert.equal(actor, 'service');
          if (action !== 'expire') assert.equal(actor, turnOf(state), `${actor} moved out of turn in ${state}`);
          state = step.to;
          final = TERMINAL_DEAL_STATES.includes(state);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('reaches every state of the spec, and several counters before acceptance, through allowed moves', () => {
    const reached = new Set<DataOfferStatus>(['draft']);
    let counters = 0;
    // A guided walk: each step picks one of the moves the machine allows from where it stands.
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 12 }), (picks) => {
        let state: DataOfferStatus = 'draft';
        let seen = 0;
        for (const pick of picks) {
          const allowed = allowedMoves(state);
          if (allowed.length === 0) break;
          const { action, actor } = allowed[pick % allowed.length]!;
          const step = dealTransition(state, action, actor);
          assert.ok(step.ok);
          if (action === 'counter') seen += 1;
          state = step.to;
          reached.add(state);
          if (state === 'accepted') counters = Math.max(counters, seen);
        }
      }),
      { numRuns: 2000 },
    );
    assert.deepEqual([...reached].sort(), [...DATA_OFFER_STATUSES].sort());
    assert.ok(counters >= 2, 'an offer was accepted after two or more counters');
  });

  it('has exactly the allowed transitions table the routes use (and nothing leaves a final state)', () => {
    for (const state of TERMINAL_DEAL_STATES) assert.deepEqual(DEAL_TRANSITIONS[state], {});
    for (const [from, edges] of Object.entries(DEAL_TRANSITIONS)) {
      for (const edge of Object.values(edges)) assert.ok(SPEC_STEPS.has(`${from}>${edge!.to}`), `${from} -> ${edge!.to}`);
    }
  });

  describe('over HTTP', () => {
    let server: TestServer;
    let ada: Person;
    before(async () => {
      server = await startTestServer();
      ada = await signIn(server, 'ada@example.com');
    });
    after(() => server.dispose());

    it('answers every generated sequence as the machine does: 200 and its state for an allowed move, a 4xx and no change otherwise', async () => {
      // Half the moves are guided (one the machine allows from where the offer stands), half arbitrary.
      const httpMove = fc.record({
        guided: fc.boolean(),
        pick: fc.nat(),
        action: fc.constantFrom(...DATA_OFFER_ACTIONS),
        actor: fc.constantFrom(...ACTORS),
      });
      await fc.assert(
        fc.asyncProperty(fc.array(httpMove, { minLength: 1, maxLength: 8 }), async (generated) => {
          const p = await policy(server, ada.token, { template_id: 'data_offer', config: { data_categories: ['steps'] } });
          const created = await call(server, '/api/v1/data_offers', {
            token: ada.token,
            json: { policy_id: p.id, application_id: server.sandbox.application_id, terms: { v: 0 } },
          });
          assert.equal(created.status, 201);
          const id = created.body.data_offer.id as string;
          let state: DataOfferStatus = 'draft';
          for (const [i, g] of generated.entries()) {
            const allowed = allowedMoves(state);
            const { action, actor }: Move = g.guided && allowed.length ? allowed[g.pick % allowed.length]! : g;
            const expected = dealTransition(state, action, actor);
            if (actor === 'service') {
              // The service's only move is the clock: past the offer's time, an open offer reads expired.
              server.advance(8 * 86_400);
              const read = await call(server, `/api/v1/data_offers/${id}`);
              const now: DataOfferStatus = action === 'expire' && expected.ok ? expected.to : OPEN.includes(state) ? 'expired' : state;
              assert.equal(read.body.data_offer.status, now);
              state = now;
              continue;
            }
            const token = actor === 'person' ? ada.token : undefined;
            const body = action === 'counter' || action === 'revise' ? { json: { terms: { v: i + 1 } } } : { method: 'POST' };
            const path = action === 'expire' ? `/api/v1/data_offers/${id}/expire` : `/api/v1/data_offers/${id}/${action}`;
            const res = await call(server, path, { ...(token ? { token } : {}), ...body });
            if (expected.ok && action !== 'expire') {
              assert.equal(res.status, 200, `${state} --${action} by ${actor}--> ${JSON.stringify(res.body)}`);
              assert.equal(res.body.data_offer.status, expected.to);
              state = expected.to;
            } else {
              assert.ok(res.status >= 400 && res.status < 500, `${state} --${action} by ${actor}--> ${res.status}`);
              assert.equal(typeof res.body.message, 'string');
              const read = dataOfferEnvelope.parse((await call(server, `/api/v1/data_offers/${id}`)).body).data_offer;
              assert.equal(read.status, state);
            }
          }
        }),
        { numRuns: 25 },
      );
    });
  });
});
