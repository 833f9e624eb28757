import { z } from 'zod/mini';
import { dateTime, listOf, listQuery } from './common.js';

// Cross-border and residency: the transfer register, the residency posture and the signed evidence packages of both
// (and of a breach scope). Nothing here carries personal data: ids of an organisation's resources, countries,
// categories, bases, verdicts and counts.

const country = z.string().check(z.regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code in upper case'));
const applicationId = z.string().check(z.minLength(1), z.maxLength(100));
const count = z.int().check(z.gte(0));

/**
 * The adequacy verdicts the reference server records (`adequacyOf`): `intra_eea` (both ends in the EEA),
 * `adequacy_decision` (an EU adequacy decision covers the route; the US through the EU-US Data Privacy Framework),
 * `standard_contractual_clauses` (from the EEA to a country without one), `none` (no framework known covers it).
 * Entries keep the verdict as recorded, so the wire type is a string.
 */
export const TRANSFER_ADEQUACY_VERDICTS = ['intra_eea', 'adequacy_decision', 'standard_contractual_clauses', 'none'] as const;

/**
 * One entry of the transfer register: a category of an application's data moved from one country to another, with
 * the lawful basis it moved under and the route's adequacy verdict.
 */
export const transferEntry = z.object({
  id: z.string(),
  application_id: z.string(),
  /** A data category (`consent_proof`, `signature_evidence`, …), never a value. */
  category: z.string(),
  from_country: country,
  to_country: country,
  lawful_basis: z.string(),
  adequacy: z.string(),
  created_at: dateTime(),
});
export type TransferEntry = z.infer<typeof transferEntry>;

/** Query of `GET /api/v1/transfer_register`: `limit`, `cursor` and an optional application. */
export const transferRegisterQuery = z.object({
  ...listQuery.shape,
  application_id: z.optional(applicationId),
});
export type TransferRegisterQuery = z.input<typeof transferRegisterQuery>;

/** `{transfers: [...], next_cursor}`: a page of the register, oldest first. */
export const transferRegisterList = listOf('transfers', transferEntry);
export type TransferRegisterList = z.infer<typeof transferRegisterList>;

/** `POST /api/v1/transfer_register/evidence_package`: optionally only one application's entries (an empty body is all). */
export const transferRegisterEvidenceRequest = z.strictObject({
  application_id: z.optional(applicationId),
});
export type TransferRegisterEvidenceRequest = z.infer<typeof transferRegisterEvidenceRequest>;

/**
 * A signed evidence package: `package` is a compact JWS (ES256, `typ` `svc-evidence+jwt`, `kid` in the answering
 * cell's `/.well-known/jwks.json`) whose payload is the JSON content, `format_type` names what it holds. Check it
 * offline with `verifyEvidencePackage`.
 */
export const evidencePackage = z.object({
  evidence_package_id: z.string(),
  format_type: z.string(),
  package: z.string().check(z.regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'must be a compact JWS')),
});
export type EvidencePackage = z.infer<typeof evidencePackage>;

/**
 * One evidence package drawn before, as `GET /api/v1/evidence_packages` lists it: what it is and when it was drawn,
 * the signing key's `kid` and the SHA-256 of the signed payload (hex), never the package itself (`GET
 * /api/v1/evidence_packages/{id}` answers that, exactly as it was drawn).
 */
export const evidencePackageSummary = z.object({
  id: z.string(),
  format_type: z.string(),
  kid: z.string(),
  payload_sha256: z.string(),
  created_at: dateTime(),
});
export type EvidencePackageSummary = z.infer<typeof evidencePackageSummary>;

/** `{evidence_packages: [...], next_cursor}`: a page of the packages drawn in the answering cell, newest first. */
export const evidencePackageList = listOf('evidence_packages', evidencePackageSummary);
export type EvidencePackageList = z.infer<typeof evidencePackageList>;

/** Format types of the packages this service draws. */
export const EVIDENCE_FORMAT_TYPES = {
  transferRegister: 'svc.transfer_register.v1',
  residencyPosture: 'svc.residency_posture.v1',
  breachScope: 'svc.breach_scope.v1',
} as const;

/**
 * Residency assurance of one country: `verified` when every personal row the cell stores for the account carries
 * that cell's country in its id (nothing homed elsewhere is stored there), `attention` when some do not
 * (`rows_homed_elsewhere` says how many).
 */
export const residencyAssurance = z.enum(['verified', 'attention']);
export type ResidencyAssurance = z.infer<typeof residencyAssurance>;

/** Where the account's subjects' data is stored in one country, as counts. */
export const residencyCountry = z.object({
  country,
  /** Where this country's rows are stored: the cell's own country. */
  storage_locations: z.array(country),
  /** People (data subjects) homed in the cell. */
  subjects: count,
  consent_records: count,
  authorization_records: count,
  notice_records: count,
  /** Receipts: one per consent, authorization and notice record. */
  receipts: count,
  decisions: count,
  delegation_grants: count,
  /** Personal rows checked for their home (people, records, decisions, grants, escalations, agreements). */
  rows_checked: count,
  /** Of those, rows whose id names another home country. */
  rows_homed_elsewhere: count,
  assurance: residencyAssurance,
});
export type ResidencyCountry = z.infer<typeof residencyCountry>;

/** `{residency_posture}`: per country of the deployment, and `assurance` over all of them. */
export const residencyPosture = z.object({
  drawn_at: dateTime(),
  assurance: residencyAssurance,
  countries: z.array(residencyCountry),
});
export type ResidencyPosture = z.infer<typeof residencyPosture>;
export const residencyPostureEnvelope = z.object({ residency_posture: residencyPosture });

/** `POST /api/v1/residency_posture/evidence_package`: no parameters (an empty body or `{}`). */
export const residencyPostureEvidenceRequest = z.strictObject({});
