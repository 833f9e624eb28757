// Malformed and hostile requests against multi-party agreements, quorum votes, collaborations and memberships: each
// gets its 4xx with a message, never a 5xx.
import { createHash } from 'node:crypto';
import { signIn } from '../../authority/delegations/test-support.js';
import { describeHostile, type HostileCase } from '../../hostile-cases.js';
import type { TestServer } from '../../testing.js';
import { otherAccountToken } from '../verify/test-support.js';

const json = { 'content-type': 'application/json' };
const ada = { authorization: 'Bearer {{ada}}' };
const dan = { authorization: 'Bearer {{dan}}' };
const pk = { authorization: null, 'x-publishable-key': '{{pk}}' };
const TEXT = 'The document.';
const SHA = createHash('sha256').update(TEXT).digest('hex');
const valid = {
  title: 'Joint',
  document: { text: TEXT, sha256: SHA },
  quorum: 2,
  parties: [
    { email: 'ada@example.com', home_country: 'US' },
    { email: 'bob@example.com', home_country: 'US' },
  ],
};
const mpa = (extra: Record<string, unknown> = {}) => ({ multi_party_agreement: { ...valid, ...extra } });
const MULTI = '/api/v1/multi_party_agreements';
const COLLABS = '/api/v1/collaborations';
const MEMBERSHIPS = `${COLLABS}/{{collab}}/memberships`;
const body = (payload: unknown) => (typeof payload === 'string' ? { body: payload } : { json: payload });
const write = (
  name: string,
  path: string,
  payload: unknown,
  status: number | number[],
  code?: string,
  headers: HostileCase['headers'] = {},
): HostileCase => ({
  name,
  method: 'POST',
  path,
  headers: { ...headers, ...(typeof payload === 'string' ? json : {}) },
  ...body(payload),
  status,
  ...(code ? { code } : {}),
});
const vote = (name: string, payload: unknown, status: number | number[], code?: string, headers: HostileCase['headers'] = ada) =>
  write(`vote: ${name}`, '/api/v1/agreements/{{agreement}}/quorum_votes', payload, status, code, headers);
const create = (name: string, payload: unknown, status: number | number[], code?: string, headers: HostileCase['headers'] = {}) =>
  write(`collaboration: ${name}`, COLLABS, payload, status, code, headers);
const add = (name: string, payload: unknown, status: number | number[], code?: string, headers: HostileCase['headers'] = {}) =>
  write(`add member: ${name}`, MEMBERSHIPS, payload, status, code, headers);

