// A person's own data requests (access, erasure, portability, rectification), as they file and follow them with their
// own access token (`/api/v1/me/data_requests`): what the people's data requests page and `<svc-data-requests>` show.
// Not the organisation's view of a request (`dataRequest`): no subject, but the organisation it was filed with, and
// the link to the export of a completed access request instead of the export itself.
import { z } from 'zod/mini';
import { dateTime, listQuery } from './common.js';
import { dataRequestStatus, dsarScope, dsarType } from './protect.js';

/** The OAuth scope a person's access token needs to read their own data requests. */
export const DATA_REQUESTS_READ_SCOPE = 'data_requests:read';
/** The OAuth scope a person's access token needs to file a data request. */
export const DATA_REQUESTS_WRITE_SCOPE = 'data_requests:write';

/** An organisation the person has a relationship with (a person row there): one they can file a request with. */
export const requestableOrganisation = z.object({ id: z.string(), name: z.string() });
export type RequestableOrganisation = z.infer<typeof requestableOrganisation>;

/**
 * A data request as the person who filed it reads it: when the answer is due (`due_date`, 30 days after receipt,
 * later once extended with `extension_reason`), whether it is `overdue` (still open past it), the organisation's
 * answer, and for a completed access request `export_url` (`GET /api/v1/me/data_requests/{id}/export` with the
 * same token).
 */
export const personDataRequest = z.object({
  id: z.string(),
  organisation: requestableOrganisation,
  dsar_type: dsarType,
  /** As filed: a string, a list of strings or an object (null when none was given). */
  scope: z.nullable(z.union([z.string(), z.array(z.string()), z.record(z.string(), z.unknown())])),
  status: dataRequestStatus,
  received_at: dateTime(),
  due_date: dateTime(),
  overdue: z.boolean(),
  extended: z.boolean(),
  original_due_date: dateTime(),
  extended_at: z.nullable(dateTime()),
  extension_reason: z.nullable(z.string()),
  started_at: z.nullable(dateTime()),
  completed_at: z.nullable(dateTime()),
  completion_note: z.nullable(z.string()),
  rejected_at: z.nullable(dateTime()),
  rejection_reason: z.nullable(z.string()),
  export_url: z.nullable(z.string()),
});
export type PersonDataRequest = z.infer<typeof personDataRequest>;

/** `{data_request}`: one of the person's requests. */
export const personDataRequestEnvelope = z.object({ data_request: personDataRequest });
export type PersonDataRequestEnvelope = z.infer<typeof personDataRequestEnvelope>;

/** Query of `GET /api/v1/me/data_requests`: the list query and a status. */
export const personDataRequestListQuery = z.strictObject({ ...listQuery.shape, status: z.optional(dataRequestStatus) });
export type PersonDataRequestListQuery = z.input<typeof personDataRequestListQuery>;

/**
 * A page of the person's requests, most recently filed first, with the organisations they can file one with (every
 * organisation that has a person row of theirs and an active application; with an organisation's client, that one).
 */
export const personDataRequestList = z.object({
  data_requests: z.array(personDataRequest),
  next_cursor: z.nullable(z.string()),
  organisations: z.array(requestableOrganisation),
});
export type PersonDataRequestList = z.infer<typeof personDataRequestList>;

/**
 * `POST /api/v1/me/data_requests`: the organisation to file with (one of the list's `organisations`), the type, and
 * optionally what it covers (the same `scope` as the organisation's API takes).
 */
export const filePersonDataRequest = z.strictObject({
  organisation_id: z.string().check(z.minLength(1), z.maxLength(64)),
  dsar_type: dsarType,
  scope: z.optional(dsarScope),
});
export type FilePersonDataRequest = z.input<typeof filePersonDataRequest>;
