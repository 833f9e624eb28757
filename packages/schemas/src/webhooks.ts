import { z } from 'zod/mini';
import { dateTime, listOf, listQuery } from './common.js';

// ---- Events ----------------------------------------------------------------------------------------------------

/** Every event type a webhook endpoint can subscribe to (the spec's Events part, for the surfaces built so far). */
export const WEBHOOK_EVENT_TYPES = [
  'consent.granted',
  'consent.denied',
  'consent.revoked',
  'consent.purpose_revoked',
  'approval.granted',
  'approval.denied',
  'approval.countered',
  'escalation.opened',
  'delegation.revoked',
  'signature.signed',
  'signature.declined',
  'signature.expired',
  'signature.countered',
] as const;

/** A subscribable event type. */
export const webhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof webhookEventType>;

/** The type of the delivery `POST .../webhook_endpoints/{id}/test` sends; it cannot be subscribed to. */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

/**
 * What an endpoint subscribes to: an event type, or `*` for every type, including types a later server version
 * adds (receivers answer 2xx to types they do not handle).
 */
export const webhookEventSelector = z.enum([...WEBHOOK_EVENT_TYPES, '*']);
export type WebhookEventSelector = z.infer<typeof webhookEventSelector>;

/** An event id: `evt_` and 16 base62 characters. Stable across retries; receivers use it as idempotency key. */
export const webhookEventId = z.string().check(z.regex(/^evt_[A-Za-z0-9]{8,64}$/, 'must be an event id (evt_...)'));

/** The person a consent event is about, as the server commit or the sign-in named them. */
export const webhookSubjectReference = z.looseObject({
  email: z.nullable(z.string()),
  external_id: z.nullable(z.string()),
});
export type WebhookSubjectReference = z.infer<typeof webhookSubjectReference>;

/** How one purpose stands after the change the event reports (the Consent record's purpose outcomes). */
export const webhookPurposeOutcome = z.looseObject({
  key: z.string(),
  outcome: z.enum(['granted', 'declined', 'revoked', 'noticed', 'objected']),
  basis: z.nullable(z.string()),
});
export type WebhookPurposeOutcome = z.infer<typeof webhookPurposeOutcome>;

/**
 * `data` of `consent.granted` and `consent.denied`: a consent completed (a hosted or embedded decision, a
 * committed capture, a record). `consent_token` is the single-use token of a hosted decision or a committed capture
 * that granted (valid 5 minutes, until `consent_token_expires_at`, so a late retry carries an expired one; the signed
 * webhook is itself authoritative) and null otherwise.
 */
export const consentDecisionData = z.looseObject({
  /** The hosted decision (`dec_...`), null when the consent did not come from one. */
  decision_id: z.nullable(z.string()),
  /** The consent record, null when the channel did not make one. */
  record_id: z.nullable(z.string()),
  flow_id: z.string(),
  flow_version: z.nullable(z.int()),
  consent_token: z.nullable(z.string()),
  consent_token_expires_at: z.nullable(dateTime()),
  consent_transaction_id: z.nullable(z.string()),
  /** The person's identifier at the service, when it has one. */
  user_id: z.nullable(z.string()),
  /** The subject reference (email, external id) supplied by a server commit or the sign-in. */
  subject_ref: z.nullable(webhookSubjectReference),
  /** Collection channel (`hosted`, `embedded`, `form_capture`, `controller_attested`, `imported`, ...). */
  channel: z.nullable(z.string()),
  purposes: z.array(webhookPurposeOutcome),
  decided_at: dateTime(),
});
export type ConsentDecisionData = z.infer<typeof consentDecisionData>;

/** One purpose a withdrawal moved. */
export const webhookWithdrawnPurpose = z.looseObject({
  key: z.string(),
  outcome: z.enum(['revoked', 'objected']),
});
export type WebhookWithdrawnPurpose = z.infer<typeof webhookWithdrawnPurpose>;

/** `data` of `consent.revoked`: a consent withdrawn; every purpose's outcome after the withdrawal. */
export const consentRevokedData = z.looseObject({
  record_id: z.nullable(z.string()),
  decision_id: z.nullable(z.string()),
  flow_id: z.string(),
  flow_version: z.nullable(z.int()),
  user_id: z.nullable(z.string()),
  subject_ref: z.nullable(webhookSubjectReference),
  /** The purposes this withdrawal moved, each to `revoked` (a consent) or `objected` (a legitimate interest). */
  withdrawn: z.array(webhookWithdrawnPurpose),
  purposes: z.array(webhookPurposeOutcome),
  /** How the withdrawal arrived: the spec's event channel (`api`, `newer_record`, ...). */
  event_channel: z.nullable(z.string()),
  revoked_at: dateTime(),
});
export type ConsentRevokedData = z.infer<typeof consentRevokedData>;

