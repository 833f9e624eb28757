// Malformed and hostile requests against the records, imports, receipts, consent status and audit routes: each
// must get a 4xx with a message, never a 5xx.
import { describeHostile } from '../hostile-cases.js';

const record = (extra: Record<string, unknown> = {}) => ({ flow_id: '{{flow}}', subject: { email: 'h@example.com' }, decisions: {}, ...extra });

describeHostile('records, receipts and the audit trail: hostile requests', [
  { name: 'record without a body', method: 'POST', path: '/api/v1/consent_records', status: 400 },
  { name: 'record with malformed JSON', method: 'POST', path: '/api/v1/consent_records', body: '{"flow_id":', headers: { 'content-type': 'application/json' }, status: 400 },
  { name: 'record as a form post', method: 'POST', path: '/api/v1/consent_records', body: 'flow_id=x', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 400 },
  { name: 'record with a JSON array', method: 'POST', path: '/api/v1/consent_records', json: [record()], status: 422 },
  { name: 'record with a prototype key in decisions', method: 'POST', path: '/api/v1/consent_records', body: '{"flow_id":"{{flow}}","subject":{"email":"h@example.com"},"decisions":{"__proto__":{"decision":"granted"}}}', headers: { 'content-type': 'application/json' }, status: 422 },
  { name: 'record with 51 purposes', method: 'POST', path: '/api/v1/consent_records', json: record({ decisions: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`p${i}`, { decision: 'granted' }])) }), status: 422 },
  { name: 'record with client_facts nested 100000 levels', method: 'POST', path: '/api/v1/consent_records', headers: { 'content-type': 'application/json' }, body: `{"flow_id":"{{flow}}","subject":{"email":"h@example.com"},"decisions":{},"client_facts":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`, status: 422 },
  { name: 'record with decisions nested 100000 levels', method: 'POST', path: '/api/v1/consent_records', headers: { 'content-type': 'application/json' }, body: `{"flow_id":"{{flow}}","subject":{"email":"h@example.com"},"decisions":{"x":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}}`, status: 422 },
  { name: 'import with a row nested 100000 levels', method: 'POST', path: '/api/v1/consent_records/imports', headers: { 'content-type': 'application/json' }, body: `{"flow_id":"{{flow}}","records":[${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}]}`, status: 422 },
  { name: 'record with huge client_facts', method: 'POST', path: '/api/v1/consent_records', json: record({ client_facts: { blob: 'x'.repeat(9000) } }), status: 422 },
  { name: 'record with a 300-character idempotency key', method: 'POST', path: '/api/v1/consent_records', json: record({ idempotency_key: 'k'.repeat(300) }), status: 422 },
  { name: 'record with a year-0 captured_at', method: 'POST', path: '/api/v1/consent_records', json: record({ captured_at: '0000-01-01T00:00:00Z' }), status: 422 },
  { name: 'record with a read token', method: 'POST', path: '/api/v1/consent_records', headers: { authorization: 'Bearer {{read}}' }, json: record(), status: 403 },
  { name: 'record without credentials', method: 'POST', path: '/api/v1/consent_records', headers: { authorization: null }, json: record(), status: 401 },
  { name: 'record with the publishable key', method: 'POST', path: '/api/v1/consent_records', headers: { authorization: null, 'x-publishable-key': '{{pk}}' }, json: record(), status: 403 },
  { name: 'record under a draft flow', method: 'POST', path: '/api/v1/consent_records', json: record({ flow_id: '{{draft}}' }), status: 422 },
  { name: 'record with a SQL-looking flow id', method: 'POST', path: '/api/v1/consent_records', json: record({ flow_id: "x' OR 1=1 --" }), status: 404 },
  { name: 'record read with a traversal id', path: '/api/v1/consent_records/..%2f..%2fapplications', status: 404 },
  { name: 'withdraw an unknown record', method: 'POST', path: '/api/v1/consent_records/cr_nope/withdraw', json: {}, status: 404 },
  { name: 'withdraw with a read token', method: 'POST', path: '/api/v1/consent_records/cr_nope/withdraw', headers: { authorization: 'Bearer {{read}}' }, json: {}, status: 403 },
  { name: 'import without rows', method: 'POST', path: '/api/v1/consent_records/imports', json: { flow_id: '{{flow}}' }, status: 422 },
  { name: 'import with rows as an object', method: 'POST', path: '/api/v1/consent_records/imports', json: { flow_id: '{{flow}}', records: { 0: {} } }, status: 422 },
  { name: 'import with a Content-Length above 16 MB', method: 'POST', path: '/api/v1/consent_records/imports', headers: { 'content-type': 'application/json', 'content-length': String(17 * 1024 * 1024) }, body: '', status: [400, 413] },
  { name: 'import with a write-less token', method: 'POST', path: '/api/v1/consent_records/imports', headers: { authorization: 'Bearer {{read}}' }, json: { flow_id: '{{flow}}', records: [] }, status: 403 },
  { name: 'receipt with two flavors', path: '/api/v1/consent_receipts/cr_nope?flavor=dpv&flavor=signed', status: [400, 404] },
  { name: 'receipt with an unknown flavor', path: '/api/v1/consent_receipts/cr_nope?flavor=xml', status: 400 },
  { name: 'consent status with every subject reference', path: '/api/v1/applications/{{app}}/consent_status?subject[external_id]=a&subject[email]=b@example.com&person_id=c', status: 400 },
  { name: 'consent status with an array parameter', path: '/api/v1/applications/{{app}}/consent_status?subject[external_id][]=a', status: 400 },
  { name: 'consent status of another application', path: '/api/v1/applications/tp_dev_other/consent_status?person_id=prs_x', status: 404 },
  { name: 'audit events with a negative limit', path: '/api/v1/audit/events?limit=-1', status: 400 },
  { name: 'audit events with a forged cursor', path: '/api/v1/audit/events?cursor=djE6OTk5OTk5OTk5OTk5OTk5OTk5', status: 400 },
  { name: 'audit anchor with a long id', path: `/api/v1/audit/anchors/${'a'.repeat(5000)}`, status: 404 },
  { name: 'audit events with the publishable key', path: '/api/v1/audit/events', headers: { authorization: null, 'x-publishable-key': '{{pk}}' }, status: 403 },
]);
