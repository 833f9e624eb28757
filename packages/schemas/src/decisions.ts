import { z } from 'zod/mini';
import { dateTime } from './common.js';
import { escalationTrigger } from './delegations.js';

/**
 * What a decision asks: `consent` (a person permits an application), `approval` (a human authorizes an action) or
 * `signature_request` (a party signs an agreement: cross-border signing). The API answers every kind; a signing
 * session is opened by its agreement (`POST /api/v1/agreements`), never by `POST /api/v1/decisions`, and the server
 * infers its kind from the session token.
 */
export const decisionKind = z.enum(['consent', 'approval', 'signature_request']);
export type DecisionKind = z.infer<typeof decisionKind>;

/** The kinds `POST /api/v1/decisions` creates, as the spec's Decision creation request has them. */
export const createDecisionKind = z.enum(['consent', 'approval']);
export type CreateDecisionKind = z.infer<typeof createDecisionKind>;

/** How the hosted decision page is shown: in an iframe, in a popup, or by redirecting the whole page. */
export const deliveryMode = z.enum(['embed', 'popup', 'redirect']);
export type DeliveryMode = z.infer<typeof deliveryMode>;

/**
 * Every state a decision passes through. Consent follows the spec's consent token statuses (`pending`,
 * `authenticating`, `verifying`, `reviewing`, or `informed`, `evidenced`, then `fulfilled`); an approval is `pending`
 * until it is `approved`, `denied` or `countered`. A signing session (`signature_request`) is `pending` while the party
 * reads, `verifying` while they enter their sign-in code, `reviewing` while they type their name, and ends `signed`,
 * `declined` or `countered`. Every kind can end `expired` (its `deadline_at` passed first); consent and approval can
 * end `cancelled` (the person or the host page gave up without deciding), a signing session cannot: it stays open
 * until its deadline. A `fulfilled` consent moves to `revoked` once no consent of its record is in force any more
 * (withdrawn, through any channel).
 */
export const decisionStatus = z
  .enum([
    'pending',
    'authenticating',
    'verifying',
    'reviewing',
    'informed',
    'evidenced',
    'fulfilled',
    'declined',
    'approved',
    'denied',
    'countered',
    'signed',
    'cancelled',
    'expired',
    'revoked',
  ])
  .register(z.globalRegistry, {
    description:
      "A decision's status. A consent decision moves through the spec's nine consent token statuses (pending, authenticating, verifying, reviewing, informed, evidenced, fulfilled, expired, revoked), listed in x-svc-consent-token-statuses, and may also end in two additions: declined (the person completed the flow without consenting; outcome declined) and cancelled (the person or the host gave up without deciding). Neither counts as consented: a client that knows only the nine treats both as expired (no consent token will verify), which is how the deprecated /api/v1/consent_sessions shape answers them. Approvals add approved, denied and countered; signing sessions add signed, declined and countered.",
    'x-svc-consent-token-statuses': [
      'pending',
      'authenticating',
      'verifying',
      'reviewing',
      'informed',
      'evidenced',
      'fulfilled',
      'expired',
      'revoked',
    ],
  });
export type DecisionStatus = z.infer<typeof decisionStatus>;

/**
 * A completed decision's outcome: `granted|declined` for consent, `approved|denied|countered` for approval,
 * `signed|declined|countered` for a signing session (the spec's signing decision outcomes; `expired` is its status,
 * with no outcome, as for every kind).
 */
export const decisionOutcome = z.enum(['granted', 'declined', 'approved', 'denied', 'countered', 'signed']);
export type DecisionOutcome = z.infer<typeof decisionOutcome>;

/** The session token of a decision: `dts_` and 43 URL-safe base64 characters (32 random bytes). */
export const sessionToken = z
  .string()
  .check(z.regex(/^dts_(?:[a-z]{2}_)?[A-Za-z0-9_-]{43}$/, 'must be a decision session token (dts_...)'));

/** An origin: scheme, host and optional port, with no path, query, fragment or trailing slash. */
export const webOrigin = z.string().check(
  z.maxLength(300),
  z.refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
    } catch {
      return false;
    }
  }, 'must be an origin such as https://shop.example (scheme, host, optional port; no path or trailing slash)'),
);

/** An absolute http(s) URL (hosts may be names, IPs or localhost). */
export const httpUri = z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).check(z.maxLength(2000));

const shortText = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));

