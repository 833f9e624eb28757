import { z } from 'zod/mini';
import { dateTime } from './common.js';

// Breach scope: what a leaked credential could have touched, as counts and categories only. The credential's
// identifier is never returned, only its one-way fingerprint.

/**
 * Credential types a breach scope can be drawn for: an API token (its record id `api_token_…`, or the raw token),
 * an AI agent token (its record id, or the raw `ra_agent_…` token), a publishable key (`pk_test_…`, `pk_live_…`).
 */
export const breachCredentialType = z.enum(['api_token', 'agent_token', 'publishable_key']);
export type BreachCredentialType = z.infer<typeof breachCredentialType>;

/**
 * How much of the credential type's activity the service records: `fully_recorded` (every use is attributed to the
 * credential), `partly_recorded` (some uses or only their traces are), `not_recorded`.
 */
export const breachCoverage = z.enum(['fully_recorded', 'partly_recorded', 'not_recorded']);
export type BreachCoverage = z.infer<typeof breachCoverage>;

/** The period assessed. */
export const breachWindow = z.object({ from: dateTime(), to: dateTime() });
export type BreachWindow = z.infer<typeof breachWindow>;

/**
 * `POST /api/v1/breach_scope` (and `…/evidence_package`): the credential and the window to assess. `window.to`
 * defaults to now; `from` must not be after `to`.
 */
export const breachScopeRequest = z.strictObject({
  credential_type: breachCredentialType,
  credential_id: z.string().check(z.minLength(1), z.maxLength(512)),
  window: z
    .strictObject({
      from: dateTime(),
      to: z.optional(dateTime()),
    })
    .check(
      z.refine((w) => w.to === undefined || Date.parse(w.from) <= Date.parse(w.to), {
        message: 'from must not be after to',
        path: ['from'],
      }),
    ),
});
export type BreachScopeRequest = z.input<typeof breachScopeRequest>;

const count = z.int().check(z.gte(0));

/**
 * What a leaked credential could have touched in the window. `subjects_affected` and `records_count` are what the
 * credential could reach while it was usable and used (an upper bound where its use is only partly recorded);
 * `coverage` and `caveats` say how far the counts rest on recorded activity. Counts and categories only.
 */
export const breachScope = z.object({
  credential: z.object({
    type: breachCredentialType,
    /** `sha256:` and the lower-case hex SHA-256 of the identifier as it was given. */
    fingerprint: z.string(),
  }),
  window: breachWindow,
  /** Whether the credential existed, was valid and (as far as recorded) was used in the window. */
  used_in_window: z.boolean(),
  subjects_affected: count,
  records_count: count,
  coverage: breachCoverage,
  caveats: z.array(z.string()),
  events_by_type: z.optional(z.record(z.string(), count)),
  scopes_involved: z.optional(z.array(z.string())),
  /** The same counts per country cell. */
  countries: z.optional(z.array(z.object({ country: z.string(), subjects_affected: count, records_count: count }))),
});
export type BreachScope = z.infer<typeof breachScope>;
export const breachScopeEnvelope = z.object({ breach_scope: breachScope });
