// Protect: policies made from templates, data requests (DSAR), data licenses, data offers (the data deal sequence)
// and portability transfers. Request shapes follow the spec's "Other request shapes"; the records' fields, which the
// spec does not show, are this service's.
import { z } from 'zod/mini';
import { dateTime, listOf, listQuery } from './common.js';
import { countryCode } from './countries.js';
import { depthWithin, jsonBytes } from './json-bounds.js';

// ---- bounded JSON objects --------------------------------------------------------------------------------------

/** Largest free-form object (`config`, `terms`, `scope`), counted as UTF-8 bytes of its JSON. */
export const PROTECT_OBJECT_MAX_BYTES = 16 * 1024;
/** Deepest nesting of a free-form object (the object itself is depth 1). */
export const PROTECT_OBJECT_MAX_DEPTH = 8;

/** A JSON object of at most 16 KB and 8 levels, with keys of 1 to 100 characters. */
const boundedObject = (name: string) =>
  z.record(z.string().check(z.minLength(1), z.maxLength(100)), z.unknown()).check(
    z.refine((value) => depthWithin(value, PROTECT_OBJECT_MAX_DEPTH), {
      message: `${name} may nest at most ${PROTECT_OBJECT_MAX_DEPTH} levels`,
      abort: true,
    }),
    z.refine((value) => jsonBytes(value) <= PROTECT_OBJECT_MAX_BYTES, `${name} must be at most ${PROTECT_OBJECT_MAX_BYTES} bytes of JSON`),
  );

const shortText = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));
/** An id named in a request body (checked against storage by the server). */
const idRef = shortText(64);

// ---- policy templates -------------------------------------------------------------------------------------------

/** A data category a policy speaks about, e.g. `contact`, `purchase_history`, `health.steps`. */
export const dataCategory = z
  .string()
  .check(
    z.regex(/^[a-z][a-z0-9_.-]{0,63}$/, 'must be a lower-case name of at most 64 characters (a-z, 0-9, _ . -), starting with a letter'),
  );
