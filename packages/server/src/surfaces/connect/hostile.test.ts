// Malformed and hostile requests against the Connect routes (accounts and their users, connections, device links,
// trust pairings): each gets its 4xx with a message, never a 5xx.
import { describeHostile, type HostileCase } from '../../hostile-cases.js';
import { personAccessToken } from '../../platform/oauth/test-support.js';
import type { TestServer } from '../../testing.js';

const json = { 'content-type': 'application/json' };
const person = { authorization: 'Bearer {{person}}' };
const pk = { authorization: null, 'x-publishable-key': '{{pk}}' };
const ACC = '/api/v1/accounts';
const CON = '/api/v1/connections';
const DL = '/api/v1/device_links';
const TP = '/api/v1/trust_pairings';

const cases: HostileCase[] = [
  // Accounts
  { name: 'accounts: bad limit', path: `${ACC}?limit=101`, status: 400 },
  { name: 'accounts: forged cursor', path: `${ACC}?cursor=djE6LTE`, status: 400, code: 'invalid_cursor' },
  { name: 'accounts: person token', path: ACC, headers: person, status: 403, code: 'person_token_not_allowed' },
  { name: 'accounts: publishable key', path: ACC, headers: pk, status: 403, code: 'publishable_key_not_allowed' },
  { name: 'accounts: no credential', path: ACC, headers: { authorization: null }, status: 401 },
  { name: 'account: another account', path: `${ACC}/acct_nosuchaccount00000`, status: 404 },
  { name: 'account: traversal', path: `${ACC}/..%2F..%2Fapi_tokens`, status: 404 },
  { name: 'account: 10 kB id', path: `${ACC}/${'a'.repeat(10_000)}`, status: [404, 414, 431] },
  { name: 'patch: truncated JSON', method: 'PATCH', path: `${ACC}/{{account}}`, headers: json, body: '{"account":{"name":', status: 400, code: 'malformed_json' },
  { name: 'patch: form-encoded', method: 'PATCH', path: `${ACC}/{{account}}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=x', status: 400 },
  { name: 'patch: empty body', method: 'PATCH', path: `${ACC}/{{account}}`, headers: json, body: '', status: 400 },
  { name: 'patch: JSON array', method: 'PATCH', path: `${ACC}/{{account}}`, json: [], status: 422 },
  { name: 'patch: flat name', method: 'PATCH', path: `${ACC}/{{account}}`, json: { name: 'x' }, status: 422 },
  { name: 'patch: unknown field', method: 'PATCH', path: `${ACC}/{{account}}`, json: { account: { personal: true } }, status: 422 },
  { name: 'patch: name a number', method: 'PATCH', path: `${ACC}/{{account}}`, json: { account: { name: 42 } }, status: 422 },
  { name: 'patch: name empty', method: 'PATCH', path: `${ACC}/{{account}}`, json: { account: { name: '' } }, status: 422 },
  { name: 'patch: name 1 MB', method: 'PATCH', path: `${ACC}/{{account}}`, json: { account: { name: 'x'.repeat(1024 * 1024) } }, status: 413 },
  { name: 'patch: name too long', method: 'PATCH', path: `${ACC}/{{account}}`, json: { account: { name: 'x'.repeat(101) } }, status: 422 },
  { name: 'patch: __proto__', method: 'PATCH', path: `${ACC}/{{account}}`, headers: json, body: '{"account":{"__proto__":{"admin":true}}}', status: 422 },
  { name: 'patch: owner not a user', method: 'PATCH', path: `${ACC}/{{account}}`, json: { account: { owner_id: 'prs_us_nosuchperson000000000' } }, status: 422, code: 'not_an_account_user' },
  { name: 'patch: owner by a write token', method: 'PATCH', path: `${ACC}/{{account}}`, headers: { authorization: 'Bearer {{write}}' }, json: { account: { owner_id: '{{personId}}' } }, status: 403 },
  { name: 'patch: read token', method: 'PATCH', path: `${ACC}/{{account}}`, headers: { authorization: 'Bearer {{read}}' }, json: { account: { name: 'x' } }, status: 403 },
  { name: 'patch: another account', method: 'PATCH', path: `${ACC}/acct_nosuchaccount00000`, json: { account: { name: 'x' } }, status: 404 },
  { name: 'users: missing user_id', method: 'POST', path: `${ACC}/{{account}}/account_users`, json: {}, status: 422 },
  { name: 'users: user_id a number', method: 'POST', path: `${ACC}/{{account}}/account_users`, json: { user_id: 7 }, status: 422 },
  { name: 'users: user_id too long', method: 'POST', path: `${ACC}/{{account}}/account_users`, json: { user_id: `prs_${'x'.repeat(100)}` }, status: 422 },
  { name: 'users: unknown field', method: 'POST', path: `${ACC}/{{account}}/account_users`, json: { user_id: '{{personId}}', role: 'owner' }, status: 422 },
  { name: 'users: unknown person', method: 'POST', path: `${ACC}/{{account}}/account_users`, json: { user_id: 'prs_us_nosuchperson000000000' }, status: 422, code: 'user_not_found' },
  { name: 'users: an application id', method: 'POST', path: `${ACC}/{{account}}/account_users`, json: { user_id: '{{app}}' }, status: 422, code: 'user_not_found' },
  { name: 'users: another cell\'s person', method: 'POST', path: `${ACC}/{{account}}/account_users`, json: { user_id: 'prs_de_nosuchperson000000000' }, status: 421, code: 'wrong_country' },
  { name: 'users: write token', method: 'POST', path: `${ACC}/{{account}}/account_users`, headers: { authorization: 'Bearer {{write}}' }, json: { user_id: '{{personId}}' }, status: 403 },
  { name: 'users: person token', method: 'POST', path: `${ACC}/{{account}}/account_users`, headers: person, json: { user_id: '{{personId}}' }, status: 403 },
  { name: 'users: another account', method: 'POST', path: `${ACC}/acct_nosuchaccount00000/account_users`, json: { user_id: '{{personId}}' }, status: 404 },
  { name: 'users: remove unknown', method: 'DELETE', path: `${ACC}/{{account}}/account_users/au_nosuchuser`, status: 404 },
  { name: 'users: remove with write token', method: 'DELETE', path: `${ACC}/{{account}}/account_users/au_nosuchuser`, headers: { authorization: 'Bearer {{write}}' }, status: 403 },
  // Connections
  { name: 'connect: truncated JSON', method: 'POST', path: CON, headers: { ...person, ...json }, body: '{"application_id":', status: 400, code: 'malformed_json' },
  { name: 'connect: empty body', method: 'POST', path: CON, headers: { ...person, ...json }, body: '', status: 400 },
  { name: 'connect: unknown field', method: 'POST', path: CON, headers: person, json: { application_id: '{{app}}', status: 'active' }, status: 422 },
  { name: 'connect: application_id a number', method: 'POST', path: CON, headers: person, json: { application_id: 1 }, status: 422 },
  { name: 'connect: application_id an array', method: 'POST', path: CON, headers: person, json: { application_id: ['{{app}}'] }, status: 422 },
  { name: 'connect: application_id huge', method: 'POST', path: CON, headers: person, json: { application_id: 'tp_dev_'.padEnd(100_000, 'x') }, status: 422 },
  { name: 'connect: unknown application', method: 'POST', path: CON, headers: person, json: { application_id: 'tp_dev_nosuchapp' }, status: 422, code: 'application_not_found' },
  { name: 'connect: API token', method: 'POST', path: CON, json: { application_id: '{{app}}' }, status: 403, code: 'person_token_required' },
  { name: 'connect: publishable key', method: 'POST', path: CON, headers: pk, json: { application_id: '{{app}}' }, status: 403 },
  { name: 'connect: no credential', method: 'POST', path: CON, headers: { authorization: null }, json: { application_id: '{{app}}' }, status: 401 },
  { name: 'connect: a forged bearer', method: 'POST', path: CON, headers: { authorization: 'Bearer not-a-token' }, json: { application_id: '{{app}}' }, status: 401 },
  { name: 'connections: unknown status', path: `${CON}?status=paused`, status: 400 },
  { name: 'connections: limit 0', path: `${CON}?limit=0`, headers: person, status: 400 },
  { name: 'connections: forged cursor', path: `${CON}?cursor=%00%01`, status: 400 },
  { name: 'connections: application_id too long', path: `${CON}?application_id=${'x'.repeat(65)}`, status: 400 },
  { name: 'connections: publishable key', path: CON, headers: pk, status: 403 },
  { name: 'connection: unknown', path: `${CON}/con_us_nosuchconnection0000`, status: 404 },
  { name: 'connection: another cell\'s', path: `${CON}/con_de_nosuchconnection0000`, status: 421, code: 'wrong_country' },
  { name: 'connection: traversal', path: `${CON}/..%2F..%2Fapi_tokens`, status: 404 },
  { name: 'connection: 10 kB id', path: `${CON}/${'c'.repeat(10_000)}`, status: [404, 414, 431] },
  { name: 'suspend: missing reason', method: 'POST', path: `${CON}/{{con}}/suspend`, headers: person, json: {}, status: 422 },
  { name: 'suspend: reason a number', method: 'POST', path: `${CON}/{{con}}/suspend`, headers: person, json: { reason: 5 }, status: 422 },
  { name: 'suspend: reason too long', method: 'POST', path: `${CON}/{{con}}/suspend`, headers: person, json: { reason: 'r'.repeat(501) }, status: 422 },
  { name: 'suspend: no body', method: 'POST', path: `${CON}/{{con}}/suspend`, headers: person, status: 400 },
  { name: 'suspend: read token', method: 'POST', path: `${CON}/{{con}}/suspend`, headers: { authorization: 'Bearer {{read}}' }, json: { reason: 'x' }, status: 403 },
  { name: 'suspend: unknown', method: 'POST', path: `${CON}/con_us_nosuchconnection0000/suspend`, json: { reason: 'x' }, status: 404 },
  { name: 'resume: an active connection', method: 'POST', path: `${CON}/{{con}}/resume`, headers: person, status: 409, code: 'illegal_transition' },
  { name: 'resume: publishable key', method: 'POST', path: `${CON}/{{con}}/resume`, headers: pk, status: 403 },
  { name: 'disconnect: read token', method: 'POST', path: `${CON}/{{con}}/disconnect`, headers: { authorization: 'Bearer {{read}}' }, status: 403 },
  { name: 'disconnect: unknown', method: 'POST', path: `${CON}/con_us_nosuchconnection0000/disconnect`, headers: person, status: 404 },
  { name: 'disconnect: another cell\'s', method: 'POST', path: `${CON}/con_de_nosuchconnection0000/disconnect`, status: 421 },
  // Device links
  { name: 'link: API token', method: 'POST', path: DL, json: {}, status: 403, code: 'person_token_required' },
  { name: 'link: publishable key', method: 'POST', path: DL, headers: pk, json: {}, status: 403 },
  { name: 'link: truncated JSON', method: 'POST', path: DL, headers: { ...person, ...json }, body: '{"device_name":', status: 400 },
  { name: 'link: unknown field', method: 'POST', path: DL, headers: person, json: { code: 'AAAA-AAAA' }, status: 422 },
  { name: 'link: device_name a number', method: 'POST', path: DL, headers: person, json: { device_name: 1 }, status: 422 },
  { name: 'link: device_name too long', method: 'POST', path: DL, headers: person, json: { device_name: 'd'.repeat(101) }, status: 422 },
  { name: 'links: unknown status', path: `${DL}?status=used`, headers: person, status: 400 },
  { name: 'links: API token', path: DL, status: 403, code: 'person_token_required' },
  { name: 'claim: missing code', method: 'POST', path: `${DL}/claim`, headers: person, json: { device_name: 'Phone' }, status: 422 },
  { name: 'claim: missing device_name', method: 'POST', path: `${DL}/claim`, headers: person, json: { code: 'AAAA-AAAA' }, status: 422 },
  { name: 'claim: code a number', method: 'POST', path: `${DL}/claim`, headers: person, json: { code: 12345678, device_name: 'Phone' }, status: 422 },
  { name: 'claim: code too long', method: 'POST', path: `${DL}/claim`, headers: person, json: { code: 'A'.repeat(33), device_name: 'Phone' }, status: 422 },
  { name: 'claim: ambiguous characters', method: 'POST', path: `${DL}/claim`, headers: person, json: { code: 'O0I1-L0O1', device_name: 'Phone' }, status: 422, code: 'invalid_code' },
  { name: 'claim: SQL in the code', method: 'POST', path: `${DL}/claim`, headers: person, json: { code: "' OR 1=1 --", device_name: 'Phone' }, status: 422, code: 'invalid_code' },
  { name: 'claim: no link matches', method: 'POST', path: `${DL}/claim`, headers: person, json: { code: 'ZZZZ-ZZZZ', device_name: 'Phone' }, status: 422, code: 'invalid_code' },
  { name: 'claim: API token', method: 'POST', path: `${DL}/claim`, json: { code: 'AAAA-AAAA', device_name: 'Phone' }, status: 403, code: 'person_token_required' },
  { name: 'claim: no credential', method: 'POST', path: `${DL}/claim`, headers: { authorization: null }, json: { code: 'AAAA-AAAA', device_name: 'Phone' }, status: 401 },
  { name: 'claim: publishable key', method: 'POST', path: `${DL}/claim`, headers: pk, json: { code: 'AAAA-AAAA', device_name: 'Phone' }, status: 403 },
  { name: 'link: unknown', path: `${DL}/dlk_us_nosuchlink00000000000`, headers: person, status: 404 },
  { name: 'link: another cell\'s', path: `${DL}/dlk_de_nosuchlink00000000000`, headers: person, status: 421, code: 'wrong_country' },
  { name: 'link: API token reads', path: `${DL}/dlk_us_nosuchlink00000000000`, status: 403 },
  { name: 'cancel: unknown', method: 'POST', path: `${DL}/dlk_us_nosuchlink00000000000/cancel`, headers: person, status: 404 },
  // Trust pairings
  { name: 'pairings: unknown status', path: `${TP}?status=paired`, status: 400 },
  { name: 'pairings: publishable key', path: TP, headers: pk, status: 403 },
  { name: 'pairing: unknown', path: `${TP}/pair_us_nosuchpairing000000000`, status: 404 },
  { name: 'pairing: another cell\'s', path: `${TP}/pair_de_nosuchpairing000000000`, status: 421, code: 'wrong_country' },
  { name: 'pairing: traversal', path: `${TP}/..%2F..%2Fapi_tokens`, headers: person, status: 404 },
  { name: 'revoke: unknown', method: 'POST', path: `${TP}/pair_us_nosuchpairing000000000/revoke`, headers: person, status: 404 },
  { name: 'revoke: read token', method: 'POST', path: `${TP}/pair_us_nosuchpairing000000000/revoke`, headers: { authorization: 'Bearer {{read}}' }, status: 403 },
];

describeHostile('connect: hostile requests', cases, async (server: TestServer) => {
  const token = await personAccessToken(server, 'hostile@example.com');
  const me = (await (await fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as { account: { id: string }; person: { id: string } };
  const made = await fetch(`${server.url}${CON}`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ application_id: server.sandbox.application_id }),
  });
  const { connection } = (await made.json()) as { connection: { id: string } };
  return { person: token, personId: me.person.id, account: me.account.id, con: connection.id };
});
