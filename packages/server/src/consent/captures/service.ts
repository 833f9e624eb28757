// Captures: consent captured in the organisation's own form (the consent field or the snippet), held as a capture
// token until the organisation's server commits it, or committed by the browser when the application allows it.
// The attestation rules and the record itself come from the records service; this module decides the channel,
// checks the render proof and browser commit, compares the wording and keeps the token.
import type { AuthorizeRequest, AuthorizedDecision, CaptureChannel, CaptureRequest, CaptureResult } from '@svc/schemas';
import { findApplication } from '../../platform/application-store.js';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import type { DomainEvent } from '../../infra/events.js';
import { transaction } from '../../infra/transaction.js';
import { ApiError, notFound, unprocessable, type FieldError } from '../../infra/errors.js';
import { newId } from '../../infra/ids.js';
import { applicationHome, assertCreatesHere, SESSION_TOKEN, sessionTokenFor } from '../../infra/cells/routing.js';
import { allowedOriginsOf } from '../../platform/origins.js';
import { getActiveFlowVersion, type FlowVersionRecord } from '../../platform/flows/store.js';
import { evaluateDecisions } from '../records/attestation.js';
import { createConsentRecord } from '../records/service.js';
import { FlowTermsResolver } from '../records/terms.js';
import type { ConsentRecordInput } from '../records/types.js';
import { noticeDigest } from '../receipts/notice.js';
import { verifyRenderProof } from '../render/proof.js';
import { issueCaptureConsentToken, type CaptureConsentToken } from '../decisions/kinds/consent/token.js';
import {
  CAPTURE_TOKEN_LIFETIME_SECONDS,
  findCaptureByToken,
  insertCapture,
  markCommitted,
  parseCapture,
  sweepCaptures,
  type CaptureRow,
} from './store.js';
import { compareWording, type WordingComparison } from './wording.js';

/** The capture token format: `dts_`, the home country and 43 URL-safe base64 characters (a decision-like session token). */
export const CAPTURE_TOKEN = SESSION_TOKEN;

/** Who posted a capture: the publishable key's application and the browser origin the request came from. */
export interface CaptureCaller {
  accountId: string;
  applicationId: string;
  /** The request's `Origin` (undefined when it carried none). */
  origin: string | undefined;
  /** The `X-Svc-Render-Proof` header, when sent. */
  renderProof: string | undefined;
}

const plusSeconds = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000).toISOString();

/** The browser-committed variant of a channel. */
const browserVariant = (channel: 'embedded_field' | 'form_capture'): CaptureChannel => `${channel}_browser`;

/**
 * Errors rule 2: a browser commit needs the application to have enabled it, to list allowed origins, and the
 * request to come from one of them. Any failure is the same 422 `browser_commit_not_allowed`, naming why.
 */
function assertBrowserCommit(ctx: ServerContext, caller: CaptureCaller): void {
  const application = findApplication(ctx, caller.applicationId);
  const origins = allowedOriginsOf(ctx, caller.applicationId);
  let why: string | undefined;
  if (!application?.browser_commit_enabled) why = 'the application has not enabled browser commit';
  else if (origins.length === 0) why = 'the application lists no allowed origins';
  else if (caller.origin === undefined || !origins.includes(caller.origin)) why = 'the request does not come from an allowed origin';
  if (why) throw browserCommitNotAllowed(why);
}

/** The 422 `browser_commit_not_allowed` of Errors rule 2, naming `commit` and why. */
export function browserCommitNotAllowed(why: string): ApiError {
  return unprocessable(
    `Browser commit is not allowed: ${why}. Commit the capture token from your server instead.`,
    'browser_commit_not_allowed',
    [{ path: 'commit', code: 'browser_commit_not_allowed', message: why }],
  );
}

/** The attestation refusals of a capture as a 422 naming each purpose (`decisions.<key>`), like the Record API. */
function refuseAttestation(refusals: { purpose: string | null; code: string; message: string }[]): ApiError {
  const errors: FieldError[] = refusals.map((r) => ({
    path: r.purpose === null ? 'decisions' : `decisions.${r.purpose}`,
    code: r.code,
    message: r.message,
  }));
  return unprocessable(`The capture was refused: ${refusals.map((r) => r.message).join(' ')}`, 'attestation_refused', errors);
}