const cases: HostileCase[] = [
  // Multi-party agreements
  write('multi-party: truncated JSON', MULTI, '{"multi_party_agreement":', 400, 'malformed_json'),
  write('multi-party: empty body', MULTI, '', 400),
  write('multi-party: JSON array', MULTI, [], 422),
  write('multi-party: huge body', MULTI, `{"multi_party_agreement":{"title":"${'x'.repeat(1024 * 1024 + 10)}"}}`, 413),
  write('multi-party: the agreements envelope', MULTI, { agreement: valid }, 422),
  write('multi-party: unknown field', MULTI, mpa({ status: 'active' }), 422),
  write('multi-party: quorum one', MULTI, mpa({ quorum: 1 }), 422),
  write('multi-party: quorum above parties', MULTI, mpa({ quorum: 3 }), 422),
  write('multi-party: quorum a string', MULTI, mpa({ quorum: '2' }), 422),
  write('multi-party: quorum huge', MULTI, mpa({ quorum: 1e300 }), 422),
  write('multi-party: one party', MULTI, mpa({ parties: [valid.parties[0]] }), 422),
  write('multi-party: digest of other text', MULTI, mpa({ document: { text: `${TEXT}!`, sha256: SHA } }), 422, 'digest_mismatch'),
  write('multi-party: another application', MULTI, mpa({ application_id: 'tp_dev_someoneelse' }), 404, 'application_not_found'),
  write('multi-party: read-only token', MULTI, mpa(), 403, undefined, { authorization: 'Bearer {{read}}' }),
  write("multi-party: a person's token", MULTI, mpa(), 403, 'person_token_not_allowed', ada),
  write('multi-party: publishable key', MULTI, mpa(), 403, undefined, pk),
  write('multi-party: no credential', MULTI, mpa(), 401, undefined, { authorization: null }),
  { name: 'multi-party read: unknown id', path: `${MULTI}/agr_us_AAAAAAAAAAAAAAAAAAAA`, status: 404 },
  { name: 'multi-party read: quorum one', path: `${MULTI}/{{single}}`, status: 404, code: 'not_multi_party' },
  { name: "multi-party read: another account's", path: `${MULTI}/{{theirAgreement}}`, status: 404 },
  { name: 'multi-party read: traversal', path: `${MULTI}/..%2F..%2Fapi_tokens`, status: 404 },
  { name: 'multi-party read: very long id', path: `${MULTI}/agr_${'a'.repeat(5000)}`, status: 404 },
  { name: 'multi-party read: a collaboration id', path: `${MULTI}/{{collab}}`, status: 404 },
  { name: 'multi-party list: limit 101', path: `${MULTI}?limit=101`, status: 400 },
  { name: 'multi-party list: unknown status', path: `${MULTI}?status=signed`, status: 400 },
  { name: 'multi-party list: forged cursor', path: `${MULTI}?cursor=djE6LTE`, status: 400 },
  { name: 'multi-party list: publishable key', path: MULTI, headers: pk, status: 403 },
  // Quorum votes
  vote('truncated JSON', '{"vote":', 400, 'malformed_json'),
  vote('empty body', '', 400),
  vote('no vote', {}, 422),
  vote('abstain', { vote: 'abstain' }, 422),
  vote('vote upper case', { vote: 'APPROVE' }, 422),
  vote('vote a boolean', { vote: true }, 422),
  vote('comment too long', { vote: 'deny', comment: 'c'.repeat(1001) }, 422),
  vote('comment blank', { vote: 'deny', comment: '  ' }, 422),
  vote('comment an array', { vote: 'deny', comment: ['x'] }, 422),
  vote('unknown field', { vote: 'approve', party_id: 'pty_x' }, 422),
  vote('an API token', { vote: 'approve' }, 403, 'party_token_required', {}),
  vote('a publishable key', { vote: 'approve' }, 403, undefined, pk),
  vote('no credential', { vote: 'approve' }, 401, undefined, { authorization: null }),
  vote('not a party', { vote: 'approve' }, 404, undefined, dan),
  vote('twice', { vote: 'approve' }, 409, 'party_decided', { authorization: 'Bearer {{bob}}' }),
  write('vote: unknown agreement', '/api/v1/agreements/agr_us_AAAAAAAAAAAAAAAAAAAA/quorum_votes', { vote: 'approve' }, 404, undefined, ada),
  write(
    "vote: another account's agreement",
    '/api/v1/agreements/{{theirAgreement}}/quorum_votes',
    { vote: 'approve' },
    404,
    undefined,
    ada,
  ),
  write('vote: a party id for the agreement', '/api/v1/agreements/{{party}}/quorum_votes', { vote: 'approve' }, 404, undefined, ada),
  // Collaborations
  create('truncated JSON', '{"participant_ids":', 400, 'malformed_json'),
  create('empty body', '', 400),
  create('JSON array', [], 422),
  create('JSON string', '"hello"', 422),
  create('huge body', `{"terms":{"x":"${'x'.repeat(1024 * 1024 + 10)}"}}`, 413),
  create('deeply nested', '{"terms":' + '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000) + '}', [400, 422]),
  create('unknown field', { status: 'active' }, 422),
  create('__proto__ field', '{"__proto__":{"admin":true}}', 422),
  create('participants not an array', { participant_ids: '{{adaId}}' }, 422),
  create('a participant a number', { participant_ids: [7] }, 422),
  create('a participant of another type', { participant_ids: ['{{app}}'] }, 422),
  create('a participant twice', { participant_ids: ['{{adaId}}', '{{adaId}}'] }, 422),
  create('51 participants', { participant_ids: Array.from({ length: 51 }, (_, i) => `prs_us_${String(i).padStart(20, 'A')}`) }, 422),
  create('an unknown participant', { participant_ids: ['prs_us_AAAAAAAAAAAAAAAAAAAA'] }, 422, 'person_not_found'),
  create("another account's person", { participant_ids: ['{{theirPerson}}'] }, 422, 'person_not_found'),
  create('a participant of an unserved country', { participant_ids: ['prs_fr_AAAAAAAAAAAAAAAAAAAA'] }, [421, 422]),
  create('the initiator as a participant', { participant_ids: ['{{adaId}}'] }, 422, 'initiator_is_member', ada),
  create('terms an array', { terms: [1, 2] }, 422),
  create('terms a string', { terms: 'share everything' }, 422),
  create('terms over 16 KB', { terms: { text: 't'.repeat(17 * 1024) } }, 422),
  create('another application', { application_id: 'tp_dev_someoneelse' }, 404, 'application_not_found'),
  create('application_id very long', { application_id: 'a'.repeat(5000) }, 422),
  create('read-only token', {}, 403, undefined, { authorization: 'Bearer {{read}}' }),
  create('publishable key', {}, 403, 'publishable_key_not_allowed', pk),
  create('no credential', {}, 401, undefined, { authorization: null }),
  { name: 'collaboration read: unknown id', path: `${COLLABS}/col_us_AAAAAAAAAAAAAAAAAAAA`, status: 404 },
  { name: "collaboration read: another account's", path: `${COLLABS}/{{theirCollab}}`, status: 404 },
  {
    name: "collaboration read: another account's token",
    path: `${COLLABS}/{{collab}}`,
    headers: { authorization: 'Bearer {{theirs}}' },
    status: 404,
  },
  { name: 'collaboration read: a stranger', path: `${COLLABS}/{{collab}}`, headers: dan, status: 404 },
  { name: 'collaboration read: traversal', path: `${COLLABS}/..%2F..%2Fapi_tokens`, status: 404 },
  { name: 'collaboration read: SQL', path: `${COLLABS}/col_'%20OR%20'1'='1`, status: 404 },
  { name: 'collaboration read: very long id', path: `${COLLABS}/col_${'a'.repeat(5000)}`, status: 404 },
  { name: 'collaboration list: limit letters', path: `${COLLABS}?limit=abc`, status: 400 },
  { name: 'collaboration list: unknown status', path: `${COLLABS}?status=signed`, status: 400 },
  { name: 'collaboration list: forged cursor', path: `${COLLABS}?cursor=djE6LTE`, status: 400 },
  { name: 'collaboration list: publishable key', path: COLLABS, headers: pk, status: 403 },
  write('dissolve: unknown id', `${COLLABS}/col_us_AAAAAAAAAAAAAAAAAAAA/dissolve`, '', 404),
  write('dissolve: a member', `${COLLABS}/{{collab}}/dissolve`, '', 403, 'initiator_only', ada),
  write('dissolve: twice', `${COLLABS}/{{dissolved}}/dissolve`, '', 409, 'illegal_transition'),
  // Memberships
  add('truncated JSON', '{"user_id":', 400, 'malformed_json'),
  add('no user', {}, 422),
  add('user a number', { user_id: 1 }, 422),
  add('user of another type', { user_id: '{{collab}}' }, 422),
  add('an unknown person', { user_id: 'prs_us_AAAAAAAAAAAAAAAAAAAA' }, 422, 'person_not_found'),
  add("another account's person", { user_id: '{{theirPerson}}' }, 422, 'person_not_found'),
  add('role initiator', { user_id: '{{danId}}', role: 'initiator' }, 422),
  add('role unknown', { user_id: '{{danId}}', role: 'owner' }, 422),
  add('a category upper case', { user_id: '{{danId}}', shared_data_categories: ['Health'] }, 422),
  add('a category twice', { user_id: '{{danId}}', shared_data_categories: ['steps', 'steps'] }, 422),
  add('51 categories', { user_id: '{{danId}}', shared_data_categories: Array.from({ length: 51 }, (_, i) => `c${i}`) }, 422),
  add('an observer sharing', { user_id: '{{danId}}', role: 'observer', shared_data_categories: ['steps'] }, 422),
  add('unknown field', { user_id: '{{danId}}', status: 'signed' }, 422),
  add('a current member', { user_id: '{{adaId}}' }, 409, 'already_member'),
  add('by a member', { user_id: '{{danId}}' }, 403, 'initiator_only', ada),
  add('by a stranger', { user_id: '{{danId}}' }, 404, undefined, dan),
  write('add member: to an active collaboration', `${COLLABS}/{{active}}/memberships`, { user_id: '{{danId}}' }, 409, 'illegal_transition'),
  write(
    'add member: to a dissolved collaboration',
    `${COLLABS}/{{dissolved}}/memberships`,
    { user_id: '{{danId}}' },
    409,
    'illegal_transition',
  ),
  write('sign: by an API token', `${MEMBERSHIPS}/{{adaMembership}}/sign`, '', 403, 'member_token_required'),
  write("sign: another's membership", `${MEMBERSHIPS}/{{bobMembership}}/sign`, '', 403, 'not_your_membership', ada),
  write('sign: by a stranger', `${MEMBERSHIPS}/{{adaMembership}}/sign`, '', 404, undefined, dan),
  write('sign: truncated JSON', `${MEMBERSHIPS}/{{adaMembership}}/sign`, '{"shared', 400, 'malformed_json', ada),
  write('sign: unknown field', `${MEMBERSHIPS}/{{adaMembership}}/sign`, { role: 'initiator' }, 422, undefined, ada),
  write('sign: categories a string', `${MEMBERSHIPS}/{{adaMembership}}/sign`, { shared_data_categories: 'steps' }, 422, undefined, ada),
  write('sign: unknown membership', `${MEMBERSHIPS}/cmb_us_AAAAAAAAAAAAAAAAAAAA/sign`, '', 404, undefined, ada),
  write('sign: a membership of another collaboration', `${MEMBERSHIPS}/{{otherMembership}}/sign`, '', 404, undefined, ada),
  write('sign: publishable key', `${MEMBERSHIPS}/{{adaMembership}}/sign`, '', 403, undefined, pk),
  write('revoke: unknown membership', `${MEMBERSHIPS}/cmb_us_AAAAAAAAAAAAAAAAAAAA/revoke`, '', 404),
  write('revoke: twice', `${MEMBERSHIPS}/{{revokedMembership}}/revoke`, '', 409, 'illegal_transition'),
  write("revoke: another's, by a member", `${MEMBERSHIPS}/{{bobMembership}}/revoke`, '', 403, 'initiator_only', ada),
  write('revoke: read-only token', `${MEMBERSHIPS}/{{bobMembership}}/revoke`, '', 403, undefined, { authorization: 'Bearer {{read}}' }),
  { name: 'membership read: very long id', path: `${MEMBERSHIPS}/cmb_${'a'.repeat(5000)}`, status: 404 },
];

