// Malformed and hostile requests to the delegation routes, with a person's token, an agent's token and a grant:
// each gets its 4xx with a message, never a 5xx, and none leaves a record behind.
import { describeHostile, type HostileCase } from '../../hostile-cases.js';
import { agentToken, grant, newAgent, signIn } from './test-support.js';

const person = { authorization: 'Bearer {{person}}' };
const agentAuth = { authorization: 'Bearer {{agent_token}}' };
const json = { 'content-type': 'application/json' };
const valid = (extra: Record<string, unknown> = {}) => ({ delegate_id: '{{agent}}', delegation_grant: { delegation_type: 'ai_agent', delegated_scopes: ['payments:write'], ...extra } });
const action = (extra: Record<string, unknown> = {}) => ({ scope: 'payments:write', action: 'write', description: 'Pay', ...extra });

const cases: HostileCase[] = [
  // Grants
  { name: 'grant: truncated JSON', method: 'POST', path: '/api/v1/delegations', headers: { ...person, ...json }, body: '{"delegate_id":', status: 400 },
  { name: 'grant: JSON array', method: 'POST', path: '/api/v1/delegations', headers: person, json: [], status: 422 },
  { name: 'grant: flat body', method: 'POST', path: '/api/v1/delegations', headers: person, json: { delegate_id: '{{agent}}', delegation_type: 'ai_agent' }, status: 422 },
  { name: 'grant: unknown delegation type', method: 'POST', path: '/api/v1/delegations', headers: person, json: valid({ delegation_type: 'overlord' }), status: 422 },
  { name: 'grant: delegate id of another kind', method: 'POST', path: '/api/v1/delegations', headers: person, json: { ...valid(), delegate_id: 'tp_dev_x' }, status: 422 },
  { name: 'grant: delegate id SQL', method: 'POST', path: '/api/v1/delegations', headers: person, json: { ...valid(), delegate_id: "agt_' OR 1=1 --" }, status: 422 },
  { name: 'grant: scope with spaces', method: 'POST', path: '/api/v1/delegations', headers: person, json: valid({ delegated_scopes: ['a b'] }), status: 422 },
  { name: 'grant: scopes repeated', method: 'POST', path: '/api/v1/delegations', headers: person, json: valid({ delegated_scopes: ['a', 'a'] }), status: 422 },
  { name: 'grant: 51 scopes', method: 'POST', path: '/api/v1/delegations', headers: person, json: valid({ delegated_scopes: Array.from({ length: 51 }, (_, i) => `s${i}`) }), status: 422 },
  { name: 'grant: max_actions_per_day 0', method: 'POST', path: '/api/v1/delegations', headers: person, json: valid({ max_actions_per_day: 0 }), status: 422 },
  { name: 'grant: max_actions_per_day fractional', method: 'POST', path: '/api/v1/delegations', headers: person, json: valid({ max_actions_per_day: 1.5 }), status: 422 },
  { name: 'grant: expires_at not a date', method: 'POST', path: '/api/v1/delegations', headers: person, json: valid({ expires_at: 'tomorrow' }), status: 422 },
  { name: 'grant: expires_at in the past', method: 'POST', path: '/api/v1/delegations', headers: person, json: valid({ expires_at: '2000-01-01T00:00:00Z' }), status: 422 },
  { name: 'grant: unknown bound', method: 'POST', path: '/api/v1/delegations', headers: person, json: valid({ bounds: { spending: 5 } }), status: 422 },
  { name: 'grant: value bound infinite', method: 'POST', path: '/api/v1/delegations', headers: { ...person, ...json }, body: '{"delegate_id":"{{agent}}","delegation_grant":{"delegation_type":"ai_agent","delegated_scopes":["a"],"bounds":{"value":{"max_per_transaction":1e999,"currency":"EUR"}}}}', status: 422 },
  { name: 'grant: value bound lower-case currency', method: 'POST', path: '/api/v1/delegations', headers: person, json: valid({ bounds: { value: { max_per_transaction: 5, currency: 'eur' } } }), status: 422 },
  { name: 'grant: time bound backwards', method: 'POST', path: '/api/v1/delegations', headers: person, json: valid({ bounds: { time: { not_before: '2030-01-02T00:00:00Z', not_after: '2030-01-01T00:00:00Z' } } }), status: 422 },
  { name: 'grant: time bound empty', method: 'POST', path: '/api/v1/delegations', headers: person, json: valid({ bounds: { time: {} } }), status: 422 },
  { name: 'grant: reputation above 100', method: 'POST', path: '/api/v1/delegations', headers: person, json: valid({ bounds: { reputation: { min_trust_score: 101 } } }), status: 422 },
  { name: 'grant: jurisdiction not a country', method: 'POST', path: '/api/v1/delegations', headers: person, json: valid({ bounds: { jurisdiction: { allowed: ['Germany'] } } }), status: 422 },
  { name: 'grant: actions empty', method: 'POST', path: '/api/v1/delegations', headers: person, json: valid({ bounds: { actions: [] } }), status: 422 },
  { name: 'grant: parent id forged', method: 'POST', path: '/api/v1/delegations', headers: person, json: valid({ parent_grant_id: 'dlg_dev_AAAAAAAAAAAAAAAA' }), status: 422 },
  { name: 'grant: by an API token', method: 'POST', path: '/api/v1/delegations', json: valid(), status: 403, code: 'person_token_required' },
  { name: 'grant: by a publishable key', method: 'POST', path: '/api/v1/delegations', headers: { authorization: null, 'x-publishable-key': '{{pk}}' }, json: valid(), status: 403 },
  { name: 'grant: without credentials', method: 'POST', path: '/api/v1/delegations', headers: { authorization: null }, json: valid(), status: 401 },
  { name: 'grant: forged agent token', method: 'POST', path: '/api/v1/delegations', headers: { authorization: 'Bearer ra_agent_forged' }, json: valid(), status: 401, code: 'invalid_token' },
  { name: 'grants: unknown status', path: '/api/v1/delegations?status=lost', headers: person, status: 400 },
  { name: 'grants: unknown role', path: '/api/v1/delegations?role=owner', headers: person, status: 400 },
  { name: 'grants: forged cursor', path: '/api/v1/delegations?cursor=djE6OTk5OTk5OTk5OTk5OTk5OTk5', headers: person, status: 400 },
  { name: 'grant: unknown id', path: '/api/v1/delegations/dlg_dev_AAAAAAAAAAAAAAAA', headers: person, status: 404 },
  { name: 'grant: traversal', path: '/api/v1/delegations/..%2F..%2Fapi_tokens', headers: person, status: 404 },
  { name: 'grant: very long id', path: `/api/v1/delegations/${'d'.repeat(5000)}`, headers: person, status: 404 },
  { name: 'grant: suspend by an API token', method: 'POST', path: '/api/v1/delegations/{{grant}}/suspend', status: 403, code: 'not_principal' },
  { name: 'grant: revoke by the agent', method: 'POST', path: '/api/v1/delegations/{{grant}}/revoke', headers: agentAuth, status: 403, code: 'agent_token_not_allowed' },
  { name: 'grant: header with an API token', path: '/api/v1/delegations', headers: { 'x-delegation-grant-id': '{{grant}}' }, status: 403, code: 'delegation_header_not_allowed' },
  { name: 'grant: header naming an agent grant', path: '/api/v1/me', headers: { ...person, 'x-delegation-grant-id': '{{grant}}' }, status: 403, code: 'not_delegate' },
  { name: 'grant: header garbage', path: '/api/v1/me', headers: { ...person, 'x-delegation-grant-id': '\' OR 1=1' }, status: 403, code: 'not_delegate' },
  // Authority checks
  { name: 'check: by an API token', method: 'POST', path: '/api/v1/authorities/check', json: action(), status: 403, code: 'agent_token_required' },
  { name: 'check: by a person', method: 'POST', path: '/api/v1/authorities/check', headers: person, json: action(), status: 403 },
  { name: 'check: truncated JSON', method: 'POST', path: '/api/v1/authorities/check', headers: { ...agentAuth, ...json }, body: '{"scope":', status: 400 },
  { name: 'check: unknown action', method: 'POST', path: '/api/v1/authorities/check', headers: agentAuth, json: action({ action: 'execute' }), status: 422 },
  { name: 'check: value without currency', method: 'POST', path: '/api/v1/authorities/check', headers: agentAuth, json: action({ value: 5 }), status: 422 },
  { name: 'check: currency without value', method: 'POST', path: '/api/v1/authorities/check', headers: agentAuth, json: action({ currency: 'EUR' }), status: 422 },
  { name: 'check: negative value', method: 'POST', path: '/api/v1/authorities/check', headers: agentAuth, json: action({ value: -5, currency: 'EUR' }), status: 422 },
  { name: 'check: value a string', method: 'POST', path: '/api/v1/authorities/check', headers: agentAuth, json: action({ value: '5', currency: 'EUR' }), status: 422 },
  { name: 'check: no description', method: 'POST', path: '/api/v1/authorities/check', headers: agentAuth, json: { scope: 'payments:write', action: 'write' }, status: 422 },
  { name: 'check: description too long', method: 'POST', path: '/api/v1/authorities/check', headers: agentAuth, json: action({ description: 'd'.repeat(501) }), status: 422 },
  { name: 'check: jurisdiction lower case', method: 'POST', path: '/api/v1/authorities/check', headers: agentAuth, json: action({ jurisdiction: 'de' }), status: 422 },
  { name: 'check: unknown field', method: 'POST', path: '/api/v1/authorities/check', headers: agentAuth, json: action({ approved: true }), status: 422 },
  { name: 'check: forged escalation id', method: 'POST', path: '/api/v1/authorities/check', headers: agentAuth, json: action({ escalation_id: 'esc_AAAAAAAAAAAAAAAAAAAA' }), status: 404 },
  { name: 'check: escalation id SQL', method: 'POST', path: '/api/v1/authorities/check', headers: agentAuth, json: action({ escalation_id: "esc_' OR 1=1" }), status: 422 },
  // Escalations
  { name: 'escalations: unknown status', path: '/api/v1/oap/escalations?status=maybe', headers: agentAuth, status: 400 },
  { name: 'escalations: unknown trigger', path: '/api/v1/oap/escalations?trigger=sequence', headers: agentAuth, status: 400 },
  { name: 'escalation: unknown id', path: '/api/v1/oap/escalations/esc_AAAAAAAAAAAAAAAAAAAA', headers: agentAuth, status: 404 },
  { name: 'escalation: very long id', path: `/api/v1/oap/escalations/${'e'.repeat(5000)}`, status: 404 },
  { name: 'escalation: request by a person', method: 'POST', path: '/api/v1/oap/escalations', headers: person, json: action(), status: 403 },
  { name: 'escalation: request with a bad body', method: 'POST', path: '/api/v1/oap/escalations', headers: agentAuth, json: action({ value: 'lots', currency: 'EUR' }), status: 422 },
  // Trust scores
  { name: 'trust score: unknown agent', path: '/api/v1/agent_identities/agt_dev_nobody/trust_score', status: 404 },
  { name: 'trust score: by the agent', path: '/api/v1/agent_identities/{{agent}}/trust_score', headers: agentAuth, status: 403 },
];

describeHostile('hostile requests: delegations, authority checks, escalations', cases, async (server) => {
  const ada = await signIn(server, 'ada@example.com');
  const agent = await newAgent(server, 'Hostile agent');
  const g = await grant(server, ada, agent.id, { delegation_type: 'ai_agent', delegated_scopes: ['payments:write'] });
  return { person: ada.token, agent: agent.id, grant: g.id, agent_token: await agentToken(server, g.id, agent) };
});