/** The flow version a capture is taken under: the application's active, capturable flow (404/422 otherwise). */
function captureTerms(ctx: ServerContext, accountId: string, applicationId: string, flowId: string): FlowVersionRecord {
  // The records service's resolver owns the flow checks (not found, draft, not capturable) so every channel
  // answers them alike.
  new FlowTermsResolver(ctx, accountId, flowId, applicationId).check();
  const version = getActiveFlowVersion(ctx, flowId);
  if (!version)
    throw unprocessable('The flow is not active.', 'flow_not_active', [
      { path: 'flow_id', code: 'flow_not_active', message: 'the flow is a draft' },
    ]);
  return version;
}

/** The record input of a capture (committed by the browser now, or by `authorize` later). */
function recordInput(
  row: Pick<
    CaptureRow,
    'id' | 'account_id' | 'application_id' | 'flow_id' | 'flow_version' | 'captured_at' | 'locale' | 'notice_hash' | 'wording_verdict'
  >,
  parsed: {
    decisions: CaptureRequest['decisions'];
    notice_hashes: Record<string, string> | undefined;
    rendering_evidence: Record<string, unknown> | undefined;
  },
  channel: CaptureChannel,
  subject: { email: string; external_id?: string | undefined },
  suppressReceipt: boolean,
): ConsentRecordInput {
  const rendered = channel === 'embedded_field' || channel === 'embedded_field_browser';
  return {
    accountId: row.account_id,
    applicationId: row.application_id,
    flowId: row.flow_id,
    flowVersion: row.flow_version,
    subject: { email: subject.email, external_id: subject.external_id },
    decisions: parsed.decisions,
    capturedAt: row.captured_at,
    channel,
    // One record per capture, even if a commit were somehow repeated.
    idempotencyKey: `capture:${row.id}`,
    locale: row.locale ?? undefined,
    noticeHash: row.notice_hash ?? undefined,
    noticeHashes: parsed.notice_hashes,
    suppressReceipt,
    // The service rendered the field's controls: its rendering evidence stands for the presentation. Elsewhere the
    // page attested default_checked and mandatory itself.
    ...(rendered ? { renderingEvidence: parsed.rendering_evidence } : { presentationAttested: true }),
    // The capture's own verdict: it also compares the snippet's text digests, which the records service does not know.
    wordingVerdict: row.wording_verdict,
  };
}

/**
 * Takes a capture (`POST /api/v1/captures`). Refusals: 404 `flow_not_found`; 422 `flow_not_active`,
 * `flow_not_capturable`, `browser_commit_not_allowed`, `subject_email_required` (a browser commit without
 * `subject.email`), the render proof codes of {@link verifyRenderProof}, `attestation_refused` (errors name
 * `decisions.<key>` with `unknown_purpose`, `purpose_missing`, `default_checked`, `mandatory` or `notice_only_purpose`).
 */
