// Malformed and hostile requests against the webhook routes: each gets its 4xx, never a 5xx.
import { describeHostile, type HostileCase } from '../../hostile-cases.js';

const json = { 'content-type': 'application/json' };
const base = '/api/v1/applications/{{app}}/webhook_endpoints';
const create = (endpoint: unknown) => ({ webhook_endpoint: endpoint });
const good = { url: 'http://127.0.0.1:9/hook', events: ['*'] };

const cases: HostileCase[] = [
  { name: 'create: truncated JSON', method: 'POST', path: base, headers: json, body: '{"webhook_endpoint":', status: 400, code: 'malformed_json' },
  { name: 'create: empty body', method: 'POST', path: base, headers: json, body: '', status: 400 },
  { name: 'create: form-encoded', method: 'POST', path: base, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'url=x', status: 400 },
  { name: 'create: JSON array', method: 'POST', path: base, json: [], status: 422 },
  { name: 'create: JSON null', method: 'POST', path: base, json: null, status: 422 },
  { name: 'create: unwrapped body', method: 'POST', path: base, json: good, status: 422 },
  { name: 'create: unknown field', method: 'POST', path: base, json: create({ ...good, status: 'enabled' }), status: 422 },
  { name: 'create: url a number', method: 'POST', path: base, json: create({ ...good, url: 42 }), status: 422 },
  { name: 'create: url javascript:', method: 'POST', path: base, json: create({ ...good, url: 'javascript:alert(1)' }), status: 422 },
  { name: 'create: url file:', method: 'POST', path: base, json: create({ ...good, url: 'file:///etc/passwd' }), status: 422 },
  { name: 'create: url too long', method: 'POST', path: base, json: create({ ...good, url: `https://example.com/${'a'.repeat(2000)}` }), status: 422 },
  { name: 'create: url with CRLF', method: 'POST', path: base, json: create({ ...good, url: 'http://example.com/\r\nX-Evil: 1' }), status: 422 },
  { name: 'create: events null', method: 'POST', path: base, json: create({ ...good, events: null }), status: 422 },
  { name: 'create: events of objects', method: 'POST', path: base, json: create({ ...good, events: [{}] }), status: 422 },
  { name: 'create: events huge', method: 'POST', path: base, json: create({ ...good, events: Array.from({ length: 10_000 }, () => '*') }), status: 422 },
  { name: 'create: events wildcard prefix', method: 'POST', path: base, json: create({ ...good, events: ['consent.*'] }), status: 422 },
  { name: 'create: description too long', method: 'POST', path: base, json: create({ ...good, description: 'x'.repeat(501) }), status: 422 },
  { name: 'create: __proto__ key', method: 'POST', path: base, headers: json, body: '{"webhook_endpoint":{"url":"http://127.0.0.1:9/h","events":["*"],"__proto__":{"x":1}}}', status: 422 },
  { name: 'create: huge body', method: 'POST', path: base, headers: json, body: `{"webhook_endpoint":{"description":"${'x'.repeat(1024 * 1024 + 10)}"}}`, status: 413 },
  { name: 'create: publishable key', method: 'POST', path: base, headers: { authorization: null, 'x-publishable-key': '{{pk}}' }, json: create(good), status: 403 },
  { name: 'create: read token', method: 'POST', path: base, headers: { authorization: 'Bearer {{read}}' }, json: create(good), status: 403 },
  { name: 'create: no credential', method: 'POST', path: base, headers: { authorization: null }, json: create(good), status: 401 },
  { name: 'create: unknown application', method: 'POST', path: '/api/v1/applications/tp_dev_nope/webhook_endpoints', json: create(good), status: 404 },
  { name: 'create: SQL in application id', method: 'POST', path: "/api/v1/applications/x'%20OR%20'1'='1/webhook_endpoints", json: create(good), status: 404 },
  { name: 'create: url with a tab', method: 'POST', path: base, json: create({ ...good, url: 'http://exa\tmple.com/' }), status: 422 },
  { name: 'list: bad cursor', path: `${base}?cursor=not-a-cursor`, status: 400, code: 'invalid_cursor' },
  { name: 'list: limit 0', path: `${base}?limit=0`, status: 400 },
  { name: 'list: limit 1000', path: `${base}?limit=1000`, status: 400 },
  { name: 'read: unknown endpoint', path: `${base}/we_nope`, status: 404 },
  { name: 'read: traversal in id', path: `${base}/..%2F..%2Fapi_tokens`, status: 404 },
  { name: 'patch: unknown endpoint', method: 'PATCH', path: `${base}/we_nope`, json: create({ status: 'enabled' }), status: 404 },
  { name: 'delete: unknown endpoint', method: 'DELETE', path: `${base}/we_nope`, status: 404 },
  { name: 'rotate: unknown endpoint', method: 'POST', path: `${base}/we_nope/rotate_secret`, status: 404 },
  { name: 'test: unknown endpoint', method: 'POST', path: `${base}/we_nope/test`, status: 404 },
  { name: 'deliveries: unknown endpoint', path: `${base}/we_nope/deliveries`, status: 404 },
  { name: 'deliveries: unknown delivery', path: `${base}/we_nope/deliveries/whd_nope`, status: 404 },
];

describeHostile('webhook routes: hostile requests', cases);
