import { breachScopeEnvelope, evidencePackage, type BreachScope, type BreachScopeRequest, type EvidencePackage } from '@svc/schemas';
import type { SvcConnection, WriteOptions } from '../lib/connection.js';

const BASE = '/api/v1/breach_scope';

/**
 * Reports what a leaked credential could have touched in a window (`POST /api/v1/breach_scope`, an API token holding
 * `admin`): subjects affected, records, events by type and scopes, with how fully the credential type's activity is
 * recorded and the caveats. Counts and categories only; the identifier comes back only as a SHA-256 fingerprint.
 *
 * @example
 * const { subjects_affected, coverage, caveats } = await svc.breachScope.report({
 *   credential_type: 'api_token', credential_id: 'api_token_…', window: { from: '2026-11-01T00:00:00Z' },
 * });
 */
export function reportBreachScope(
  connection: SvcConnection<'bearer'>,
  request: BreachScopeRequest,
  options?: WriteOptions,
): Promise<BreachScope> {
  return connection
    .request({ method: 'POST', path: BASE, body: request, schema: breachScopeEnvelope }, options)
    .then((body) => body.breach_scope);
}

/** Draws the breach scope as a signed evidence package (BreachScopeEvidence, `POST /api/v1/breach_scope/evidence_package`). */
export function getBreachScopeEvidence(
  connection: SvcConnection<'bearer'>,
  request: BreachScopeRequest,
  options?: WriteOptions,
): Promise<EvidencePackage> {
  return connection.request({ method: 'POST', path: `${BASE}/evidence_package`, body: request, schema: evidencePackage }, options);
}

/** `svc.breachScope`. */
export interface BreachScopeResource {
  /** Reports a credential's breach scope; see {@link reportBreachScope}. */
  report(request: BreachScopeRequest, options?: WriteOptions): Promise<BreachScope>;
  /** Draws it as a signed evidence package; see {@link getBreachScopeEvidence}. */
  evidencePackage(request: BreachScopeRequest, options?: WriteOptions): Promise<EvidencePackage>;
}

/** Binds the breach scope functions to a connection. */
export function breachScopeResource(connection: SvcConnection<'bearer'>): BreachScopeResource {
  return {
    report: (request, options) => reportBreachScope(connection, request, options),
    evidencePackage: (request, options) => getBreachScopeEvidence(connection, request, options),
  };
}