export async function createCapture(ctx: ServerContext, caller: CaptureCaller, request: CaptureRequest): Promise<CaptureResult> {
  assertCreatesHere(ctx, applicationHome(ctx, caller.applicationId), request.subject?.country);
  const version = captureTerms(ctx, caller.accountId, caller.applicationId, request.flow_id);

  if (request.commit) {
    assertBrowserCommit(ctx, caller);
    if (!request.subject?.email) {
      throw unprocessable('A browser commit binds the person by email: send subject.email.', 'subject_email_required', [
        { path: 'subject.email', code: 'subject_email_required', message: 'required when commit is true' },
      ]);
    }
  }

  // A proof that does not verify is refused rather than downgraded to form_capture: a page that sends one means
  // the field rendered, and quietly recording less than it claims would hide a broken or forged integration.
  let channel: 'embedded_field' | 'form_capture' = 'form_capture';
  let renderingEvidence: Record<string, unknown> | undefined;
  const published = noticeDigest(version);
  if (caller.renderProof !== undefined) {
    const claims = await verifyRenderProof(ctx, caller.renderProof, {
      application_id: caller.applicationId,
      flow_id: version.flow_id,
      flow_version: version.version,
      origin: caller.origin,
      notice_hash: published,
    });
    channel = 'embedded_field';
    renderingEvidence = {
      render_proof_id: claims.jti,
      notice_hash: claims.notice_hash,
      flow_version: claims.flow_version,
      origin: claims.origin,
      issued_at: new Date(claims.iat * 1000).toISOString(),
      expires_at: new Date(claims.exp * 1000).toISOString(),
    };
  }

  const evaluation = evaluateDecisions(version.config, request.decisions);
  if (!evaluation.ok) throw refuseAttestation(evaluation.refusals);

  let wording: WordingComparison = compareWording(version, request);
  // The field rendered the service's own wording (the proof binds its hash); without a digest of its own that is a match.
  if (wording.wording_verdict === null && channel === 'embedded_field') wording = { wording_verdict: 'match', notice_hash: 'match' };

  const now = isoNow(ctx.clock);
  const token = sessionTokenFor(ctx.country);
  const row: Omit<CaptureRow, 'token_hash'> = {
    id: newId('att_', 20),
    account_id: caller.accountId,
    application_id: caller.applicationId,
    flow_id: version.flow_id,
    flow_version: version.version,
    channel,
    status: 'pending',
    decisions: JSON.stringify(request.decisions),
    outcomes: JSON.stringify(evaluation.outcomes),
    locale: request.locale ?? null,
    form_id: request.form_id ?? null,
    page_url: request.page_url ?? null,
    origin: caller.origin ?? null,
    notice_hash: request.notice_hash ?? null,
    notice_hashes: request.notice_hashes ? JSON.stringify(request.notice_hashes) : null,
    wording_verdict: wording.wording_verdict,
    wording: JSON.stringify(wording),
    snapshot: request.snapshot ?? null,
    rendering_evidence: renderingEvidence ? JSON.stringify(renderingEvidence) : null,
    record_id: null,
    captured_at: now,
    expires_at: plusSeconds(now, CAPTURE_TOKEN_LIFETIME_SECONDS),
    committed_at: null,
  };

  // Expired captures are swept in the same transaction as the new one is written.
  if (!request.commit) {
    transaction(ctx.db, () => {
      sweepCaptures(ctx);
      insertCapture(ctx, token, row);
    });
    ctx.metrics.increment('captures.created_total', { channel, committed: 'false' });
    return { session_token: token, attestation_id: row.id, committed: false, record_id: null, wording_verdict: wording.wording_verdict };
  }

  const committedChannel = browserVariant(channel);
  const recordId = transaction(ctx.db, () => {
    sweepCaptures(ctx);
    insertCapture(ctx, token, row);
    const { record } = createConsentRecord(
      ctx,
      recordInput(
        row,
        {
          decisions: request.decisions,
          notice_hashes: request.notice_hashes,
          rendering_evidence: renderingEvidence,
        },
        committedChannel,
        { email: request.subject!.email!, external_id: request.subject?.external_id },
        false,
      ),
      // The browser's answer never carries the token: the organisation's server gets it from the webhook.
      { announce: tokenAnnouncer(ctx, row, now).announce },
    );
    markCommitted(ctx, row.id, record.id, committedChannel, now);
    return record.id;
  });
  ctx.metrics.increment('captures.created_total', { channel: committedChannel, committed: 'true' });
  return { session_token: token, attestation_id: row.id, committed: true, record_id: recordId, wording_verdict: wording.wording_verdict };
}

/**
 * The `announce` of a capture's record: when the record grants consent, it issues the capture's consent token and
 * `consent.granted` carries it with its expiry, as a hosted decision's does (one single-use token, whichever of the
 * authorize answer or the webhook reaches verification first). Any other event is emitted as the record made it.
 * `issued` is the token, once announced.
 */
function tokenAnnouncer(
  ctx: ServerContext,
  row: Pick<CaptureRow, 'account_id' | 'application_id' | 'flow_id' | 'flow_version'>,
  now: string,
): { announce: (event: DomainEvent) => void; issued: () => CaptureConsentToken | undefined } {
  let issued: CaptureConsentToken | undefined;
  const announce = (event: DomainEvent): void => {
    if (event.type === 'consent.granted' && typeof event.data.record_id === 'string') {
      issued = issueCaptureConsentToken(ctx, { ...row, record_id: event.data.record_id }, now);
      ctx.events.emit(ctx, { ...event, data: { ...event.data, ...issued } });
      return;
    }
    ctx.events.emit(ctx, event);
  };
  return { announce, issued: () => issued };
}

