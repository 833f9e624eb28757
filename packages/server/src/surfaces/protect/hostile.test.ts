// Malformed and hostile requests against the Protect routes (templates, policies, data requests, data licenses, data
// offers, portability transfers): bad JSON, unknown fields, wrong types, huge values, bad and foreign ids, the wrong
// credential kind, another account's resources. Each gets its 4xx with a message, never a 5xx.
import { describeHostile, type HostileCase } from '../../hostile-cases.js';
import type { TestServer } from '../../testing.js';
import { agreement, call, otherAccount, signIn } from './test-support.js';

const json = { 'content-type': 'application/json' };
const person = { authorization: 'Bearer {{person}}' };
const other = { authorization: 'Bearer {{other}}' };
const read = { authorization: 'Bearer {{read}}' };
const pk = { authorization: null, 'x-publishable-key': '{{pk}}' };
const big = 'x'.repeat(20_000);
const deep = JSON.parse(`${'{"a":'.repeat(50)}1${'}'.repeat(50)}`) as Record<string, unknown>;
const T = '/api/v1/policy_templates';
const P = '/api/v1/policies';
const R = '/api/v1/data_requests';
const L = '/api/v1/data_licenses';
const O = '/api/v1/data_offers';
const X = '/api/v1/portability_transfers';
const HASH = 'a'.repeat(64);

