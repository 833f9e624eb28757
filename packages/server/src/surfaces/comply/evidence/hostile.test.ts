// Malformed and hostile requests against the transfer register, the residency posture, breach scope and evidence
// packages: each gets its 4xx with a message, never a 5xx.
import { describeHostile, type HostileCase } from '../../../hostile-cases.js';

const json = { 'content-type': 'application/json' };
const breach = (extra: Record<string, unknown> = {}) => ({
  credential_type: 'api_token',
  credential_id: 'api_token_x',
  window: { from: '2020-01-01T00:00:00Z' },
  ...extra,
});
const posts = [
  '/api/v1/transfer_register/evidence_package',
  '/api/v1/residency_posture/evidence_package',
  '/api/v1/breach_scope',
  '/api/v1/breach_scope/evidence_package',
];

const cases: HostileCase[] = [
  // Lists and reads
  { name: 'register: limit 0', path: '/api/v1/transfer_register?limit=0', status: 400, code: 'invalid_parameters' },
  { name: 'register: limit huge', path: '/api/v1/transfer_register?limit=99999999999999999999', status: 400 },
  {
    name: 'register: forged cursor',
    path: `/api/v1/transfer_register?cursor=${Buffer.from('v1:-1').toString('base64url')}`,
    status: 400,
    code: 'invalid_cursor',
  },
  { name: 'register: cursor with SQL', path: "/api/v1/transfer_register?cursor='%20OR%201=1--", status: 400 },
  { name: 'register: application_id too long', path: `/api/v1/transfer_register?application_id=${'a'.repeat(300)}`, status: 400 },
  {
    name: 'register: publishable key',
    path: '/api/v1/transfer_register',
    headers: { authorization: null, 'x-publishable-key': '{{pk}}' },
    status: 403,
  },
  { name: 'posture: no credential', path: '/api/v1/residency_posture', headers: { authorization: null }, status: 401 },
  {
    name: 'posture: publishable key',
    path: '/api/v1/residency_posture',
    headers: { authorization: null, 'x-publishable-key': '{{pk}}' },
    status: 403,
  },
  { name: 'evidence package: unknown id', path: '/api/v1/evidence_packages/evp_us_nothing', status: 404 },
  { name: "evidence package: another country's id", path: '/api/v1/evidence_packages/evp_zz_nothing', status: 404 },
  { name: 'evidence package: traversal', path: '/api/v1/evidence_packages/..%2F..%2Fapi_tokens', status: 404 },
  // Bodies of every POST
  ...posts.flatMap((path): HostileCase[] => [
    { name: `${path}: truncated JSON`, method: 'POST', path, headers: json, body: '{"a":', status: 400, code: 'malformed_json' },
    {
      name: `${path}: form-encoded`,
      method: 'POST',
      path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=b',
      status: 400,
    },
    { name: `${path}: JSON array`, method: 'POST', path, json: [], status: 422 },
    { name: `${path}: __proto__`, method: 'POST', path, headers: json, body: '{"__proto__":{"admin":true}}', status: 422 },
    {
      name: `${path}: deeply nested`,
      method: 'POST',
      path,
      headers: json,
      body: '['.repeat(100_000) + ']'.repeat(100_000),
      status: [400, 422],
    },
    { name: `${path}: huge body`, method: 'POST', path, headers: json, body: `{"a":"${'x'.repeat(1024 * 1024 + 10)}"}`, status: 413 },
    {
      name: `${path}: publishable key`,
      method: 'POST',
      path,
      headers: { authorization: null, 'x-publishable-key': '{{pk}}' },
      json: breach(),
      status: 403,
    },
  ]),
  // Breach scope
  { name: 'breach: empty body', method: 'POST', path: '/api/v1/breach_scope', headers: json, body: '', status: 400 },
  {
    name: 'breach: read token',
    method: 'POST',
    path: '/api/v1/breach_scope',
    headers: { authorization: 'Bearer {{read}}' },
    json: breach(),
    status: 403,
    code: 'insufficient_permissions',
  },
  {
    name: 'breach: write token',
    method: 'POST',
    path: '/api/v1/breach_scope',
    headers: { authorization: 'Bearer {{write}}' },
    json: breach(),
    status: 403,
    code: 'insufficient_permissions',
  },
  {
    name: 'breach: unknown type',
    method: 'POST',
    path: '/api/v1/breach_scope',
    json: breach({ credential_type: 'webhook_secret' }),
    status: 422,
  },
  {
    name: 'breach: window backwards',
    method: 'POST',
    path: '/api/v1/breach_scope',
    json: breach({ window: { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' } }),
    status: 422,
  },
  {
    name: 'breach: window not a date',
    method: 'POST',
    path: '/api/v1/breach_scope',
    json: breach({ window: { from: "Robert'); DROP TABLE api_tokens;--" } }),
    status: 422,
  },
  {
    name: 'breach: id with SQL',
    method: 'POST',
    path: '/api/v1/breach_scope',
    json: breach({ credential_id: "api_token_x' OR '1'='1" }),
    status: 404,
  },
  {
    name: 'breach: id with NUL',
    method: 'POST',
    path: '/api/v1/breach_scope',
    json: breach({ credential_id: 'api_token_\u0000' }),
    status: 404,
  },
  {
    name: 'breach: agent token unknown',
    method: 'POST',
    path: '/api/v1/breach_scope',
    json: breach({ credential_type: 'agent_token', credential_id: 'ra_agent_x' }),
    status: 404,
  },
  {
    name: 'breach: publishable key of nobody',
    method: 'POST',
    path: '/api/v1/breach_scope/evidence_package',
    json: breach({ credential_type: 'publishable_key', credential_id: 'pk_live_AAAAAAAAAAAA' }),
    status: 404,
  },
  {
    name: 'breach: id an object',
    method: 'POST',
    path: '/api/v1/breach_scope',
    json: breach({ credential_id: { $ne: null } }),
    status: 422,
  },
  {
    name: 'breach: id too long',
    method: 'POST',
    path: '/api/v1/breach_scope',
    json: breach({ credential_id: 'x'.repeat(600) }),
    status: 422,
  },
  {
    name: 'register evidence: unknown field',
    method: 'POST',
    path: '/api/v1/transfer_register/evidence_package',
    json: { everything: true },
    status: 422,
  },
  {
    name: 'posture evidence: unknown field',
    method: 'POST',
    path: '/api/v1/residency_posture/evidence_package',
    json: { country: 'DE' },
    status: 422,
  },
];

describeHostile('cross-border, residency and breach scope: hostile requests', cases);
