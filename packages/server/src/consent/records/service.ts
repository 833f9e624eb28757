// Consent records: the one place records are made, whatever the channel (Record API, import, captures, form
// platforms). Each record is written in one transaction together with its frozen receipt, the audit event, the
// withdrawals a changed decision causes on the person's previous record, and the domain events webhooks listen to.
import type {
  CollectionChannel,
  ConsentRecord,
  ConsentRecordStatus,
  DecisionEntry,
  EventChannel,
  PurposeBasis,
  RecordPurposeOutcome,
} from '@svc/client/schemas';
import type { AnswerAuthentication, ConsentReceiptRecord } from '@svc/client/schemas';
import { applicationHome } from '../../infra/cells/routing.js';
import { appendAuditEvent } from '../audit/chain.js';
import { jcsHash } from '../audit/hash.js';
import { findApplication } from '../../platform/application-store.js';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import type { DomainEvent } from '../../infra/events.js';
import { ApiError, notFound, unprocessable, type FieldError } from '../../infra/errors.js';
import { homedId } from '../../infra/ids.js';
import { getActivatedVersions, getFlowVersion, type FlowVersionRecord } from '../../platform/flows/store.js';
import { agentDisclosuresOf } from '../../authority/disclosures/agents.js';
import { freezeReceipt, renderReceipt, type WithdrawalFact } from '../receipts/canonical.js';
import { wordingVerdictOf } from '../receipts/notice.js';
import { addDuration, capturabilityProblems, evaluateDecisions, personalDataPaths, type IssuedOutcome, type Refusal } from './attestation.js';
import { stmt } from '../../infra/db.js';
import { transaction } from '../../infra/transaction.js';

/** Seconds a `captured_at` may lie ahead of the server clock (clock skew) before it counts as in the future. */
export const CAPTURED_AT_SKEW_SECONDS = 300;

/** What a channel hands to {@link createConsentRecord}. Fields map one to one onto the Record API request. */
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
   * `pii_principal_id`, and the record id stands in for the principal (see {@link isAnonymousPrincipal}).
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
  /** Digest of the whole notice shown (`sha256:<hex>` or hex), compared with {@link noticeHash}. */
  noticeHash?: string | undefined;
  /** The caller's own comparison of the digests with the wording (captures compare text digests too); default: {@link wordingVerdictOf} on `noticeHash`. */
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

/**
 * Channels whose decision the service walked through itself in its hosted pages (full page, popup, redirect, and
 * the iframe embed). The capturability rule (spec: "A flow is capturable only when its consent needs just a
 * decision ... and it declares a consent duration") is about consent taken in the organisation's own form; the
 * hosted pages run sign-in, verification and disclosures themselves, so any active flow can be recorded through them.
 */
export const HOSTED_DECISION_CHANNELS: ReadonlySet<CollectionChannel> = new Set<CollectionChannel>(['hosted', 'embedded']);

/**
 * Whether a record's principal is anonymous: an anonymous record's principal is the record itself (its person row
 * has the record id as id, and no email), as the spec has it: "`record_id` stands in for the principal".
 */
export function isAnonymousPrincipal(personId: string): boolean {
  return personId.startsWith('cr_');
}

/** What one attempt to record decides: a new record, an earlier one, or refusals named by purpose. */
export type RecordOutcome =
  | { kind: 'created' | 'existing'; record: ConsentRecord }
  | { kind: 'refused'; refusals: Refusal[]; errors: FieldError[] };

interface RecordRow {
  seq: number;
  id: string;
  account_id: string;
  application_id: string;
  flow_id: string;
  flow_version: number;
  person_id: string;
  external_id: string | null;
  channel: CollectionChannel;
  captured_at: string;
  recorded_at: string;
  expires_at: string | null;
  locale: string;
  notice_hash: string | null;
  wording_verdict: 'match' | 'wording_drift' | null;
  purposes: string;
  idempotency_key: string | null;
  request_fingerprint: string | null;
  import_id: string | null;
  supersedes_record_id: string | null;
  suppress_receipt: number;
  client_facts: string | null;
  receipt: string;
}

interface WithdrawalRow extends WithdrawalFact {
  seq: number;
  record_id: string;
  superseding_record_id: string | null;
}

// ---- flows --------------------------------------------------------------------------------------------------

