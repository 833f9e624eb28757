import { type ConsentActivity, consentActivityEnvelope } from '@svc/schemas';
import type { CallOptions, SvcConnection } from '../lib/connection.js';

/** How many UTC days, ending today, to count: 1 to 90 (the service counts 30 when absent). */
export interface ConsentActivityQuery {
  days?: number | undefined;
}

/**
 * Reads an application's consent activity (`GET /api/v1/applications/{id}/consent_activity`, permission `read`):
 * consent given (`granted`), refused (`denied`) and withdrawn per purpose per UTC day, oldest first; a day and
 * purpose with nothing is left out. An application that is not the account's is `SvcNotFoundError`.
 */
export async function getConsentActivity(
  connection: SvcConnection<'bearer'>,
  applicationId: string,
  query: ConsentActivityQuery = {},
  options?: CallOptions,
): Promise<ConsentActivity> {
  const answer = await connection.request(
    {
      method: 'GET',
      path: `/api/v1/applications/${encodeURIComponent(applicationId)}/consent_activity`,
      query: { days: query.days },
      schema: consentActivityEnvelope,
    },
    options,
  );
  return answer.consent_activity;
}
