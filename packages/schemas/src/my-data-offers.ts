// A person's data deals, as they read and answer them with their own access token: the data offers they negotiate
// with organisations (`/api/v1/me/data_offers`) and the data licences granted under agreements they signed
// (`/api/v1/me/data_licenses`). What the people's data offers and data licences pages and `<svc-data-offers>` show.
// Not the organisation's view (`dataOffer`, `dataLicense`): the organisation and application by name, the policy's
// data categories, and what the person may do now.
import { z } from 'zod/mini';
import { dateTime, listOf, listQuery } from './common.js';
import { dataLicenseStatus, dataOfferAction, dataOfferStatus, dealParty, policyTemplateId } from './protect.js';

/** The OAuth scope a person's access token needs to read their data offers and the licences over their data. */
export const DATA_OFFERS_READ_SCOPE = 'data_offers:read';
/** The OAuth scope a person's access token needs to accept or decline an offer, or revoke a licence over their data. */
export const DATA_OFFERS_WRITE_SCOPE = 'data_offers:write';

const named = z.object({ id: z.string(), name: z.string() });

/** One step of the negotiation as the person reads it: who moved, what they put on the table, when. */
export const personDataOfferRound = z.object({
  action: dataOfferAction,
  by: z.enum(['person', 'organisation', 'service']),
  terms: z.nullable(z.record(z.string(), z.unknown())),
  message: z.nullable(z.string()),
  at: dateTime(),
});
export type PersonDataOfferRound = z.infer<typeof personDataOfferRound>;

/**
 * A data offer as the person reads it: the deal policy it negotiates (its template, title and data categories), the
 * terms on the table, whose move it is, and whether the person may answer now (`answerable`: the organisation's
 * counter-offer waits for them to accept or decline).
 */
export const personDataOffer = z.object({
  id: z.string(),
  status: dataOfferStatus,
  turn: z.nullable(dealParty),
  answerable: z.boolean(),
  organisation: named,
  application: named,
  policy: z.object({
    id: z.string(),
    template_id: policyTemplateId,
    title: z.string(),
    data_categories: z.array(z.string()),
  }),
  terms: z.record(z.string(), z.unknown()),
  counter_count: z.int(),
  rounds: z.array(personDataOfferRound),
  expires_at: z.nullable(dateTime()),
  offered_at: z.nullable(dateTime()),
  decided_at: z.nullable(dateTime()),
  decline_reason: z.nullable(z.string()),
  created_at: dateTime(),
  updated_at: dateTime(),
});
export type PersonDataOffer = z.infer<typeof personDataOffer>;

/** `{data_offer}`: one of the person's offers. */
export const personDataOfferEnvelope = z.object({ data_offer: personDataOffer });
export type PersonDataOfferEnvelope = z.infer<typeof personDataOfferEnvelope>;

/** Query of `GET /api/v1/me/data_offers`: the list query and one status. */
export const personDataOfferListQuery = z.strictObject({ ...listQuery.shape, status: z.optional(dataOfferStatus) });
export type PersonDataOfferListQuery = z.input<typeof personDataOfferListQuery>;

/** `{data_offers: [...], next_cursor}`: a page of the person's offers, most recently drafted first. */
export const personDataOfferList = listOf('data_offers', personDataOffer);
export type PersonDataOfferList = z.infer<typeof personDataOfferList>;

/** `POST /api/v1/me/data_offers/{id}/decline` (the body is optional): why, in the person's words. */
export const declinePersonDataOfferRequest = z.strictObject({
  reason: z.optional(z.string().check(z.minLength(1), z.maxLength(2000))),
});
export type DeclinePersonDataOfferRequest = z.input<typeof declinePersonDataOfferRequest>;

/**
 * A data licence over the person's data: granted by the organisation under an agreement the person signed. Who may
 * use it (`organisation`, `application`), how often (`max_access_count`, `access_count`, `remaining_accesses`; null
 * maximum: no limit), under which terms and agreement, and until when (`revoked_at`; an exhausted licence allows no
 * further access). `revocable`: the person may revoke it now.
 */
export const personDataLicense = z.object({
  id: z.string(),
  status: dataLicenseStatus,
  revocable: z.boolean(),
  organisation: named,
  application: named,
  agreement: z.object({ id: z.string(), title: z.string(), signed_at: z.nullable(dateTime()) }),
  terms: z.record(z.string(), z.unknown()),
  max_access_count: z.nullable(z.int()),
  access_count: z.int(),
  remaining_accesses: z.nullable(z.int()),
  last_accessed_at: z.nullable(dateTime()),
  revoked_at: z.nullable(dateTime()),
  created_at: dateTime(),
});
export type PersonDataLicense = z.infer<typeof personDataLicense>;

/** `{data_license}`: one licence over the person's data. */
export const personDataLicenseEnvelope = z.object({ data_license: personDataLicense });
export type PersonDataLicenseEnvelope = z.infer<typeof personDataLicenseEnvelope>;

/** Query of `GET /api/v1/me/data_licenses`: the list query and one status. */
export const personDataLicenseListQuery = z.strictObject({ ...listQuery.shape, status: z.optional(dataLicenseStatus) });
export type PersonDataLicenseListQuery = z.input<typeof personDataLicenseListQuery>;

/** `{data_licenses: [...], next_cursor}`: a page of the licences over the person's data, most recently issued first. */
export const personDataLicenseList = listOf('data_licenses', personDataLicense);
export type PersonDataLicenseList = z.infer<typeof personDataLicenseList>;
