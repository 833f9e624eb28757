// The offline check of an evidence package, loaded on the first Verify only (it brings jose and @svc/client's
// verifier): `verifyEvidencePackage` against the service's published keys, its failure kept as which check failed.
// Nothing about the package is sent anywhere.
import { SvcEvidenceVerificationError, verifyEvidencePackage } from '@svc/client';
import type { EvidenceVerdict } from './events.js';

/** The verdict on `evidence` (the service's answer, its JSON text, or a compact JWS) against `jwks`. */
export async function checkEvidence(evidence: unknown, jwks: { keys: object[] }): Promise<EvidenceVerdict> {
  try {
    const { evidence_package_id, format_type, kid, payload } = await verifyEvidencePackage(evidence, jwks as never);
    const drawn_at = typeof payload.drawn_at === 'string' ? payload.drawn_at : null;
    return { verified: true, evidence_package_id, format_type, kid, drawn_at };
  } catch (error) {
    if (error instanceof SvcEvidenceVerificationError) return { verified: false, check: error.check, message: error.message };
    return { verified: false, check: 'format', message: String(error) };
  }
}
