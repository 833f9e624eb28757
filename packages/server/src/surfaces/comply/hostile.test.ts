// Malformed and hostile requests against modules, governance, clean rooms and their queries, and meeting consents:
// bad JSON, unknown fields, wrong types, huge values, bad ids, the wrong credentials, another account's ids. Each is
// a 4xx with a message, never a 5xx.
import { describeHostile, type HostileCase } from '../../hostile-cases.js';
import { personAccessToken } from '../../platform/oauth/test-support.js';
import type { TestServer } from '../../testing.js';
import { activeAgreement, createCapturableFlow, otherAccount, pendingAgreement } from './test-support.js';

const json = { 'content-type': 'application/json' };
const pk = { authorization: null, 'x-publishable-key': '{{pk}}' };
const person = { authorization: 'Bearer {{person}}' };
const other = { authorization: 'Bearer {{other}}' };
const read = { authorization: 'Bearer {{read}}' };
const write = { authorization: 'Bearer {{write}}' };
const ROOMS = '/api/v1/clean_rooms';
const MEETINGS = '/api/v1/meeting_consents';
const room = (extra: Record<string, unknown> = {}) => ({ agreement_id: '{{agreement}}', participants: ['{{app}}'], ...extra });
const q = (extra: Record<string, unknown> = {}) => ({ computation_type: 'count', query_definition: {}, ...extra });

