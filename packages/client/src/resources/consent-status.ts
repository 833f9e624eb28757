import { consentStatus, type ConsentStatus } from '@svc/schemas';
import type { CallOptions, SvcConnection } from '../lib/connection.js';

/**
 * Whose consent status to read: the person by their email or by the organisation's `external_id` (as
 * `subject[email]` / `subject[external_id]`), or by the service's person id (`person_id`, the status's `user_id`).
 * Exactly one of them.
 */
export type ConsentStatusQuery = (
  | { subject: { email: string; external_id?: never } | { external_id: string; email?: never }; person_id?: never }
  | { person_id: string; subject?: never }
) & {
  /** Only this flow; its purposes the person has not decided are then listed as `pending`. */
  flow_id?: string | undefined;
};

/**
 * Reads one person's consent with an application (`GET /api/v1/applications/{id}/consent_status`): the overall
 * status (`granted`, `partial`, `declined` or `pending`) and each purpose's status with its dates, from the
 * person's latest record per flow. A person no record names is `SvcNotFoundError` (reason `subject_not_found`).
 */
export function getConsentStatus(
  connection: SvcConnection<'bearer'>,
  applicationId: string,
  query: ConsentStatusQuery,
  options?: CallOptions,
): Promise<ConsentStatus> {
  return connection.request(
    {
      method: 'GET',
      path: `/api/v1/applications/${encodeURIComponent(applicationId)}/consent_status`,
      query: {
        'subject[email]': query.subject?.email,
        'subject[external_id]': query.subject?.external_id,
        person_id: query.person_id,
        flow_id: query.flow_id,
      },
      schema: consentStatus,
    },
    options,
  );
}

/** People's consent status with each application. */
export interface ConsentStatusResource {
  /** Reads one person's consent status; see {@link getConsentStatus}. */
  get(applicationId: string, query: ConsentStatusQuery, options?: CallOptions): Promise<ConsentStatus>;
}

/** Binds the consent status function to a connection. */
export function consentStatusResource(connection: SvcConnection<'bearer'>): ConsentStatusResource {
  return { get: (applicationId, query, options) => getConsentStatus(connection, applicationId, query, options) };
}