/** An email address a decision is addressed to (compared lower-case, surrounding spaces ignored). */
const addresseeEmail = z
  .string()
  .check(z.maxLength(320), z.regex(/^\s*[^\s@]{1,64}@[^\s@]{1,255}\s*$/, 'must be an email address such as ada@example.com'));

/**
 * `POST /api/v1/decisions`: the Decision creation request, exactly as the spec has it. `subject_ref` is a flow id
 * for consent and an escalation id for approval; `embed_origin` is required for `embed` and must be one of the
 * application's allowed origins. `redirect_uri` must be an http(s) URL.
 */
export const createDecisionRequest = z
  .strictObject({
    kind: createDecisionKind,
    subject_ref: z.string().check(z.minLength(1), z.maxLength(200), z.regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')),
    delivery_mode: deliveryMode,
    embed_origin: z.optional(webOrigin),
    redirect_uri: z.optional(httpUri),
    scope: z.optional(shortText(1000)),
    state: z.optional(shortText(2000)),
    meeting_id: z.optional(shortText(200)),
    /**
     * A server addition to the spec's request: the person the decision is addressed to, by email. It then waits in
     * their Trust Inbox (`/inbox`, `GET /api/v1/inbox`) until it is answered or its deadline passes; the link still
     * works for whoever holds it. For consent and for an approval of the organisation's own workflow; an approval that
     * answers an agent's escalation is addressed to the escalation's principal and takes none.
     */
    addressee: z.optional(z.strictObject({ email: addresseeEmail })),
  })
  .check(
    z.refine((request) => request.delivery_mode !== 'embed' || request.embed_origin !== undefined, {
      message: 'embed_origin is required when delivery_mode is embed',
      path: ['embed_origin'],
    }),
  );
export type CreateDecisionRequest = z.input<typeof createDecisionRequest>;

/**
 * A decision session as the API returns it: the same shape for every kind. `url` is the full hosted page
 * (`{trust_url}/decisions/{session_token}`, popup or redirect), `embed_url` the iframe page (`.../embed`).
 * Consent decisions carry `flow_id` and the governing `flow_version`; approvals leave them null.
 * `outcome`, `completed_at` and `consent_transaction_id` are null until the decision completes.
 */
export const decision = z.object({
  /** Record id (`dec_...`). */
  id: z.string(),
  session_token: z.string(),
  kind: decisionKind,
  status: decisionStatus,
  outcome: z.nullable(decisionOutcome),
  delivery_mode: deliveryMode,
  subject_ref: z.string(),
  application_id: z.string(),
  flow_id: z.nullable(z.string()),
  flow_version: z.nullable(z.int()),
  embed_origin: z.nullable(z.string()),
  redirect_uri: z.nullable(z.string()),
  scope: z.nullable(z.string()),
  state: z.nullable(z.string()),
  meeting_id: z.nullable(z.string()),
  url: z.string(),
  embed_url: z.string(),
  deadline_at: dateTime(),
  created_at: dateTime(),
  updated_at: dateTime(),
  completed_at: z.nullable(dateTime()),
  consent_transaction_id: z.nullable(z.string()),
  /** The person's counter-proposal when an approval was `countered`. */
  counter_proposal: z.nullable(z.string()),
  /**
   * The record a completed decision made: a consent record (`cr_...`) for a consent, an authorization record
   * (`ar_...`) for an approval; its receipt is at `/api/v1/consent_receipts/{record_id}`. Null until the decision
   * completes, and for decisions completed before the server recorded them.
   */
  record_id: z.nullable(z.string()),
  /**
   * On an approval that answers an agent's escalation (`subject_ref` = the escalation id): the approval trigger
   * type, the bound the agent's action went beyond (or `escalation` when it asked for more on its own).
   */
  trigger: z.optional(escalationTrigger),
  /** On a signing session: the agreement it signs (`agr_...`); `subject_ref` is the party (`pty_...`). */
  agreement_id: z.optional(z.string()),
  /**
   * On a decision addressed to a known person, lower-case: a signing session's party, an agent's escalation's principal,
   * or the `addressee` the organisation named. It waits in their Trust Inbox.
   */
  addressee_email: z.optional(z.string()),
  /** On a signing session: the party's home country (ISO 3166-1 alpha-2). */
  home_country: z.optional(z.string()),
});
export type Decision = z.infer<typeof decision>;

/** `{decision}` envelope. */
export const decisionEnvelope = z.object({ decision });
export type DecisionEnvelope = z.infer<typeof decisionEnvelope>;

/** Path parameter of the decision endpoints. */
export const decisionPath = z.object({ session_token: sessionToken });
