// Malformed and hostile requests against the render endpoint, captures, authorize, form connections and the
// inbound form hook: each gets its 4xx, never a 5xx.
import { describeHostile, type HostileCase } from '../../hostile-cases.js';

const json = { 'content-type': 'application/json' };
const fakeToken = `dts_${'A'.repeat(43)}`;
/** A browser call with the sandbox publishable key from the allowed origin. */
const page = { authorization: null, 'x-publishable-key': '{{pk}}', origin: '{{origin}}' };
const pageJson = { ...page, ...json };
const captureBody = (extra: Record<string, unknown> = {}) => ({ flow_id: '{{flow}}', decisions: { newsletter: { decision: 'granted' } }, ...extra });
const connections = '/api/v1/applications/{{app}}/form_connections';

const cases: HostileCase[] = [
  // Render
  { name: 'render: no credential', path: '/api/v1/flows/{{flow}}/render', headers: { authorization: null, origin: '{{origin}}' }, status: 401 },
  { name: 'render: API token', path: '/api/v1/flows/{{flow}}/render', headers: { origin: '{{origin}}' }, status: 403, code: 'publishable_key_required' },
  { name: 'render: bearer and key together', path: '/api/v1/flows/{{flow}}/render', headers: { 'x-publishable-key': '{{pk}}', origin: '{{origin}}' }, status: 401 },
  { name: 'render: no origin', path: '/api/v1/flows/{{flow}}/render', headers: { authorization: null, 'x-publishable-key': '{{pk}}' }, status: 403, code: 'origin_required' },
  { name: 'render: foreign origin', path: '/api/v1/flows/{{flow}}/render', headers: { ...page, origin: 'https://evil.example' }, status: 403, code: 'origin_not_allowed' },
  { name: 'render: origin null', path: '/api/v1/flows/{{flow}}/render', headers: { ...page, origin: 'null' }, status: 403 },
  { name: 'render: two origins', path: '/api/v1/flows/{{flow}}/render', headers: { ...page, origin: ['{{origin}}', 'https://evil.example'] }, status: 403 },
  { name: 'render: same-origin claim from elsewhere', path: '/api/v1/flows/{{flow}}/render', headers: { authorization: null, 'x-publishable-key': '{{pk}}', 'sec-fetch-site': 'cross-site' }, status: 403, code: 'origin_required' },
  { name: 'render: not capturable (demo flow verifies)', path: '/api/v1/flows/{{flow}}/render', headers: page, status: 422, code: 'flow_not_capturable' },
  { name: 'render: draft', path: '/api/v1/flows/{{draft}}/render', headers: page, status: 404 },
  { name: 'render: unknown flow', path: '/api/v1/flows/flw_dev_nope/render', headers: page, status: 404 },
  { name: 'render: traversal', path: '/api/v1/flows/..%2F..%2Fetc%2Fpasswd/render', headers: page, status: 404 },
  { name: 'render: SQL in id', path: "/api/v1/flows/x'%20OR%20'1'='1/render", headers: page, status: 404 },
  { name: 'render: huge id', path: `/api/v1/flows/${'f'.repeat(5000)}/render`, headers: page, status: 404 },
  { name: 'render: locale script', path: '/api/v1/flows/{{flow}}/render?locale=%3Cscript%3E', headers: page, status: 400 },
  { name: 'render: locale repeated', path: '/api/v1/flows/{{flow}}/render?locale=en&locale=fr', headers: page, status: [400, 422] },
  { name: 'render: POST', method: 'POST', path: '/api/v1/flows/{{flow}}/render', headers: pageJson, json: {}, status: [403, 404] },

  // Captures
  { name: 'capture: no credential', method: 'POST', path: '/api/v1/captures', headers: { ...json, authorization: null }, json: captureBody(), status: 401 },
  { name: 'capture: API token', method: 'POST', path: '/api/v1/captures', json: captureBody(), status: 403, code: 'publishable_key_required' },
  { name: 'capture: foreign origin', method: 'POST', path: '/api/v1/captures', headers: { ...pageJson, origin: 'https://evil.example' }, json: captureBody(), status: 403 },
  { name: 'capture: truncated JSON', method: 'POST', path: '/api/v1/captures', headers: pageJson, body: '{"flow_id":', status: 400, code: 'malformed_json' },
  { name: 'capture: empty body', method: 'POST', path: '/api/v1/captures', headers: pageJson, body: '', status: 400 },
  { name: 'capture: form-encoded', method: 'POST', path: '/api/v1/captures', headers: { ...page, 'content-type': 'application/x-www-form-urlencoded' }, body: 'flow_id=x', status: 400 },
  { name: 'capture: JSON array', method: 'POST', path: '/api/v1/captures', headers: pageJson, json: [], status: 422 },
  { name: 'capture: JSON null', method: 'POST', path: '/api/v1/captures', headers: pageJson, json: null, status: 422 },
  { name: 'capture: huge body', method: 'POST', path: '/api/v1/captures', headers: pageJson, body: `{"snapshot":"${'x'.repeat(200 * 1024)}"}`, status: 413 },
  { name: 'capture: deeply nested', method: 'POST', path: '/api/v1/captures', headers: pageJson, body: '['.repeat(50_000) + ']'.repeat(50_000), status: [400, 422] },
  { name: 'capture: decisions missing', method: 'POST', path: '/api/v1/captures', headers: pageJson, json: { flow_id: '{{flow}}' }, status: 422 },
  { name: 'capture: decisions an array', method: 'POST', path: '/api/v1/captures', headers: pageJson, json: captureBody({ decisions: [] }), status: 422 },
  { name: 'capture: decision maybe', method: 'POST', path: '/api/v1/captures', headers: pageJson, json: captureBody({ decisions: { newsletter: { decision: 'maybe' } } }), status: 422 },
  { name: 'capture: default_checked a string', method: 'POST', path: '/api/v1/captures', headers: pageJson, json: captureBody({ decisions: { newsletter: { decision: 'granted', default_checked: 'no' } } }), status: 422 },
  { name: 'capture: extra key in decision entry', method: 'POST', path: '/api/v1/captures', headers: pageJson, json: captureBody({ decisions: { newsletter: { decision: 'granted', value: 'x' } } }), status: 422 },
  { name: 'capture: 51 purposes', method: 'POST', path: '/api/v1/captures', headers: pageJson, json: captureBody({ decisions: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`p${i}`, { decision: 'granted' }])) }), status: 422 },
  { name: 'capture: __proto__ purpose', method: 'POST', path: '/api/v1/captures', headers: pageJson, body: '{"flow_id":"{{flow}}","decisions":{"__proto__":{"decision":"granted"}}}', status: 422 },
  { name: 'capture: unknown field', method: 'POST', path: '/api/v1/captures', headers: pageJson, json: captureBody({ render_proof: 'x' }), status: 422 },
  { name: 'capture: snapshot over 16 KB', method: 'POST', path: '/api/v1/captures', headers: pageJson, json: captureBody({ snapshot: 'x'.repeat(16385) }), status: 422 },
  { name: 'capture: snapshot a number', method: 'POST', path: '/api/v1/captures', headers: pageJson, json: captureBody({ snapshot: 1 }), status: 422 },
  { name: 'capture: page_url javascript:', method: 'POST', path: '/api/v1/captures', headers: pageJson, json: captureBody({ page_url: 'javascript:alert(1)' }), status: 422 },
  { name: 'capture: notice_hash with spaces', method: 'POST', path: '/api/v1/captures', headers: pageJson, json: captureBody({ notice_hash: 'sha256 abc' }), status: 422 },
  { name: 'capture: subject email invalid', method: 'POST', path: '/api/v1/captures', headers: pageJson, json: captureBody({ subject: { email: 'nope' } }), status: 422 },
  { name: 'capture: commit a string', method: 'POST', path: '/api/v1/captures', headers: pageJson, json: captureBody({ commit: 'yes' }), status: 422 },
  { name: 'capture: flow_id empty', method: 'POST', path: '/api/v1/captures', headers: pageJson, json: captureBody({ flow_id: '' }), status: 422 },
  { name: 'capture: unknown flow', method: 'POST', path: '/api/v1/captures', headers: pageJson, json: captureBody({ flow_id: 'flw_dev_nope' }), status: 404 },
  { name: 'capture: draft flow', method: 'POST', path: '/api/v1/captures', headers: pageJson, json: captureBody({ flow_id: '{{draft}}' }), status: 422, code: 'flow_not_active' },
  { name: 'capture: not capturable', method: 'POST', path: '/api/v1/captures', headers: pageJson, json: captureBody(), status: 422, code: 'flow_not_capturable' },
  { name: 'capture: garbage render proof', method: 'POST', path: '/api/v1/captures', headers: { ...pageJson, 'x-svc-render-proof': 'a.b' }, json: captureBody(), status: 422 },
  { name: 'capture: render proof alg none', method: 'POST', path: '/api/v1/captures', headers: { ...pageJson, 'x-svc-render-proof': 'eyJhbGciOiJub25lIn0.eyJmbG93X2lkIjoieCJ9.' }, json: captureBody(), status: 422 },
  { name: 'capture: huge render proof', method: 'POST', path: '/api/v1/captures', headers: { ...pageJson, 'x-svc-render-proof': `${'a'.repeat(3000)}.${'b'.repeat(5000)}.c` }, json: captureBody(), status: [400, 422, 431] },
  { name: 'capture: GET', path: '/api/v1/captures', headers: page, status: 404 },

  // Authorize
  { name: 'authorize: no credential', method: 'POST', path: `/api/v1/decisions/${fakeToken}/authorize`, headers: { ...json, authorization: null }, json: { subject: { email: 'a@example.com' } }, status: 401 },
  { name: 'authorize: publishable key', method: 'POST', path: `/api/v1/decisions/${fakeToken}/authorize`, headers: pageJson, json: { subject: { email: 'a@example.com' } }, status: 403 },
  { name: 'authorize: read token', method: 'POST', path: `/api/v1/decisions/${fakeToken}/authorize`, headers: { ...json, authorization: 'Bearer {{read}}' }, json: { subject: { email: 'a@example.com' } }, status: 403 },
  { name: 'authorize: unknown token', method: 'POST', path: `/api/v1/decisions/${fakeToken}/authorize`, json: { subject: { email: 'a@example.com' } }, status: 404 },
  { name: 'authorize: short token', method: 'POST', path: '/api/v1/decisions/dts_x/authorize', json: { subject: { email: 'a@example.com' } }, status: 404 },
  { name: 'authorize: token with traversal', method: 'POST', path: '/api/v1/decisions/..%2F..%2Fme/authorize', json: { subject: { email: 'a@example.com' } }, status: 404 },
  { name: 'authorize: token with NUL', method: 'POST', path: '/api/v1/decisions/dts_%00/authorize', json: { subject: { email: 'a@example.com' } }, status: [400, 404] },
  { name: 'authorize: truncated JSON', method: 'POST', path: `/api/v1/decisions/${fakeToken}/authorize`, headers: json, body: '{"subject":', status: 400 },
  { name: 'authorize: subject missing', method: 'POST', path: `/api/v1/decisions/${fakeToken}/authorize`, json: {}, status: 422 },
  { name: 'authorize: email a number', method: 'POST', path: `/api/v1/decisions/${fakeToken}/authorize`, json: { subject: { email: 5 } }, status: 422 },
  { name: 'authorize: email too long', method: 'POST', path: `/api/v1/decisions/${fakeToken}/authorize`, json: { subject: { email: `${'a'.repeat(320)}@example.com` } }, status: 422 },
  { name: 'authorize: unknown field', method: 'POST', path: `/api/v1/decisions/${fakeToken}/authorize`, json: { subject: { email: 'a@example.com' }, purposes: [] }, status: 422 },
  { name: 'authorize: suppress_receipt a string', method: 'POST', path: `/api/v1/decisions/${fakeToken}/authorize`, json: { subject: { email: 'a@example.com' }, suppress_receipt: 'true' }, status: 422 },
  { name: 'authorize: GET', path: `/api/v1/decisions/${fakeToken}/authorize`, status: 404 },

  // Form connections
  { name: 'form connections: publishable key', path: connections, headers: page, status: 403 },
  { name: 'form connections: read token creates', method: 'POST', path: connections, headers: { ...json, authorization: 'Bearer {{read}}' }, json: {}, status: 403 },
  { name: 'form connections: unknown application', path: '/api/v1/applications/tp_dev_nope/form_connections', status: 404 },
  { name: 'form connections: bad limit', path: `${connections}?limit=0`, status: 400 },
  { name: 'form connections: bad cursor', path: `${connections}?cursor=zzz`, status: 400 },
  { name: 'form connections: empty body', method: 'POST', path: connections, headers: json, body: '', status: 400 },
  { name: 'form connections: no fields', method: 'POST', path: connections, json: { form_connection: { name: 'x', flow_id: '{{flow}}', fields: [], subject: { email: { field: 'e' } }, purposes: {} } }, status: 422 },
  { name: 'form connections: field type unknown', method: 'POST', path: connections, json: { form_connection: { name: 'x', flow_id: '{{flow}}', fields: [{ id: 'e', type: 'laser' }], subject: { email: { field: 'e' } }, purposes: {} } }, status: 422 },
  { name: 'form connections: subject with both', method: 'POST', path: connections, json: { form_connection: { name: 'x', flow_id: '{{flow}}', fields: [{ id: 'e', type: 'email' }], subject: { email: { field: 'e', hidden: 'h' } }, purposes: {} } }, status: 422 },
  { name: 'form connections: not capturable flow', method: 'POST', path: connections, json: { form_connection: { name: 'x', flow_id: '{{flow}}', fields: [{ id: 'e', type: 'email' }], subject: { email: { field: 'e' } }, purposes: {} } }, status: 422, code: 'flow_not_capturable' },
  { name: 'form connections: unknown connection', path: `${connections}/fcn_nope`, status: 404 },
  { name: 'form connections: rotate unknown', method: 'POST', path: `${connections}/fcn_nope/rotate_secret`, status: 404 },
  { name: 'form connections: delete unknown', method: 'DELETE', path: `${connections}/fcn_nope`, status: 404 },

  // Inbound hook
  { name: 'hook: unknown connection', method: 'POST', path: '/hooks/forms/fcn_nope', headers: { ...json, authorization: null, 'typeform-signature': 'sha256=AAAA' }, json: {}, status: 404 },
  { name: 'hook: traversal', method: 'POST', path: '/hooks/forms/..%2F..%2Fapi', headers: { ...json, authorization: null }, json: {}, status: 404 },
  { name: 'hook: huge body', method: 'POST', path: '/hooks/forms/fcn_nope', headers: { ...json, authorization: null }, body: `{"x":"${'x'.repeat(600 * 1024)}"}`, status: 413 },
  { name: 'hook: GET', path: '/hooks/forms/fcn_nope', headers: { authorization: null }, status: 404 },
];

describeHostile('captures, render, authorize and form platforms: hostile requests', cases);
