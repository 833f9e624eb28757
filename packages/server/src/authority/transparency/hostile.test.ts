// Malformed and hostile requests to the public discovery routes and to manifest pinning: each gets its 4xx with a
// message, never a 5xx, and never another account's data.
import { describeHostile, type HostileCase } from '../../hostile-cases.js';
import { newAgent } from '../delegations/test-support.js';

const json = { 'content-type': 'application/json' };
const pin = '/api/v1/agent_identities/{{agent}}/manifests';
const publicCall = { authorization: null };

const cases: HostileCase[] = [
  // Transparency records: public, so no credential is needed; unknown or malformed ids are 404.
  {
    name: 'controller record of an unknown application',
    path: '/.well-known/transparency/tp_dev_nobody',
    headers: publicCall,
    status: 404,
  },
  {
    name: 'controller record with traversal',
    path: '/.well-known/transparency/..%2F..%2Fapi%2Fv1%2Fapi_tokens',
    headers: publicCall,
    status: 404,
  },
  { name: 'controller record with SQL', path: "/.well-known/transparency/'%20OR%201=1%20--", headers: publicCall, status: 404 },
  {
    name: 'controller record with a very long id',
    path: `/.well-known/transparency/${'a'.repeat(5000)}`,
    headers: publicCall,
    status: 404,
  },
  { name: 'controller record with a NUL', path: '/.well-known/transparency/tp_dev_%00', headers: publicCall, status: 404 },
  { name: 'controller record of an API token id', path: '/.well-known/transparency/{{write}}', headers: publicCall, status: 404 },
  { name: 'transparency root', path: '/.well-known/transparency/', headers: publicCall, status: 404 },
  { name: 'agent record of an unknown agent', path: '/.well-known/transparency/agents/agt_dev_nobody', headers: publicCall, status: 404 },
  {
    name: 'agent record with a very long id',
    path: `/.well-known/transparency/agents/${'a'.repeat(5000)}`,
    headers: publicCall,
    status: 404,
  },
  { name: 'agent record of an application id', path: '/.well-known/transparency/agents/{{app}}', headers: publicCall, status: 404 },
  {
    name: 'manifest of an unknown agent',
    path: '/.well-known/transparency/agents/agt_dev_nobody/manifests/1',
    headers: publicCall,
    status: 404,
  },
  {
    name: 'manifest version not pinned',
    path: '/.well-known/transparency/agents/{{agent}}/manifests/99',
    headers: publicCall,
    status: 404,
  },
  { name: 'manifest version 0', path: '/.well-known/transparency/agents/{{agent}}/manifests/0', headers: publicCall, status: 404 },
  { name: 'manifest version negative', path: '/.well-known/transparency/agents/{{agent}}/manifests/-1', headers: publicCall, status: 404 },
  {
    name: 'manifest version with a leading zero',
    path: '/.well-known/transparency/agents/{{agent}}/manifests/01',
    headers: publicCall,
    status: 404,
  },
  { name: 'manifest version a float', path: '/.well-known/transparency/agents/{{agent}}/manifests/1.5', headers: publicCall, status: 404 },
  {
    name: 'manifest version in exponent form',
    path: '/.well-known/transparency/agents/{{agent}}/manifests/1e3',
    headers: publicCall,
    status: 404,
  },
  {
    name: 'manifest version huge',
    path: '/.well-known/transparency/agents/{{agent}}/manifests/99999999999999999999999',
    headers: publicCall,
    status: 404,
  },
  {
    name: 'manifest version a word',
    path: '/.well-known/transparency/agents/{{agent}}/manifests/latest',
    headers: publicCall,
    status: 404,
  },
  {
    name: 'POST to a transparency record',
    method: 'POST',
    path: '/.well-known/transparency/{{app}}',
    headers: { ...publicCall, ...json },
    body: '{}',
    status: [404, 405],
  },
  {
    name: 'DELETE of a manifest version',
    method: 'DELETE',
    path: '/.well-known/transparency/agents/{{agent}}/manifests/1',
    headers: publicCall,
    status: [404, 405],
  },
  {
    name: 'credential attestation of an unknown agent',
    path: '/.well-known/oap-credentials/agt_dev_nobody',
    headers: publicCall,
    status: 404,
  },
  {
    name: 'credential attestation with a very long id',
    path: `/.well-known/oap-credentials/${'x'.repeat(5000)}`,
    headers: publicCall,
    status: 404,
  },
  {
    name: 'credential attestation of an OAuth client id',
    path: '/.well-known/oap-credentials/{{client}}',
    headers: publicCall,
    status: 404,
  },
  {
    name: 'PUT to the revocation list',
    method: 'PUT',
    path: '/.well-known/oap-revocation-list',
    headers: { ...publicCall, ...json },
    body: '{"agent_identities":[]}',
    status: [404, 405],
  },
  {
    name: 'POST to the api-catalog',
    method: 'POST',
    path: '/.well-known/api-catalog',
    headers: { ...publicCall, ...json },
    body: '{}',
    status: [404, 405],
  },

  // Pinning: the account's API token with write, a strict body of scopes.
  { name: 'pin without credentials', method: 'POST', path: pin, headers: publicCall, json: { delegated_scopes: ['a:read'] }, status: 401 },
  {
    name: 'pin with a read token',
    method: 'POST',
    path: pin,
    headers: { authorization: 'Bearer {{read}}' },
    json: { delegated_scopes: ['a:read'] },
    status: 403,
  },
  {
    name: 'pin with a publishable key',
    method: 'POST',
    path: pin,
    headers: { authorization: null, 'x-publishable-key': '{{pk}}' },
    json: { delegated_scopes: ['a:read'] },
    status: 403,
  },
  {
    name: 'pin for an unknown agent',
    method: 'POST',
    path: '/api/v1/agent_identities/agt_dev_nobody/manifests',
    json: { delegated_scopes: ['a:read'] },
    status: 404,
  },
  {
    name: 'pin with traversal',
    method: 'POST',
    path: '/api/v1/agent_identities/..%2F..%2Fapi_tokens/manifests',
    json: { delegated_scopes: ['a:read'] },
    status: 404,
  },
  { name: 'pin truncated JSON', method: 'POST', path: pin, headers: json, body: '{"delegated_scopes":', status: 400 },
  {
    name: 'pin form body',
    method: 'POST',
    path: pin,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'delegated_scopes=a',
    status: 400,
  },
  { name: 'pin empty body', method: 'POST', path: pin, headers: json, body: '', status: 400 },
  { name: 'pin JSON array', method: 'POST', path: pin, json: ['a:read'], status: 422 },
  { name: 'pin without scopes', method: 'POST', path: pin, json: {}, status: 422 },
  { name: 'pin with no scope', method: 'POST', path: pin, json: { delegated_scopes: [] }, status: 422 },
  { name: 'pin with a repeated scope', method: 'POST', path: pin, json: { delegated_scopes: ['a:read', 'a:read'] }, status: 422 },
  {
    name: 'pin with 51 scopes',
    method: 'POST',
    path: pin,
    json: { delegated_scopes: Array.from({ length: 51 }, (_, i) => `s${i}:read`) },
    status: 422,
  },
  { name: 'pin with a scope of spaces', method: 'POST', path: pin, json: { delegated_scopes: ['a read'] }, status: 422 },
  { name: 'pin with a scope too long', method: 'POST', path: pin, json: { delegated_scopes: [`a:${'r'.repeat(200)}`] }, status: 422 },
  { name: 'pin with a number scope', method: 'POST', path: pin, json: { delegated_scopes: [7] }, status: 422 },
  { name: 'pin with scopes as a string', method: 'POST', path: pin, json: { delegated_scopes: 'a:read' }, status: 422 },
  {
    name: 'pin with the manifest itself',
    method: 'POST',
    path: pin,
    json: { delegated_scopes: ['a:read'], capabilities: ['everything'] },
    status: 422,
  },
  {
    name: 'pin with a digest of its own',
    method: 'POST',
    path: pin,
    json: { delegated_scopes: ['a:read'], digest: 'sha256:00' },
    status: 422,
  },
  { name: 'pin enveloped', method: 'POST', path: pin, json: { capability_manifest: { delegated_scopes: ['a:read'] } }, status: 422 },
  {
    name: 'pin huge body',
    method: 'POST',
    path: pin,
    headers: json,
    body: `{"delegated_scopes":["${'a'.repeat(2_000_000)}"]}`,
    status: 413,
  },
  { name: 'list without credentials', path: pin, headers: publicCall, status: 401 },
  { name: 'list limit 0', path: `${pin}?limit=0`, status: 400 },
  { name: 'list cursor forged', path: `${pin}?cursor=djE6OTk5OTk5OTk5OTk5OTk5OTk5`, status: 400 },
  { name: 'list for an unknown agent', path: '/api/v1/agent_identities/agt_dev_nobody/manifests', status: 404 },
];

describeHostile('hostile requests: transparency and discovery', cases, async (server) => {
  const agent = await newAgent(server, 'Hostile transparency agent', { operator_name: 'Example' });
  await server.api(`/api/v1/agent_identities/${agent.id}/manifests`, { method: 'POST', json: { delegated_scopes: ['a:read'] } });
  return { agent: agent.id, client: agent.clientId };
});
