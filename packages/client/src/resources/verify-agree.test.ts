// Verify and Agree through the typed client against a reference server: a person vouches with their own access token
// and the vouchee's trust score shows it; a multi-party agreement is created, each party votes with their own token
// until it is active; a collaboration is made by a person, signed by its members and dissolved. Refusals are typed
// errors with their code.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, type SvcClient } from '../lib/client.js';
import { SvcHttpError, SvcNotFoundError, SvcPermissionError, SvcValidationError } from '../lib/errors.js';
import { signInPerson } from '../testing/oauth.test.helper.js';
import { rejection } from '../testing/rejection.test.helper.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { createHash } from 'node:crypto';

const TEXT = 'We share the workshop.\n';
const SHA = createHash('sha256').update(TEXT).digest('hex');

describe('Verify and Agree through the client', () => {
  let server: TestServer;
  let org: SvcClient;
  const people: Record<string, { svc: SvcClient; id: string }> = {};

  before(async () => {
    server = await startTestServer();
    org = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
    for (const name of ['ada', 'bob', 'cy']) {
      const tokens = await signInPerson(server, `${name}@example.com`);
      const svc = createClient({ baseUrl: server.url, accessToken: tokens.access_token });
      const me = await svc.me();
      assert.equal(me.kind, 'person');
      people[name] = { svc, id: me.kind === 'person' ? me.person.id : '' };
    }
  });
  after(() => server.dispose());

  it('vouches, reads the score with its factors, lists and revokes', async () => {
    const { ada, bob } = people as Required<typeof people>;
    const before = await org.trustScores.get(bob!.id);
    assert.equal(before.subject_type, 'person');
    const vouch = await ada!.svc.vouches.create({ vouchee_id: bob!.id, statement: 'Reliable.' });
    assert.equal(vouch.status, 'active');
    const after = await bob!.svc.trustScores.get(bob!.id);
    assert.equal(after.score, before.score + 5);
    assert.equal(after.factors.find((f) => f.name === 'vouches_received')?.contribution, 5);

    const conflict = await rejection(ada!.svc.vouches.create({ vouchee_id: bob!.id }), SvcHttpError);
    assert.equal(conflict.status, 409);
    assert.equal(conflict.reason, 'vouch_exists');
    const self = await rejection(ada!.svc.vouches.create({ vouchee_id: ada!.id }), SvcValidationError);
    assert.equal(self.reason, 'self_vouch');
    await rejection(org.vouches.create({ vouchee_id: bob!.id }), SvcPermissionError);

    const received = [];
    for await (const v of bob!.svc.vouches.list({ direction: 'received', limit: 1 })) received.push(v);
    assert.deepEqual(
      received.map((v) => v.id),
      [vouch.id],
    );
    assert.equal((await org.vouches.get(vouch.id)).voucher_id, ada!.id);
    const revoked = await ada!.svc.vouches.revoke(vouch.id);
    assert.equal(revoked.status, 'revoked');
    await rejection(people.cy!.svc.vouches.get(vouch.id), SvcNotFoundError);
  });

  it("creates a multi-party agreement and takes each party's vote", async () => {
    const { ada, bob, cy } = people as Required<typeof people>;
    const created = await org.multiPartyAgreements.create({
      multi_party_agreement: {
        title: 'Workshop',
        document: { text: TEXT, sha256: SHA },
        quorum: 2,
        parties: [
          { email: 'ada@example.com', home_country: 'US' },
          { email: 'bob@example.com', home_country: 'US' },
        ],
      },
    });
    assert.equal(created.signed_count, 0);
    const first = await ada!.svc.agreements.castQuorumVote(created.id, { vote: 'approve', comment: 'Yes.' });
    assert.equal(first.agreement.status, 'partially_signed');
    await rejection(cy!.svc.agreements.castQuorumVote(created.id, { vote: 'approve' }), SvcNotFoundError);
    const second = await bob!.svc.agreements.castQuorumVote(created.id, { vote: 'approve' });
    assert.equal(second.agreement.status, 'active');
    const read = await org.multiPartyAgreements.get(created.id);
    assert.deepEqual(
      read.quorum_votes.map((v) => v.comment),
      ['Yes.', null],
    );
    const all = [];
    for await (const a of org.multiPartyAgreements.list({ status: 'active' })) all.push(a.id);
    assert.deepEqual(all, [created.id]);
    const twice = await rejection(ada!.svc.agreements.castQuorumVote(created.id, { vote: 'deny' }), SvcHttpError);
    assert.equal(twice.reason, 'party_decided');
  });

  it('makes a collaboration, signs it, and dissolves it', async () => {
    const { ada, bob } = people as Required<typeof people>;
    const c = await ada!.svc.collaborations.create({ participant_ids: [bob!.id], terms: { purpose: 'tools' } });
    assert.deepEqual([c.status, c.initiator_id, c.member_count], ['pending', ada!.id, 2]);
    const mine = c.memberships.find((m) => m.user_id === ada!.id)!;
    const theirs = c.memberships.find((m) => m.user_id === bob!.id)!;
    await ada!.svc.collaborations.signMembership(c.id, mine.id);
    const signed = await bob!.svc.collaborations.signMembership(c.id, theirs.id, { shared_data_categories: ['calendar'] });
    assert.deepEqual(signed.shared_data_categories, ['calendar']);
    const active = await org.collaborations.get(c.id);
    assert.deepEqual([active.status, active.signed_count], ['active', 2]);
    const late = await rejection(org.collaborations.addMember(c.id, { user_id: people.cy!.id }), SvcHttpError);
    assert.equal(late.reason, 'illegal_transition');
    const listed = [];
    for await (const item of bob!.svc.collaborations.list()) listed.push(item.id);
    assert.deepEqual(listed, [c.id]);
    assert.equal((await ada!.svc.collaborations.dissolve(c.id)).status, 'dissolved');
    assert.equal((await org.collaborations.getMembership(c.id, theirs.id)).status, 'signed');
  });
});
