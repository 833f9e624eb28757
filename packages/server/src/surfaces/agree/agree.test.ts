// Agree against a real server: multi-party agreements (the agreements of quorum two or more, created, read and listed
// with pagination, their parties voting with their own access tokens through the spec's quorum vote request, once),
// and collaborations (create, read, list with pagination, memberships added, signed by their members, revoked,
// dissolution; member_count and signed_count true to the rows; the auth rules; illegal moves 409).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { collaborationEnvelope, multiPartyAgreementEnvelope, multiPartyAgreementList, quorumVoteCast } from '@svc/schemas';
import { call, signIn, type Json, type Person } from '../../authority/delegations/test-support.js';
import { startTestCells, startTestServer, type TestCells, type TestServer } from '../../testing.js';
import { otherAccountToken, tokenWith, walk } from '../verify/test-support.js';

const TEXT = 'Joint venture\n\n1. Each party contributes its share.\n';
const SHA = createHash('sha256').update(TEXT, 'utf8').digest('hex');
const document = { text: TEXT, sha256: SHA };
const parties = (...emails: string[]) => emails.map((email) => ({ email, home_country: 'US' }));
const pk = (server: TestServer) => ({ authorization: '', 'x-publishable-key': server.sandbox.publishable_key });

function refused(res: { status: number; body: Json }, status: number, code?: string): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.ok(typeof res.body.message === 'string' && res.body.message.length > 0, JSON.stringify(res.body));
  if (code) assert.equal(res.body.code, code, JSON.stringify(res.body));
}

async function created(res: Promise<{ status: number; body: Json }>): Promise<Json> {
  const answer = await res;
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body;
}

