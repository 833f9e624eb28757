// Malformed and hostile requests against the decisions API, the participant API, the hosted pages and the
// playground: each gets its 4xx, never a 5xx.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeHostile, rawRequest, type HostileCase } from '../../hostile-cases.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { createConsent } from './test-support.js';

const json = { 'content-type': 'application/json' };
const fakeToken = `dts_${'A'.repeat(43)}`;
const consent = (extra: Record<string, unknown> = {}) => ({ kind: 'consent', subject_ref: '{{flow}}', delivery_mode: 'popup', ...extra });

const api: HostileCase[] = [
  // Malformed bodies
  {
    name: 'decision: truncated JSON',
    method: 'POST',
    path: '/api/v1/decisions',
    headers: json,
    body: '{"kind":',
    status: 400,
    code: 'malformed_json',
  },
  { name: 'decision: empty body', method: 'POST', path: '/api/v1/decisions', headers: json, body: '', status: 400 },
  { name: 'decision: JSON array', method: 'POST', path: '/api/v1/decisions', json: [], status: 422 },
  { name: 'decision: JSON null', method: 'POST', path: '/api/v1/decisions', json: null, status: 422 },
  {
    name: 'decision: form-encoded',
    method: 'POST',
    path: '/api/v1/decisions',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'kind=consent',
    status: 400,
  },
  {
    name: 'decision: huge body',
    method: 'POST',
    path: '/api/v1/decisions',
    headers: json,
    body: `{"state":"${'x'.repeat(1024 * 1024 + 10)}"}`,
    status: 413,
  },
  {
    name: 'decision: deeply nested',
    method: 'POST',
    path: '/api/v1/decisions',
    headers: json,
    body: '['.repeat(100_000) + ']'.repeat(100_000),
    status: [400, 422],
  },
  // Wrong types and values
  { name: 'decision: kind a number', method: 'POST', path: '/api/v1/decisions', json: consent({ kind: 1 }), status: 422 },
  {
    name: 'decision: kind signature_request',
    method: 'POST',
    path: '/api/v1/decisions',
    json: consent({ kind: 'signature_request' }),
    status: 422,
  },
  {
    name: 'decision: subject_ref missing',
    method: 'POST',
    path: '/api/v1/decisions',
    json: { kind: 'consent', delivery_mode: 'popup' },
    status: 422,
  },
  { name: 'decision: subject_ref empty', method: 'POST', path: '/api/v1/decisions', json: consent({ subject_ref: '' }), status: 422 },
  {
    name: 'decision: subject_ref with spaces',
    method: 'POST',
    path: '/api/v1/decisions',
    json: consent({ subject_ref: 'flw dev' }),
    status: 422,
  },
  {
    name: 'decision: subject_ref too long',
    method: 'POST',
    path: '/api/v1/decisions',
    json: consent({ subject_ref: 'f'.repeat(201) }),
    status: 422,
  },
  {
    name: 'decision: subject_ref traversal',
    method: 'POST',
    path: '/api/v1/decisions',
    json: consent({ subject_ref: '../../etc/passwd' }),
    status: 404,
    code: 'flow_not_found',
  },
  {
    name: 'decision: subject_ref SQL',
    method: 'POST',
    path: '/api/v1/decisions',
    json: consent({ subject_ref: "x'OR'1'='1" }),
    status: 404,
  },
  {
    name: 'decision: delivery_mode iframe (legacy)',
    method: 'POST',
    path: '/api/v1/decisions',
    json: consent({ delivery_mode: 'iframe' }),
    status: 422,
  },
  {
    name: 'decision: delivery_mode missing',
    method: 'POST',
    path: '/api/v1/decisions',
    json: { kind: 'consent', subject_ref: '{{flow}}' },
    status: 422,
  },
  {
    name: 'decision: embed without origin',
    method: 'POST',
    path: '/api/v1/decisions',
    json: consent({ delivery_mode: 'embed' }),
    status: 422,
  },
  {
    name: 'decision: embed_origin *',
    method: 'POST',
    path: '/api/v1/decisions',
    json: consent({ delivery_mode: 'embed', embed_origin: '*' }),
    status: 422,
  },
  {
    name: 'decision: embed_origin null string',
    method: 'POST',
    path: '/api/v1/decisions',
    json: consent({ delivery_mode: 'embed', embed_origin: 'null' }),
    status: 422,
  },
  {
    name: 'decision: embed_origin with path',
    method: 'POST',
    path: '/api/v1/decisions',
    json: consent({ delivery_mode: 'embed', embed_origin: '{{origin}}/x' }),
    status: 422,
  },
  {
    name: 'decision: embed_origin a number',
    method: 'POST',
    path: '/api/v1/decisions',
    json: consent({ delivery_mode: 'embed', embed_origin: 8080 }),
    status: 422,
  },
  {
    name: 'decision: embed_origin not allowed',
    method: 'POST',
    path: '/api/v1/decisions',
    json: consent({ delivery_mode: 'embed', embed_origin: 'https://evil.example' }),
    status: 422,
    code: 'embed_origin_not_allowed',
  },
  {
    name: 'decision: redirect_uri javascript:',
    method: 'POST',
    path: '/api/v1/decisions',
    json: consent({ delivery_mode: 'redirect', redirect_uri: 'javascript:alert(1)' }),
    status: 422,
  },
  {
    name: 'decision: redirect_uri data:',
    method: 'POST',
    path: '/api/v1/decisions',
    json: consent({ delivery_mode: 'redirect', redirect_uri: 'data:text/html,x' }),
    status: 422,
  },
  {
    name: 'decision: redirect_uri relative',
    method: 'POST',
    path: '/api/v1/decisions',
    json: consent({ delivery_mode: 'redirect', redirect_uri: '/back' }),
    status: 422,
  },
  { name: 'decision: scope an array', method: 'POST', path: '/api/v1/decisions', json: consent({ scope: ['a'] }), status: 422 },
  { name: 'decision: state too long', method: 'POST', path: '/api/v1/decisions', json: consent({ state: 's'.repeat(2001) }), status: 422 },
  { name: 'decision: meeting_id an object', method: 'POST', path: '/api/v1/decisions', json: consent({ meeting_id: {} }), status: 422 },
  { name: 'decision: unknown field', method: 'POST', path: '/api/v1/decisions', json: consent({ flow_id: '{{flow}}' }), status: 422 },
  {
    name: 'decision: __proto__ field',
    method: 'POST',
    path: '/api/v1/decisions',
    headers: json,
    body: '{"__proto__":{"admin":true},"kind":"consent","subject_ref":"{{flow}}","delivery_mode":"popup"}',
    status: 422,
  },
  {
    name: 'decision: draft flow',
    method: 'POST',
    path: '/api/v1/decisions',
    json: consent({ subject_ref: '{{draft}}' }),
    status: 422,
    code: 'flow_not_active',
  },
  // Credentials
  {
    name: 'decision: no credential',
    method: 'POST',
    path: '/api/v1/decisions',
    headers: { authorization: null },
    json: consent(),
    status: 401,
  },
  {
    name: 'decision: wrong bearer',
    method: 'POST',
    path: '/api/v1/decisions',
    headers: { authorization: 'Bearer nope' },
    json: consent(),
    status: 401,
  },
  {
    name: 'decision: basic auth',
    method: 'POST',
    path: '/api/v1/decisions',
    headers: { authorization: 'Basic YTpi' },
    json: consent(),
    status: 401,
  },
  {
    name: 'decision: read token',
    method: 'POST',
    path: '/api/v1/decisions',
    headers: { authorization: 'Bearer {{read}}' },
    json: consent(),
    status: 403,
  },
  {
    name: 'decision: wrong publishable key',
    method: 'POST',
    path: '/api/v1/decisions',
    headers: { authorization: null, 'x-publishable-key': 'pk_test_nope1234' },
    json: consent(),
    status: 401,
  },
  {
    name: 'decision: key and bearer',
    method: 'POST',
    path: '/api/v1/decisions',
    headers: { 'x-publishable-key': '{{pk}}' },
    json: consent(),
    status: 401,
  },
  {
    name: 'decision: key from a foreign origin',
    method: 'POST',
    path: '/api/v1/decisions',
    headers: { authorization: null, 'x-publishable-key': '{{pk}}', origin: 'https://evil.example' },
    json: consent(),
    status: 403,
  },
  {
    name: 'decision: key with redirect elsewhere',
    method: 'POST',
    path: '/api/v1/decisions',
    headers: { authorization: null, 'x-publishable-key': '{{pk}}' },
    json: consent({ delivery_mode: 'redirect', redirect_uri: 'https://evil.example/' }),
    status: 422,
    code: 'redirect_uri_not_allowed',
  },
  // Reads and tokens in paths
  { name: 'read: unknown token', path: `/api/v1/decisions/${fakeToken}`, status: 404 },
  { name: 'read: short token', path: '/api/v1/decisions/dts_x', status: 404 },
  { name: 'read: traversal', path: '/api/v1/decisions/..%2F..%2Fmetrics', status: 404 },
  { name: 'read: dot segments', path: '/api/v1/decisions/../../metrics', status: [401, 404] },
  { name: 'read: NUL in token', path: '/api/v1/decisions/dts_%00', status: 404 },
  { name: 'read: SQL in token', path: "/api/v1/decisions/dts_'%20OR%201=1--", status: 404 },
  { name: 'read: huge token', path: `/api/v1/decisions/dts_${'a'.repeat(5000)}`, status: 404 },
  {
    name: 'read: publishable key',
    path: `/api/v1/decisions/${fakeToken}`,
    headers: { authorization: null, 'x-publishable-key': '{{pk}}' },
    status: 403,
  },
  { name: 'read: no credential', path: `/api/v1/decisions/${fakeToken}`, headers: { authorization: null }, status: 401 },
  // Exchange
  {
    name: 'exchange: unknown decision',
    method: 'POST',
    path: `/api/v1/decisions/${fakeToken}/exchange`,
    json: { exchange_token: 'x' },
    status: 404,
  },
  {
    name: 'exchange: traversal',
    method: 'POST',
    path: '/api/v1/decisions/..%2F..%2F/exchange',
    json: { exchange_token: 'x' },
    status: 404,
  },
  {
    name: 'exchange: publishable key',
    method: 'POST',
    path: `/api/v1/decisions/${fakeToken}/exchange`,
    headers: { authorization: null, 'x-publishable-key': '{{pk}}' },
    json: { exchange_token: 'x' },
    status: 403,
  },
  {
    name: 'exchange: no credential',
    method: 'POST',
    path: `/api/v1/decisions/${fakeToken}/exchange`,
    headers: { authorization: null },
    json: {},
    status: 401,
  },
  // Verify
  { name: 'verify: empty body', method: 'POST', path: '/api/v1/consent_tokens/verify', headers: json, body: '', status: 400 },
  { name: 'verify: token missing', method: 'POST', path: '/api/v1/consent_tokens/verify', json: {}, status: 422 },
  { name: 'verify: token a number', method: 'POST', path: '/api/v1/consent_tokens/verify', json: { consent_token: 42 }, status: 422 },
  { name: 'verify: token empty', method: 'POST', path: '/api/v1/consent_tokens/verify', json: { consent_token: '' }, status: 422 },
  {
    name: 'verify: token huge',
    method: 'POST',
    path: '/api/v1/consent_tokens/verify',
    json: { consent_token: 't'.repeat(10_000) },
    status: 422,
  },
  {
    name: 'verify: unknown field',
    method: 'POST',
    path: '/api/v1/consent_tokens/verify',
    json: { consent_token: 'x', extra: 1 },
    status: 422,
  },
  {
    name: 'verify: publishable key',
    method: 'POST',
    path: '/api/v1/consent_tokens/verify',
    headers: { authorization: null, 'x-publishable-key': '{{pk}}' },
    json: { consent_token: 'x' },
    status: 403,
  },
  {
    name: 'verify: wrong bearer',
    method: 'POST',
    path: '/api/v1/consent_tokens/verify',
    headers: { authorization: 'Bearer x' },
    json: { consent_token: 'x' },
    status: 401,
  },
  // The deprecated alias behaves the same
  { name: 'alias: truncated JSON', method: 'POST', path: '/api/v1/consent_sessions', headers: json, body: '{', status: 400 },
  { name: 'alias: unknown field', method: 'POST', path: '/api/v1/consent_sessions', json: consent({ metadata: {} }), status: 422 },
  { name: 'alias: legacy flow_id body', method: 'POST', path: '/api/v1/consent_sessions', json: { flow_id: '{{flow}}' }, status: 422 },
  { name: 'alias: unknown token', path: `/api/v1/consent_sessions/${fakeToken}`, status: 404 },
  { name: 'alias: traversal', path: '/api/v1/consent_sessions/..%2F..%2Fapi_tokens', status: 404 },
  { name: 'alias: verify without body', method: 'POST', path: '/api/v1/consent_sessions/verify', headers: json, body: '', status: 400 },
  // Participant API without a real decision
  {
    name: 'participant: unknown token',
    method: 'POST',
    path: `/decisions/${fakeToken}/transitions`,
    headers: { authorization: null },
    json: { action: 'begin' },
    status: 404,
  },
  {
    name: 'participant: traversal token',
    method: 'POST',
    path: '/decisions/..%2F..%2Fapi/transitions',
    headers: { authorization: null },
    json: { action: 'begin' },
    status: 404,
  },
  {
    name: 'participant: drops for unknown token',
    method: 'POST',
    path: `/decisions/${fakeToken}/drops`,
    headers: { authorization: null },
    json: { reason: 'origin_missing' },
    status: 404,
  },
  {
    name: 'participant: cross-origin',
    method: 'POST',
    path: `/decisions/${fakeToken}/transitions`,
    headers: { authorization: null, origin: 'https://evil.example' },
    json: { action: 'begin' },
    status: 403,
  },
  {
    name: 'participant: text/plain',
    method: 'POST',
    path: `/decisions/${fakeToken}/transitions`,
    headers: { authorization: null, 'content-type': 'text/plain' },
    body: '{}',
    status: 400,
  },
  {
    name: 'participant: huge body',
    method: 'POST',
    path: `/decisions/${fakeToken}/transitions`,
    headers: { authorization: null, ...json },
    body: `{"a":"${'x'.repeat(20_000)}"}`,
    status: 413,
  },
  // Playground
  {
    name: 'playground: cross-origin create',
    method: 'POST',
    path: '/playground/decisions',
    headers: { authorization: null, origin: 'https://evil.example' },
    json: { kind: 'consent' },
    status: 403,
  },
  {
    name: 'playground: cross-site fetch',
    method: 'POST',
    path: '/playground/decisions',
    headers: { authorization: null, 'sec-fetch-site': 'cross-site' },
    json: { kind: 'consent' },
    status: 403,
  },
  {
    name: 'playground: bad kind',
    method: 'POST',
    path: '/playground/decisions',
    headers: { authorization: null },
    json: { kind: 'root' },
    status: 422,
  },
  {
    name: 'playground: complete unknown decision',
    method: 'POST',
    path: '/playground/complete',
    headers: { authorization: null },
    json: { session_token: fakeToken, exchange_token: 'x' },
    status: 404,
  },
  {
    name: 'playground: complete wrong types',
    method: 'POST',
    path: '/playground/complete',
    headers: { authorization: null },
    json: { session_token: 1, exchange_token: [] },
    status: 422,
  },
  {
    name: 'playground: complete malformed',
    method: 'POST',
    path: '/playground/complete',
    headers: { authorization: null, ...json },
    body: '{',
    status: 400,
  },
];