/** `data` of `consent.purpose_revoked`: one purpose withdrawn (`purpose`); same carriage as `consent.revoked`. */
export const consentPurposeRevokedData = z.looseObject({
  ...consentRevokedData.shape,
  /** The purpose withdrawn. */
  purpose: z.string(),
  /** Its outcome now: `revoked` (a consent) or `objected` (a legitimate interest objected to). */
  outcome: z.enum(['revoked', 'objected']),
});
export type ConsentPurposeRevokedData = z.infer<typeof consentPurposeRevokedData>;

/** `data` of `approval.granted`, `approval.denied` and `approval.countered`. */
export const approvalDecisionData = z.looseObject({
  decision_id: z.string(),
  /** The escalation the approval decided (the decision's `subject_ref`). */
  escalation_id: z.string(),
  outcome: z.enum(['approved', 'denied', 'countered']),
  /** The person's counter-proposal (`approval.countered`), otherwise null. */
  counter_proposal: z.nullable(z.string()),
  user_id: z.nullable(z.string()),
  scope: z.nullable(z.string()),
  state: z.nullable(z.string()),
  decided_at: dateTime(),
});
export type ApprovalDecisionData = z.infer<typeof approvalDecisionData>;

/**
 * `data` of `escalation.opened`: an agent's action went beyond its grant and waits for the principal. `decision` is
 * the approval decision opened for them: a full hosted page at `url` (for a link, an email, the inbox). To show the
 * approval in the organisation's own page with `<svc-decision>`, open an embedded or popup decision for the
 * escalation (`POST /api/v1/decisions` with `kind: approval`, `subject_ref` = `escalation_id`).
 */
export const escalationOpenedData = z.looseObject({
  escalation_id: z.string(),
  delegation_grant_id: z.string(),
  agent_identity_id: z.string(),
  /** The principal (`prs_...`). */
  user_id: z.string(),
  trigger: z.string(),
  reason: z.string(),
  action: z.looseObject({
    scope: z.string(),
    action: z.string(),
    value: z.nullable(z.number()),
    currency: z.nullable(z.string()),
    jurisdiction: z.nullable(z.string()),
    description: z.string(),
  }),
  decision: z.looseObject({ session_token: z.string(), url: z.string() }),
  expires_at: dateTime(),
});
export type EscalationOpenedData = z.infer<typeof escalationOpenedData>;

/** `data` of `delegation.revoked`: a grant and every grant made from it stopped, with every token issued from them. */
export const delegationRevokedData = z.looseObject({
  delegation_grant_id: z.string(),
  delegate_id: z.string(),
  delegate_type: z.enum(['person', 'agent']),
  /** The principal (`prs_...`). */
  user_id: z.string(),
  /** Sub-delegations revoked with it. */
  revoked_descendants: z.array(z.string()),
  revoked_at: dateTime(),
});
export type DelegationRevokedData = z.infer<typeof delegationRevokedData>;

/**
 * `data` of `signature.signed`, `signature.declined`, `signature.expired` and `signature.countered`: one party's
 * signing session ended (the spec's signing decision outcomes), once per party. It carries the party's quorum vote
 * (`approve` for a signature, `deny` for a decline or a counter-proposal, none for an expiry) and where the agreement
 * stands after it: `agreement_status` moves `pending -> partially_signed -> active` as signatures reach the quorum.
 */
export const signatureDecisionData = z.looseObject({
  agreement_id: z.string(),
  party_id: z.string(),
  /** The party's email, lower-case, as the agreement names them. */
  party_email: z.string(),
  /** The party's home country (ISO 3166-1 alpha-2). */
  home_country: z.string(),
  /** The party's signing session (`dec_...`). */
  decision_id: z.string(),
  outcome: z.enum(['signed', 'declined', 'expired', 'countered']),
  vote: z.nullable(z.enum(['approve', 'deny'])),
  /** The party's comment on a decline, or their counter-proposal (also in `counter_proposal`); otherwise null. */
  comment: z.nullable(z.string()),
  counter_proposal: z.nullable(z.string()),
  /** The signature's compact JWS (`signature.signed`), otherwise null. */
  signature: z.nullable(z.string()),
  document_sha256: z.string(),
  agreement_status: z.enum(['pending', 'partially_signed', 'active']),
  quorum_status: z.enum(['open', 'reached', 'unreachable']),
  /** Signatures so far, and how many make the agreement active. */
  signatures: z.int(),
  quorum: z.int(),
  decided_at: dateTime(),
});
export type SignatureDecisionData = z.infer<typeof signatureDecisionData>;