/**
 * Resolves which flow version governs a record, once per flow: the version whose activation is the latest at or
 * before `captured_at` (earlier versions keep governing earlier consents), or the active version for a record
 * captured before the flow was first activated.
 */
export class FlowTermsResolver {
  private versions: FlowVersionRecord[] | undefined;
  private flowStatus: 'draft' | 'active' | undefined;
  private activeVersion: number | null = null;

  constructor(
    private readonly ctx: ServerContext,
    readonly accountId: string,
    readonly flowId: string,
    private readonly applicationId?: string,
    private readonly options: { requireCapturable?: boolean } = {},
  ) {}

  /**
   * Throws 404 when the flow is not the account's (or not the application's), 422 when it is a draft or (unless
   * `requireCapturable` is false: the hosted decision channels) not capturable.
   */
  check(): void {
    this.load();
  }

  private load(): FlowVersionRecord[] {
    if (this.versions) return this.versions;
    const flow = getActivatedVersions(this.ctx, this.accountId, this.flowId);
    if (!flow || (this.applicationId && flow.application_id !== this.applicationId)) {
      throw new ApiError(404, 'No such flow.', 'flow_not_found', [{ path: 'flow_id', code: 'flow_not_found', message: 'No such flow.' }]);
    }
    if (flow.status !== 'active' || flow.active_version === null) {
      throw unprocessable('The flow is a draft; activate it before recording consent under it.', 'flow_not_active', [
        { path: 'flow_id', code: 'flow_not_active', message: 'the flow is a draft' },
      ]);
    }
    this.flowStatus = flow.status;
    this.activeVersion = flow.active_version;
    const { versions } = flow;
    const active = versions.find((v) => v.version === this.activeVersion);
    const problems = !active ? ['the flow has no active version'] : this.options.requireCapturable === false ? [] : capturabilityProblems(active.config);
    if (problems.length) {
      throw unprocessable(`The flow cannot take recorded consent: ${problems.join('; ')}.`, 'flow_not_capturable',
        problems.map((message) => ({ path: 'flow_id', code: 'flow_not_capturable', message })));
    }
    this.versions = versions;
    return versions;
  }

  /** The version governing a record captured at `capturedAt` (or the given version number). */
  versionFor(capturedAt: string, explicit?: number): FlowVersionRecord {
    const versions = this.load();
    if (explicit !== undefined) {
      const found = versions.find((v) => v.version === explicit);
      if (!found) {
        throw unprocessable(`Flow version ${explicit} was never published.`, 'flow_version_not_found', [
          { path: 'flow_version', code: 'flow_version_not_found', message: `version ${explicit} was never activated` },
        ]);
      }
      return found;
    }
    let chosen: FlowVersionRecord | undefined;
    for (const v of versions) if (v.activated_at! <= capturedAt) chosen = v;
    return chosen ?? versions.find((v) => v.version === this.activeVersion)!;
  }

  get status() {
    return this.flowStatus;
  }

  private applications = new Map<string, ReturnType<typeof findApplication>>();

  /** The application (looked up once per resolver). */
  application(id: string): ReturnType<typeof findApplication> {
    if (!this.applications.has(id)) this.applications.set(id, findApplication(this.ctx, id));
    return this.applications.get(id);
  }
}

// ---- reading -------------------------------------------------------------------------------------------------

function withdrawalsOf(ctx: ServerContext, recordId: string): WithdrawalRow[] {
  return stmt<[string], Omit<WithdrawalRow, 'scoped'> & { scoped: number }>(ctx.db, 'SELECT * FROM consent_withdrawals WHERE record_id = ? ORDER BY seq')
    .all(recordId).map((w) => ({ ...w, scoped: w.scoped === 1 }));
}

function issuedOf(row: RecordRow): IssuedOutcome[] {
  return JSON.parse(row.purposes) as IssuedOutcome[];
}

