// The deprecated Consent session shape of `/api/v1/consent_sessions` (successor: `/api/v1/decisions`): the spec's
// own create request and resource, kept working until the alias's Sunset date.
import { z } from 'zod/mini';
import { agentMetadata } from './agent-identities.js';
import { dateTime } from './common.js';
import { httpUri, webOrigin } from './decisions.js';

/**
 * How a consent session is shown: `iframe` (a decision's `embed`), `popup`, `redirect`, or `inline` (the element
 * rendered in the page itself), which the service does not serve for sessions: it is refused with 422
 * `delivery_mode_unsupported`.
 */
export const consentSessionDeliveryMode = z.enum(['iframe', 'popup', 'redirect', 'inline']);
export type ConsentSessionDeliveryMode = z.infer<typeof consentSessionDeliveryMode>;

/**
 * The spec's nine consent token statuses. A consent session answers only these: a session that ended without consent
 * (declined by the person, or cancelled) is `expired`, with the finer ending in its `outcome`.
 */
export const consentTokenLifecycleStatus = z
  .enum(['pending', 'authenticating', 'verifying', 'reviewing', 'informed', 'evidenced', 'fulfilled', 'expired', 'revoked'])
  .register(z.globalRegistry, {
    description:
      'One of the nine consent token statuses, never more: a session that ended without consent (declined or cancelled) is expired, with the ending in outcome. Only fulfilled counts as consented.',
  });
export type ConsentTokenLifecycleStatus = z.infer<typeof consentTokenLifecycleStatus>;

/**
 * `POST /api/v1/consent_sessions` with the spec's Consent session create request. `delivery_mode` defaults to
 * `iframe`. `embed_origin` is a server addition: the origin that embeds the iframe; without it an `iframe` session
 * takes the request's `Origin` header, or else the application's only allowed origin.
 */
export const createConsentSessionRequest = z.strictObject({
  flow_id: z.string().check(z.minLength(1), z.maxLength(200), z.regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')),
  delivery_mode: z.optional(consentSessionDeliveryMode),
  redirect_uri: z.optional(httpUri),
  meeting_id: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  metadata: z.optional(agentMetadata),
  embed_origin: z.optional(webOrigin),
});
export type CreateConsentSessionRequest = z.infer<typeof createConsentSessionRequest>;

/**
 * The spec's Consent session resource. `session_token` renders the embed at `embed_url` (the iframe source); `url` is
 * the full page (popup or redirect). `status` is one of the nine consent token statuses; `outcome` is how it ended:
 * `granted` (fulfilled, later perhaps revoked), `declined` or `cancelled` (both `expired`), null while in flight or
 * when its deadline passed. `expires_at` is the session's deadline.
 */
export const consentSession = z.object({
  /** The decision's id (`dec_...`). */
  id: z.string(),
  flow_id: z.string(),
  status: consentTokenLifecycleStatus,
  outcome: z.nullable(z.enum(['granted', 'declined', 'cancelled'])),
  /** As sent (`iframe`, `popup` or `redirect`). */
  delivery_mode: consentSessionDeliveryMode,
  embed_url: z.string(),
  url: z.string(),
  session_token: z.string(),
  redirect_uri: z.nullable(z.string()),
  meeting_id: z.nullable(z.string()),
  metadata: z.nullable(z.record(z.string(), z.unknown())),
  created_at: dateTime(),
  expires_at: dateTime(),
});
export type ConsentSession = z.infer<typeof consentSession>;

/** `{consent_session}` envelope. */
export const consentSessionEnvelope = z.object({ consent_session: consentSession });
export type ConsentSessionEnvelope = z.infer<typeof consentSessionEnvelope>;