const dataCategories = z.array(dataCategory).check(z.minLength(1), z.maxLength(50));
/** An amount of money in minor units (cents) and its ISO 4217 currency. */
export const moneyAmount = z.strictObject({
  amount: z.int().check(z.gte(0), z.lte(1_000_000_000_000)),
  currency: z.string().check(z.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 currency code such as EUR')),
});
/** A data format two applications can exchange: a short token (`json`, `csv`) or a media type (`application/ld+json`). */
export const dataFormat = z
  .string()
  .check(z.regex(/^[a-z0-9][a-z0-9.+/-]{0,63}$/, 'must be a format token or media type of at most 64 characters (a-z, 0-9, . + / -)'));

/**
 * The templates a policy is made from, each with the schema its `config` must meet. `data_license`, `data_offer`,
 * `bounty` and `broadcast` are deal templates: their acceptance lives on the policy (spec, data deal).
 */
export const POLICY_TEMPLATE_IDS = ['data_license', 'data_offer', 'bounty', 'broadcast', 'retention', 'portability'] as const;
export const policyTemplateId = z.enum(POLICY_TEMPLATE_IDS);
export type PolicyTemplateId = z.infer<typeof policyTemplateId>;
/** The templates whose policies carry a data deal (offers negotiate them; the acceptance is recorded on the policy). */
export const DEAL_TEMPLATE_IDS: readonly PolicyTemplateId[] = ['data_license', 'data_offer', 'bounty', 'broadcast'];

/** The `config` each template takes (strict: unknown fields are refused). */
export const policyTemplateConfigs = {
  data_license: z.strictObject({
    data_categories: dataCategories,
    purposes: z.optional(z.array(shortText(100)).check(z.maxLength(50))),
    /** How often the licensee may access the data (unlimited when absent). */
    max_access_count: z.optional(z.int().check(z.gte(1), z.lte(1_000_000_000))),
    duration_days: z.optional(z.int().check(z.gte(1), z.lte(3650))),
    commercial_use: z._default(z.boolean(), false),
  }),
  data_offer: z.strictObject({
    data_categories: dataCategories,
    price: z.optional(moneyAmount),
    duration_days: z.optional(z.int().check(z.gte(1), z.lte(3650))),
  }),
  bounty: z.strictObject({
    data_categories: dataCategories,
    reward: moneyAmount,
    max_claims: z.optional(z.int().check(z.gte(1), z.lte(1_000_000))),
  }),
  broadcast: z.strictObject({
    data_categories: dataCategories,
    audience: z.optional(shortText(200)),
    message: z.optional(shortText(2000)),
  }),
  retention: z.strictObject({
    data_categories: dataCategories,
    retention_days: z.int().check(z.gte(1), z.lte(36_500)),
    action: z._default(z.enum(['delete', 'anonymise']), 'delete'),
  }),
  portability: z.strictObject({
    data_categories: dataCategories,
    /** The formats the person accepts their data in; the first is the default of a transfer. */
    formats: z._default(z.array(dataFormat).check(z.minLength(1), z.maxLength(10)), ['json']),
  }),
} as const satisfies Record<PolicyTemplateId, z.ZodMiniType>;
export type PolicyTemplateConfig<T extends PolicyTemplateId = PolicyTemplateId> = z.infer<(typeof policyTemplateConfigs)[T]>;

/** A template of the built-in catalogue; `config_schema` is the JSON Schema (2020-12) of its `config`. */
export const policyTemplate = z.object({
  id: policyTemplateId,
  name: z.string(),
  description: z.string(),
  version: z.int(),
  /** Whether its policies carry a data deal (negotiated by data offers; the acceptance is recorded on the policy). */
  deal: z.boolean(),
  config_schema: z.record(z.string(), z.unknown()),
});
export type PolicyTemplate = z.infer<typeof policyTemplate>;
export const policyTemplateEnvelope = z.object({ policy_template: policyTemplate });
export const policyTemplateList = listOf('policy_templates', policyTemplate);

// ---- policies ---------------------------------------------------------------------------------------------------

/** `POST /api/v1/policies` (the spec's CreatePolicyRequest): `config` must meet the template's schema. */
export const createPolicyRequest = z.strictObject({
  template_id: policyTemplateId,
  title: z.optional(shortText(200)),
  config: z.optional(boundedObject('config')),
});
export type CreatePolicyRequest = z.input<typeof createPolicyRequest>;

/** `active` until revoked; `revoked` is final. */
export const policyStatus = z.enum(['active', 'revoked']);
export type PolicyStatus = z.infer<typeof policyStatus>;
/** A person's own policy (made with their access token) or the account's (made with an API token). */
export const policyOwnerType = z.enum(['person', 'account']);
export type PolicyOwnerType = z.infer<typeof policyOwnerType>;

/** Who accepted a data deal: the person (an organisation's counter) or the organisation (the person's terms). */
export const dealParty = z.enum(['person', 'organisation']);
export type DealParty = z.infer<typeof dealParty>;

/** The acceptance of a deal policy: the offer that was accepted, by whom, when, and the terms agreed. */
export const policyAcceptance = z.object({
  data_offer_id: z.string(),
  application_id: z.string(),
  accepted_by: dealParty,
  accepted_at: dateTime(),
  terms: z.record(z.string(), z.unknown()),
});
export type PolicyAcceptance = z.infer<typeof policyAcceptance>;

export const policy = z.object({
  /** `pol_<cc>_…`, homed in the cell it was made in. */
  id: z.string(),
  template_id: policyTemplateId,
  template_version: z.int(),
  title: z.string(),
  /** The config as validated, with the template's defaults filled in. */
  config: z.record(z.string(), z.unknown()),
  owner_type: policyOwnerType,
  /** The person whose policy it is (null for an account policy). */
  person_id: z.nullable(z.string()),
  status: policyStatus,
  deal: z.boolean(),
  /** When a data offer of this policy was accepted (deal policies; the acceptance lives on the policy). */
  accepted_at: z.nullable(dateTime()),
  acceptance: z.nullable(policyAcceptance),
  home_country: countryCode,
  created_at: dateTime(),
  updated_at: dateTime(),
  revoked_at: z.nullable(dateTime()),
});
export type Policy = z.infer<typeof policy>;
export const policyEnvelope = z.object({ policy });
export const policyList = listOf('policies', policy);
export const policyListQuery = z.object({
  ...listQuery.shape,
  template_id: z.optional(policyTemplateId),
  status: z.optional(policyStatus),
  owner_type: z.optional(policyOwnerType),
});
export type PolicyListQuery = z.input<typeof policyListQuery>;

// ---- data requests (DSAR) ---------------------------------------------------------------------------------------

/** Days an organisation has to answer a data request (GDPR art. 12(3): one month). */
export const DATA_REQUEST_DUE_DAYS = 30;
/** The most one extension may add (art. 12(3): two further months); a request is extended at most once. */
export const DATA_REQUEST_MAX_EXTENSION_DAYS = 60;

export const DSAR_TYPES = ['access', 'erasure', 'portability', 'rectification'] as const;
export const dsarType = z.enum(DSAR_TYPES);
export type DsarType = z.infer<typeof dsarType>;

/** What the request covers: a string, a list of strings, or an object (the spec allows each). */
export const dsarScope = z.union([
  shortText(1000),
  z.array(shortText(200)).check(z.minLength(1), z.maxLength(100)),
  boundedObject('scope'),
]);
export type DsarScope = z.infer<typeof dsarScope>;

/** `POST /api/v1/data_requests` (the spec's CreateDsarRequest), made by the person with their access token. */
export const createDsarRequest = z.strictObject({
  application_id: idRef,
  dsar_type: dsarType,
  scope: z.optional(dsarScope),
});
export type CreateDsarRequest = z.input<typeof createDsarRequest>;

/** `received -> in_progress -> completed | rejected` (a received request may also be rejected); extended at most once. */
export const dataRequestStatus = z.enum(['received', 'in_progress', 'completed', 'rejected']);
export type DataRequestStatus = z.infer<typeof dataRequestStatus>;

/** `POST /api/v1/data_requests/{id}/extend`: why, and by how many days (default and most: 60). */
export const extendDataRequestRequest = z.strictObject({
  reason: shortText(1000),
  days: z.optional(z.int().check(z.gte(1), z.lte(DATA_REQUEST_MAX_EXTENSION_DAYS))),
});
export type ExtendDataRequestRequest = z.input<typeof extendDataRequestRequest>;
/** `POST /api/v1/data_requests/{id}/complete` (the body is optional). */
export const completeDataRequestRequest = z.strictObject({ note: z.optional(shortText(2000)) });
export type CompleteDataRequestRequest = z.input<typeof completeDataRequestRequest>;
/** `POST /api/v1/data_requests/{id}/reject`. */
export const rejectDataRequestRequest = z.strictObject({ reason: shortText(2000) });
export type RejectDataRequestRequest = z.input<typeof rejectDataRequestRequest>;

/** What the service holds about the person, attached when an `access` request completes. */
export const dataRequestExport = z.object({
  generated_at: dateTime(),
  person: z.object({ id: z.string(), email: z.string() }),
  consent_records: z.array(
    z.object({
      id: z.string(),
      application_id: z.string(),
      flow_id: z.string(),
      flow_version: z.int(),
      captured_at: dateTime(),
      expires_at: z.nullable(dateTime()),
    }),
  ),
  /** Receipts are addressed by their record's id (`GET /api/v1/consent_receipts/{id}`). */
  receipt_ids: z.array(z.string()),
  delegation_grant_ids: z.array(z.string()),
  policy_ids: z.array(z.string()),
  data_offer_ids: z.array(z.string()),
  portability_transfer_ids: z.array(z.string()),
  data_request_ids: z.array(z.string()),
});
export type DataRequestExport = z.infer<typeof dataRequestExport>;

export const dataRequest = z.object({
  /** `dsar_<cc>_…`, homed with the person. */
  id: z.string(),
  application_id: z.string(),
  person_id: z.string(),
  dsar_type: dsarType,
  /** As filed: a string, a list of strings or an object (null when none was given). */
  scope: z.nullable(z.union([z.string(), z.array(z.string()), z.record(z.string(), z.unknown())])),
  status: dataRequestStatus,
  /** When the answer is due: 30 days after receipt, later once extended. */
  due_date: dateTime(),
  /** Still open past its due date. */
  overdue: z.boolean(),
  extended: z.boolean(),
  original_due_date: dateTime(),
  extended_at: z.nullable(dateTime()),
  extension_reason: z.nullable(z.string()),
  received_at: dateTime(),
  started_at: z.nullable(dateTime()),
  completed_at: z.nullable(dateTime()),
  completion_note: z.nullable(z.string()),
  rejected_at: z.nullable(dateTime()),
  rejection_reason: z.nullable(z.string()),
  /** What the service holds about the person (a completed `access` request only). */
  export: z.nullable(dataRequestExport),
  home_country: countryCode,
  /** The same as `received_at`. */
  created_at: dateTime(),
  updated_at: dateTime(),
});
export type DataRequest = z.infer<typeof dataRequest>;
export const dataRequestEnvelope = z.object({ data_request: dataRequest });
export const dataRequestList = listOf('data_requests', dataRequest);
export const dataRequestListQuery = z.object({
  ...listQuery.shape,
  status: z.optional(dataRequestStatus),
  dsar_type: z.optional(dsarType),
  application_id: z.optional(idRef),
});
export type DataRequestListQuery = z.input<typeof dataRequestListQuery>;

// ---- data licenses ----------------------------------------------------------------------------------------------

/** `POST /api/v1/data_licenses` (the spec's CreateDataLicenseRequest): a license under an active agreement. */
export const createDataLicenseRequest = z.strictObject({
  agreement_id: idRef,
  application_id: z.optional(idRef),
  /** How many accesses it allows (unlimited when absent). */
  max_access_count: z.optional(z.int().check(z.gte(1), z.lte(1_000_000_000))),
  terms: z.optional(boundedObject('terms')),
});
export type CreateDataLicenseRequest = z.input<typeof createDataLicenseRequest>;

/** `active`; `exhausted` once every allowed access is used; `revoked` is final. */
export const dataLicenseStatus = z.enum(['active', 'exhausted', 'revoked']);
export type DataLicenseStatus = z.infer<typeof dataLicenseStatus>;

export const dataLicense = z.object({
  /** `dlic_<cc>_…`, homed with its agreement. */
  id: z.string(),
  agreement_id: z.string(),
  application_id: z.string(),
  max_access_count: z.nullable(z.int()),
  access_count: z.int(),
  /** Accesses left (null when unlimited). */
  remaining_accesses: z.nullable(z.int()),
  terms: z.record(z.string(), z.unknown()),
  status: dataLicenseStatus,
  last_accessed_at: z.nullable(dateTime()),
  revoked_at: z.nullable(dateTime()),
  home_country: countryCode,
  created_at: dateTime(),
  updated_at: dateTime(),
});
export type DataLicense = z.infer<typeof dataLicense>;
export const dataLicenseEnvelope = z.object({ data_license: dataLicense });
export const dataLicenseList = listOf('data_licenses', dataLicense);
export const dataLicenseListQuery = z.object({
  ...listQuery.shape,
  status: z.optional(dataLicenseStatus),
  agreement_id: z.optional(idRef),
});
export type DataLicenseListQuery = z.input<typeof dataLicenseListQuery>;

/** `POST /api/v1/data_licenses/{id}/accesses` (the body is optional): what the access is for and who made it. */
export const recordDataLicenseAccessRequest = z.strictObject({
  purpose: z.optional(shortText(200)),
  accessor: z.optional(shortText(200)),
});
export type RecordDataLicenseAccessRequest = z.input<typeof recordDataLicenseAccessRequest>;

/** One counted access: its place in the license's count and what remains after it. */
export const dataLicenseAccess = z.object({
  id: z.string(),
  data_license_id: z.string(),
  sequence: z.int(),
  purpose: z.nullable(z.string()),
  accessor: z.nullable(z.string()),
  accessed_at: dateTime(),
  remaining_accesses: z.nullable(z.int()),
});
export type DataLicenseAccess = z.infer<typeof dataLicenseAccess>;
export const dataLicenseAccessEnvelope = z.object({ data_license_access: dataLicenseAccess });
export const dataLicenseAccessList = listOf('data_license_accesses', dataLicenseAccess);

// ---- data offers (the data deal) --------------------------------------------------------------------------------

/** The data deal sequence: `draft -> offered -> countered -> user_revised -> accepted | declined | expired`. */
export const DATA_OFFER_STATUSES = ['draft', 'offered', 'countered', 'user_revised', 'accepted', 'declined', 'expired'] as const;
export const dataOfferStatus = z.enum(DATA_OFFER_STATUSES);
export type DataOfferStatus = z.infer<typeof dataOfferStatus>;
/** What moves a data offer: the person offers and revises; the organisation counters; either accepts or declines the other's terms; the clock expires it. */
export const DATA_OFFER_ACTIONS = ['offer', 'counter', 'revise', 'accept', 'decline', 'expire'] as const;
export const dataOfferAction = z.enum(DATA_OFFER_ACTIONS);
export type DataOfferAction = z.infer<typeof dataOfferAction>;

/** How long an offer stays open once offered when it names no `expires_at`, and the most it may name. */
export const DATA_OFFER_DEFAULT_LIFETIME_DAYS = 7;
export const DATA_OFFER_MAX_LIFETIME_DAYS = 90;

/**
 * `POST /api/v1/data_offers` (a person's access token): the person's terms for the data a deal policy of theirs
 * covers, to an application of the organisation. Made as a `draft`; `POST …/{id}/offer` sends it.
 */
export const createDataOfferRequest = z.strictObject({
  policy_id: idRef,
  application_id: idRef,
  terms: boundedObject('terms'),
  /** When the negotiation lapses (default: 7 days after it is offered; at most 90 days ahead). */
  expires_at: z.optional(dateTime()),
});
export type CreateDataOfferRequest = z.input<typeof createDataOfferRequest>;

/** `POST …/{id}/counter` (the organisation) and `POST …/{id}/revise` (the person): new terms and a note. */
export const dataOfferTermsRequest = z.strictObject({
  terms: boundedObject('terms'),
  message: z.optional(shortText(2000)),
});
export type DataOfferTermsRequest = z.input<typeof dataOfferTermsRequest>;
/** `POST …/{id}/decline` (the body is optional). */
export const declineDataOfferRequest = z.strictObject({ reason: z.optional(shortText(2000)) });
export type DeclineDataOfferRequest = z.input<typeof declineDataOfferRequest>;

/** One step of the negotiation, in order. */
export const dataOfferRound = z.object({
  round: z.int(),
  action: dataOfferAction,
  by: z.enum(['person', 'organisation', 'service']),
  terms: z.nullable(z.record(z.string(), z.unknown())),
  message: z.nullable(z.string()),
  at: dateTime(),
});
export type DataOfferRound = z.infer<typeof dataOfferRound>;

export const dataOffer = z.object({
  /** `dof_<cc>_…`, homed with the person. */
  id: z.string(),
  policy_id: z.string(),
  application_id: z.string(),
  person_id: z.string(),
  status: dataOfferStatus,
  /** The terms on the table: the latest offer, counter or revision. */
  terms: z.record(z.string(), z.unknown()),
  /** Whose move it is (null in a final state; the person's while a draft). */
  turn: z.nullable(dealParty),
  counter_count: z.int(),
  rounds: z.array(dataOfferRound),
  expires_at: z.nullable(dateTime()),
  offered_at: z.nullable(dateTime()),
  decided_at: z.nullable(dateTime()),
  decline_reason: z.nullable(z.string()),
  home_country: countryCode,
  created_at: dateTime(),
  updated_at: dateTime(),
});
export type DataOffer = z.infer<typeof dataOffer>;
export const dataOfferEnvelope = z.object({ data_offer: dataOffer });
export const dataOfferList = listOf('data_offers', dataOffer);
export const dataOfferListQuery = z.object({
  ...listQuery.shape,
  status: z.optional(dataOfferStatus),
  policy_id: z.optional(idRef),
  application_id: z.optional(idRef),
});
export type DataOfferListQuery = z.input<typeof dataOfferListQuery>;

// ---- portability transfers --------------------------------------------------------------------------------------

/** A package digest: `sha256:` and 64 hex digits (the prefix may be left out; stored lower-case with it). */
export const dataHash = z.string().check(z.regex(/^(sha256:)?[0-9a-fA-F]{64}$/, 'must be sha256: followed by 64 hex digits'));

/** `POST /api/v1/portability_transfers` (the spec's CreatePortabilityTransferRequest). */
export const createPortabilityTransferRequest = z.strictObject({
  policy_id: idRef,
  source_application_id: idRef,
  destination_application_id: idRef,
  /** One of the policy's formats (default its first). */
  negotiated_format: z.optional(dataFormat),
});
export type CreatePortabilityTransferRequest = z.input<typeof createPortabilityTransferRequest>;

/** `POST /api/v1/portability_transfers/{id}/ready`: the source declares the digest of the package it sends. */
export const markPortabilityTransferReadyRequest = z.strictObject({ data_hash: dataHash });
export type MarkPortabilityTransferReadyRequest = z.input<typeof markPortabilityTransferReadyRequest>;

/**
 * `POST /api/v1/portability_transfers/confirm` (the spec's ConfirmPortabilityTransferRequest): the destination
 * confirms with the digest of what it received. `data_hash` is optional in the spec's shape, but a transfer cannot
 * be confirmed without it (422 `data_hash_required`).
 */
export const confirmPortabilityTransferRequest = z.strictObject({
  transfer_id: idRef,
  data_hash: z.optional(dataHash),
});
export type ConfirmPortabilityTransferRequest = z.input<typeof confirmPortabilityTransferRequest>;

/** `pending -> ready -> confirmed`; `pending | ready -> cancelled`. */
export const portabilityTransferStatus = z.enum(['pending', 'ready', 'confirmed', 'cancelled']);
export type PortabilityTransferStatus = z.infer<typeof portabilityTransferStatus>;

export const portabilityTransfer = z.object({
  /** `ptr_<cc>_…`, homed with the person. */
  id: z.string(),
  policy_id: z.string(),
  person_id: z.string(),
  source_application_id: z.string(),
  destination_application_id: z.string(),
  negotiated_format: z.string(),
  status: portabilityTransferStatus,
  /** The digest the source declared when it marked the package ready. */
  data_hash: z.nullable(z.string()),
  /** Confirmations refused because the digest did not match. */
  mismatch_count: z.int(),
  ready_at: z.nullable(dateTime()),
  confirmed_at: z.nullable(dateTime()),
  cancelled_at: z.nullable(dateTime()),
  home_country: countryCode,
  created_at: dateTime(),
  updated_at: dateTime(),
});
export type PortabilityTransfer = z.infer<typeof portabilityTransfer>;
export const portabilityTransferEnvelope = z.object({ portability_transfer: portabilityTransfer });
export const portabilityTransferList = listOf('portability_transfers', portabilityTransfer);
export const portabilityTransferListQuery = z.object({
  ...listQuery.shape,
  status: z.optional(portabilityTransferStatus),
  policy_id: z.optional(idRef),
});
export type PortabilityTransferListQuery = z.input<typeof portabilityTransferListQuery>;