/** The same malformed bodies against every JSON endpoint. */
function malformed(name: string, method: string, path: string): HostileCase[] {
  return [
    { name: `${name}: truncated JSON`, method, path, headers: json, body: '{"a":', status: 400, code: 'malformed_json' },
    { name: `${name}: empty body`, method, path, headers: json, body: '', status: 400 },
    { name: `${name}: form-encoded`, method, path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=b', status: 400 },
    { name: `${name}: JSON array`, method, path, json: [], status: 422 },
    { name: `${name}: JSON null`, method, path, headers: json, body: 'null', status: 422 },
    { name: `${name}: huge body`, method, path, headers: json, body: `{"x":"${'x'.repeat(1024 * 1024 + 10)}"}`, status: 413 },
    { name: `${name}: deeply nested`, method, path, headers: json, body: '['.repeat(100_000) + ']'.repeat(100_000), status: [400, 422] },
    { name: `${name}: __proto__`, method, path, headers: json, body: '{"__proto__":{"admin":true}}', status: 422 },
  ];
}

const cases: HostileCase[] = [
  // Modules
  ...malformed('module', 'PATCH', '/api/v1/modules/comply'),
  { name: 'module: not enveloped', method: 'PATCH', path: '/api/v1/modules/comply', json: { enabled: false }, status: 422 },
  { name: 'module: enabled a string', method: 'PATCH', path: '/api/v1/modules/comply', json: { module: { enabled: 'false' } }, status: 422 },
  { name: 'module: enabled null', method: 'PATCH', path: '/api/v1/modules/comply', json: { module: { enabled: null } }, status: 422 },
  { name: 'module: unknown field', method: 'PATCH', path: '/api/v1/modules/comply', json: { module: { enabled: true, enabled_at: '2020-01-01T00:00:00Z' } }, status: 422 },
  { name: 'module: unknown key', method: 'PATCH', path: '/api/v1/modules/billing', json: { module: { enabled: true } }, status: 404 },
  { name: 'module: very long key', path: `/api/v1/modules/${'a'.repeat(5000)}`, status: 404 },
  { name: 'module: traversal', path: '/api/v1/modules/..%2F..%2Fgovernance', status: 404 },
  { name: 'module: key upper case', path: '/api/v1/modules/COMPLY', status: 404 },
  { name: 'module: write token', method: 'PATCH', path: '/api/v1/modules/comply', headers: write, json: { module: { enabled: false } }, status: 403, code: 'insufficient_permissions' },
  { name: 'module: publishable key', path: '/api/v1/modules', headers: pk, status: 403, code: 'publishable_key_not_allowed' },
  { name: 'module: person token', method: 'PATCH', path: '/api/v1/modules/comply', headers: person, json: { module: { enabled: false } }, status: 403 },
  { name: 'modules: no credential', path: '/api/v1/modules', headers: { authorization: null }, status: 401 },
  { name: 'modules: limit 101', path: '/api/v1/modules?limit=101', status: 400 },
  { name: 'modules: forged cursor', path: '/api/v1/modules?cursor=djE6OTk5OTk5OTk5OTk5OTk5OTk5', status: 400 },
  // Governance
  ...malformed('governance', 'PATCH', '/api/v1/governance'),
  { name: 'governance: not enveloped', method: 'PATCH', path: '/api/v1/governance', json: { dsar_due_days: 10 }, status: 422 },
  { name: 'governance: nothing to change', method: 'PATCH', path: '/api/v1/governance', json: { governance: {} }, status: 422 },
  { name: 'governance: unknown setting', method: 'PATCH', path: '/api/v1/governance', json: { governance: { mfa: true } }, status: 422 },
  { name: 'governance: dsar days a string', method: 'PATCH', path: '/api/v1/governance', json: { governance: { dsar_due_days: '30' } }, status: 422 },
  { name: 'governance: dsar days huge', method: 'PATCH', path: '/api/v1/governance', json: { governance: { dsar_due_days: 1e308 } }, status: 422 },
  { name: 'governance: retention negative', method: 'PATCH', path: '/api/v1/governance', json: { governance: { default_retention_days: -1 } }, status: 422 },
  { name: 'governance: approvals a float', method: 'PATCH', path: '/api/v1/governance', json: { governance: { api_token_approvals_required: 1.5 } }, status: 422 },
  { name: 'governance: min cohort 1', method: 'PATCH', path: '/api/v1/governance', json: { governance: { clean_room_min_cohort: 1 } }, status: 422 },
  { name: 'governance: epsilon budget 0', method: 'PATCH', path: '/api/v1/governance', json: { governance: { clean_room_epsilon_budget: 0 } }, status: 422 },
  { name: 'governance: epsilon budget infinite', method: 'PATCH', path: '/api/v1/governance', headers: json, body: '{"governance":{"clean_room_epsilon_budget":1e999}}', status: 422 },
  { name: 'governance: countries empty', method: 'PATCH', path: '/api/v1/governance', json: { governance: { allowed_countries: [] } }, status: 422 },
  { name: 'governance: country of three letters', method: 'PATCH', path: '/api/v1/governance', json: { governance: { allowed_countries: ['USA'] } }, status: 422 },
  { name: 'governance: a country without a cell', method: 'PATCH', path: '/api/v1/governance', json: { governance: { allowed_countries: ['FR'] } }, status: 422 },
  { name: 'governance: a country twice', method: 'PATCH', path: '/api/v1/governance', json: { governance: { allowed_countries: ['US', 'US'] } }, status: 422 },
  { name: 'governance: 5000 countries', method: 'PATCH', path: '/api/v1/governance', json: { governance: { allowed_countries: Array.from({ length: 5000 }, () => 'US') } }, status: 422 },
  { name: 'governance: template a draft flow', method: 'PATCH', path: '/api/v1/governance', json: { governance: { default_meeting_template: '{{draft}}' } }, status: 422, code: 'template_not_active' },
  { name: "governance: template another account's id", method: 'PATCH', path: '/api/v1/governance', json: { governance: { default_meeting_template: 'flw_dev_AAAAAAAAAAAAAAAA' } }, status: 422, code: 'template_not_found' },
  { name: 'governance: template with spaces', method: 'PATCH', path: '/api/v1/governance', json: { governance: { default_meeting_template: 'flw dev' } }, status: 422 },
  { name: 'governance: write token', method: 'PATCH', path: '/api/v1/governance', headers: write, json: { governance: { dsar_due_days: 10 } }, status: 403 },
  { name: 'governance: publishable key', path: '/api/v1/governance', headers: pk, status: 403 },
  { name: 'governance: person token', path: '/api/v1/governance', headers: person, status: 403 },
  { name: 'governance changes: bad limit', path: '/api/v1/governance/changes?limit=-1', status: 400 },
  { name: 'governance changes: publishable key', path: '/api/v1/governance/changes', headers: pk, status: 403 },
  // Clean rooms
  ...malformed('clean room', 'POST', ROOMS),
  { name: 'clean room: unknown field', method: 'POST', path: ROOMS, json: room({ status: 'closed' }), status: 422 },
  { name: 'clean room: enveloped', method: 'POST', path: ROOMS, json: { clean_room: room() }, status: 422 },
  { name: 'clean room: no participants', method: 'POST', path: ROOMS, json: { agreement_id: '{{agreement}}' }, status: 422 },
  { name: 'clean room: participants a string', method: 'POST', path: ROOMS, json: room({ participants: '{{app}}' }), status: 422 },
  { name: 'clean room: participants of numbers', method: 'POST', path: ROOMS, json: room({ participants: [1, 2] }), status: 422 },
  { name: 'clean room: 21 participants', method: 'POST', path: ROOMS, json: room({ participants: Array.from({ length: 21 }, (_, i) => `tp_dev_${i}`) }), status: 422 },
  { name: 'clean room: a participant id of 5000 characters', method: 'POST', path: ROOMS, json: room({ participants: ['x'.repeat(5000)] }), status: 422 },
  { name: 'clean room: agreement an object', method: 'POST', path: ROOMS, json: room({ agreement_id: { $ne: null } }), status: 422 },
  { name: 'clean room: agreement SQL', method: 'POST', path: ROOMS, json: room({ agreement_id: "agr_' OR '1'='1" }), status: 422 },
  { name: 'clean room: agreement of another cell', method: 'POST', path: ROOMS, json: room({ agreement_id: 'agr_de_AAAAAAAAAAAAAAAAAAAA' }), status: 421, code: 'wrong_country' },
  { name: 'clean room: agreement of an unserved country', method: 'POST', path: ROOMS, json: room({ agreement_id: 'agr_zz_AAAAAAAAAAAAAAAAAAAA' }), status: [421, 422] },
  { name: 'clean room: a pending agreement', method: 'POST', path: ROOMS, json: room({ agreement_id: '{{pending}}' }), status: 409, code: 'agreement_not_active' },
  { name: "clean room: another account's application", method: 'POST', path: ROOMS, json: room({ participants: ['{{otherApp}}'] }), status: 422, code: 'participant_not_found' },
  { name: "clean room: another account's token over this agreement", method: 'POST', path: ROOMS, headers: other, json: room({ participants: ['{{otherApp}}'] }), status: 422, code: 'agreement_not_found' },
  { name: 'clean room: expires_at not a date', method: 'POST', path: ROOMS, json: room({ expires_at: 'soon' }), status: 422 },
  { name: 'clean room: expires_at year 9999', method: 'POST', path: ROOMS, json: room({ expires_at: '9999-12-31T23:59:59Z' }), status: 422, code: 'expires_at_invalid' },
  { name: 'clean room: read token', method: 'POST', path: ROOMS, headers: read, json: room(), status: 403 },
  { name: 'clean room: publishable key', method: 'POST', path: ROOMS, headers: pk, json: room(), status: 403 },
  { name: 'clean room: person token', method: 'POST', path: ROOMS, headers: person, json: room(), status: 403 },
  { name: 'clean rooms: status filter unknown', path: `${ROOMS}?status=open`, status: 400 },
  { name: 'clean room: unknown id', path: `${ROOMS}/clr_us_AAAAAAAAAAAAAAAAAAAA`, status: 404 },
  { name: 'clean room: id of another cell', path: `${ROOMS}/clr_de_AAAAAAAAAAAAAAAAAAAA`, status: 421 },
  { name: 'clean room: an agreement id', path: `${ROOMS}/{{agreement}}`, status: 404 },
  { name: 'clean room: traversal', path: `${ROOMS}/..%2F..%2Fmodules`, status: 404 },
  { name: 'clean room: SQL', path: `${ROOMS}/clr_'%20OR%20'1'='1`, status: 404 },
  { name: 'clean room: very long id', path: `${ROOMS}/${'a'.repeat(5000)}`, status: 404 },
  { name: "clean room: another account's token", path: `${ROOMS}/{{room}}`, headers: other, status: 404 },
  { name: 'clean room: close unknown', method: 'POST', path: `${ROOMS}/clr_us_AAAAAAAAAAAAAAAAAAAA/close`, status: 404 },
  { name: 'clean room: close with a read token', method: 'POST', path: `${ROOMS}/{{room}}/close`, headers: read, status: 403 },
  { name: "clean room: close with another account's token", method: 'POST', path: `${ROOMS}/{{room}}/close`, headers: other, status: 404 },
  // Clean-room queries
  ...malformed('query', 'POST', `${ROOMS}/{{room}}/queries`),
  { name: 'query: unknown computation', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: q({ computation_type: 'rows' }), status: 422 },
  { name: 'query: no definition', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: { computation_type: 'count' }, status: 422 },
  { name: 'query: definition a string', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: q({ query_definition: 'SELECT * FROM persons' }), status: 422 },
  { name: 'query: definition with SQL', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: q({ query_definition: { where: "email LIKE '%'" } }), status: 422 },
  { name: 'query: definition asks for fields', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: q({ query_definition: { fields: ['email'] } }), status: 422 },
  { name: 'query: purpose with a quote', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: q({ query_definition: { purpose: "x' OR 1=1" } }), status: 422 },
  { name: 'query: min_cohort below the room', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: q({ query_definition: { min_cohort: 2 } }), status: 422, code: 'min_cohort_too_small' },
  { name: 'query: min_cohort 1', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: q({ query_definition: { min_cohort: 1 } }), status: 422 },
  { name: 'query: window reversed', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: q({ query_definition: { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' } }), status: 422 },
  { name: 'query: histogram over a century', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: q({ computation_type: 'histogram', query_definition: { from: '1900-01-01T00:00:00Z', to: '2000-01-01T00:00:00Z' } }), status: 422, code: 'window_too_long' },
  { name: 'query: overlap of one', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: q({ computation_type: 'overlap' }), status: 422, code: 'overlap_needs_two' },
  { name: 'query: a participant outside the room', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: q({ query_definition: { participants: ['{{otherApp}}'] } }), status: 422, code: 'participant_not_in_room' },
  { name: 'query: 51 purposes', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: q({ computation_type: 'count_by_purpose', query_definition: { purposes: Array.from({ length: 51 }, (_, i) => `p${i}`) } }), status: 422 },
  { name: 'query: epsilon 0', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: q({ privacy_parameters: { epsilon: 0 } }), status: 422 },
  { name: 'query: epsilon negative', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: q({ privacy_parameters: { epsilon: -1 } }), status: 422 },
  { name: 'query: epsilon huge', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: q({ privacy_parameters: { epsilon: 1e308 } }), status: 422 },
  { name: 'query: epsilon a string', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: q({ privacy_parameters: { epsilon: '1' } }), status: 422 },
  { name: 'query: epsilon with four decimals', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: q({ privacy_parameters: { epsilon: 0.1234 } }), status: 422 },
  { name: 'query: privacy without epsilon', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: q({ privacy_parameters: { mechanism: 'laplace' } }), status: 422 },
  { name: 'query: mechanism gaussian', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: q({ privacy_parameters: { epsilon: 1, mechanism: 'gaussian' } }), status: 422 },
  { name: 'query: privacy unknown field', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: q({ privacy_parameters: { epsilon: 1, delta: 0.1 } }), status: 422 },
  { name: 'query: sensitivity 0', method: 'POST', path: `${ROOMS}/{{room}}/queries`, json: q({ privacy_parameters: { epsilon: 1, sensitivity: 0 } }), status: 422 },
  { name: 'query: a spent budget', method: 'POST', path: `${ROOMS}/{{spent}}/queries`, json: q({ privacy_parameters: { epsilon: 0.01 } }), status: 409, code: 'privacy_budget_exhausted' },
  { name: 'query: a closed room', method: 'POST', path: `${ROOMS}/{{closed}}/queries`, json: q(), status: 409, code: 'clean_room_closed' },
  { name: 'close: a closed room', method: 'POST', path: `${ROOMS}/{{closed}}/close`, status: 409, code: 'illegal_transition' },
  { name: 'query: unknown room', method: 'POST', path: `${ROOMS}/clr_us_AAAAAAAAAAAAAAAAAAAA/queries`, json: q(), status: 404 },
  { name: 'query: room of another cell', method: 'POST', path: `${ROOMS}/clr_de_AAAAAAAAAAAAAAAAAAAA/queries`, json: q(), status: 421 },
  { name: 'query: read token', method: 'POST', path: `${ROOMS}/{{room}}/queries`, headers: read, json: q(), status: 403 },
  { name: 'query: publishable key', method: 'POST', path: `${ROOMS}/{{room}}/queries`, headers: pk, json: q(), status: 403 },
  { name: 'query: person token', method: 'POST', path: `${ROOMS}/{{room}}/queries`, headers: person, json: q(), status: 403 },
  { name: "query: another account's token", method: 'POST', path: `${ROOMS}/{{room}}/queries`, headers: other, json: q(), status: 404 },
  { name: "queries: another account's token", path: `${ROOMS}/{{room}}/queries`, headers: other, status: 404 },
  { name: 'queries: forged cursor', path: `${ROOMS}/{{room}}/queries?cursor=%00%00`, status: 400 },
  { name: 'query read: unknown id', path: `${ROOMS}/{{room}}/queries/crq_us_AAAAAAAAAAAAAAAAAAAA`, status: 404 },
  { name: 'query read: a room id', path: `${ROOMS}/{{room}}/queries/{{room}}`, status: 404 },
  { name: 'query read: of another cell', path: `${ROOMS}/{{room}}/queries/crq_de_AAAAAAAAAAAAAAAAAAAA`, status: 421 },
  { name: 'query read: very long id', path: `${ROOMS}/{{room}}/queries/${'q'.repeat(5000)}`, status: 404 },
  // Meeting consents
  ...malformed('meeting', 'POST', MEETINGS),
  { name: 'meeting: unknown field', method: 'POST', path: MEETINGS, json: { attendees: ['ada@example.com'] }, status: 422 },
  { name: 'meeting: enveloped', method: 'POST', path: MEETINGS, json: { meeting_consent: {} }, status: 422 },
  { name: 'meeting: duration 0', method: 'POST', path: MEETINGS, json: { duration_minutes: 0 }, status: 422 },
  { name: 'meeting: duration negative', method: 'POST', path: MEETINGS, json: { duration_minutes: -60 }, status: 422 },
  { name: 'meeting: duration a float', method: 'POST', path: MEETINGS, json: { duration_minutes: 30.5 }, status: 422 },
  { name: 'meeting: duration a string', method: 'POST', path: MEETINGS, json: { duration_minutes: '60' }, status: 422 },
  { name: 'meeting: duration huge', method: 'POST', path: MEETINGS, json: { duration_minutes: 1e15 }, status: 422 },
  { name: 'meeting: scheduled_at not a date', method: 'POST', path: MEETINGS, json: { scheduled_at: 'next tuesday' }, status: 422 },
  { name: 'meeting: scheduled_at in year 275760', method: 'POST', path: MEETINGS, json: { scheduled_at: '+275760-09-13T00:00:00Z' }, status: 422 },
  { name: 'meeting: long past', method: 'POST', path: MEETINGS, json: { scheduled_at: '2000-01-01T00:00:00Z' }, status: 422, code: 'scheduled_at_invalid' },
  { name: 'meeting: title of 10000 characters', method: 'POST', path: MEETINGS, json: { title: 'x'.repeat(10_000) }, status: 422 },
  { name: 'meeting: title blank', method: 'POST', path: MEETINGS, json: { title: '   ' }, status: 422 },
  { name: 'meeting: title an object', method: 'POST', path: MEETINGS, json: { title: { en: 'x' } }, status: 422 },
  { name: 'meeting: template a draft flow', method: 'POST', path: MEETINGS, json: { template: '{{draft}}' }, status: 422, code: 'template_not_active' },
  { name: 'meeting: template unknown', method: 'POST', path: MEETINGS, json: { template: 'flw_dev_AAAAAAAAAAAAAAAA' }, status: 422, code: 'template_not_found' },
  { name: 'meeting: agent_ids a string', method: 'POST', path: MEETINGS, json: { agent_ids: 'agt_x' }, status: 422 },
  { name: 'meeting: agent unknown', method: 'POST', path: MEETINGS, json: { agent_ids: ['agt_dev_AAAAAAAAAAAAAAAA'] }, status: 422, code: 'agent_not_found' },
  { name: 'meeting: 21 agents', method: 'POST', path: MEETINGS, json: { agent_ids: Array.from({ length: 21 }, (_, i) => `agt_${i}`) }, status: 422 },
  { name: 'meeting: read token', method: 'POST', path: MEETINGS, headers: read, json: {}, status: 403 },
  { name: 'meeting: publishable key', method: 'POST', path: MEETINGS, headers: pk, json: {}, status: 403 },
  { name: 'meeting: person token', method: 'POST', path: MEETINGS, headers: person, json: {}, status: 403 },
  { name: 'meetings: status unknown', path: `${MEETINGS}?status=live`, status: 400 },
  { name: 'meeting: unknown id', path: `${MEETINGS}/mtg_AAAAAAAAAAAAAAAAAAAA`, status: 404 },
  { name: 'meeting: traversal', path: `${MEETINGS}/..%2F..%2Fclean_rooms`, status: 404 },
  { name: 'meeting: very long id', path: `${MEETINGS}/${'m'.repeat(5000)}`, status: 404 },
  { name: "meeting: another account's token", path: `${MEETINGS}/{{meeting}}`, headers: other, status: 404 },
  { name: "meeting: cancel with another account's token", method: 'POST', path: `${MEETINGS}/{{meeting}}/cancel`, headers: other, status: 404 },
  { name: 'meeting: cancel with a read token', method: 'POST', path: `${MEETINGS}/{{meeting}}/cancel`, headers: read, status: 403 },
  // Decisions naming a meeting
  { name: 'decision: meeting_id unknown', method: 'POST', path: '/api/v1/decisions', json: { kind: 'consent', subject_ref: '{{flow}}', delivery_mode: 'redirect', meeting_id: 'mtg_AAAAAAAAAAAAAAAAAAAA' }, status: 422, code: 'meeting_not_found' },
  { name: 'decision: meeting_id free text', method: 'POST', path: '/api/v1/decisions', json: { kind: 'consent', subject_ref: '{{flow}}', delivery_mode: 'redirect', meeting_id: 'weekly sync' }, status: 422, code: 'meeting_not_found' },
  { name: 'decision: meeting_id an array', method: 'POST', path: '/api/v1/decisions', json: { kind: 'consent', subject_ref: '{{flow}}', delivery_mode: 'redirect', meeting_id: ['{{meeting}}'] }, status: 422 },
  { name: 'decision: meeting_id of 5000 characters', method: 'POST', path: '/api/v1/decisions', json: { kind: 'consent', subject_ref: '{{flow}}', delivery_mode: 'redirect', meeting_id: 'm'.repeat(5000) }, status: 422 },
  { name: "decision: another account's meeting", method: 'POST', path: '/api/v1/decisions', headers: other, json: { kind: 'approval', subject_ref: 'wf-1', delivery_mode: 'redirect', meeting_id: '{{meeting}}' }, status: 422, code: 'meeting_not_found' },
  { name: 'decision: a cancelled meeting', method: 'POST', path: '/api/v1/decisions', json: { kind: 'consent', subject_ref: '{{flow}}', delivery_mode: 'redirect', meeting_id: '{{cancelled}}' }, status: 409, code: 'meeting_closed' },
  { name: "decision: a flow other than the meeting's template", method: 'POST', path: '/api/v1/decisions', json: { kind: 'consent', subject_ref: '{{template}}', delivery_mode: 'redirect', meeting_id: '{{meeting}}' }, status: 422, code: 'meeting_template_mismatch' },
];

describeHostile('comply: hostile requests (modules, governance, clean rooms, queries, meeting consents)', cases, async (server: TestServer) => {
  const api = async (path: string, json: unknown) => {
    const res = await server.api(path, { method: 'POST', json });
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, Record<string, string>>;
  };
  const agreement = await activeAgreement(server);
  const pending = (await pendingAgreement(server, 'pending@example.com')).id as string;
  const room = (await api('/api/v1/clean_rooms', { agreement_id: agreement, participants: [server.sandbox.application_id] })).clean_room!.id!;
  const spent = (await api('/api/v1/clean_rooms', { agreement_id: agreement, participants: [server.sandbox.application_id] })).clean_room!.id!;
  await api(`/api/v1/clean_rooms/${spent}/queries`, { computation_type: 'count', query_definition: {}, privacy_parameters: { epsilon: 10 } });
  const closed = (await api('/api/v1/clean_rooms', { agreement_id: agreement, participants: [server.sandbox.application_id] })).clean_room!.id!;
  await server.api(`/api/v1/clean_rooms/${closed}/close`, { method: 'POST' });
  const meeting = (await api('/api/v1/meeting_consents', { template: server.sandbox.flow_id })).meeting_consent!.id!;
  const cancelled = (await api('/api/v1/meeting_consents', { template: server.sandbox.flow_id })).meeting_consent!.id!;
  await server.api(`/api/v1/meeting_consents/${cancelled}/cancel`, { method: 'POST' });
  // A second active flow: a decision for the meeting must use the meeting's template, not it.
  const flow = await createCapturableFlow(server, server.sandbox.application_id, 'Other');
  const { token, applicationId } = otherAccount(server, 'hostile');
  return {
    agreement, pending, room, spent, closed, meeting, cancelled, template: flow, other: token, otherApp: applicationId,
    person: await personAccessToken(server, 'ada@example.com'),
  };
});