/** Whether a capture denies consent: it has consent purposes and grants none (the records' `consent.denied`). */
function isDenial(outcomes: readonly { basis: string; outcome: string }[]): boolean {
  const consent = outcomes.filter((o) => o.basis === 'consent');
  return consent.length > 0 && consent.every((o) => o.outcome !== 'granted');
}

/** Whether a session token names a hosted decision of the account (rather than a capture). */
function isDecisionToken(ctx: ServerContext, accountId: string, token: string): boolean {
  return stmt(ctx.db, 'SELECT 1 FROM decisions WHERE session_token = ? AND account_id = ?').get(token, accountId) !== undefined;
}

/**
 * Commits a capture token (`POST /api/v1/decisions/{session_token}/authorize`): binds the person by email, makes
 * the consent record through the records service (which freezes the receipt, queues the receipt email unless
 * suppressed, appends the audit event and emits the webhooks' domain events), and returns the decision it became.
 * Refusals: 404 (unknown token, or another account's); 422 `not_a_capture` (a hosted decision's token),
 * `capture_expired` (24 hours passed), `capture_already_committed`, and the records service's flow refusals.
 */
export function authorizeCapture(ctx: ServerContext, accountId: string, token: string, request: AuthorizeRequest): AuthorizedDecision {
  return transaction(ctx.db, (): AuthorizedDecision => {
    sweepCaptures(ctx);
    const row = CAPTURE_TOKEN.test(token) ? findCaptureByToken(ctx, token) : undefined;
    if (!row || row.account_id !== accountId) {
      if (CAPTURE_TOKEN.test(token) && isDecisionToken(ctx, accountId, token)) {
        throw unprocessable(
          'This session token belongs to a hosted decision, not a capture: only capture tokens are committed with authorize.',
          'not_a_capture',
        );
      }
      throw notFound('No capture with that session token.');
    }
    if (row.status === 'committed') {
      throw unprocessable(`The capture was already committed (record ${row.record_id}).`, 'capture_already_committed');
    }
    const now = isoNow(ctx.clock);
    if (row.status === 'expired' || now >= row.expires_at) {
      throw unprocessable('The capture token expired 24 hours after the capture and left no record.', 'capture_expired');
    }
    const parsed = parseCapture(row);
    const channel = row.channel as 'embedded_field' | 'form_capture';
    const suppressReceipt = request.suppress_receipt ?? false;
    const tokens = tokenAnnouncer(ctx, row, now);
    const { record } = createConsentRecord(ctx, recordInput(row, parsed, channel, request.subject, suppressReceipt), {
      announce: tokens.announce,
    });
    markCommitted(ctx, row.id, record.id, channel, now);
    // ConsentAuthorized: the commit issues the consent token, as a hosted decision's fulfilment does, and answers the
    // one `consent.granted` carries; a denial (every consent purpose declined) has no consent to verify, as a
    // declined hosted decision has no token.
    const consentToken =
      tokens.issued() ??
      (isDenial(parsed.outcomes)
        ? { consent_token: null, consent_token_expires_at: null }
        : issueCaptureConsentToken(ctx, { ...row, record_id: record.id }, now));
    ctx.metrics.increment('captures.committed_total', { channel });
    return {
      id: row.id,
      session_token: token,
      kind: 'consent',
      status: 'fulfilled',
      application_id: row.application_id,
      flow_id: row.flow_id,
      flow_version: row.flow_version,
      channel,
      record_id: record.id,
      ...consentToken,
      subject: { email: record.subject.email, external_id: record.subject.external_id },
      purposes: parsed.outcomes.map(({ key, outcome, basis }) => ({ key, outcome, basis })),
      wording_verdict: row.wording_verdict,
      receipt_email_queued: !suppressReceipt,
      captured_at: row.captured_at,
      committed_at: now,
    };
  });
}