/** A record's current purpose outcomes and status at `now`. */
export function recordState(issued: readonly IssuedOutcome[], withdrawals: readonly WithdrawalFact[], expiresAt: string | null, now: string): {
  status: ConsentRecordStatus;
  purposes: RecordPurposeOutcome[];
} {
  const withdrawn = new Map(withdrawals.map((w) => [w.purpose_key, w.outcome]));
  const purposes = issued.map((o) => ({ key: o.key, outcome: withdrawn.get(o.key) ?? o.outcome, basis: o.basis as PurposeBasis | null }));
  const granted = issued.filter((o) => o.outcome === 'granted');
  const allRevoked = granted.length > 0 && granted.every((o) => withdrawn.get(o.key) === 'revoked');
  const status: ConsentRecordStatus = allRevoked ? 'revoked' : expiresAt !== null && expiresAt <= now ? 'expired' : 'fulfilled';
  return { status, purposes };
}

/** The person's email; empty for an anonymous principal, which has none. */
function emailOf(ctx: ServerContext, personId: string): string {
  if (isAnonymousPrincipal(personId)) return '';
  return stmt<[string], { email: string }>(ctx.db, 'SELECT email FROM persons WHERE id = ?').get(personId)?.email ?? '';
}

function toWire(ctx: ServerContext, row: RecordRow, withdrawals: readonly WithdrawalFact[] = withdrawalsOf(ctx, row.id)): ConsentRecord {
  const { status, purposes } = recordState(issuedOf(row), withdrawals, row.expires_at, isoNow(ctx.clock));
  return {
    id: row.id,
    status,
    purposes,
    receipt_id: row.id,
    captured_at: row.captured_at,
    recorded_at: row.recorded_at,
    expires_at: row.expires_at,
    channel: row.channel,
    flow_id: row.flow_id,
    flow_version: row.flow_version,
    subject: { email: emailOf(ctx, row.person_id), external_id: row.external_id },
    wording_verdict: row.wording_verdict,
  };
}

function findRow(ctx: ServerContext, accountId: string, id: string): RecordRow | undefined {
  const row = stmt<[string], RecordRow>(ctx.db, 'SELECT * FROM consent_records WHERE id = ?').get(id);
  return row && row.account_id === accountId ? row : undefined;
}

/** The account's record `id` in its wire shape, or undefined. */
export function getConsentRecord(ctx: ServerContext, accountId: string, id: string): ConsentRecord | undefined {
  const row = findRow(ctx, accountId, id);
  return row && toWire(ctx, row);
}

/** The receipt of the account's record `id` as read now (frozen part plus appended events), or undefined. */
export function readReceipt(ctx: ServerContext, accountId: string, id: string): ConsentReceiptRecord | undefined {
  const row = findRow(ctx, accountId, id);
  if (!row) return undefined;
  return renderReceipt(JSON.parse(row.receipt) as ConsentReceiptRecord, {
    withdrawals: withdrawalsOf(ctx, row.id),
    expiresAt: row.expires_at,
    grantedConsentKeys: issuedOf(row).filter((o) => o.outcome === 'granted').map((o) => o.key),
    now: isoNow(ctx.clock),
  });
}

// ---- writing -------------------------------------------------------------------------------------------------

function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The stand-in principal of an anonymous record: a person row whose id is the record id. Its email column (unique per
 * account, not null) holds `anonymous:<record id>`, which no email lookup can match (emails are validated, and this
 * has no `@`); {@link emailOf} answers it as empty.
 */
function anonymousPrincipal(ctx: ServerContext, accountId: string, recordId: string, now: string): string {
  stmt(ctx.db, 'INSERT INTO persons (id, account_id, email, created_at) VALUES (?, ?, ?, ?)').run(recordId, accountId, `anonymous:${recordId}`, now);
  return recordId;
}

/** The person with this email in the account, made on first sight. */
export function personFor(ctx: ServerContext, accountId: string, email: string, now: string): string {
  const normalised = normaliseEmail(email);
  const found = stmt<[string, string], { id: string }>(ctx.db, 'SELECT id FROM persons WHERE account_id = ? AND email = ?').get(accountId, normalised);
  if (found) return found.id;
  const id = homedId(ctx.country, 'prs_', 20);
  stmt(ctx.db, 'INSERT INTO persons (id, account_id, email, created_at) VALUES (?, ?, ?, ?)').run(id, accountId, normalised, now);
  return id;
}

