// Malformed and hostile requests to /api/v1/disclosure_receipts: each gets its 4xx with a message, never a 5xx.
import { describeHostile, type HostileCase } from '../../hostile-cases.js';

const base = '/api/v1/disclosure_receipts';
const json = { 'content-type': 'application/json' };
const body = (extra: Record<string, unknown> = {}) => ({
  flow_id: '{{flow}}',
  agent_id: 'agt_dev_AAAAAAAAAAAAAAAA',
  disclosed_at: '2026-01-01T00:00:00Z',
  ...extra,
});

const cases: HostileCase[] = [
  { name: 'truncated JSON', method: 'POST', path: base, headers: json, body: '{"flow_id":', status: 400 },
  { name: 'JSON array', method: 'POST', path: base, json: [], status: 422 },
  {
    name: 'flow_id missing',
    method: 'POST',
    path: base,
    json: { agent_id: 'agt_dev_x', disclosed_at: '2026-01-01T00:00:00Z' },
    status: 422,
  },
  { name: 'disclosed_at not a date', method: 'POST', path: base, json: body({ disclosed_at: 'yesterday' }), status: 422 },
  { name: 'disclosed_at without offset', method: 'POST', path: base, json: body({ disclosed_at: '2026-01-01T00:00:00' }), status: 422 },
  { name: 'disclosed_at a number', method: 'POST', path: base, json: body({ disclosed_at: 1767225600 }), status: 422 },
  { name: 'locale not BCP 47', method: 'POST', path: base, json: body({ locale: 'english please' }), status: 422 },
  { name: 'unknown field', method: 'POST', path: base, json: body({ subject: { email: 'a@example.com' } }), status: 422 },
  { name: 'agent id SQL', method: 'POST', path: base, json: body({ agent_id: "' OR 1=1 --" }), status: 422 },
  { name: 'flow id very long', method: 'POST', path: base, json: body({ flow_id: 'f'.repeat(500) }), status: 422 },
  { name: 'read token', method: 'POST', path: base, headers: { authorization: 'Bearer {{read}}' }, json: body(), status: 403 },
  { name: 'write token', method: 'POST', path: base, headers: { authorization: 'Bearer {{write}}' }, json: body(), status: 403 },
  {
    name: 'publishable key',
    method: 'POST',
    path: base,
    headers: { authorization: null, 'x-publishable-key': '{{pk}}' },
    json: body(),
    status: 403,
  },
  { name: 'no credentials', method: 'POST', path: base, headers: { authorization: null }, json: body(), status: 401 },
  { name: 'get unknown id', path: `${base}/nr_AAAAAAAAAAAAAAAAAAAA`, status: 404 },
  { name: 'get traversal', path: `${base}/..%2Fapi_tokens`, status: 404 },
  { name: 'receipt of an unknown notice record', path: '/api/v1/consent_receipts/nr_AAAAAAAAAAAAAAAAAAAA?flavor=dpv', status: 404 },
];

describeHostile('hostile requests: disclosure receipts', cases);