describeHostile('hostile requests: decisions', api);

describe('hostile requests: participant steps on a real decision', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = (await createConsent(server)).session_token;
  });
  after(() => server.dispose());

  const bodies: [string, string, number][] = [
    ['truncated JSON', '{"action":', 400],
    ['empty body', '', 400],
    ['array', '[]', 422],
    ['null', 'null', 422],
    ['action missing', '{}', 422],
    ['action a number', '{"action":1}', 422],
    ['action unknown', '{"action":"fulfil"}', 422],
    ['begin with an unknown field', '{"action":"begin","status":"fulfilled"}', 422],
    ['sign_in without email', '{"action":"sign_in"}', 422],
    ['sign_in with a bad email', '{"action":"sign_in","email":"not-an-email"}', 422],
    ['verify with letters', '{"action":"verify","code":"abcdef"}', 422],
    ['verify with a long code', '{"action":"verify","code":"1234567"}', 422],
    ['answer negative', '{"action":"answer","answer":-1}', 422],
    ['answer a float', '{"action":"answer","answer":0.5}', 422],
    ['agree with a string', '{"action":"agree","granted":"newsletter","objected":[]}', 422],
    ['agree with 51 purposes', JSON.stringify({ action: 'agree', granted: Array(51).fill('a'), objected: [] }), 422],
    ['cancel by the service', '{"action":"cancel","cancelled_by":"service"}', 422],
    ['counter too long', JSON.stringify({ action: 'counter', proposal: 'x'.repeat(1001) }), 422],
    ['step_index huge', '{"action":"begin","step_index":1e9}', 422],
    ['step_index a string', '{"action":"begin","step_index":"0"}', 422],
    ['agree on the intro screen', '{"action":"agree","granted":[],"objected":[]}', 422],
    ['approve a consent', '{"action":"approve"}', 422],
    ['drops with no reason', '{}', 422],
  ];
  for (const [name, body, status] of bodies) {
    it(`${name} -> ${status}`, async () => {
      const endpoint = name.startsWith('drops') ? 'drops' : 'transitions';
      const res = await rawRequest(server.url, 'POST', `/decisions/${token}/${endpoint}`, { 'content-type': 'application/json' }, body);
      assert.equal(res.status, status, res.text.slice(0, 300));
      assert.equal(typeof (JSON.parse(res.text) as { message: unknown }).message, 'string');
    });
  }

  it('leaves the decision untouched by all of it', async () => {
    const { decision } = (await (await server.api(`/api/v1/decisions/${token}`)).json()) as { decision: { status: string } };
    assert.equal(decision.status, 'pending');
  });
});