function fingerprint(input: ConsentRecordInput): string {
  return jcsHash({
    channel: input.channel,
    flow_id: input.flowId,
    flow_version: input.flowVersion ?? null,
    subject: input.subject && { email: normaliseEmail(input.subject.email), external_id: input.subject.external_id ?? null },
    decisions: input.decisions,
    captured_at: input.capturedAt ? new Date(input.capturedAt).toISOString() : null,
    locale: input.locale ?? null,
    notice_hash: input.noticeHash ?? null,
    notice_hashes: input.noticeHashes ?? null,
    client_facts: input.clientFacts ?? null,
    suppress_receipt: input.suppressReceipt ?? false,
    // Absent unless given, so fingerprints of records made before it existed stay as they were.
    ...(input.signatureEvidence ? { signature_evidence: input.signatureEvidence } : {}),
  });
}

function refusalErrors(refusals: readonly Refusal[]): FieldError[] {
  return refusals.map((r) => ({ path: r.purpose === null ? '(body)' : `decisions.${r.purpose}`, code: r.code, message: r.message }));
}

/** The subject reference events carry: null for an anonymous principal. */
function subjectRef(personId: string, email: string, externalId: string | null) {
  return isAnonymousPrincipal(personId) ? null : { email, external_id: externalId };
}

/** Consent was given for nothing: the flow asked for consent and every consent purpose was declined. */
function isDenial(outcomes: readonly IssuedOutcome[]): boolean {
  const consent = outcomes.filter((o) => o.basis === 'consent');
  return consent.length > 0 && consent.every((o) => o.outcome !== 'granted');
}

/** Options of {@link recordDecisions}. */
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

/**
 * Records decisions in one transaction (a savepoint inside the caller's); never throws for a refusal (the import
 * needs them per row) but returns it. `resolver` resolves the flow (it throws 404/422 for the flow as a whole).
 */
export function recordDecisions(ctx: ServerContext, input: ConsentRecordInput, resolver: FlowTermsResolver, options: RecordOptions = {}): RecordOutcome {
  return transaction(ctx.db, () => recordInTransaction(ctx, input, resolver, options));
}

