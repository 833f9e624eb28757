// What a kind of decision is, as the shared delivery layer sees it. Sessions, deadlines and expiry, the
// transitions table, exchange tokens, cancel and drops are the layer's; everything that differs by kind is here.
import type { ConsentExchange, CreateDecisionRequest, Decision, DecisionClaims, EscalationTrigger } from '@svc/schemas';
import type { z } from 'zod/mini';
import type { Principal, ServerContext } from '../../../infra/context.js';
import type { DomainEvent } from '../../../infra/events.js';
import type { ApiError } from '../../../infra/errors.js';
import type { PageParts, PageStatus, TransitionAction } from '../participant-types.js';
import type { ApplicationRow } from '../applications.js';
import type { DecisionKind, DecisionRow } from '../row.js';

/**
 * What opens a decision: the API's Decision creation request (consent or approval), or, inside the server, a kind the
 * API does not create (a signing session, which its agreement opens).
 */
export type OpenDecisionRequest = Omit<CreateDecisionRequest, 'kind'> & { kind: DecisionKind };

/** What creation takes from the caller beyond the request (an escalation's application and deadline). */
export interface CreateOptions {
  applicationId?: string | undefined;
  /** The shared deadline; a kind may shorten it (an approval cannot outlive its escalation). */
  deadlineAt: string;
}

/** What a kind resolves from `subject_ref` at creation. */
export interface Prepared {
  /** The application that holds the decision; undefined refuses creation (`application_missing`). */
  application: ApplicationRow | undefined;
  deadlineAt: string;
  /**
   * The flow and its terms frozen into a consent decision (null for kinds without one); the addressee and their home
   * country for a decision addressed to a known person (a signing session's party).
   */
  frozen: Pick<DecisionRow, 'flow_id' | 'flow_version' | 'terms'> & Partial<Pick<DecisionRow, 'addressee_email' | 'home_country'>>;
}

/** How a participant action moved the decision (the kind mutates the row's own fields in place). */
export interface StepResult {
  /** The decision completes with this status and outcome. */
  complete?: { status: PageStatus; outcome: string };
  /** A refusal stored with the step (a wrong code counts as an attempt): thrown after the commit. */
  refusal?: ApiError;
  /** The sign-in code just issued: mailed to the address, and shown on a sandbox page when no SMTP server is set. */
  sandboxCode?: string;
  /** The step changed nothing the host sees (a code re-sent): no transition is recorded or reported. */
  unchanged?: true;
}

/** What the kind contributes to the hosted page. */
export interface KindPage<K extends DecisionKind> {
  /** The page's heading (its document title adds the application's name). */
  heading: string;
  locale?: string | undefined;
  /** `PageData[kind]`. */
  part: PageParts[K];
}

/** How an open decision shows in the Trust Inbox of the person it is addressed to. */
export interface InboxEntry {
  /** What is asked, in a few words. */
  title: string;
  /** One more line about it (who asks, how much), or null. */
  summary: string | null;
  /** An approval's trigger type when it answers an agent's escalation; null otherwise. */
  trigger: EscalationTrigger | null;
}

/** A participant action other than the shared `cancel`. */
export type KindAction = Exclude<TransitionAction, { action: 'cancel' }>;

/** One kind of decision: a module in `kinds/<kind>/`, registered in `kinds/index.ts`. */
export interface DecisionKindModule<K extends DecisionKind = DecisionKind> {
  readonly kind: K;
  /** Body schemas of the participant actions the kind accepts, for `POST /decisions/{token}/transitions`. */
  readonly actions: readonly z.core.$ZodTypeDiscriminable[];
  /**
   * False when the kind's decisions cannot be cancelled (`cancel` is refused `invalid_transition`): a signing session
   * stays open until its deadline, since "later" must not end it without one of its outcomes.
   */
  readonly cancellable?: false;
  /**
   * Validates `subject_ref` and resolves the application, the deadline and what is frozen into the decision, among it
   * who the decision is addressed to (`addressee_email`, lower-case: the person whose Trust Inbox lists it), by the
   * kind's rule.
   */
  prepare(ctx: ServerContext, principal: Principal, request: OpenDecisionRequest, options: CreateOptions): Prepared;
  /** `total_steps` of the page: its screens plus the final (terminal) position. */
  totalSteps(row: DecisionRow): number;
  /** The kind's part of the hosted page's data. */
  page(ctx: ServerContext, row: DecisionRow): KindPage<K>;
  /** Applies one participant action inside the transition's transaction; refuses what the kind does not accept. */
  act(ctx: ServerContext, row: DecisionRow, request: KindAction, now: string): StepResult;
  /** At completion, before the row is written: a token the exchange hands out (sealed into the row); its value. */
  issue?(ctx: ServerContext, row: DecisionRow, exchangeToken: string, now: string): string | undefined;
  /** Makes the completion's record in its transaction and calls `announce` with the event data the record adds. */
  record(ctx: ServerContext, row: DecisionRow, announce: (data: Record<string, unknown>) => void): void;
  /** The domain event (webhook) of a completion; `issued` is what {@link issue} returned. */
  event(row: DecisionRow, issued: string | undefined, data: Record<string, unknown>): DomainEvent;
  /** The id of the record a completed decision made, or null. */
  recordId(ctx: ServerContext, row: DecisionRow): string | null;
  /** The claims of a completed decision, as the exchange returns them. */
  claims(row: DecisionRow, ctx: ServerContext): DecisionClaims;
  /** At exchange: the token {@link issue} sealed, opened with the exchange token. */
  redeem?(
    ctx: ServerContext,
    row: DecisionRow,
    exchangeToken: string,
    now: string,
  ): Pick<ConsentExchange, 'access_token' | 'token_type' | 'expires_in'> | undefined;
  /**
   * When the shared layer moved the decision to `expired` (once: inside the transaction whose conditional update moved
   * it): what the kind records and announces of an expiry (a signing session's party outcome and `signature.expired`).
   */
  expire?(ctx: ServerContext, row: DecisionRow, now: string): void;
  /**
   * Whether what a completed decision recorded no longer holds (every consent of a consent's record withdrawn): the
   * shared layer then moves it `fulfilled -> revoked` when it is read.
   */
  withdrawn?(ctx: ServerContext, row: DecisionRow): boolean;
  /**
   * How an open decision addressed to someone shows in their Trust Inbox, or null when it no longer waits there though
   * it is still open (an approval whose escalation was answered through another decision). Absent: listed under its
   * page's heading.
   */
  inbox?(ctx: ServerContext, row: DecisionRow): InboxEntry | null;
  /** Fields the API's decision adds for this kind (an approval's trigger). */
  wire?(ctx: ServerContext, row: DecisionRow): Partial<Decision>;
}