/** `data` of `webhook.test`. */
export const webhookTestData = z.looseObject({
  webhook_endpoint_id: z.string(),
  message: z.string(),
});
export type WebhookTestData = z.infer<typeof webhookTestData>;

const eventOf = <T extends string, D extends z.ZodMiniType>(type: T, data: D) =>
  z.looseObject({
    /** Stable across retries: the idempotency key. */
    id: webhookEventId,
    type: z.literal(type),
    application_id: z.string(),
    /** When the change happened, on the server clock. */
    occurred_at: dateTime(),
    data,
  });

/**
 * The JSON body of every delivery, one schema per event type. Objects are open: receivers ignore fields they
 * do not know, so additive changes stay minor.
 */
export const webhookEventSchemas = {
  'consent.granted': eventOf('consent.granted', consentDecisionData),
  'consent.denied': eventOf('consent.denied', consentDecisionData),
  'consent.revoked': eventOf('consent.revoked', consentRevokedData),
  'consent.purpose_revoked': eventOf('consent.purpose_revoked', consentPurposeRevokedData),
  'approval.granted': eventOf('approval.granted', approvalDecisionData),
  'approval.denied': eventOf('approval.denied', approvalDecisionData),
  'approval.countered': eventOf('approval.countered', approvalDecisionData),
  'escalation.opened': eventOf('escalation.opened', escalationOpenedData),
  'delegation.revoked': eventOf('delegation.revoked', delegationRevokedData),
  'signature.signed': eventOf('signature.signed', signatureDecisionData),
  'signature.declined': eventOf('signature.declined', signatureDecisionData),
  'signature.expired': eventOf('signature.expired', signatureDecisionData),
  'signature.countered': eventOf('signature.countered', signatureDecisionData),
  'webhook.test': eventOf('webhook.test', webhookTestData),
} as const;

/** Any delivery body, discriminated by `type`. */
export const webhookEvent = z.discriminatedUnion('type', [
  webhookEventSchemas['consent.granted'],
  webhookEventSchemas['consent.denied'],
  webhookEventSchemas['consent.revoked'],
  webhookEventSchemas['consent.purpose_revoked'],
  webhookEventSchemas['approval.granted'],
  webhookEventSchemas['approval.denied'],
  webhookEventSchemas['approval.countered'],
  webhookEventSchemas['escalation.opened'],
  webhookEventSchemas['delegation.revoked'],
  webhookEventSchemas['signature.signed'],
  webhookEventSchemas['signature.declined'],
  webhookEventSchemas['signature.expired'],
  webhookEventSchemas['signature.countered'],
  webhookEventSchemas['webhook.test'],
]);
export type WebhookEvent = z.infer<typeof webhookEvent>;
/** The body of one event type, e.g. `WebhookEventOf<'consent.granted'>`. */
export type WebhookEventOf<T extends WebhookEvent['type']> = Extract<WebhookEvent, { type: T }>;
/** The `data` of one event type: what a server emits and what a receiver reads. */
export type WebhookEventData<T extends WebhookEvent['type']> = WebhookEventOf<T>['data'];

// ---- Endpoints (subscriptions) ---------------------------------------------------------------------------------