function recordInTransaction(ctx: ServerContext, input: ConsentRecordInput, resolver: FlowTermsResolver, options: RecordOptions): RecordOutcome {
  const { db } = ctx;
  const now = isoNow(ctx.clock);
  const capturedAt = input.capturedAt ? new Date(input.capturedAt).toISOString() : now;
  if (Date.parse(capturedAt) > ctx.clock.now() + CAPTURED_AT_SKEW_SECONDS * 1000) {
    const refusal: Refusal = { purpose: null, code: 'captured_in_future', message: 'captured_at lies in the future.' };
    return { kind: 'refused', refusals: [refusal], errors: [{ path: 'captured_at', code: refusal.code, message: refusal.message }] };
  }
  const terms = resolver.versionFor(capturedAt, input.flowVersion);
  const applicationId = terms.application_id;
  const print = fingerprint(input);

  if (input.idempotencyKey !== undefined) {
    const earlier = stmt<[string, string], RecordRow>(db, 'SELECT * FROM consent_records WHERE application_id = ? AND idempotency_key = ?')
      .get(applicationId, input.idempotencyKey);
    if (earlier) {
      if (earlier.request_fingerprint !== print) {
        const refusal: Refusal = { purpose: null, code: 'idempotency_key_reused', message: 'idempotency_key was used for a different record.' };
        return { kind: 'refused', refusals: [refusal], errors: [{ path: 'idempotency_key', code: refusal.code, message: refusal.message }] };
      }
      return { kind: 'existing', record: toWire(ctx, earlier) };
    }
  }

  // A person's records live only in their home cell: the subject's country, else the application's.
  const home = input.subject?.country ?? applicationHome(ctx, applicationId);
  if (home !== ctx.country) {
    const refusal: Refusal = { purpose: null, code: 'wrong_country', message: `The subject's records are homed in ${home}; send this record to that country's cell.` };
    return { kind: 'refused', refusals: [refusal], errors: [{ path: 'subject.country', code: refusal.code, message: refusal.message }] };
  }

  const evaluation = evaluateDecisions(terms.config, input.decisions);
  if (!evaluation.ok) return { kind: 'refused', refusals: evaluation.refusals, errors: refusalErrors(evaluation.refusals) };
  const outcomes = evaluation.outcomes;

  const id = homedId(ctx.country, 'cr_', 20);
  const anonymous = input.subject === null;
  const personId = input.subject ? personFor(ctx, terms.account_id, input.subject.email, now) : anonymousPrincipal(ctx, terms.account_id, id, now);
  const email = input.subject ? normaliseEmail(input.subject.email) : '';
  const externalId = input.subject?.external_id ?? null;
  const expiresAt = terms.config.consent_duration ? addDuration(capturedAt, terms.config.consent_duration) : null;
  const verdict = input.wordingVerdict !== undefined ? input.wordingVerdict : wordingVerdictOf(input.noticeHash, terms);
  const application = resolver.application(applicationId);

  // The person's latest earlier record under this flow: purposes that moved from granted to declined are withdrawn.
  const previous = stmt<[string, string, string], RecordRow>(db,
    'SELECT * FROM consent_records WHERE person_id = ? AND flow_id = ? AND captured_at <= ? ORDER BY captured_at DESC, seq DESC LIMIT 1')
    .get(personId, input.flowId, capturedAt);
  const previousWithdrawals = previous ? withdrawalsOf(ctx, previous.id) : [];
  const previousState = previous ? recordState(issuedOf(previous), previousWithdrawals, previous.expires_at, now) : undefined;
  // Compared by effect: a revoked purpose declined again is no change.
  const effect = (outcome: string | undefined) => (outcome === 'revoked' ? 'declined' : outcome);
  const changed = previousState
    ? outcomes.filter((o) => effect(previousState.purposes.find((p) => p.key === o.key)?.outcome) !== o.outcome)
      .map((o) => ({ key: o.key, from: previousState.purposes.find((p) => p.key === o.key)?.outcome ?? null, to: o.outcome }))
    : [];
  const moved = previous && previousState && previousState.status !== 'expired'
    ? outcomes.filter((o) => o.outcome === 'declined' && previousState.purposes.find((p) => p.key === o.key)?.outcome === 'granted').map((o) => o.key)
    : [];

  const receipt = freezeReceipt({
    storedIn: ctx.country,
    recordId: id,
    personId,
    anonymous,
    application: { id: applicationId, name: application?.name ?? applicationId, region: application?.region ?? 'dev' },
    flow: { id: input.flowId, title: terms.title, description: terms.description, config: terms.config },
    outcomes,
    channel: input.channel,
    locale: input.locale ?? terms.config.locale,
    capturedAt,
    recordedAt: now,
    expiresAt,
    wordingVerdict: verdict,
    supersedesRecordId: previous?.id ?? null,
    deliveryMode: input.deliveryMode,
    collectionMechanism: input.collectionMechanism,
    authentication: input.authentication,
    presentationAttested: input.presentationAttested,
    renderingEvidence: input.renderingEvidence,
    collectionPlatform: input.collectionPlatform,
    agentDisclosures: agentDisclosuresOf(ctx, terms.config) as unknown as Record<string, unknown>[],
    signatureEvidence: input.signatureEvidence,
  });

  stmt(db, `INSERT INTO consent_records (id, account_id, application_id, flow_id, flow_version, person_id, external_id, channel, captured_at,
            recorded_at, expires_at, locale, notice_hash, wording_verdict, purposes, idempotency_key, request_fingerprint, import_id,
            supersedes_record_id, suppress_receipt, client_facts, receipt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(id, terms.account_id, applicationId, input.flowId, terms.version, personId, externalId, input.channel, capturedAt,
      now, expiresAt, input.locale ?? terms.config.locale, input.noticeHash ?? null, verdict, JSON.stringify(outcomes),
      input.idempotencyKey ?? null, print, input.importId ?? null, previous?.id ?? null, input.suppressReceipt ? 1 : 0,
      input.clientFacts || input.noticeHashes ? JSON.stringify({ ...(input.clientFacts ?? {}), ...(input.noticeHashes ? { notice_hashes: input.noticeHashes } : {}) }) : null,
      JSON.stringify(receipt));

  // An anonymous principal has no address to send the receipt to.
  if ((options.sendReceipt ?? true) && !input.suppressReceipt && !anonymous) {
    stmt(db, "INSERT INTO receipt_emails (record_id, person_id, status, created_at) VALUES (?, ?, 'queued', ?)").run(id, personId, now);
  }

  const record: ConsentRecord = {
    id, status: recordState(outcomes, [], expiresAt, now).status, purposes: outcomes.map(({ key, outcome, basis }) => ({ key, outcome, basis })),
    receipt_id: id, captured_at: capturedAt, recorded_at: now, expires_at: expiresAt, channel: input.channel, flow_id: input.flowId,
    flow_version: terms.version, subject: { email, external_id: externalId }, wording_verdict: verdict,
  };
  const purposeOutcomes = outcomes.map(({ key, outcome, basis }) => ({ key, outcome, basis }));
  const evidence = {
    record_id: id,
    flow_id: input.flowId,
    flow_version: terms.version,
    person_id: personId,
    channel: input.channel,
    captured_at: capturedAt,
    purposes: outcomes.map(({ key, outcome }) => ({ key, outcome })),
    ...(previous ? { supersedes_record_id: previous.id } : {}),
    ...(changed.length && previous ? { changed } : {}),
    ...(input.importId ? { import_id: input.importId } : {}),
    ...(anonymous ? { anonymous: true } : {}),
  };
  const decision = previous && changed.length ? 'modified' : isDenial(outcomes) ? 'denied' : 'granted';
  appendAuditEvent(ctx, { applicationId, type: `consent.${decision}`, occurredAt: now, data: { decision, ...evidence } });
  const recorded: DomainEvent = {
    type: isDenial(outcomes) ? 'consent.denied' : 'consent.granted',
    application_id: applicationId,
    occurred_at: now,
    data: {
      record_id: id,
      user_id: anonymous ? null : personId,
      flow_id: input.flowId,
      flow_version: terms.version,
      channel: input.channel,
      subject_ref: subjectRef(personId, email, externalId),
      purposes: purposeOutcomes,
      captured_at: capturedAt,
      recorded_at: now,
      expires_at: expiresAt,
      supersedes_record_id: previous?.id ?? null,
      ...(input.importId ? { import_id: input.importId } : {}),
    },
  };
  if (!options.quiet) {
    if (options.announce) options.announce(recorded);
    else ctx.events.emit(ctx, recorded);
  }

  if (previous && moved.length) {
    withdrawPurposes(ctx, previous, moved.map((key) => ({ key, outcome: 'revoked' as const })), {
      eventChannel: 'newer_record', scoped: true, supersedingRecordId: id, now, quiet: options.quiet,
    });
  }
  return { kind: 'created', record };
}

/**
 * Creates a consent record through any channel, in one transaction (record, frozen receipt, audit event, domain
 * events, withdrawals on the person's previous record for the flow). Returns the record and whether it is new.
 * Throws {@link ApiError}: 404 `flow_not_found`; 422 `flow_not_active`, `flow_not_capturable`, `personal_data`
 * (client facts), `attestation_refused` (errors name `decisions.<key>` with the refusal code),
 * `captured_in_future`, `idempotency_key_reused`. The hosted decision channels ({@link HOSTED_DECISION_CHANNELS})
 * are not held to the capturability rule. `options.announce` lets the channel emit the record's event itself.
 *
 * @example
 * const { record, created } = createConsentRecord(ctx, {
 *   accountId, flowId, channel: 'embedded_field', subject: { email: 'ada@example.com' },
 *   decisions: { newsletter: { decision: 'granted' } }, flowVersion: 3, renderingEvidence: { ... },
 * });
 */
export function createConsentRecord(ctx: ServerContext, input: ConsentRecordInput, options: Pick<RecordOptions, 'announce'> = {}): CreatedConsentRecord {
  if (input.clientFacts !== undefined) {
    const found = personalDataPaths(input.clientFacts);
    if (found.length) {
      throw unprocessable('client_facts must not hold personal data (an email address or a phone number).', 'personal_data',
        found.map((f) => ({ path: f.path, code: 'personal_data', message: `looks like ${f.kind === 'email' ? 'an email address' : 'a phone number'}` })));
    }
  }
  const resolver = new FlowTermsResolver(ctx, input.accountId, input.flowId, input.applicationId, {
    requireCapturable: !HOSTED_DECISION_CHANNELS.has(input.channel),
  });
  resolver.check();
  const outcome = recordDecisions(ctx, input, resolver, options);
  if (outcome.kind !== 'refused') return { record: outcome.record, created: outcome.kind === 'created' };
  const [first] = outcome.refusals;
  const code = first && (first.code === 'captured_in_future' || first.code === 'idempotency_key_reused') ? first.code : 'attestation_refused';
  throw unprocessable(
    code === 'attestation_refused' ? `The decisions were refused: ${outcome.refusals.map((r) => r.message).join(' ')}` : first!.message,
    code,
    outcome.errors,
  );
}

/** A purpose to withdraw and what it becomes. */
interface WithdrawalTarget {
  key: string;
  outcome: 'revoked' | 'objected';
}

/** Writes withdrawals on a record (inside the caller's transaction), appends the audit event and emits the domain events. */
function withdrawPurposes(
  ctx: ServerContext,
  row: RecordRow,
  targets: readonly WithdrawalTarget[],
  how: { eventChannel: EventChannel; scoped: boolean; supersedingRecordId?: string; now: string; quiet?: boolean | undefined },
): void {
  const { db } = ctx;
  for (const t of targets) {
    stmt(db, `INSERT INTO consent_withdrawals (record_id, purpose_key, outcome, withdrawn_at, event_channel, scoped, superseding_record_id)
              VALUES (?, ?, ?, ?, ?, ?, ?)`).run(row.id, t.key, t.outcome, how.now, how.eventChannel, how.scoped ? 1 : 0, how.supersedingRecordId ?? null);
  }
  const withdrawals = withdrawalsOf(ctx, row.id);
  const state = recordState(issuedOf(row), withdrawals, row.expires_at, how.now);
  const email = emailOf(ctx, row.person_id);
  appendAuditEvent(ctx, {
    applicationId: row.application_id,
    type: 'consent.revoked',
    occurredAt: how.now,
    data: {
      decision: 'revoked',
      record_id: row.id,
      flow_id: row.flow_id,
      flow_version: row.flow_version,
      person_id: row.person_id,
      event_channel: how.eventChannel,
      withdrawn: targets.map((t) => ({ key: t.key, outcome: t.outcome })),
      ...(how.supersedingRecordId ? { superseding_record_id: how.supersedingRecordId } : {}),
    },
  });
  const base = {
    record_id: row.id,
    user_id: isAnonymousPrincipal(row.person_id) ? null : row.person_id,
    flow_id: row.flow_id,
    flow_version: row.flow_version,
    subject_ref: subjectRef(row.person_id, email, row.external_id),
    event_channel: how.eventChannel,
    status: state.status,
    purposes: state.purposes,
    ...(how.supersedingRecordId ? { superseding_record_id: how.supersedingRecordId } : {}),
  };
  // The withdrawal that leaves no consent in force is one consent.revoked (objections made with it ride along).
  const revokedAll = state.status === 'revoked' && targets.some((t) => t.outcome === 'revoked');
  if (how.quiet) return;
  if (revokedAll) {
    ctx.events.emit(ctx, { type: 'consent.revoked', application_id: row.application_id, occurred_at: how.now, data: { ...base, withdrawn: targets.map((t) => ({ key: t.key, outcome: t.outcome })) } });
  } else {
    for (const t of targets) {
      ctx.events.emit(ctx, {
        type: 'consent.purpose_revoked',
        application_id: row.application_id,
        occurred_at: how.now,
        data: { ...base, purpose: t.key, outcome: t.outcome },
      });
    }
  }
}

/**
 * Withdraws some purposes of a record (default: every withdrawable one): a granted consent purpose becomes
 * `revoked`, a legitimate interest with a right to object becomes `objected`. Purposes already withdrawn are
 * skipped (a repeat changes nothing). Throws 404, or 422 `record_expired`, `unknown_purpose`, `not_withdrawable`.
 */
export function withdrawConsentRecord(
  ctx: ServerContext,
  accountId: string,
  id: string,
  request: { purposes?: readonly string[] | undefined; eventChannel: EventChannel },
): ConsentRecord {
  const { db } = ctx;
  return transaction(db, () => {
    const row = findRow(ctx, accountId, id);
    if (!row) throw notFound('No such consent record.');
    const now = isoNow(ctx.clock);
    const withdrawals = withdrawalsOf(ctx, row.id);
    const state = recordState(issuedOf(row), withdrawals, row.expires_at, now);
    if (state.status === 'expired') {
      throw unprocessable('The consent term has ended; an expired record has nothing left to withdraw.', 'record_expired');
    }
    const terms = getFlowVersion(ctx, row.flow_id, row.flow_version);
    const rightToObject = new Set(terms?.config.purposes.filter((p) => p.basis === 'legitimate_interest' && p.mechanism === 'opt_out').map((p) => p.key));
    const withdrawable = (p: RecordPurposeOutcome) => p.outcome === 'granted' || (p.outcome === 'noticed' && rightToObject.has(p.key));
    const alreadyWithdrawn = (p: RecordPurposeOutcome) => p.outcome === 'revoked' || p.outcome === 'objected';
    let targets: RecordPurposeOutcome[];
    if (request.purposes) {
      const errors: FieldError[] = [];
      targets = [];
      for (const [i, key] of [...new Set(request.purposes)].entries()) {
        const purpose = state.purposes.find((p) => p.key === key);
        if (!purpose) errors.push({ path: `purposes.${i}`, code: 'unknown_purpose', message: `The record has no purpose "${key}".` });
        else if (alreadyWithdrawn(purpose)) continue;
        else if (!withdrawable(purpose)) {
          errors.push({ path: `purposes.${i}`, code: 'not_withdrawable', message: `Purpose "${key}" is ${purpose.outcome}; only granted consent and legitimate interests with a right to object can be withdrawn.` });
        } else targets.push(purpose);
      }
      if (errors.length) throw unprocessable(`The withdrawal was refused: ${errors.map((e) => e.message).join(' ')}`, errors[0]!.code, errors);
    } else {
      targets = state.purposes.filter(withdrawable);
    }
    if (targets.length) {
      withdrawPurposes(ctx, row, targets.map((p) => ({ key: p.key, outcome: p.outcome === 'granted' ? 'revoked' : 'objected' })), {
        eventChannel: request.eventChannel, scoped: request.purposes !== undefined, now,
      });
    }
    return toWire(ctx, row);
  });
}

/** Everything the consent status needs about one record. */
export interface StatusRecord {
  id: string;
  flow_id: string;
  flow_version: number;
  person_id: string;
  external_id: string | null;
  channel: CollectionChannel;
  captured_at: string;
  expires_at: string | null;
  issued: IssuedOutcome[];
  withdrawals: WithdrawalFact[];
}

/** The person's latest record per flow of an application (latest by `captured_at`). */
export function latestRecordsPerFlow(ctx: ServerContext, applicationId: string, personId: string): StatusRecord[] {
  const rows = stmt<[string, string], RecordRow>(ctx.db,
    'SELECT * FROM consent_records WHERE application_id = ? AND person_id = ? ORDER BY captured_at DESC, seq DESC').all(applicationId, personId);
  const seen = new Set<string>();
  const latest: StatusRecord[] = [];
  for (const row of rows) {
    if (seen.has(row.flow_id)) continue;
    seen.add(row.flow_id);
    latest.push({
      id: row.id, flow_id: row.flow_id, flow_version: row.flow_version, person_id: row.person_id, external_id: row.external_id,
      channel: row.channel, captured_at: row.captured_at, expires_at: row.expires_at, issued: issuedOf(row), withdrawals: withdrawalsOf(ctx, row.id),
    });
  }
  return latest;
}

/** The person of an application named by external id (from their latest record carrying it), email or person id. */
export function findPerson(
  ctx: ServerContext,
  accountId: string,
  applicationId: string,
  ref: { externalId?: string | undefined; email?: string | undefined; personId?: string | undefined },
): { id: string; email: string } | undefined {
  let id: string | undefined;
  if (ref.externalId !== undefined) {
    id = stmt<[string, string], { person_id: string }>(ctx.db,
      'SELECT person_id FROM consent_records WHERE application_id = ? AND external_id = ? ORDER BY captured_at DESC, seq DESC LIMIT 1')
      .get(applicationId, ref.externalId)?.person_id;
  } else if (ref.email !== undefined) {
    id = stmt<[string, string], { id: string }>(ctx.db, 'SELECT id FROM persons WHERE account_id = ? AND email = ?').get(accountId, normaliseEmail(ref.email))?.id;
  } else if (ref.personId !== undefined) {
    id = stmt<[string, string], { id: string }>(ctx.db, 'SELECT id FROM persons WHERE account_id = ? AND id = ?').get(accountId, ref.personId)?.id;
  }
  return id === undefined ? undefined : { id, email: emailOf(ctx, id) };
}