const cases: HostileCase[] = [
  // Templates
  { name: 'template: unknown', path: `${T}/nope`, status: 404 },
  { name: 'template: traversal', path: `${T}/..%2F..%2Fapi_tokens`, status: 404 },
  { name: 'templates: bad limit', path: `${T}?limit=101`, status: 400 },
  { name: 'templates: forged cursor', path: `${T}?cursor=djE6LTE`, status: 400, code: 'invalid_cursor' },
  { name: 'templates: publishable key', path: T, headers: pk, status: 403 },
  { name: 'templates: no credential', path: T, headers: { authorization: null }, status: 401 },
  // Policies
  { name: 'policy: truncated JSON', method: 'POST', path: P, headers: json, body: '{"template_id":', status: 400, code: 'malformed_json' },
  { name: 'policy: empty body', method: 'POST', path: P, headers: json, body: '', status: 400 },
  { name: 'policy: form-encoded', method: 'POST', path: P, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'template_id=retention', status: 400 },
  { name: 'policy: JSON array', method: 'POST', path: P, json: [], status: 422 },
  { name: 'policy: unknown template', method: 'POST', path: P, json: { template_id: 'nope' }, status: 422 },
  { name: 'policy: unknown field', method: 'POST', path: P, json: { template_id: 'retention', config: { data_categories: ['x'], retention_days: 1 }, owner: 'me' }, status: 422 },
  { name: 'policy: config a string', method: 'POST', path: P, json: { template_id: 'retention', config: 'forever' }, status: 422 },
  { name: 'policy: config unknown key', method: 'POST', path: P, json: { template_id: 'retention', config: { data_categories: ['x'], retention_days: 1, sql: 'drop' } }, status: 422, code: 'invalid_config' },
  { name: 'policy: retention_days huge', method: 'POST', path: P, json: { template_id: 'retention', config: { data_categories: ['x'], retention_days: 1e12 } }, status: 422, code: 'invalid_config' },
  { name: 'policy: config over 16 KB', method: 'POST', path: P, json: { template_id: 'broadcast', config: { data_categories: ['x'], message: big } }, status: 422 },
  { name: 'policy: config nested 50 deep', method: 'POST', path: P, json: { template_id: 'broadcast', config: deep }, status: 422 },
  { name: 'policy: title too long', method: 'POST', path: P, json: { template_id: 'retention', title: big, config: { data_categories: ['x'], retention_days: 1 } }, status: 422 },
  { name: 'policy: __proto__', method: 'POST', path: P, headers: json, body: '{"__proto__":{"admin":true},"template_id":"retention","config":{"data_categories":["x"],"retention_days":1}}', status: [201, 422] },
  { name: 'policy: read token', method: 'POST', path: P, headers: read, json: { template_id: 'retention', config: { data_categories: ['x'], retention_days: 1 } }, status: 403 },
  { name: 'policy: publishable key', method: 'POST', path: P, headers: pk, json: { template_id: 'retention', config: {} }, status: 403 },
  { name: 'policy: unknown id', path: `${P}/pol_us_AAAAAAAAAAAAAAAAAAAA`, status: 404 },
  { name: 'policy: another cell\'s id', path: `${P}/pol_de_AAAAAAAAAAAAAAAAAAAA`, status: 421, code: 'wrong_country' },
  { name: 'policy: 10 kB id', path: `${P}/${'a'.repeat(10_000)}`, status: [404, 414, 431] },
  { name: 'policy: another account', path: `${P}/{{policy}}`, headers: other, status: 404 },
  { name: 'policy: revoke, another person', method: 'POST', path: `${P}/{{policy}}/revoke`, headers: { authorization: 'Bearer {{person2}}' }, status: 404 },
  { name: 'policy: revoke a person\'s with an API token', method: 'POST', path: `${P}/{{policy}}/revoke`, status: 403, code: 'policy_owner_only' },
  { name: 'policies: unknown status', path: `${P}?status=gone`, status: 400 },
  { name: 'policies: bad owner_type', path: `${P}?owner_type=agent`, status: 400 },
  // Data requests
  { name: 'dsar: API token files one', method: 'POST', path: R, json: { application_id: '{{app}}', dsar_type: 'access' }, status: 403, code: 'person_token_required' },
  { name: 'dsar: bad JSON', method: 'POST', path: R, headers: { ...person, ...json }, body: '{', status: 400 },
  { name: 'dsar: unknown type', method: 'POST', path: R, headers: person, json: { application_id: '{{app}}', dsar_type: 'delete_everything' }, status: 422 },
  { name: 'dsar: scope a number', method: 'POST', path: R, headers: person, json: { application_id: '{{app}}', dsar_type: 'access', scope: 42 }, status: 422 },
  { name: 'dsar: scope empty list', method: 'POST', path: R, headers: person, json: { application_id: '{{app}}', dsar_type: 'access', scope: [] }, status: 422 },
  { name: 'dsar: scope over 16 KB', method: 'POST', path: R, headers: person, json: { application_id: '{{app}}', dsar_type: 'access', scope: { a: big } }, status: 422 },
  { name: 'dsar: application of another account', method: 'POST', path: R, headers: person, json: { application_id: '{{otherApp}}', dsar_type: 'access' }, status: 422, code: 'application_not_found' },
  { name: 'dsar: application id an object', method: 'POST', path: R, headers: person, json: { application_id: { $ne: null }, dsar_type: 'access' }, status: 422 },
  { name: 'dsar: unknown field', method: 'POST', path: R, headers: person, json: { application_id: '{{app}}', dsar_type: 'access', status: 'completed' }, status: 422 },
  { name: 'dsar: start by the person', method: 'POST', path: `${R}/{{dsar}}/start`, headers: person, status: 403, code: 'person_token_not_allowed' },
  { name: 'dsar: start, read token', method: 'POST', path: `${R}/{{dsar}}/start`, headers: read, status: 403 },
  { name: 'dsar: start, another account', method: 'POST', path: `${R}/{{dsar}}/start`, headers: other, status: 404 },
  { name: 'dsar: complete while received', method: 'POST', path: `${R}/{{dsar}}/complete`, status: 409, code: 'illegal_transition' },
  { name: 'dsar: complete, malformed body', method: 'POST', path: `${R}/{{dsar}}/complete`, headers: json, body: '{"note":', status: 400 },
  { name: 'dsar: extend without reason', method: 'POST', path: `${R}/{{dsar}}/extend`, json: { days: 10 }, status: 422 },
  { name: 'dsar: extend by -1 days', method: 'POST', path: `${R}/{{dsar}}/extend`, json: { reason: 'x', days: -1 }, status: 422 },
  { name: 'dsar: extend by a year', method: 'POST', path: `${R}/{{dsar}}/extend`, json: { reason: 'x', days: 365 }, status: 422 },
  { name: 'dsar: reject with a reason of 20 kB', method: 'POST', path: `${R}/{{dsar}}/reject`, json: { reason: big }, status: 422 },
  { name: 'dsar: unknown action', method: 'POST', path: `${R}/{{dsar}}/erase`, status: 404 },
  { name: 'dsar: unknown id', path: `${R}/dsar_us_AAAAAAAAAAAAAAAAAAAA`, status: 404 },
  { name: 'dsar: another cell\'s id', path: `${R}/dsar_de_AAAAAAAAAAAAAAAAAAAA`, status: 421, code: 'wrong_country' },
  { name: 'dsar: another person', path: `${R}/{{dsar}}`, headers: { authorization: 'Bearer {{person2}}' }, status: 404 },
  { name: 'dsars: bad dsar_type filter', path: `${R}?dsar_type=all`, status: 400 },
  { name: 'dsars: publishable key', path: R, headers: pk, status: 403 },
  // Data licenses
  { name: 'license: bad JSON', method: 'POST', path: L, headers: json, body: '{"agreement_id"', status: 400 },
  { name: 'license: missing agreement', method: 'POST', path: L, json: {}, status: 422 },
  { name: 'license: max_access_count zero', method: 'POST', path: L, json: { agreement_id: '{{agreement}}', max_access_count: 0 }, status: 422 },
  { name: 'license: max_access_count fractional', method: 'POST', path: L, json: { agreement_id: '{{agreement}}', max_access_count: 1.5 }, status: 422 },
  { name: 'license: max_access_count a string', method: 'POST', path: L, json: { agreement_id: '{{agreement}}', max_access_count: '10' }, status: 422 },
  { name: 'license: max_access_count 1e300', method: 'POST', path: L, json: { agreement_id: '{{agreement}}', max_access_count: 1e300 }, status: 422 },
  { name: 'license: terms an array', method: 'POST', path: L, json: { agreement_id: '{{agreement}}', terms: [1, 2] }, status: 422 },
  { name: 'license: unknown agreement', method: 'POST', path: L, json: { agreement_id: 'agr_us_AAAAAAAAAAAAAAAAAAAA' }, status: 422, code: 'agreement_not_found' },
  { name: 'license: agreement of another cell', method: 'POST', path: L, json: { agreement_id: 'agr_de_AAAAAAAAAAAAAAAAAAAA' }, status: 421, code: 'wrong_country' },
  { name: 'license: agreement, another account', method: 'POST', path: L, headers: other, json: { agreement_id: '{{agreement}}' }, status: 422, code: 'agreement_not_found' },
  { name: 'license: a person\'s token', method: 'POST', path: L, headers: person, json: { agreement_id: '{{agreement}}' }, status: 403, code: 'person_token_not_allowed' },
  { name: 'license: publishable key', method: 'POST', path: L, headers: pk, json: { agreement_id: '{{agreement}}' }, status: 403 },
  { name: 'license: access, unknown field', method: 'POST', path: `${L}/{{license}}/accesses`, json: { purpose: 'x', count: 100 }, status: 422 },
  { name: 'license: access, malformed', method: 'POST', path: `${L}/{{license}}/accesses`, headers: json, body: '[', status: 400 },
  { name: 'license: access, another account', method: 'POST', path: `${L}/{{license}}/accesses`, headers: other, status: 404 },
  { name: 'license: access, read token', method: 'POST', path: `${L}/{{license}}/accesses`, headers: read, status: 403 },
  { name: 'license: access, a person', method: 'POST', path: `${L}/{{license}}/accesses`, headers: person, status: 403 },
  { name: 'license: unknown id', path: `${L}/dlic_us_AAAAAAAAAAAAAAAAAAAA`, status: 404 },
  { name: 'license: another cell\'s id', path: `${L}/dlic_de_AAAAAAAAAAAAAAAAAAAA/accesses`, status: 421, code: 'wrong_country' },
  { name: 'licenses: forged cursor', path: `${L}?cursor=%00%00`, status: 400 },
  // Data offers
  { name: 'offer: API token drafts one', method: 'POST', path: O, json: { policy_id: '{{dealPolicy}}', application_id: '{{app}}', terms: {} }, status: 403, code: 'person_token_required' },
  { name: 'offer: terms missing', method: 'POST', path: O, headers: person, json: { policy_id: '{{dealPolicy}}', application_id: '{{app}}' }, status: 422 },
  { name: 'offer: terms a string', method: 'POST', path: O, headers: person, json: { policy_id: '{{dealPolicy}}', application_id: '{{app}}', terms: 'cheap' }, status: 422 },
  { name: 'offer: terms over 16 KB', method: 'POST', path: O, headers: person, json: { policy_id: '{{dealPolicy}}', application_id: '{{app}}', terms: { a: big } }, status: 422 },
  { name: 'offer: expires_at not a date', method: 'POST', path: O, headers: person, json: { policy_id: '{{dealPolicy}}', application_id: '{{app}}', terms: {}, expires_at: 'tomorrow' }, status: 422 },
  { name: 'offer: expires_at in a year', method: 'POST', path: O, headers: person, json: { policy_id: '{{dealPolicy}}', application_id: '{{app}}', terms: {}, expires_at: '2099-01-01T00:00:00Z' }, status: 422, code: 'expires_at_invalid' },
  { name: 'offer: another person\'s policy', method: 'POST', path: O, headers: { authorization: 'Bearer {{person2}}' }, json: { policy_id: '{{dealPolicy}}', application_id: '{{app}}', terms: {} }, status: 422, code: 'policy_not_found' },
  { name: 'offer: policy of another cell', method: 'POST', path: O, headers: person, json: { policy_id: 'pol_de_AAAAAAAAAAAAAAAAAAAA', application_id: '{{app}}', terms: {} }, status: 421 },
  { name: 'offer: not a deal policy', method: 'POST', path: O, headers: person, json: { policy_id: '{{policy}}', application_id: '{{app}}', terms: {} }, status: 422, code: 'policy_not_deal' },
  { name: 'offer: counter by the person', method: 'POST', path: `${O}/{{offer}}/counter`, headers: person, json: { terms: {} }, status: 403 },
  { name: 'offer: revise by an API token', method: 'POST', path: `${O}/{{offer}}/revise`, json: { terms: {} }, status: 403, code: 'person_token_required' },
  { name: 'offer: counter a draft', method: 'POST', path: `${O}/{{offer}}/counter`, json: { terms: {} }, status: 409, code: 'illegal_transition' },
  { name: 'offer: accept a draft', method: 'POST', path: `${O}/{{offer}}/accept`, status: 409, code: 'illegal_transition' },
  { name: 'offer: counter, unknown field', method: 'POST', path: `${O}/{{offer}}/counter`, json: { terms: {}, status: 'accepted' }, status: 422 },
  { name: 'offer: decline, bad JSON', method: 'POST', path: `${O}/{{offer}}/decline`, headers: json, body: '{"reason":1', status: 400 },
  { name: 'offer: expire by hand', method: 'POST', path: `${O}/{{offer}}/expire`, status: 404 },
  { name: 'offer: another account', method: 'POST', path: `${O}/{{offer}}/accept`, headers: other, status: 404 },
  { name: 'offer: another person', path: `${O}/{{offer}}`, headers: { authorization: 'Bearer {{person2}}' }, status: 404 },
  { name: 'offer: unknown id', path: `${O}/dof_us_AAAAAAAAAAAAAAAAAAAA`, status: 404 },
  { name: 'offer: another cell\'s id', method: 'POST', path: `${O}/dof_de_AAAAAAAAAAAAAAAAAAAA/accept`, status: 421, code: 'wrong_country' },
  { name: 'offers: unknown status', path: `${O}?status=haggling`, status: 400 },
  { name: 'offers: publishable key', path: O, headers: pk, status: 403 },
  // Portability transfers
  { name: 'transfer: bad JSON', method: 'POST', path: X, headers: json, body: 'null', status: 422 },
  { name: 'transfer: missing destination', method: 'POST', path: X, json: { policy_id: '{{portability}}', source_application_id: '{{app}}' }, status: 422 },
  { name: 'transfer: format with spaces', method: 'POST', path: X, json: { policy_id: '{{portability}}', source_application_id: '{{app}}', destination_application_id: '{{app2}}', negotiated_format: 'j s o n' }, status: 422 },
  { name: 'transfer: same application', method: 'POST', path: X, json: { policy_id: '{{portability}}', source_application_id: '{{app}}', destination_application_id: '{{app}}' }, status: 422, code: 'same_application' },
  { name: 'transfer: destination of another account', method: 'POST', path: X, json: { policy_id: '{{portability}}', source_application_id: '{{app}}', destination_application_id: '{{otherApp}}' }, status: 422, code: 'application_not_found' },
  { name: 'transfer: policy of another account', method: 'POST', path: X, headers: other, json: { policy_id: '{{portability}}', source_application_id: '{{otherApp}}', destination_application_id: '{{otherApp}}' }, status: 422, code: 'policy_not_found' },
  { name: 'transfer: publishable key', method: 'POST', path: X, headers: pk, json: {}, status: 403 },
  { name: 'transfer: ready with a short hash', method: 'POST', path: `${X}/{{transfer}}/ready`, json: { data_hash: 'sha256:abc' }, status: 422 },
  { name: 'transfer: ready with md5', method: 'POST', path: `${X}/{{transfer}}/ready`, json: { data_hash: `md5:${HASH}` }, status: 422 },
  { name: 'transfer: ready without hash', method: 'POST', path: `${X}/{{transfer}}/ready`, json: {}, status: 422 },
  { name: 'transfer: ready by the person', method: 'POST', path: `${X}/{{transfer}}/ready`, headers: person, json: { data_hash: HASH }, status: 403 },
  { name: 'transfer: confirm while pending', method: 'POST', path: `${X}/confirm`, json: { transfer_id: '{{transfer}}', data_hash: HASH }, status: 409, code: 'illegal_transition' },
  { name: 'transfer: confirm, transfer_id a number', method: 'POST', path: `${X}/confirm`, json: { transfer_id: 7, data_hash: HASH }, status: 422 },
  { name: 'transfer: confirm, unknown transfer', method: 'POST', path: `${X}/confirm`, json: { transfer_id: 'ptr_us_AAAAAAAAAAAAAAAAAAAA', data_hash: HASH }, status: 404 },
  { name: 'transfer: confirm, 10 kB id', method: 'POST', path: `${X}/confirm`, json: { transfer_id: 'a'.repeat(10_000), data_hash: HASH }, status: 422 },
  { name: 'transfer: confirm, another cell', method: 'POST', path: `${X}/confirm`, json: { transfer_id: 'ptr_de_AAAAAAAAAAAAAAAAAAAA', data_hash: HASH }, status: 421, code: 'wrong_country' },
  { name: 'transfer: confirm, another account', method: 'POST', path: `${X}/confirm`, headers: other, json: { transfer_id: '{{transfer}}', data_hash: HASH }, status: 404 },
  { name: 'transfer: confirm by the person', method: 'POST', path: `${X}/confirm`, headers: person, json: { transfer_id: '{{transfer}}', data_hash: HASH }, status: 403 },
  { name: 'transfer: GET confirm', path: `${X}/confirm`, status: 404 },
  { name: 'transfer: another person', path: `${X}/{{transfer}}`, headers: { authorization: 'Bearer {{person2}}' }, status: 404 },
  { name: 'transfer: another cell\'s id', path: `${X}/ptr_de_AAAAAAAAAAAAAAAAAAAA`, status: 421, code: 'wrong_country' },
  { name: 'transfers: unknown status', path: `${X}?status=moving`, status: 400 },
];

