// Malformed and hostile requests against trust scores and vouches: each gets its 4xx with a message, never a 5xx.
import { describeHostile, type HostileCase } from '../../hostile-cases.js';
import { newAgent, signIn } from '../../authority/delegations/test-support.js';
import { hashSecret, newSecret } from '../../infra/ids.js';
import type { TestServer } from '../../testing.js';

const json = { 'content-type': 'application/json' };
const ada = { authorization: 'Bearer {{ada}}' };
const bob = { authorization: 'Bearer {{bob}}' };
const pk = { authorization: null, 'x-publishable-key': '{{pk}}' };
const SCORES = '/api/v1/trust_scores';
const VOUCHES = '/api/v1/vouches';
const post = (
  name: string,
  body: unknown,
  status: number | number[],
  code?: string,
  headers: HostileCase['headers'] = ada,
): HostileCase => ({
  name: `vouch: ${name}`,
  method: 'POST',
  path: VOUCHES,
  headers: { ...headers, ...(typeof body === 'string' ? json : {}) },
  ...(typeof body === 'string' ? { body } : { json: body }),
  status,
  ...(code ? { code } : {}),
});

const cases: HostileCase[] = [
  // Trust scores
  { name: 'score: no credential', path: `${SCORES}/{{adaId}}`, headers: { authorization: null }, status: 401 },
  { name: 'score: publishable key', path: `${SCORES}/{{adaId}}`, headers: pk, status: 403, code: 'publishable_key_not_allowed' },
  { name: 'score: agent token', path: `${SCORES}/{{agent}}`, headers: { authorization: 'Bearer ra_agent_forged' }, status: 401 },
  { name: 'score: unknown person', path: `${SCORES}/prs_us_AAAAAAAAAAAAAAAAAAAA`, status: 404 },
  { name: 'score: unknown agent', path: `${SCORES}/agt_dev_AAAAAAAAAAAAAAAA`, status: 404 },
  { name: 'score: another type of id', path: `${SCORES}/{{app}}`, status: 404 },
  { name: 'score: a vouch id', path: `${SCORES}/{{vouch}}`, status: 404 },
  { name: 'score: traversal', path: `${SCORES}/..%2F..%2Fapi_tokens`, status: 404 },
  { name: 'score: SQL', path: `${SCORES}/prs_'%20OR%20'1'='1`, status: 404 },
  { name: 'score: very long id', path: `${SCORES}/prs_${'a'.repeat(5000)}`, status: 404 },
  { name: 'score: NUL', path: `${SCORES}/prs_%00`, status: 404 },
  { name: "score: another person's, with a person's token", path: `${SCORES}/{{bobId}}`, headers: ada, status: 404 },
  { name: "score: another account's person", path: `${SCORES}/{{theirPerson}}`, status: 404 },
  { name: "score: another account's token", path: `${SCORES}/{{adaId}}`, headers: { authorization: 'Bearer {{theirs}}' }, status: 404 },
  { name: 'score: a person of an unserved country', path: `${SCORES}/prs_fr_AAAAAAAAAAAAAAAAAAAA`, status: [404, 421, 422] },
  // Creating a vouch: malformed bodies
  post('truncated JSON', '{"vouchee_id":', 400, 'malformed_json'),
  post('empty body', '', 400),
  post('JSON array', [], 422),
  post('JSON null', 'null', 422),
  post('form-encoded', 'vouchee_id=x', 400, undefined, { ...ada, 'content-type': 'application/x-www-form-urlencoded' }),
  post('huge body', `{"statement":"${'x'.repeat(1024 * 1024 + 10)}"}`, 413),
  post('deeply nested', '['.repeat(100_000) + ']'.repeat(100_000), [400, 422]),
  // Wrong shapes and values
  post('no vouchee', {}, 422),
  post('unknown field', { vouchee_id: '{{bobId}}', weight: 100 }, 422),
  post('__proto__ field', '{"vouchee_id":"{{bobId}}","__proto__":{"admin":true}}', 422),
  post('vouchee a number', { vouchee_id: 42 }, 422),
  post('vouchee an array', { vouchee_id: ['{{bobId}}'] }, 422),
  post('vouchee of another type', { vouchee_id: '{{app}}' }, 422),
  post('vouchee with SQL', { vouchee_id: "prs_' OR 1=1 --" }, 422),
  post('vouchee very long', { vouchee_id: `prs_${'a'.repeat(5000)}` }, 422),
  post('statement empty', { vouchee_id: '{{bobId}}', statement: '   ' }, 422),
  post('statement of 501 characters', { vouchee_id: '{{bobId}}', statement: 's'.repeat(501) }, 422),
  post('statement an object', { vouchee_id: '{{bobId}}', statement: { text: 'hi' } }, 422),
  post('oneself', { vouchee_id: '{{adaId}}' }, 422, 'self_vouch'),
  post('an unknown person', { vouchee_id: 'prs_us_AAAAAAAAAAAAAAAAAAAA' }, 422, 'vouchee_not_found'),
  post("another account's person", { vouchee_id: '{{theirPerson}}' }, 422, 'vouchee_not_found'),
  post('an unknown agent', { vouchee_id: 'agt_dev_AAAAAAAAAAAAAAAA' }, 422, 'vouchee_not_found'),
  post('twice', { vouchee_id: '{{bobId}}' }, 409, 'vouch_exists'),
  post('a person of an unserved country', { vouchee_id: 'prs_fr_AAAAAAAAAAAAAAAAAAAA' }, [421, 422]),
  // Credentials
  post('no credential', { vouchee_id: '{{bobId}}' }, 401, undefined, { authorization: null }),
  post('an API token', { vouchee_id: '{{bobId}}' }, 403, 'person_token_required', { authorization: 'Bearer {{admin}}' }),
  post('a read-only API token', { vouchee_id: '{{bobId}}' }, 403, undefined, { authorization: 'Bearer {{read}}' }),
  post('a publishable key', { vouchee_id: '{{bobId}}' }, 403, 'publishable_key_not_allowed', pk),
  post('a forged bearer', { vouchee_id: '{{bobId}}' }, 401, undefined, { authorization: 'Bearer not-a-token' }),
  // Reading and listing
  { name: 'read: unknown id', path: `${VOUCHES}/vch_us_AAAAAAAAAAAAAAAAAAAA`, status: 404 },
  { name: 'read: traversal', path: `${VOUCHES}/..%2F..%2Fapi_tokens`, status: 404 },
  { name: 'read: very long id', path: `${VOUCHES}/${'v'.repeat(5000)}`, status: 404 },
  { name: "read: another account's vouch", path: `${VOUCHES}/{{theirVouch}}`, status: 404 },
  { name: "read: another account's token", path: `${VOUCHES}/{{vouch}}`, headers: { authorization: 'Bearer {{theirs}}' }, status: 404 },
  { name: 'read: a stranger', path: `${VOUCHES}/{{vouch}}`, headers: { authorization: 'Bearer {{carol}}' }, status: 404 },
  { name: 'read: publishable key', path: `${VOUCHES}/{{vouch}}`, headers: pk, status: 403 },
  { name: 'list: limit zero', path: `${VOUCHES}?limit=0`, status: 400 },
  { name: 'list: limit 101', path: `${VOUCHES}?limit=101`, status: 400 },
  { name: 'list: limit negative', path: `${VOUCHES}?limit=-1`, status: 400 },
  { name: 'list: forged cursor', path: `${VOUCHES}?cursor=djE6LTE`, status: 400 },
  { name: 'list: cursor too long', path: `${VOUCHES}?cursor=${'a'.repeat(300)}`, status: 400 },
  { name: 'list: unknown status', path: `${VOUCHES}?status=pending`, status: 400 },
  { name: 'list: unknown direction', path: `${VOUCHES}?direction=both`, headers: ada, status: 400 },
  { name: 'list: publishable key', path: VOUCHES, headers: pk, status: 403 },
  // Revoking
  { name: 'revoke: unknown id', method: 'POST', path: `${VOUCHES}/vch_us_AAAAAAAAAAAAAAAAAAAA/revoke`, headers: ada, status: 404 },
  {
    name: 'revoke: by the vouchee',
    method: 'POST',
    path: `${VOUCHES}/{{vouch}}/revoke`,
    headers: bob,
    status: 403,
    code: 'not_your_vouch',
  },
  { name: 'revoke: by an API token', method: 'POST', path: `${VOUCHES}/{{vouch}}/revoke`, status: 403, code: 'person_token_required' },
  {
    name: 'revoke: by a stranger',
    method: 'POST',
    path: `${VOUCHES}/{{vouch}}/revoke`,
    headers: { authorization: 'Bearer {{carol}}' },
    status: 404,
  },
  { name: 'revoke: twice', method: 'POST', path: `${VOUCHES}/{{revoked}}/revoke`, headers: ada, status: 409, code: 'illegal_transition' },
  { name: "revoke: another account's", method: 'POST', path: `${VOUCHES}/{{theirVouch}}/revoke`, headers: ada, status: 404 },
  { name: 'revoke: GET', path: `${VOUCHES}/{{vouch}}/revoke`, headers: ada, status: 404 },
];

