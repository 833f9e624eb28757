// Helpers for the credential tests: a fulfilled consent in a cell, and issuing a credential of it over HTTP.
import assert from 'node:assert/strict';
import type { Credential, Decision } from '@svc/schemas';
import { createConsent, ok, toReview } from '../decisions/test-support.js';
import type { TestServer } from '../../testing.js';

/** A consent decision of the sandbox's standard flow, completed with `newsletter` granted; its consent transaction id. */
export async function fulfilledConsent(server: TestServer, email = 'ada@example.com'): Promise<string> {
  const decision = await createConsent(server);
  await toReview(server, decision.session_token, email);
  await ok(server, decision.session_token, { action: 'agree', granted: ['newsletter'], objected: [] });
  const res = await server.api(`/api/v1/decisions/${decision.session_token}`);
  const read = (await res.json()) as { decision: Decision };
  assert.equal(res.status, 200, JSON.stringify(read));
  assert.equal(read.decision.status, 'fulfilled');
  assert.ok(read.decision.consent_transaction_id);
  return read.decision.consent_transaction_id;
}

/** Issues a credential through the API; asserts 201. */
export async function issue(server: TestServer, body: Record<string, unknown>): Promise<Credential> {
  const res = await server.api('/api/v1/credentials', { method: 'POST', json: body });
  const json = (await res.json()) as { credential: Credential };
  assert.equal(res.status, 201, JSON.stringify(json));
  return json.credential;
}

/** Verifies a presentation through the API of `server`. */
export function verify(server: TestServer, body: Record<string, unknown>): Promise<Response> {
  return server.api('/api/v1/presentations', { method: 'POST', json: body });
}
