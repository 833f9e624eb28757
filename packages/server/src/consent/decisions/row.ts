// A stored decision and the facts about it every kind reads. Kind modules import this file, so it imports none of
// them (and nothing that does).
import type { CollectionChannel, DecisionKind } from '@svc/schemas';
import type { PageStatus } from './participant-types.js';

export type { DecisionKind };

/** Lifetime of a consent token (spec: 5 minutes, single use) and of the exchange token issued with it. */
export const TOKEN_LIFETIME_SECONDS = 5 * 60;

/** An exchange or consent token: 43 URL-safe base64 characters (32 random bytes). */
export const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** Statuses after which nothing more happens. */
export const TERMINAL: ReadonlySet<PageStatus> = new Set<PageStatus>([
  'fulfilled',
  'declined',
  'approved',
  'denied',
  'countered',
  'signed',
  'cancelled',
  'expired',
  'revoked',
]);

/** A stored decision. */
export interface DecisionRow {
  id: string;
  session_token: string;
  account_id: string;
  application_id: string;
  kind: DecisionKind;
  subject_ref: string;
  flow_id: string | null;
  flow_version: number | null;
  terms: string | null;
  delivery_mode: 'embed' | 'popup' | 'redirect';
  embed_origin: string | null;
  redirect_uri: string | null;
  scope: string | null;
  state: string | null;
  meeting_id: string | null;
  status: PageStatus;
  step_index: number;
  outcome: string | null;
  subject_email: string | null;
  verify_code_hash: string | null;
  verify_attempts: number;
  evidence: string | null;
  purposes: string | null;
  counter_proposal: string | null;
  cancelled_by: string | null;
  consent_transaction_id: string | null;
  exchange_token_hash: string | null;
  exchange_expires_at: string | null;
  exchanged_at: string | null;
  sealed_consent_token: string | null;
  drop_reports: number;
  deadline_at: string;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  /** The person the decision is addressed to (a signing session's party), lower-case; null when anyone may answer. */
  addressee_email: string | null;
  /** The addressee's home country, an ISO code (a signing session's party). */
  home_country: string | null;
  /** The address the person proved on the page before answering (lower-case); null until someone did. */
  authenticated_email: string | null;
  /** How they proved it: signed in on the trust URL, the page's own email code, or their access token (API votes). */
  authentication_method: 'trust_session' | 'email_code' | 'access_token' | null;
  /** When they were authenticated (the sign-in's time for a session, the code's check for a code). */
  authenticated_at: string | null;
}

export const plusSeconds = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000).toISOString();

/** Where a decision was collected (its record's channel): `embedded` in the iframe embed, else `hosted`. */
export function collectionChannelOf(row: Pick<DecisionRow, 'delivery_mode'>): Extract<CollectionChannel, 'hosted' | 'embedded'> {
  return row.delivery_mode === 'embed' ? 'embedded' : 'hosted';
}

/** The fields every kind's completion event carries first (after its record's). */
export function eventBaseOf(row: DecisionRow) {
  return {
    decision_id: row.id,
    consent_transaction_id: row.consent_transaction_id,
    decided_at: row.completed_at,
    delivery_mode: row.delivery_mode,
  };
}