describe('hostile requests: hosted pages never answer 5xx', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  const paths: [string, number][] = [
    ['/decisions/', 404],
    ['/decisions/dts_', 404],
    [`/decisions/${fakeToken}`, 404],
    [`/decisions/${fakeToken}/embed`, 404],
    ['/decisions/..%2F..%2Fsvc.sqlite', 404],
    ['/decisions/%00', 404],
    ['/decisions/%ZZ', 404],
    [`/decisions/${'x'.repeat(8000)}`, 404],
    ['/accord/', 404],
    ['/accord/flw_dev_nope', 404],
    ['/accord/..%2F..%2Fkeys.json', 404],
    ['/accord/%00', 404],
    ['/accord/{{flow}}?redirect_uri=javascript:alert(1)', 400],
    ['/accord/{{flow}}?redirect_uri=https%3A%2F%2Fevil.example', 400],
    ['/accord/{{flow}}?redirect_uri=%ZZ', 400],
    ['/accord/{{flow}}?redirect_uri=a&redirect_uri=b', 400],
    ['/assets/..%2F..%2Fpackage.json', 404],
    ['/assets/%2e%2e%2fkeys.json', 404],
    ['/assets/decision-page.ts', 404],
  ];
  for (const [path, status] of paths) {
    it(`GET ${path.slice(0, 80)} -> ${status}`, async () => {
      const res = await rawRequest(server.url, 'GET', path.replace('{{flow}}', server.sandbox.flow_id ?? ''), {});
      assert.equal(res.status, status, res.text.slice(0, 200));
    });
  }
});
