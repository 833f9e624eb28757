import { consentVerification, type ConsentVerification, type VerifyConsentTokenRequest } from '@svc/schemas';
import type { SvcConnection, WriteOptions } from '../lib/connection.js';

/**
 * Verifies a consent token server-side (`POST /api/v1/consent_tokens/verify`). A token verifies once: the
 * first call reports `fulfilled` and consumes it; later calls, or calls after its 5 minutes, report `expired`.
 */
export function verifyConsentToken(
  connection: SvcConnection<'bearer'>,
  consentToken: string,
  options?: WriteOptions,
): Promise<ConsentVerification> {
  return connection.request(
    {
      method: 'POST',
      path: '/api/v1/consent_tokens/verify',
      body: { consent_token: consentToken } satisfies VerifyConsentTokenRequest,
      schema: consentVerification,
    },
    options,
  );
}

/** Consent tokens. */
export interface ConsentTokensResource {
  /** Verifies (and consumes) a consent token; see {@link verifyConsentToken}. */
  verify(consentToken: string, options?: WriteOptions): Promise<ConsentVerification>;
}

/** Binds the consent token functions to a connection. */
export function consentTokensResource(connection: SvcConnection<'bearer'>): ConsentTokensResource {
  return { verify: (consentToken, options) => verifyConsentToken(connection, consentToken, options) };
}