/** An absolute http(s) URL without credentials, fragment, spaces or control characters, at most 2000 characters. */
export const webhookUrl = z.string().check(
  z.maxLength(2000),
  z.refine((value) => {
    // The URL parser silently drops tabs and newlines; refuse them rather than store a URL that differs from the one sent.
    if (/[\s\x00-\x1f\x7f]/.test(value)) return false;
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password && !url.hash && !value.includes('#');
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL without credentials, fragment, spaces or control characters'),
);

/** Why an endpoint is disabled: five consecutive failed deliveries, or an update that set `status: disabled`. */
export const webhookDisabledReason = z.enum(['consecutive_failures', 'manual']);

/**
 * A webhook endpoint (subscription). `secret` (`whsec_...`) appears only in the create and `rotate_secret`
 * answers. After a rotation the previous secret also signs until `previous_secret_expires_at` (one day).
 */
export const webhookEndpoint = z.object({
  id: z.string(),
  application_id: z.string(),
  url: z.string(),
  description: z.nullable(z.string()),
  events: z.array(webhookEventSelector),
  status: z.enum(['enabled', 'disabled']),
  /** Deliveries that failed in a row (test deliveries never count); five disable the endpoint. */
  consecutive_failures: z.int(),
  disabled_reason: z.nullable(webhookDisabledReason),
  disabled_at: z.nullable(dateTime()),
  secret_rotated_at: z.nullable(dateTime()),
  previous_secret_expires_at: z.nullable(dateTime()),
  created_at: dateTime(),
  updated_at: dateTime(),
  secret: z.optional(z.string()),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpoint>;

const eventList = z.array(webhookEventSelector).check(
  z.minLength(1),
  z.maxLength(WEBHOOK_EVENT_TYPES.length + 1),
  z.refine((list) => new Set(list).size === list.length, 'events must not repeat'),
);
const description = z.string().check(z.minLength(1), z.maxLength(500));

/** `POST /api/v1/applications/{id}/webhook_endpoints`. */
export const createWebhookEndpointRequest = z.strictObject({
  webhook_endpoint: z.strictObject({
    url: webhookUrl,
    events: eventList,
    description: z.optional(z.nullable(description)),
  }),
});
export type CreateWebhookEndpointRequest = z.input<typeof createWebhookEndpointRequest>;

/**
 * `PATCH .../webhook_endpoints/{id}`: any of url, events, description, status. Setting `status: enabled` re-enables
 * a disabled endpoint, resets `consecutive_failures` and resumes its pending deliveries.
 */
export const updateWebhookEndpointRequest = z.strictObject({
  webhook_endpoint: z.strictObject({
    url: z.optional(webhookUrl),
    events: z.optional(eventList),
    description: z.optional(z.nullable(description)),
    status: z.optional(z.enum(['enabled', 'disabled'])),
  }),
});
export type UpdateWebhookEndpointRequest = z.input<typeof updateWebhookEndpointRequest>;

/** `{webhook_endpoint}` envelope. */
export const webhookEndpointEnvelope = z.object({ webhook_endpoint: webhookEndpoint });
/** `{webhook_endpoints: [...], next_cursor}`. */
export const webhookEndpointList = listOf('webhook_endpoints', webhookEndpoint);

// ---- Deliveries and attempts -----------------------------------------------------------------------------------

/**
 * One HTTP attempt. `acknowledged`: 2xx in time; `rejected`: 4xx (permanent); `failed`: 5xx, other statuses,
 * timeout or network error (retried while attempts remain); `interrupted`: the server stopped mid-attempt (not
 * counted; the delivery is sent again); `in_flight`: under way.
 */
export const webhookAttempt = z.object({
  number: z.int(),
  started_at: dateTime(),
  finished_at: z.nullable(dateTime()),
  outcome: z.enum(['in_flight', 'acknowledged', 'rejected', 'failed', 'interrupted']),
  status_code: z.nullable(z.int()),
  error: z.nullable(
    z.enum([
      'client_error',
      'server_error',
      'unexpected_status',
      'connect_timeout',
      'read_timeout',
      'network_error',
      'refused_address',
      'interrupted',
    ]),
  ),
  error_message: z.nullable(z.string()),
  duration_ms: z.nullable(z.int()),
  /** The first 1 KiB of the response body, as text; only from a receiver at a public address, else null. */
  response_body: z.nullable(z.string()),
});
export type WebhookAttempt = z.infer<typeof webhookAttempt>;

/**
 * One event's delivery to one endpoint. `pending` until it is `acknowledged` or `failed` (`failure_reason`:
 * `rejected` on a 4xx, `attempts_exhausted` after five attempts, `endpoint_deleted`). `attempt_count` counts
 * the attempts that had an outcome (interrupted ones excluded) since it was last queued: a redelivery (`POST
 * .../redeliver`) queues it again from 0, and `attempts` keeps every attempt.
 */
export const webhookDelivery = z.object({
  id: z.string(),
  webhook_endpoint_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  /** Sent by `POST .../test`: one attempt, never counted toward auto-disable. */
  test: z.boolean(),
  status: z.enum(['pending', 'acknowledged', 'failed']),
  failure_reason: z.nullable(z.enum(['rejected', 'attempts_exhausted', 'endpoint_deleted'])),
  attempt_count: z.int(),
  next_attempt_at: z.nullable(dateTime()),
  created_at: dateTime(),
  completed_at: z.nullable(dateTime()),
  attempts: z.array(webhookAttempt),
});
export type WebhookDelivery = z.infer<typeof webhookDelivery>;

/** `{delivery}` envelope. */
export const webhookDeliveryEnvelope = z.object({ delivery: webhookDelivery });
/** `{deliveries: [...], next_cursor}`, newest first. */
export const webhookDeliveryList = listOf('deliveries', webhookDelivery);

/** Query of `GET .../webhook_endpoints/{id}/deliveries`: the list query plus `status` and `event_id` filters. */
export const webhookDeliveryListQuery = z.object({
  ...listQuery.shape,
  status: z.optional(z.enum(['pending', 'acknowledged', 'failed'])),
  event_id: z.optional(z.string().check(z.maxLength(100))),
});
export type WebhookDeliveryListQuery = z.input<typeof webhookDeliveryListQuery>;
