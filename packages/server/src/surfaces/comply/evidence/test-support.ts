// What the evidence tests share (transfer register, residency posture, breach scope): calls with any headers or
// body, a new API token, and the answering cell's JWKS.
import assert from 'node:assert/strict';
import type { JSONWebKeySet } from 'jose';
import type { TestServer } from '../../../testing.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** One call (GET unless it carries a body), with the sandbox admin token unless `headers` names another credential. */
export async function call(
  server: TestServer,
  path: string,
  init: { method?: string; json?: unknown; body?: string; headers?: Record<string, string> } = {},
) {
  const res = await server.api(path, {
    method: init.method ?? (init.json === undefined && init.body === undefined ? 'GET' : 'POST'),
    ...(init.headers ? { headers: init.headers } : {}),
    ...(init.json === undefined ? {} : { json: init.json }),
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  const text = await res.text();
  return { status: res.status, text, body: (text ? JSON.parse(text) : {}) as Json };
}

/** A new API token of the sandbox account with `permissions`: its id and its value. */
export async function newToken(server: TestServer, permissions: string[]): Promise<{ id: string; token: string }> {
  const res = await call(server, '/api/v1/api_tokens', { json: { api_token: { name: permissions.join('+'), permissions } } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { id: res.body.api_token.id, token: res.body.api_token.token };
}

/** The cell's public JWKS, which verifies its evidence packages offline. */
export async function jwksOf(server: TestServer): Promise<JSONWebKeySet> {
  const res = await fetch(`${server.url}/.well-known/jwks.json`);
  assert.equal(res.status, 200);
  return (await res.json()) as JSONWebKeySet;
}
