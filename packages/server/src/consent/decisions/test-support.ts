// Helpers for the decisions tests: create decisions and walk them through the participant API over HTTP.
import assert from 'node:assert/strict';
import type { Decision } from '@svc/schemas';
import type { TransitionRequest, TransitionResult } from './participant-types.js';
import type { TestServer } from '../../testing.js';

/** Creates a decision through the API (sandbox admin token unless `headers` say otherwise); asserts 201. */
export async function createDecision(
  server: TestServer,
  body: Record<string, unknown>,
  headers?: Record<string, string>,
): Promise<Decision> {
  const res = await server.api('/api/v1/decisions', { method: 'POST', json: body, ...(headers ? { headers } : {}) });
  const json = (await res.json()) as { decision: Decision };
  assert.equal(res.status, 201, JSON.stringify(json));
  return json.decision;
}

/** A consent decision on the sandbox's standard demo flow, embedded on the server's own (allowed) origin. */
export function createConsent(server: TestServer, overrides: Record<string, unknown> = {}): Promise<Decision> {
  return createDecision(server, {
    kind: 'consent',
    subject_ref: server.sandbox.flow_id,
    delivery_mode: 'embed',
    embed_origin: new URL(server.url).origin,
    ...overrides,
  });
}

/** Calls the participant API as the hosted page does (same-origin JSON). */
export function step(server: TestServer, token: string, body: TransitionRequest | Record<string, unknown>): Promise<Response> {
  return fetch(`${server.url}/decisions/${token}/transitions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(server.url).origin },
    body: JSON.stringify(body),
  });
}

/** One participant step that must succeed. */
export async function ok(server: TestServer, token: string, body: TransitionRequest): Promise<TransitionResult> {
  const res = await step(server, token, body);
  const json = (await res.json()) as TransitionResult;
  assert.equal(res.status, 200, `${body.action}: ${JSON.stringify(json)}`);
  return json;
}

/** Walks the standard path (begin, sign in, verify) up to the review screen and returns the transitions seen. */
export async function toReview(server: TestServer, token: string, email = 'ada@example.com'): Promise<TransitionResult[]> {
  const begun = await ok(server, token, { action: 'begin' });
  const signedIn = await ok(server, token, { action: 'sign_in', email });
  assert.ok(signedIn.sandbox_code, 'the sandbox shows the sign-in code');
  const verified = await ok(server, token, { action: 'verify', code: signedIn.sandbox_code });
  return [begun, signedIn, verified];
}

/** Completes the standard path with `granted` purposes; returns the completion (exchange token). */
export async function grantStandard(server: TestServer, token: string, granted: string[] = ['newsletter']) {
  await toReview(server, token);
  const done = await ok(server, token, { action: 'agree', granted, objected: [] });
  assert.ok(done.completion);
  return done.completion;
}

/** Exchanges an exchange token through the API. */
export function exchange(server: TestServer, token: string, exchangeToken: string, base = '/api/v1/decisions'): Promise<Response> {
  return server.api(`${base}/${token}/exchange`, { method: 'POST', json: { exchange_token: exchangeToken } });
}

/** Verifies a consent token through the API. */
export function verify(server: TestServer, consentToken: string): Promise<Response> {
  return server.api('/api/v1/consent_tokens/verify', { method: 'POST', json: { consent_token: consentToken } });
}

/** Registers an allowed origin for the sandbox application. */
export async function allowOrigin(server: TestServer, origin: string, applicationId = server.sandbox.application_id): Promise<void> {
  const res = await server.api(`/api/v1/applications/${applicationId}/allowed_origins`, {
    method: 'POST',
    json: { allowed_origin: { origin } },
  });
  assert.ok(res.status === 201 || res.status === 200, `allow ${origin}: ${res.status} ${await res.text()}`);
}

/**
 * Proves on the page that the addressee is answering, as they would without a session: the code sent to their
 * address (the sandbox shows it on the page), then `verify`. Answers the code's transition result.
 */
export async function proveAddressee(server: TestServer, token: string): Promise<TransitionResult> {
  const sent = await ok(server, token, { action: 'send_code' });
  assert.ok(sent.sandbox_code, 'the sandbox shows the code sent to the addressee');
  return ok(server, token, { action: 'verify', code: sent.sandbox_code });
}
