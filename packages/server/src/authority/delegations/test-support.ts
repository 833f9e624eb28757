// What the delegation tests share: a person's token, an agent operated through its own OAuth client, a grant, the
// token exchange, calls with any credential, and the principal's answer to an escalation on the hosted page's API.
import assert from 'node:assert/strict';
import { DELEGATION_GRANT_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT_TYPE } from '@svc/schemas';
import { ok, proveAddressee } from '../../consent/decisions/test-support.js';
import { personAccessToken } from '../../platform/oauth/test-support.js';
import type { TestServer } from '../../testing.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

/** One call with `token` as bearer (or the sandbox admin token), answering status, body and headers. */
export async function call(
  server: TestServer,
  path: string,
  init: { token?: string; method?: string; json?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...init.headers };
  const res = await server.api(path, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers,
    ...(init.json === undefined ? {} : { json: init.json }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json, headers: res.headers };
}

/** An agent with its own confidential OAuth client (client_secret_basic) on the sandbox application. */
export interface Agent {
  id: string;
  clientId: string;
  clientSecret: string;
}

/** Registers an OAuth client and an agent identity linked to it (`metadata` as the operator declares). */
export async function newAgent(server: TestServer, name = 'Travel agent', metadata: Json = {}): Promise<Agent> {
  const client = await call(server, `/api/v1/applications/${server.sandbox.application_id}/oauth_clients`, {
    json: {
      oauth_client: {
        name: `${name} runtime`,
        client_type: 'confidential',
        redirect_uris: ['https://agent.example/cb'],
        grant_types: ['urn:ietf:params:oauth:grant-type:token-exchange'],
      },
    },
  });
  assert.equal(client.status, 201, JSON.stringify(client.body));
  const agent = await call(server, '/api/v1/agent_identities', {
    json: { display_name: name, agent_type: 'autonomous', metadata, oauth_application_id: client.body.oauth_client.client_id },
  });
  assert.equal(agent.status, 201, JSON.stringify(agent.body));
  return {
    id: agent.body.agent_identity.id,
    clientId: client.body.oauth_client.client_id,
    clientSecret: client.body.oauth_client.client_secret,
  };
}

/** A signed-in person: their access token and person id. */
export interface Person {
  token: string;
  id: string;
}

export async function signIn(server: TestServer, email: string): Promise<Person> {
  const token = await personAccessToken(server, email);
  const me = await call(server, '/api/v1/me', { token });
  assert.equal(me.status, 200, JSON.stringify(me.body));
  return { token, id: me.body.person.id };
}

/** Makes a grant as `person` (asserts 201). */
export async function grant(server: TestServer, person: Person, delegateId: string, body: Json): Promise<Json> {
  const res = await call(server, '/api/v1/delegations', { token: person.token, json: { delegate_id: delegateId, delegation_grant: body } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.delegation_grant;
}

/** `POST /oauth/token/exchange` for `grantId`, authenticated as `client` (client_secret_basic). */
export async function exchangeGrant(
  server: TestServer,
  grantId: string,
  client: Pick<Agent, 'clientId' | 'clientSecret'>,
  extra: Record<string, string> = {},
) {
  const res = await fetch(`${server.url}/oauth/token/exchange`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: TOKEN_EXCHANGE_GRANT_TYPE,
      subject_token: grantId,
      subject_token_type: DELEGATION_GRANT_TOKEN_TYPE,
      ...extra,
    }).toString(),
  });
  return { status: res.status, body: (await res.json()) as Json, headers: res.headers };
}

/** Exchanges and asserts success: the agent token. */
export async function agentToken(server: TestServer, grantId: string, agent: Agent, extra: Record<string, string> = {}): Promise<string> {
  const res = await exchangeGrant(server, grantId, agent, extra);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.access_token as string;
}

/** An authority check by the agent. */
export function check(server: TestServer, token: string, action: Json) {
  return call(server, '/api/v1/authorities/check', { token, json: { description: 'An action', ...action } });
}

/**
 * The principal's answer to an escalation, through the hosted page's API of its decision (read with `reader`),
 * proving who they are first (an escalation's approval is addressed to its principal): the code sent to their address.
 */
export async function answer(server: TestServer, escalationId: string, reader: string, action: 'approve' | 'deny' | { counter: string }) {
  const esc = await call(server, `/api/v1/oap/escalations/${escalationId}`, { token: reader });
  assert.equal(esc.status, 200, JSON.stringify(esc.body));
  const token = esc.body.escalation.decision.session_token as string;
  await proveAddressee(server, token);
  await ok(server, token, typeof action === 'string' ? { action } : { action: 'counter', proposal: action.counter });
  return token;
}

/** The principal approves an escalation on its hosted decision. */
export function approveAsPrincipal(server: TestServer, escalationId: string, principal: Person): Promise<string> {
  return answer(server, escalationId, principal.token, 'approve');
}
