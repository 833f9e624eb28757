// The shapes the record path passes along: what a channel hands in, what comes back, and the draft each step adds to.
import type { AnswerAuthentication, CollectionChannel, ConsentRecord, DecisionEntry } from '@svc/schemas';
import type { DomainEvent } from '../../infra/events.js';
import type { FieldError } from '../../infra/errors.js';
import type { FlowVersionRecord } from '../../platform/flows/store.js';
import type { IssuedOutcome, Refusal } from './attestation.js';
import type { RecordRow } from './rows.js';

/** What a channel hands to `createConsentRecord`. Fields map one to one onto the Record API request. */
export interface ConsentRecordInput {
  /** The account the record belongs to (the caller's). */
  accountId: string;
  /** When given, the flow must belong to this application (captures know it from the publishable key). */
  applicationId?: string | undefined;
  flowId: string;
  /** The flow version the decision was shown under; default: the version in force at `capturedAt`. */
  flowVersion?: number | undefined;
  /**
   * The person: bound by email; `external_id` stays on the record. `null` when no identity was established (a hosted
   * decision nobody signed in to): the record is anonymous, its receipt says `anonymous: true` and has no
   * `pii_principal_id`, and the record id stands in for the principal (see `isAnonymousPrincipal`).
   */
  subject: { email: string; external_id?: string | null | undefined; country?: string | undefined } | null;
  /** Map purpose key -> Decision entry. */
  decisions: Readonly<Record<string, DecisionEntry>>;
  /** ISO 8601; default now. Never more than five minutes ahead of the server clock. */
  capturedAt?: string | undefined;
  channel: CollectionChannel;
  /** A repeat with the same key (per application) returns the same record. */
  idempotencyKey?: string | undefined;
  locale?: string | undefined;
  /** Digest of the whole notice shown (`sha256:<hex>` or hex), compared with `noticeHash`. */
  noticeHash?: string | undefined;
  /** The caller's own comparison of the digests with the wording (captures compare text digests too); default: `wordingVerdictOf` on `noticeHash`. */
  wordingVerdict?: 'match' | 'wording_drift' | null | undefined;
  /** Digests per purpose key; kept with the record as evidence. */
  noticeHashes?: Readonly<Record<string, string>> | undefined;
  /** Capture context; personal data in it is refused (422 `personal_data`). */
  clientFacts?: Record<string, unknown> | undefined;
  /** Do not queue the receipt email. */
  suppressReceipt?: boolean | undefined;
  /** What the service rendered (embedded_field channels). */
  renderingEvidence?: Record<string, unknown> | undefined;
  /** Whether the presentation was attested (receipt extension `presentation_attested`). */
  presentationAttested?: boolean | undefined;
  deliveryMode?: 'redirect' | 'embed' | 'popup' | 'link' | undefined;
  /** How the service collected the decision, when it can say more than the channel (receipt `collection_mechanism`). */
  collectionMechanism?: string | undefined;
  /** How the person proved it was them on the hosted page, and when (receipt `authentication`). */
  authentication?: AnswerAuthentication | undefined;
  /** The form platform's name (form_platform_webhook). */
  collectionPlatform?: string | undefined;
  /** Set by the import: the import the record belongs to. */
  importId?: string | undefined;
  /** The signature the consent was captured with (receipt `signature_evidence`), resolved by the caller. */
  signatureEvidence?: { pointer: string; digest: string } | undefined;
}

/** The record made (or found again through its idempotency key). */
export interface CreatedConsentRecord {
  record: ConsentRecord;
  /** False when the idempotency key found an earlier record. */
  created: boolean;
}

/** What one attempt to record decides: a new record, an earlier one, or refusals named by purpose. */
export type RecordOutcome =
  | { kind: 'created' | 'existing'; record: ConsentRecord }
  | { kind: 'refused'; refusals: Refusal[]; errors: FieldError[] };

/** Options of `recordDecisions`. */
export interface RecordOptions {
  /** Queue the receipt email (unless the input suppresses it). Default true. */
  sendReceipt?: boolean;
  /** Emit no domain events (a dry run that will be rolled back must not reach listeners). Default false. */
  quiet?: boolean;
  /**
   * Called, inside the transaction, with the `consent.granted`/`consent.denied` event the record would emit, instead
   * of emitting it: a channel that knows more about the decision (a hosted decision's consent token) emits one event
   * carrying both, so webhooks fire once per decision. Withdrawals the record causes on the person's earlier record
   * are still emitted, after it. Not called for a record found again through its idempotency key, nor when `quiet`.
   */
  announce?: ((event: DomainEvent) => void) | undefined;
}

/** Step 2's verdict on an input it lets through: the governing terms and the outcome per purpose. */
export interface Admitted {
  now: string;
  capturedAt: string;
  terms: FlowVersionRecord;
  applicationId: string;
  /** The request fingerprint an idempotency key is bound to. */
  print: string;
  outcomes: IssuedOutcome[];
}

/** Step 3: who the record is about. */
export interface Subject {
  personId: string;
  /** Normalised; empty for an anonymous principal. */
  email: string;
  externalId: string | null;
  anonymous: boolean;
}

/** What the new record changes on the person's latest earlier record under the flow. */
export interface Supersession {
  previous: RecordRow | undefined;
  /** Purposes whose outcome differs from the previous record's (audit evidence). */
  changed: { key: string; from: string | null; to: string }[];
  /** Purposes granted before and declined now: withdrawn on the previous record. */
  moved: string[];
}

/** Everything known about a record before it is written. */
export interface RecordDraft extends Admitted, Subject, Supersession {
  id: string;
  expiresAt: string | null;
  verdict: 'match' | 'wording_drift' | null;
}
