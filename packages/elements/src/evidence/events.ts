// The events of `<svc-evidence>`: `svc-evidence-change` (the service drew a new evidence package) and its own
// `svc-error` (a list could not be read, or drawing or reading a package failed).
import type { EvidencePackage, EvidencePackageSummary, ResidencyCountry, TransferEntry } from '@svc/schemas';
import type { PersonListErrorDetail } from '../internal/person-list.js';

/** What `<svc-evidence>` shows: `evidence_packages` (default), `transfer_register` or `residency_posture`. */
export type EvidenceView = 'evidence_packages' | 'transfer_register' | 'residency_posture';

/** A package drawn before, as `GET /api/v1/evidence_packages` lists it (`EvidencePackageSummary` of `@svc/schemas`). */
export type EvidencePackageRow = EvidencePackageSummary;

/** One transfer of the register, as `GET /api/v1/transfer_register` answers it (`TransferEntry` of `@svc/schemas`). */
export type TransferRow = TransferEntry;

/** One country of the residency posture (`ResidencyCountry` of `@svc/schemas`), keyed in the list by `id`, its country. */
export type ResidencyCountryRow = ResidencyCountry & { id: string };

/** A package as the service answers it: `{evidence_package_id, format_type, package}` (a compact JWS). */
export type EvidencePackageAnswer = EvidencePackage;

/**
 * What Verify (or "Check a package file") found: `verified` with what was signed, or not, with `check` saying which
 * check failed (`format`, `key`, `signature`, `invalid`, as `@svc/client`'s `SvcEvidenceVerificationError`; `keys`
 * when the service's published keys could not be read; `file` when the file could not be read).
 */
export type EvidenceVerdict =
  | { verified: true; evidence_package_id: string; format_type: string; kid: string; drawn_at: string | null }
  | { verified: false; check: 'format' | 'key' | 'signature' | 'invalid' | 'keys' | 'file'; message: string };

/** Detail of `svc-evidence-change`: the package the service drew, by id and format type (never the package). */
export interface SvcEvidenceChangeDetail {
  evidence_package_id: string;
  format_type: string;
  action: 'draw';
}

/** Fired (bubbles, composed) once the service drew a new evidence package. */
export type SvcEvidenceChangeEvent = CustomEvent<SvcEvidenceChangeDetail>;

/** Detail of an `svc-error` from `<svc-evidence>` itself: `message`, `fatal` and `recoverable_via`. */
export interface EvidenceErrorDetail extends PersonListErrorDetail {
  /** `unauthorized` (the token was refused), `forbidden` (the role may not), `not_found`, `invalid`, `network`, `http` or `invalid_configuration`. */
  code: 'unauthorized' | 'forbidden' | 'not_found' | 'invalid' | 'network' | 'http' | 'invalid_configuration';
}

/** Fired (bubbles, composed) by `<svc-evidence>` when a list could not be read or an action failed. */
export type SvcEvidenceErrorEvent = CustomEvent<EvidenceErrorDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-evidence-change': SvcEvidenceChangeEvent;
  }
  interface SvcErrorDetailMap {
    evidence: EvidenceErrorDetail;
  }
}