describe('multi-party agreements and quorum votes', () => {
  let server: TestServer;
  let ada: Person;
  let bob: Person;
  let clara: Person;
  let dan: Person;
  let agreement: Json;

  before(async () => {
    server = await startTestServer();
    [ada, bob, clara, dan] = [
      await signIn(server, 'ada@example.com'),
      await signIn(server, 'bob@example.com'),
      await signIn(server, 'clara@example.com'),
      await signIn(server, 'dan@example.com'),
    ];
    const body = await created(
      call(server, '/api/v1/multi_party_agreements', {
        json: {
          multi_party_agreement: {
            title: 'Joint venture',
            document,
            parties: [
              ...parties('ada@example.com', 'Bob@Example.com'),
              { email: 'clara@example.com', home_country: 'US', name: 'Clara Lind' },
            ],
            quorum: 2,
          },
        },
      }),
    );
    agreement = multiPartyAgreementEnvelope.parse(body).multi_party_agreement;
  });
  after(() => server.dispose());

  it('creates one as an agreement of quorum two or more, the same resource under both paths', async () => {
    assert.match(agreement.id, /^agr_us_/);
    assert.equal(agreement.status, 'pending');
    assert.equal(agreement.quorum_status, 'open');
    assert.equal(agreement.signed_count, 0);
    assert.deepEqual(agreement.quorum_votes, []);
    const plain = await call(server, `/api/v1/agreements/${agreement.id}`);
    assert.equal(plain.status, 200);
    const { signed_count: _s, quorum_votes: _q, ...same } = agreement;
    assert.deepEqual(plain.body.agreement, same);
    refused(
      await call(server, '/api/v1/multi_party_agreements', {
        json: { multi_party_agreement: { title: 'Alone', document, parties: parties('ada@example.com', 'bob@example.com'), quorum: 1 } },
      }),
      422,
      'validation_failed',
    );
    refused(await call(server, '/api/v1/multi_party_agreements', { json: { agreement: { title: 'x' } } }), 422);
  });

  it('lists and reads only the agreements of quorum two or more, page by page', async () => {
    const single = await created(
      call(server, '/api/v1/agreements', {
        json: { agreement: { title: 'One signature', document, parties: parties('ada@example.com', 'bob@example.com'), quorum: 1 } },
      }),
    );
    refused(await call(server, `/api/v1/multi_party_agreements/${single.agreement.id}`), 404, 'not_multi_party');
    await created(
      call(server, '/api/v1/multi_party_agreements', {
        json: { multi_party_agreement: { title: 'Second', document, parties: parties('ada@example.com', 'bob@example.com'), quorum: 2 } },
      }),
    );
    const { items, pages } = await walk(server, '/api/v1/multi_party_agreements', 'multi_party_agreements', 1);
    assert.equal(pages, 2);
    assert.deepEqual(
      items.map((a) => a.title),
      ['Joint venture', 'Second'],
    );
    multiPartyAgreementList.parse({ multi_party_agreements: items, next_cursor: null });
    assert.equal((await call(server, '/api/v1/multi_party_agreements?status=active')).body.multi_party_agreements.length, 0);
    const read = await call(server, `/api/v1/multi_party_agreements/${agreement.id}`, { token: await tokenWith(server, ['read']) });
    assert.equal(read.status, 200);
    refused(await call(server, `/api/v1/multi_party_agreements/${agreement.id}`, { token: otherAccountToken(server) }), 404);
    refused(await call(server, `/api/v1/multi_party_agreements/${agreement.id}`, { token: ada.token }), 403, 'person_token_not_allowed');
    refused(await call(server, '/api/v1/multi_party_agreements', { headers: pk(server) }), 403, 'publishable_key_not_allowed');
    refused(
      await call(server, '/api/v1/multi_party_agreements', { token: await tokenWith(server, ['read']), json: {} }),
      403,
      'insufficient_permissions',
    );
  });

  it("takes each party's vote with their own access token: approve signs, deny declines, the quorum makes it active", async () => {
    const first = await created(
      call(server, `/api/v1/agreements/${agreement.id}/quorum_votes`, { token: ada.token, json: { vote: 'approve', comment: 'Glad to.' } }),
    );
    const cast = quorumVoteCast.parse(first);
    assert.equal(cast.quorum_vote.vote, 'approve');
    assert.equal(cast.quorum_vote.comment, 'Glad to.');
    assert.equal(cast.agreement.status, 'partially_signed');
    const adaParty = cast.agreement.party_details.find((p) => p.email === 'ada@example.com')!;
    assert.equal(adaParty.status, 'signed');
    // The party's signing session ended with the vote: the hosted page can take no further step.
    const session = await call(server, `/api/v1/decisions/${adaParty.session_token}`);
    assert.equal(session.body.decision.status, 'signed');
    const step = await fetch(`${server.url}/decisions/${adaParty.session_token}/transitions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ action: 'decline' }),
    });
    assert.equal(step.status, 422);

    const denied = quorumVoteCast.parse(
      await created(
        call(server, `/api/v1/agreements/${agreement.id}/quorum_votes`, {
          token: bob.token,
          json: { vote: 'deny', comment: 'Not these terms.' },
        }),
      ),
    );
    assert.deepEqual(
      [denied.quorum_vote.vote, denied.quorum_vote.comment, denied.agreement.status, denied.agreement.quorum_status],
      ['deny', 'Not these terms.', 'partially_signed', 'open'],
    );

    const last = quorumVoteCast.parse(
      await created(call(server, `/api/v1/agreements/${agreement.id}/quorum_votes`, { token: clara.token, json: { vote: 'approve' } })),
    );
    assert.equal(last.agreement.status, 'active');
    assert.equal(last.agreement.quorum_status, 'reached');
    assert.ok(last.agreement.activated_at);

    const now = multiPartyAgreementEnvelope.parse(
      (await call(server, `/api/v1/multi_party_agreements/${agreement.id}`)).body,
    ).multi_party_agreement;
    assert.equal(now.signed_count, 2);
    assert.deepEqual(
      now.quorum_votes.map((v) => v.vote),
      ['approve', 'deny', 'approve'],
    );
    const receipt = await call(server, `/api/v1/agreements/${agreement.id}/receipt`);
    assert.equal(receipt.body.agreement_receipt.signatures.length, 2);
    const signature = JSON.parse(Buffer.from(receipt.body.agreement_receipt.signatures[1].jws.split('.')[1], 'base64url').toString('utf8'));
    assert.equal(signature.signed_name, 'Clara Lind', "the signed name is the party's name, else their email");
    assert.deepEqual(
      signature.authentication,
      { method: 'access_token', authenticated_at: signature.signed_at },
      'she proved it with her own access token, as she voted',
    );
  });

  it('lets a party vote once, and nobody else at all', async () => {
    refused(
      await call(server, `/api/v1/agreements/${agreement.id}/quorum_votes`, { token: ada.token, json: { vote: 'deny' } }),
      409,
      'party_decided',
    );
    refused(await call(server, `/api/v1/agreements/${agreement.id}/quorum_votes`, { token: dan.token, json: { vote: 'approve' } }), 404);
    refused(
      await call(server, `/api/v1/agreements/${agreement.id}/quorum_votes`, { json: { vote: 'approve' } }),
      403,
      'party_token_required',
    );
    refused(await call(server, `/api/v1/agreements/${agreement.id}/quorum_votes`, { headers: pk(server), json: { vote: 'approve' } }), 403);
    refused(
      await call(server, '/api/v1/agreements/agr_us_00000000000000000000/quorum_votes', { token: ada.token, json: { vote: 'approve' } }),
      404,
    );
    refused(await call(server, `/api/v1/agreements/${agreement.id}/quorum_votes`, { token: ada.token, json: { vote: 'abstain' } }), 422);
  });

  it('refuses a vote after the signing deadline', async () => {
    const body = await created(
      call(server, '/api/v1/multi_party_agreements', {
        json: { multi_party_agreement: { title: 'Short', document, parties: parties('ada@example.com', 'dan@example.com'), quorum: 2 } },
      }),
    );
    server.advance(8 * 86_400);
    refused(
      await call(server, `/api/v1/agreements/${body.multi_party_agreement.id}/quorum_votes`, {
        token: dan.token,
        json: { vote: 'approve' },
      }),
      409,
      'party_decided',
    );
    const read = multiPartyAgreementEnvelope.parse(
      (await call(server, `/api/v1/multi_party_agreements/${body.multi_party_agreement.id}`)).body,
    ).multi_party_agreement;
    assert.equal(read.quorum_status, 'unreachable');
  });
});

describe('collaborations', () => {
  let server: TestServer;
  let ada: Person;
  let bob: Person;
  let carol: Person;
  let dan: Person;
  let erin: Person;

  const collab = async (id: string, token?: string) => {
    const res = await call(server, `/api/v1/collaborations/${id}`, token ? { token } : {});
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return collaborationEnvelope.parse(res.body).collaboration;
  };
  /** The counts must be the rows': current memberships, signed ones. */
  const assertCounts = (c: Json) => {
    assert.equal(c.member_count, c.memberships.filter((m: Json) => m.status !== 'revoked').length, 'member_count');
    assert.equal(c.signed_count, c.memberships.filter((m: Json) => m.status === 'signed').length, 'signed_count');
  };
  const sign = (c: Json, m: Json, token: string, json?: unknown) =>
    call(server, `/api/v1/collaborations/${c.id}/memberships/${m.id}/sign`, { token, method: 'POST', ...(json ? { json } : {}) });
  const revoke = (c: Json, m: Json, token?: string) =>
    call(server, `/api/v1/collaborations/${c.id}/memberships/${m.id}/revoke`, { method: 'POST', ...(token ? { token } : {}) });
  const memberOf = (c: Json, person: Person) => (c.memberships as Json[]).find((m) => m.user_id === person.id && m.status !== 'revoked')!;

  before(async () => {
    server = await startTestServer();
    [ada, bob, carol, dan, erin] = (await Promise.all(
      ['ada', 'bob', 'carol', 'dan', 'erin'].map((n) => signIn(server, `${n}@example.com`)),
    )) as [Person, Person, Person, Person, Person];
  });
  after(() => server.dispose());

  it('is created by an API token with its participants pending, becomes active when all signed, dissolves below two', async () => {
    const body = await created(
      call(server, '/api/v1/collaborations', {
        json: { participant_ids: [ada.id, bob.id], terms: { purpose: 'Shared research', share: ['steps'] } },
      }),
    );
    let c: Json = collaborationEnvelope.parse(body).collaboration;
    assert.match(c.id, /^col_us_[0-9A-Za-z]{20}$/);
    assert.deepEqual([c.status, c.initiator_id, c.member_count, c.signed_count], ['pending', null, 2, 0]);
    assert.deepEqual(c.terms, { purpose: 'Shared research', share: ['steps'] });
    assert.deepEqual(
      c.memberships.map((m: Json) => [m.role, m.status, m.user_id]),
      [
        ['member', 'pending', ada.id],
        ['member', 'pending', bob.id],
      ],
    );
    assert.match(c.memberships[0].id, /^cmb_us_/);

    // Only the member signs their own membership.
    refused(await sign(c, memberOf(c, ada), bob.token), 403, 'not_your_membership');
    refused(
      await call(server, `/api/v1/collaborations/${c.id}/memberships/${memberOf(c, ada).id}/sign`, { method: 'POST' }),
      403,
      'member_token_required',
    );
    refused(await sign(c, memberOf(c, ada), carol.token), 404);
    const signed = await sign(c, memberOf(c, ada), ada.token, { shared_data_categories: ['steps', 'sleep'] });
    assert.equal(signed.status, 200, JSON.stringify(signed.body));
    assert.equal(signed.body.membership.status, 'signed');
    assert.deepEqual(signed.body.membership.shared_data_categories, ['steps', 'sleep']);
    refused(await sign(c, memberOf(c, ada), ada.token), 409, 'illegal_transition');
    c = await collab(c.id);
    assert.deepEqual([c.status, c.member_count, c.signed_count], ['pending', 2, 1]);
    assertCounts(c);

    assert.equal((await sign(c, memberOf(c, bob), bob.token)).status, 200, 'signs with no body');
    c = await collab(c.id);
    assert.deepEqual([c.status, c.member_count, c.signed_count], ['active', 2, 2]);
    assert.ok(c.activated_at);
    assertCounts(c);

    // An active collaboration takes no new member.
    refused(await call(server, `/api/v1/collaborations/${c.id}/memberships`, { json: { user_id: carol.id } }), 409, 'illegal_transition');
    // Bob leaves: one member is no collaboration.
    const left = await revoke(c, memberOf(c, bob), bob.token);
    assert.equal(left.status, 200, JSON.stringify(left.body));
    assert.equal(left.body.membership.status, 'revoked');
    c = await collab(c.id);
    assert.deepEqual([c.status, c.member_count, c.signed_count], ['dissolved', 1, 1]);
    assert.ok(c.dissolved_at);
    assertCounts(c);
    refused(await revoke(c, memberOf(c, ada)), 409, 'illegal_transition');
    refused(await call(server, `/api/v1/collaborations/${c.id}/dissolve`, { method: 'POST' }), 409, 'illegal_transition');
  });

  it('is created by a person as its initiator, who manages it; members may leave; the counts follow the rows', async () => {
    let c: Json = collaborationEnvelope.parse(
      await created(call(server, '/api/v1/collaborations', { token: carol.token, json: { participant_ids: [dan.id] } })),
    ).collaboration;
    assert.equal(c.initiator_id, carol.id);
    assert.deepEqual(
      c.memberships.map((m: Json) => [m.role, m.user_id]),
      [
        ['initiator', carol.id],
        ['member', dan.id],
      ],
    );
    assert.deepEqual(c.terms, {});
    // The initiator adds; a member cannot; a stranger does not see it.
    const added = await created(
      call(server, `/api/v1/collaborations/${c.id}/memberships`, { token: carol.token, json: { user_id: erin.id, role: 'observer' } }),
    );
    assert.deepEqual([added.membership.role, added.membership.status], ['observer', 'pending']);
    refused(
      await call(server, `/api/v1/collaborations/${c.id}/memberships`, { token: carol.token, json: { user_id: erin.id } }),
      409,
      'already_member',
    );
    refused(
      await call(server, `/api/v1/collaborations/${c.id}/memberships`, { token: dan.token, json: { user_id: ada.id } }),
      403,
      'initiator_only',
    );
    refused(await call(server, `/api/v1/collaborations/${c.id}/memberships`, { token: ada.token, json: { user_id: ada.id } }), 404);
    refused(await call(server, `/api/v1/collaborations/${c.id}`, { token: ada.token }), 404);
    refused(await call(server, `/api/v1/collaborations/${c.id}/dissolve`, { token: dan.token, method: 'POST' }), 403, 'initiator_only');
    refused(await revoke(c, memberOf(await collab(c.id), erin), dan.token), 403, 'initiator_only');
    // An observer shares nothing.
    c = await collab(c.id, dan.token);
    refused(await sign(c, memberOf(c, erin), erin.token, { shared_data_categories: ['steps'] }), 422, 'observer_shares_nothing');

    for (const person of [carol, dan]) assert.equal((await sign(c, memberOf(c, person), person.token)).status, 200);
    c = await collab(c.id);
    assert.deepEqual([c.status, c.member_count, c.signed_count], ['pending', 3, 2]);
    // The unsigned observer is let go by the initiator: everyone left has signed, so it is active.
    assert.equal((await revoke(c, memberOf(c, erin), carol.token)).status, 200);
    c = await collab(c.id);
    assert.deepEqual([c.status, c.member_count, c.signed_count], ['active', 2, 2]);
    assertCounts(c);
    const membership = await call(server, `/api/v1/collaborations/${c.id}/memberships/${c.memberships[2].id}`, { token: erin.token });
    assert.equal(membership.body.membership.status, 'revoked', 'a past member still reads it');
    refused(await call(server, `/api/v1/collaborations/${c.id}/memberships/cmb_us_00000000000000000000`), 404);

    const dissolved = await call(server, `/api/v1/collaborations/${c.id}/dissolve`, { token: carol.token, method: 'POST' });
    assert.equal(dissolved.status, 200, JSON.stringify(dissolved.body));
    assert.equal(dissolved.body.collaboration.status, 'dissolved');
    refused(await sign(c, c.memberships[1], dan.token), 409, 'illegal_transition');
  });

  it("lists the account's collaborations for an API token and a person's own, page by page", async () => {
    for (let i = 0; i < 3; i += 1)
      await created(call(server, '/api/v1/collaborations', { json: { participant_ids: [erin.id], terms: { n: i } } }));
    const all = await walk(server, '/api/v1/collaborations', 'collaborations', 2, await tokenWith(server, ['read']));
    assert.equal(all.items.length, 5);
    assert.equal(all.pages, 3);
    assert.equal(new Set(all.items.map((c) => c.id)).size, 5);
    assert.equal(all.items[0]!.memberships, undefined, 'a list has no memberships');
    assert.equal(
      (await walk(server, '/api/v1/collaborations', 'collaborations', 2, erin.token)).items.length,
      4,
      'erin: three, and the one she left',
    );
    assert.equal((await walk(server, '/api/v1/collaborations', 'collaborations', 2, ada.token)).items.length, 1);
    assert.equal((await walk(server, '/api/v1/collaborations?status=pending', 'collaborations', 10)).items.length, 3);
    assert.equal((await call(server, '/api/v1/collaborations', { token: otherAccountToken(server) })).body.collaborations.length, 0);
  });

  it('refuses what the auth rules and the schema do not allow', async () => {
    const c = collaborationEnvelope.parse(
      await created(call(server, '/api/v1/collaborations', { json: { participant_ids: [ada.id] } })),
    ).collaboration;
    refused(await call(server, `/api/v1/collaborations/${c.id}`, { token: otherAccountToken(server) }), 404);
    refused(await call(server, `/api/v1/collaborations/${c.id}`, { headers: pk(server) }), 403, 'publishable_key_not_allowed');
    refused(
      await call(server, '/api/v1/collaborations', { token: await tokenWith(server, ['read']), json: {} }),
      403,
      'insufficient_permissions',
    );
    refused(
      await call(server, '/api/v1/collaborations', { json: { participant_ids: ['prs_us_nobodyAtAllHere12345'] } }),
      422,
      'person_not_found',
    );
    refused(await call(server, '/api/v1/collaborations', { json: { participant_ids: [ada.id, ada.id] } }), 422);
    refused(
      await call(server, '/api/v1/collaborations', { token: ada.token, json: { participant_ids: [ada.id] } }),
      422,
      'initiator_is_member',
    );
    refused(await call(server, '/api/v1/collaborations', { json: { application_id: 'tp_dev_notmine' } }), 404, 'application_not_found');
    refused(await call(server, '/api/v1/collaborations', { json: { status: 'active' } }), 422);
    refused(await call(server, `/api/v1/collaborations/${c.id}/memberships`, { json: { user_id: bob.id, role: 'initiator' } }), 422);
    refused(
      await call(server, `/api/v1/collaborations/${c.id}/memberships`, {
        json: { user_id: bob.id, role: 'observer', shared_data_categories: ['x'] },
      }),
      422,
    );
    // A collaboration made by an API token has no initiator: only the organisation manages it.
    refused(await call(server, `/api/v1/collaborations/${c.id}/dissolve`, { token: ada.token, method: 'POST' }), 403, 'initiator_only');
  });
});

describe('collaborations across country cells', () => {
  let cells: TestCells;
  before(async () => {
    cells = await startTestCells(['US', 'DE']);
  });
  after(() => cells.dispose());

  it('takes only participants homed in its cell, and answers 421 for its id elsewhere', async () => {
    const us = cells.cells.US!;
    const de = cells.cells.DE!;
    const ada = await signIn(us, 'ada@example.com');
    const jan = await signIn(de, 'jan@example.de');
    const across = await call(us, '/api/v1/collaborations', { json: { participant_ids: [ada.id, jan.id] } });
    refused(across, 421, 'wrong_country');
    assert.equal(across.body.home_country, 'DE');
    const c = await created(call(us, '/api/v1/collaborations', { json: { participant_ids: [ada.id] } }));
    const elsewhere = await call(de, `/api/v1/collaborations/${c.collaboration.id}`);
    refused(elsewhere, 421, 'wrong_country');
    assert.equal(elsewhere.body.home_country, 'US');
  });
});