/** A person's tokens, another account, an active agreement and one of each resource for the cases to aim at. */
async function fixtures(server: TestServer): Promise<Record<string, string>> {
  const ada = await signIn(server, 'ada@example.com');
  const bob = await signIn(server, 'bob@example.com');
  const account = otherAccount(server);
  const app2 = (await call(server, '/api/v1/applications', { json: { application: { name: 'Second' } } })).body.application.id as string;
  const make = async (path: string, token: string | undefined, body: unknown, key: string) => {
    const res = await call(server, path, { ...(token ? { token } : {}), json: body });
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body[key].id as string;
  };
  const app = server.sandbox.application_id;
  const agreementId = await agreement(server);
  const portability = await make('/api/v1/policies', ada.token, { template_id: 'portability', config: { data_categories: ['orders'] } }, 'policy');
  const dealPolicy = await make('/api/v1/policies', ada.token, { template_id: 'data_offer', config: { data_categories: ['steps'] } }, 'policy');
  return {
    person: ada.token,
    person2: bob.token,
    other: account.token,
    otherApp: account.applicationId,
    app2,
    agreement: agreementId,
    policy: await make('/api/v1/policies', ada.token, { template_id: 'retention', config: { data_categories: ['x'], retention_days: 1 } }, 'policy'),
    portability,
    dealPolicy,
    dsar: await make('/api/v1/data_requests', ada.token, { application_id: app, dsar_type: 'access' }, 'data_request'),
    license: await make('/api/v1/data_licenses', undefined, { agreement_id: agreementId, max_access_count: 100 }, 'data_license'),
    offer: await make('/api/v1/data_offers', ada.token, { policy_id: dealPolicy, application_id: app, terms: {} }, 'data_offer'),
    transfer: await make('/api/v1/portability_transfers', ada.token, { policy_id: portability, source_application_id: app, destination_application_id: app2 }, 'portability_transfer'),
  };
}

describeHostile('protect: hostile requests', cases, fixtures);
