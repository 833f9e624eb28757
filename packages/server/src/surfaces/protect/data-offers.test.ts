// Data offers over HTTP, the data deal: the person drafts and offers terms for a deal policy of theirs, the
// organisation counters, the person revises (as often as they like), either side accepts or declines the other's
// terms, the test clock expires open offers; the acceptance is recorded on the policy itself; illegal moves are 409
// naming the transition; who may make which move is checked by credential.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dataOfferEnvelope, dataOfferList, policyEnvelope, type DataOffer } from '@svc/schemas';
import type { TestServer } from '../../testing.js';
import { expect, otherAccount, policy, refusal, startWithPeople, type Person } from './test-support.js';

const DAY = 86_400;

describe('protect: data offers (the data deal)', () => {
  let server: TestServer;
  let ada: Person;
  let bob: Person;
  let reader: string;
  let app: string;
  const dealPolicy = (person: Person, template = 'data_offer') =>
    policy(server, person.token, {
      template_id: template,
      config:
        template === 'bounty'
          ? { data_categories: ['steps'], reward: { amount: 500, currency: 'EUR' } }
          : { data_categories: ['steps', 'sleep'] },
    });
  const draft = async (person: Person, extra: Record<string, unknown> = {}) => {
    const p = await dealPolicy(person);
    const body = await expect(server, 201, '/api/v1/data_offers', {
      token: person.token,
      json: { policy_id: p.id, application_id: app, terms: { price: { amount: 1000, currency: 'EUR' }, months: 12 }, ...extra },
    });
    return dataOfferEnvelope.parse(body).data_offer;
  };
  const move = async (offer: Pick<DataOffer, 'id'>, action: string, token: string | undefined, json?: unknown): Promise<DataOffer> =>
    dataOfferEnvelope.parse(
      await expect(server, 200, `/api/v1/data_offers/${offer.id}/${action}`, {
        ...(token ? { token } : {}),
        ...(json === undefined ? { method: 'POST' } : { json }),
      }),
    ).data_offer;
  before(async () => {
    ({ server, ada, bob, reader } = await startWithPeople());
    app = server.sandbox.application_id;
  });
  after(() => server.dispose());

  it('walks draft -> offered -> countered -> user_revised -> countered -> user_revised -> accepted, the acceptance recorded on the policy', async () => {
    const created = await draft(ada);
    assert.match(created.id, /^dof_us_/);
    assert.deepEqual(
      [created.status, created.turn, created.counter_count, created.expires_at, created.offered_at, created.rounds],
      ['draft', 'person', 0, null, null, []],
    );

    const offered = await move(created, 'offer', ada.token);
    assert.deepEqual([offered.status, offered.turn], ['offered', 'organisation']);
    assert.equal(Date.parse(offered.expires_at!) - Date.parse(offered.offered_at!), 7 * DAY * 1000);
    const c1 = await move(offered, 'counter', undefined, {
      terms: { price: { amount: 600, currency: 'EUR' }, months: 12 },
      message: 'We can do 6 euros.',
    });
    assert.deepEqual([c1.status, c1.turn, c1.counter_count, c1.terms.price], ['countered', 'person', 1, { amount: 600, currency: 'EUR' }]);
    const r1 = await move(c1, 'revise', ada.token, { terms: { price: { amount: 850, currency: 'EUR' }, months: 12 } });
    assert.deepEqual([r1.status, r1.turn], ['user_revised', 'organisation']);
    const c2 = await move(r1, 'counter', undefined, { terms: { price: { amount: 750, currency: 'EUR' }, months: 6 } });
    assert.deepEqual([c2.status, c2.counter_count], ['countered', 2]);
    const r2 = await move(c2, 'revise', ada.token, {
      terms: { price: { amount: 800, currency: 'EUR' }, months: 6 },
      message: 'Meet me at 8.',
    });
    const accepted = await move(r2, 'accept', undefined);
    assert.deepEqual([accepted.status, accepted.turn, accepted.counter_count], ['accepted', null, 2]);
    assert.ok(accepted.decided_at);
    assert.deepEqual(
      accepted.rounds.map((r) => [r.round, r.action, r.by]),
      [
        [1, 'offer', 'person'],
        [2, 'counter', 'organisation'],
        [3, 'revise', 'person'],
        [4, 'counter', 'organisation'],
        [5, 'revise', 'person'],
        [6, 'accept', 'organisation'],
      ],
    );
    assert.deepEqual(accepted.rounds[4]!.terms, { price: { amount: 800, currency: 'EUR' }, months: 6 });
    assert.equal(accepted.rounds[4]!.message, 'Meet me at 8.');

    const held = policyEnvelope.parse(await expect(server, 200, `/api/v1/policies/${accepted.policy_id}`, { token: ada.token })).policy;
    assert.equal(held.accepted_at, accepted.decided_at);
    assert.deepEqual(held.acceptance, {
      data_offer_id: accepted.id,
      application_id: app,
      accepted_by: 'organisation',
      accepted_at: accepted.decided_at,
      terms: { price: { amount: 800, currency: 'EUR' }, months: 6 },
    });
  });

  it("lets the person accept the organisation's counter, and the organisation accept an offer as it stands", async () => {
    const a = await move(await move(await draft(ada), 'offer', ada.token), 'counter', undefined, {
      terms: { price: { amount: 1, currency: 'EUR' } },
    });
    const byPerson = await move(a, 'accept', ada.token);
    assert.equal(byPerson.status, 'accepted');
    assert.equal(
      (await expect(server, 200, `/api/v1/policies/${a.policy_id}`, { token: ada.token })).policy.acceptance.accepted_by,
      'person',
    );

    const b = await move(await draft(ada), 'offer', ada.token);
    assert.equal((await move(b, 'accept', undefined)).status, 'accepted');
  });

  it('declines: the organisation an offer or a revision, the person a counter (with a reason); declined is final', async () => {
    const a = await move(await draft(ada), 'offer', ada.token);
    const declined = await move(a, 'decline', undefined, { reason: 'Not buying sleep data.' });
    assert.deepEqual([declined.status, declined.decline_reason, declined.turn], ['declined', 'Not buying sleep data.', null]);
    const b = await move(await move(await draft(ada), 'offer', ada.token), 'counter', undefined, {
      terms: { price: { amount: 1, currency: 'EUR' } },
    });
    assert.equal((await move(b, 'decline', ada.token)).status, 'declined');
    for (const [action, token, json] of [
      ['accept', undefined],
      ['counter', undefined, { terms: { a: 1 } }],
      ['revise', ada.token, { terms: { a: 1 } }],
      ['decline', ada.token],
      ['offer', ada.token],
    ] as const) {
      const body = await refusal(server, 409, 'illegal_transition', `/api/v1/data_offers/${b.id}/${action}`, {
        ...(token ? { token } : {}),
        ...(json ? { json } : { method: 'POST' }),
      });
      assert.match(body.message, /from declined to .* \(declined is final\)/);
    }
  });

  it('refuses moves out of turn and out of sequence with 409 naming the transition', async () => {
    const d = await draft(ada);
    const early = await refusal(server, 409, 'illegal_transition', `/api/v1/data_offers/${d.id}/accept`, {
      token: ada.token,
      method: 'POST',
    });
    assert.match(early.message, /cannot go from draft to accepted/);
    await refusal(server, 409, 'illegal_transition', `/api/v1/data_offers/${d.id}/counter`, { json: { terms: { a: 1 } } });
    const offered = await move(d, 'offer', ada.token);
    // The person cannot accept their own terms, nor revise before a counter; the organisation cannot counter twice.
    const own = await refusal(server, 409, 'illegal_transition', `/api/v1/data_offers/${d.id}/accept`, {
      token: ada.token,
      method: 'POST',
    });
    assert.match(own.message, /from offered to accepted only by the organisation, not by the person/);
    await refusal(server, 409, 'illegal_transition', `/api/v1/data_offers/${d.id}/revise`, { token: ada.token, json: { terms: { a: 1 } } });
    await refusal(server, 409, 'illegal_transition', `/api/v1/data_offers/${d.id}/offer`, { token: ada.token, method: 'POST' });
    await move(offered, 'counter', undefined, { terms: { a: 1 } });
    assert.match(
      (await refusal(server, 409, 'illegal_transition', `/api/v1/data_offers/${d.id}/counter`, { json: { terms: { a: 2 } } })).message,
      /from countered to countered/,
    );
    await refusal(server, 409, 'illegal_transition', `/api/v1/data_offers/${d.id}/accept`, { method: 'POST' });
    // Moves that belong to the other credential kind are refused before the state is looked at.
    await refusal(server, 403, 'person_token_required', `/api/v1/data_offers/${d.id}/revise`, { json: { terms: { a: 1 } } });
    await refusal(server, 403, 'person_token_required', `/api/v1/data_offers/${d.id}/offer`, { method: 'POST' });
    await refusal(server, 403, 'person_token_not_allowed', `/api/v1/data_offers/${d.id}/counter`, {
      token: ada.token,
      json: { terms: { a: 1 } },
    });
    await refusal(server, 403, 'insufficient_permissions', `/api/v1/data_offers/${d.id}/accept`, { token: reader, method: 'POST' });
    await refusal(server, 422, 'validation_failed', `/api/v1/data_offers/${d.id}/revise`, { token: ada.token, json: { terms: 'cheaper' } });
  });

  it('expires open offers by the test clock (decided at the time they ran out); expired is final', async () => {
    const inTwoDays = new Date(Date.now() + 2 * DAY * 1000 + (server.context.testClock?.offsetSeconds ?? 0) * 1000).toISOString();
    const short = await move(await draft(ada, { expires_at: inTwoDays }), 'offer', ada.token);
    assert.equal(short.expires_at, inTwoDays);
    const countered = await move(await move(await draft(ada), 'offer', ada.token), 'counter', undefined, { terms: { a: 1 } });
    const still = await draft(ada);
    server.advance(3 * DAY);
    const expired = dataOfferEnvelope.parse(await expect(server, 200, `/api/v1/data_offers/${short.id}`, { token: ada.token })).data_offer;
    assert.deepEqual([expired.status, expired.decided_at, expired.turn], ['expired', inTwoDays, null]);
    assert.deepEqual(expired.rounds.at(-1), { round: 2, action: 'expire', by: 'service', terms: null, message: null, at: inTwoDays });
    assert.match(
      (await refusal(server, 409, 'illegal_transition', `/api/v1/data_offers/${short.id}/accept`, { method: 'POST' })).message,
      /from expired to accepted \(expired is final\)/,
    );
    assert.equal((await expect(server, 200, `/api/v1/data_offers/${countered.id}`)).data_offer.status, 'countered');
    server.advance(5 * DAY);
    // A move on an offer past its time finds it expired; a list shows it expired.
    assert.match(
      (
        await refusal(server, 409, 'illegal_transition', `/api/v1/data_offers/${countered.id}/revise`, {
          token: ada.token,
          json: { terms: { a: 2 } },
        })
      ).message,
      /from expired/,
    );
    const listed = dataOfferList
      .parse(await expect(server, 200, '/api/v1/data_offers?status=expired&limit=100', { token: ada.token }))
      .data_offers.map((o) => o.id);
    assert.ok(listed.includes(short.id) && listed.includes(countered.id));
    // A draft has no time limit until it is offered.
    assert.equal((await expect(server, 200, `/api/v1/data_offers/${still.id}`, { token: ada.token })).data_offer.status, 'draft');
    await refusal(server, 422, 'expires_at_invalid', '/api/v1/data_offers', {
      token: ada.token,
      json: { policy_id: (await dealPolicy(ada)).id, application_id: app, terms: {}, expires_at: '2020-01-01T00:00:00Z' },
    });
  });

  it('records one acceptance per policy: a second offer of an accepted policy cannot be accepted or made', async () => {
    const p = await dealPolicy(ada, 'bounty');
    const make = () =>
      expect(server, 201, '/api/v1/data_offers', {
        token: ada.token,
        json: { policy_id: p.id, application_id: app, terms: { claims: 1 } },
      }).then((b) => b.data_offer as DataOffer);
    const first = await move(await make(), 'offer', ada.token);
    const second = await move(await make(), 'offer', ada.token);
    await move(first, 'accept', undefined);
    const body = await refusal(server, 409, 'policy_already_accepted', `/api/v1/data_offers/${second.id}/accept`, { method: 'POST' });
    assert.match(body.message, /already accepted/);
    assert.equal((await expect(server, 200, `/api/v1/data_offers/${second.id}`)).data_offer.status, 'offered');
    await refusal(server, 422, 'policy_already_accepted', '/api/v1/data_offers', {
      token: ada.token,
      json: { policy_id: p.id, application_id: app, terms: {} },
    });
  });

  it("refuses policies that cannot be negotiated: not a deal, revoked, not the person's own", async () => {
    const retention = await policy(server, ada.token, { template_id: 'retention', config: { data_categories: ['x'], retention_days: 1 } });
    await refusal(server, 422, 'policy_not_deal', '/api/v1/data_offers', {
      token: ada.token,
      json: { policy_id: retention.id, application_id: app, terms: {} },
    });
    const revoked = await dealPolicy(ada);
    const pending = await expect(server, 201, '/api/v1/data_offers', {
      token: ada.token,
      json: { policy_id: revoked.id, application_id: app, terms: {} },
    });
    await expect(server, 200, `/api/v1/policies/${revoked.id}/revoke`, { token: ada.token, method: 'POST' });
    await refusal(server, 422, 'policy_not_active', '/api/v1/data_offers', {
      token: ada.token,
      json: { policy_id: revoked.id, application_id: app, terms: {} },
    });
    await refusal(server, 409, 'policy_not_active', `/api/v1/data_offers/${pending.data_offer.id}/offer`, {
      token: ada.token,
      method: 'POST',
    });
    const bobs = await dealPolicy(bob);
    await refusal(server, 422, 'policy_not_found', '/api/v1/data_offers', {
      token: ada.token,
      json: { policy_id: bobs.id, application_id: app, terms: {} },
    });
    const account = await policy(server, undefined, { template_id: 'broadcast', config: { data_categories: ['x'] } });
    await refusal(server, 422, 'policy_not_found', '/api/v1/data_offers', {
      token: ada.token,
      json: { policy_id: account.id, application_id: app, terms: {} },
    });
    await refusal(server, 422, 'application_not_found', '/api/v1/data_offers', {
      token: ada.token,
      json: { policy_id: (await dealPolicy(ada)).id, application_id: otherAccount(server).applicationId, terms: {} },
    });
    await refusal(server, 403, 'person_token_required', '/api/v1/data_offers', {
      json: { policy_id: bobs.id, application_id: app, terms: {} },
    });
  });

  it('lists with pagination and filters; a person sees their own, the organisation every offer of the account, another account nothing', async () => {
    const mine = await draft(bob);
    for (let i = 0; i < 2; i += 1) await draft(bob);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = dataOfferList.parse(
        await expect(server, 200, `/api/v1/data_offers?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: bob.token }),
      );
      seen.push(...page.data_offers.map((o) => o.id));
      assert.ok(page.data_offers.every((o) => o.person_id === bob.id));
      cursor = page.next_cursor;
    } while (cursor);
    assert.equal(seen.length, 3);
    const org = dataOfferList.parse(await expect(server, 200, '/api/v1/data_offers?limit=100', { token: reader })).data_offers;
    assert.ok(org.some((o) => o.person_id === ada.id) && org.some((o) => o.person_id === bob.id));
    assert.deepEqual(
      dataOfferList.parse(await expect(server, 200, `/api/v1/data_offers?policy_id=${mine.policy_id}`)).data_offers.map((o) => o.id),
      [mine.id],
    );
    await refusal(server, 404, 'not_found', `/api/v1/data_offers/${mine.id}`, { token: ada.token });
    await refusal(server, 404, 'not_found', `/api/v1/data_offers/${mine.id}/decline`, { token: ada.token, method: 'POST' });
    const other = otherAccount(server);
    await refusal(server, 404, 'not_found', `/api/v1/data_offers/${mine.id}`, { token: other.token });
    await refusal(server, 404, 'not_found', `/api/v1/data_offers/${mine.id}/accept`, { token: other.token, method: 'POST' });
    const pk = await server.api('/api/v1/data_offers', { headers: { 'x-publishable-key': server.sandbox.publishable_key } });
    assert.equal(pk.status, 403);
  });
});
