// Malformed and hostile requests to /api/v1/agent_identities: each gets its 4xx with a message, never a 5xx.
import { describeHostile, type HostileCase } from '../../hostile-cases.js';
import { AGENT_METADATA_MAX_BYTES } from '@svc/schemas';

const base = '/api/v1/agent_identities';
const json = { 'content-type': 'application/json' };
const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });
const manyKeys = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));

const cases: HostileCase[] = [
  { name: 'truncated JSON', method: 'POST', path: base, headers: json, body: '{"display_name":', status: 400, code: 'malformed_json' },
  { name: 'empty body', method: 'POST', path: base, headers: json, body: '', status: 400 },
  { name: 'form body', method: 'POST', path: base, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'display_name=a', status: 400 },
  { name: 'JSON array', method: 'POST', path: base, json: [], status: 422 },
  { name: 'JSON null', method: 'POST', path: base, json: null, status: 422 },
  { name: 'display_name missing', method: 'POST', path: base, json: { agent_type: 'assistant' }, status: 422 },
  { name: 'display_name blank', method: 'POST', path: base, json: { display_name: '   ' }, status: 422 },
  { name: 'display_name a number', method: 'POST', path: base, json: { display_name: 7 }, status: 422 },
  { name: 'display_name too long', method: 'POST', path: base, json: { display_name: 'n'.repeat(201) }, status: 422 },
  { name: 'enveloped body', method: 'POST', path: base, json: { agent_identity: { display_name: 'a' } }, status: 422 },
  { name: 'unknown field', method: 'POST', path: base, json: { display_name: 'a', status: 'revoked' }, status: 422 },
  { name: 'delegation_grant_id on create', method: 'POST', path: base, json: { display_name: 'a', delegation_grant_id: 'dlg_dev_x' }, status: 422 },
  { name: 'agent_type unknown', method: 'POST', path: base, json: { display_name: 'a', agent_type: 'overlord' }, status: 422 },
  { name: 'agent_type null', method: 'POST', path: base, json: { display_name: 'a', agent_type: null }, status: 422 },
  { name: 'metadata an array', method: 'POST', path: base, json: { display_name: 'a', metadata: [1, 2] }, status: 422 },
  { name: 'metadata a string', method: 'POST', path: base, json: { display_name: 'a', metadata: '{}' }, status: 422 },
  { name: 'metadata null', method: 'POST', path: base, json: { display_name: 'a', metadata: null }, status: 422 },
  { name: 'metadata with 51 keys', method: 'POST', path: base, json: { display_name: 'a', metadata: manyKeys }, status: 422 },
  { name: 'metadata over 16 KB', method: 'POST', path: base, json: { display_name: 'a', metadata: { blob: 'x'.repeat(AGENT_METADATA_MAX_BYTES) } }, status: 422 },
  { name: 'metadata over 16 KB in multibyte characters', method: 'POST', path: base, json: { display_name: 'a', metadata: { blob: '\u00e9'.repeat(AGENT_METADATA_MAX_BYTES / 2) } }, status: 422 },
  { name: 'metadata nested too deep', method: 'POST', path: base, json: { display_name: 'a', metadata: nested(9) }, status: 422 },
  { name: 'metadata nested 10000 levels', method: 'POST', path: base, headers: json, body: `{"display_name":"a","metadata":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`, status: 422 },
  { name: 'metadata empty key', method: 'POST', path: base, json: { display_name: 'a', metadata: { '': 1 } }, status: 422 },
  { name: 'oauth_application_id a number', method: 'POST', path: base, json: { display_name: 'a', oauth_application_id: 5 }, status: 422 },
  { name: 'oauth_application_id empty', method: 'POST', path: base, json: { display_name: 'a', oauth_application_id: '' }, status: 422 },
  { name: 'oauth_application_id unknown', method: 'POST', path: base, json: { display_name: 'a', oauth_application_id: 'oc_nobody' }, status: 422 },
  { name: 'oauth_application_id an application', method: 'POST', path: base, json: { display_name: 'a', oauth_application_id: '{{app}}' }, status: 422 },
  { name: 'oauth_application_id SQL', method: 'POST', path: base, json: { display_name: 'a', oauth_application_id: "' OR 1=1 --" }, status: 422 },
  { name: 'oauth_application_id too long', method: 'POST', path: base, json: { display_name: 'a', oauth_application_id: `oc_${'a'.repeat(200)}` }, status: 422 },
  { name: 'create with a read token', method: 'POST', path: base, headers: { authorization: 'Bearer {{read}}' }, json: { display_name: 'a' }, status: 403 },
  { name: 'create with a publishable key', method: 'POST', path: base, headers: { authorization: null, 'x-publishable-key': '{{pk}}' }, json: { display_name: 'a' }, status: 403, code: 'publishable_key_not_allowed' },
  { name: 'list with a publishable key', path: base, headers: { authorization: null, 'x-publishable-key': '{{pk}}' }, status: 403 },
  { name: 'list without credentials', path: base, headers: { authorization: null }, status: 401 },
  { name: 'list limit 0', path: `${base}?limit=0`, status: 400 },
  { name: 'list limit 101', path: `${base}?limit=101`, status: 400 },
  { name: 'list limit negative', path: `${base}?limit=-1`, status: 400 },
  { name: 'list cursor forged', path: `${base}?cursor=djE6OTk5OTk5OTk5OTk5OTk5OTk5`, status: 400 },
  { name: 'list status unknown', path: `${base}?status=deleted`, status: 400 },
  { name: 'get unknown id', path: `${base}/agt_dev_nobody`, status: 404 },
  { name: 'get with traversal', path: `${base}/..%2F..%2Fapi_tokens`, status: 404 },
  { name: 'get with a very long id', path: `${base}/${'a'.repeat(5000)}`, status: 404 },
  { name: 'suspend unknown id', method: 'POST', path: `${base}/agt_dev_nobody/suspend`, status: 404 },
  { name: 'unknown action', method: 'POST', path: `${base}/agt_dev_nobody/delete`, status: 404 },
  { name: 'DELETE is not a route', method: 'DELETE', path: `${base}/agt_dev_nobody`, status: [404, 405] },
  { name: 'PATCH is not a route', method: 'PATCH', path: `${base}/agt_dev_nobody`, json: { status: 'active' }, status: [404, 405] },
];

describeHostile('hostile requests: agent identities', cases);