const asJson = async (res: Response) => (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Persons with tokens; a multi-party agreement bob voted on and a quorum-one one; a pending collaboration of ada, bob
 * and erin (erin's membership revoked), an active one and a dissolved one; another account's agreement, person and
 * collaboration.
 */
async function fixtures(server: TestServer): Promise<Record<string, string>> {
  const [a, b, d, e] = [
    await signIn(server, 'ada@example.com'),
    await signIn(server, 'bob@example.com'),
    await signIn(server, 'dan@example.com'),
    await signIn(server, 'erin@example.com'),
  ];
  const api = (path: string, payload?: unknown, token?: string) =>
    server
      .api(path, {
        method: 'POST',
        ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
        ...(payload === undefined ? {} : { json: payload }),
      })
      .then(asJson);
  const agreement = (await api(MULTI, mpa())).multi_party_agreement;
  await api(`/api/v1/agreements/${agreement.id}/quorum_votes`, { vote: 'deny' }, b.token);
  const single = (await api('/api/v1/agreements', { agreement: { ...valid, quorum: 1 } })).agreement;
  const collab = (await api(COLLABS, { participant_ids: [a.id, b.id, e.id] })).collaboration;
  const member = (p: { id: string }) => collab.memberships.find((m: { user_id: string }) => m.user_id === p.id).id as string;
  await api(`${COLLABS}/${collab.id}/memberships/${member(e)}/revoke`);
  const active = (await api(COLLABS, { participant_ids: [a.id, b.id] })).collaboration;
  for (const [p, m] of [
    [a, active.memberships[0].id],
    [b, active.memberships[1].id],
  ] as const)
    await api(`${COLLABS}/${active.id}/memberships/${m}/sign`, undefined, p.token);
  const dissolved = (await api(COLLABS, { participant_ids: [d.id] })).collaboration;
  await api(`${COLLABS}/${dissolved.id}/dissolve`);

  const theirs = otherAccountToken(server);
  const db = server.context.db;
  const their = db.prepare("SELECT account_id FROM api_tokens WHERE name = 'Theirs' ORDER BY rowid DESC LIMIT 1").get() as {
    account_id: string;
  };
  const now = new Date().toISOString();
  db.prepare('INSERT INTO persons (id, account_id, email, created_at) VALUES (?, ?, ?, ?)').run(
    'prs_us_TheirPersonAAAAAAAAA',
    their.account_id,
    'x@other.example',
    now,
  );
  const theirCollab = (await api(COLLABS, { participant_ids: ['prs_us_TheirPersonAAAAAAAAA'] }, theirs)).collaboration;
  const theirAgreement = (await api(MULTI, mpa(), theirs)).multi_party_agreement;
  return {
    ada: a.token,
    adaId: a.id,
    bob: b.token,
    dan: d.token,
    danId: d.id,
    theirs,
    theirPerson: 'prs_us_TheirPersonAAAAAAAAA',
    agreement: agreement.id,
    party: agreement.party_details[0].id,
    single: single.id,
    theirAgreement: theirAgreement.id,
    collab: collab.id,
    adaMembership: member(a),
    bobMembership: member(b),
    revokedMembership: member(e),
    otherMembership: active.memberships[0].id,
    active: active.id,
    dissolved: dissolved.id,
    theirCollab: theirCollab.id,
  };
}

describeHostile('hostile requests: multi-party agreements, quorum votes, collaborations and memberships', cases, fixtures);