/** Persons with tokens, an agent, a vouch and a revoked one, and another account with a person and a vouch. */
async function fixtures(server: TestServer): Promise<Record<string, string>> {
  const [a, b, c] = [
    await signIn(server, 'ada@example.com'),
    await signIn(server, 'bob@example.com'),
    await signIn(server, 'carol@example.com'),
  ];
  const agent = await newAgent(server, 'Hostile agent');
  const vouch = async (token: string, vouchee: string) => {
    const res = await server.api(VOUCHES, { method: 'POST', headers: { authorization: `Bearer ${token}` }, json: { vouchee_id: vouchee } });
    return ((await res.json()) as { vouch: { id: string } }).vouch.id;
  };
  const given = await vouch(a.token, b.id);
  const revoked = await vouch(a.token, agent.id);
  await server.api(`${VOUCHES}/${revoked}/revoke`, { method: 'POST', headers: { authorization: `Bearer ${a.token}` } });
  // Another account, straight into the database: a person, a vouch between its people, an API token.
  const db = server.context.db;
  const now = new Date().toISOString();
  db.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acct_hostile_verify', 'Other', ?)").run(now);
  db.prepare(
    "INSERT INTO persons (id, account_id, email, created_at) VALUES ('prs_us_TheirPersonAAAAAAAAA', 'acct_hostile_verify', 'x@other.example', ?)",
  ).run(now);
  db.prepare(
    "INSERT INTO persons (id, account_id, email, created_at) VALUES ('prs_us_TheirPersonBBBBBBBBB', 'acct_hostile_verify', 'y@other.example', ?)",
  ).run(now);
  db.prepare(`INSERT INTO vouches (id, account_id, voucher_id, vouchee_id, vouchee_type, status, created_at)
    VALUES ('vch_us_TheirVouchAAAAAAAAAA', 'acct_hostile_verify', 'prs_us_TheirPersonAAAAAAAAA', 'prs_us_TheirPersonBBBBBBBBB', 'person', 'active', ?)`).run(
    now,
  );
  const theirs = newSecret();
  db.prepare(`INSERT INTO api_tokens (id, account_id, name, permissions, token_hash, created_at)
    VALUES ('api_token_hostile_verify', 'acct_hostile_verify', 'Theirs', '["read","write"]', ?, ?)`).run(hashSecret(theirs), now);
  return {
    ada: a.token,
    adaId: a.id,
    bob: b.token,
    bobId: b.id,
    carol: c.token,
    agent: agent.id,
    vouch: given,
    revoked,
    theirPerson: 'prs_us_TheirPersonAAAAAAAAA',
    theirVouch: 'vch_us_TheirVouchAAAAAAAAAA',
    theirs,
  };
}

describeHostile('hostile requests: trust scores and vouches', cases, fixtures);
