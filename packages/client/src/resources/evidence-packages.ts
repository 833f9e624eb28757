import { evidencePackageList, type EvidencePackageSummary } from '@svc/schemas';
import type { CallOptions, SvcConnection } from '../lib/connection.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';

/**
 * Lists the evidence packages the answering cell drew for the account, newest first (`GET /api/v1/evidence_packages`,
 * an API token holding `read`): each one's id, format type, when it was drawn, its signing `kid` and the SHA-256 of
 * its signed payload. The package itself, exactly as drawn, is `GET /api/v1/evidence_packages/{id}`; check it offline
 * with `verifyEvidencePackage`.
 */
export function listEvidencePackages(
  connection: SvcConnection<'bearer'>,
  query?: ListQuery,
  options?: CallOptions,
): SvcList<EvidencePackageSummary> {
  return listEndpoint(connection, '/api/v1/evidence_packages', evidencePackageList, 'evidence_packages', query, options);
}
