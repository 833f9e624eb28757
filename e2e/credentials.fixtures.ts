// A consent credential an organisation issues a person, and what a verifier does with a presentation of it, shared
// by the Chromium walk (./trust-center.spec.ts) and the other engines (./engines/): no Playwright here. The
// person's consent is a decision of the sandbox's standard flow, walked through the hosted page's participant API
// (as the page itself calls it); the organisation then issues the credential with its API token.
import { createClient } from '@svc/client';
import { disclosableClaims } from '@svc/client/credentials';
import type { Credential } from '@svc/schemas';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';

/** Where the service is and the organisation's API token (the sandbox's). */
export interface Issuer {
  baseUrl: string;
  apiToken: string;
  /** The sandbox's standard flow (newsletter, analytics, service, invoices). */
  flowId: string;
}

/** One participant step of a decision's hosted page, same-origin as the page sends it; answers its JSON. */
async function step(baseUrl: string, token: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}/decisions/${token}/transitions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(baseUrl).origin },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`${String(body.action)}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * The person `email` consents to the newsletter in a decision of the organisation's standard flow, and the
 * organisation issues them a `ConsentCredential` of it (`POST /api/v1/credentials`).
 */
export async function issueConsentCredential(issuer: Issuer, email: string): Promise<Credential> {
  const org = createClient({ baseUrl: issuer.baseUrl, apiToken: issuer.apiToken });
  const decision = await org.decisions.create({ kind: 'consent', subject_ref: issuer.flowId, delivery_mode: 'popup' });
  const token = decision.session_token;
  await step(issuer.baseUrl, token, { action: 'begin' });
  const signedIn = await step(issuer.baseUrl, token, { action: 'sign_in', email });
  await step(issuer.baseUrl, token, { action: 'verify', code: signedIn.sandbox_code });
  await step(issuer.baseUrl, token, { action: 'agree', granted: ['newsletter'], objected: [] });
  const fulfilled = await org.decisions.get(token);
  if (!fulfilled.consent_transaction_id) throw new Error(`the decision is ${fulfilled.status}, not fulfilled`);
  return org.credentials.create({ consent_transaction_id: fulfilled.consent_transaction_id, credential_type: 'ConsentCredential' });
}

/** What a verifier learns of a presentation. */
export interface Checked {
  /** The selectively disclosed claims' paths it carries, sorted (`email`, `purposes.newsletter`). */
  disclosed: string[];
  /** Whether the issuer's signature verifies against the service's published keys (`/.well-known/jwks.json`). */
  signedByService: boolean;
  /** The service's verifier (`POST /api/v1/presentations`): valid, and the claims it reads. */
  verification: { valid: boolean; revoked: boolean; claims: Record<string, unknown>; undisclosed: number };
}

/**
 * Checks `presentation` as a verifier would: its disclosures, the issuer's signature against the service's JWKS,
 * and the service's verifier endpoint (called with the organisation's API token).
 */
export async function checkPresentation(issuer: Issuer, presentation: string): Promise<Checked> {
  const jwks = (await (await fetch(`${issuer.baseUrl}/.well-known/jwks.json`)).json()) as JSONWebKeySet;
  let signedByService = false;
  try {
    await jwtVerify(presentation.split('~')[0]!, createLocalJWKSet(jwks));
    signedByService = true;
  } catch {
    // Answered as false: the test says which check failed.
  }
  const verified = await createClient({ baseUrl: issuer.baseUrl, apiToken: issuer.apiToken }).presentations.verify({ presentation });
  return {
    disclosed: (await disclosableClaims(presentation)).sort(),
    signedByService,
    verification: {
      valid: verified.valid,
      revoked: verified.revoked,
      claims: verified.disclosed_claims,
      undisclosed: verified.undisclosed_count,
    },
  };
}
