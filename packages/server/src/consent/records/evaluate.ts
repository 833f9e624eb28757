// Step 2 of recording: evaluate the input against the terms. In order: client facts hold no personal data, the capture
// time is not in the future, an idempotency key finds its earlier record (or was used for another), the subject is
// homed in this cell, and the decisions pass the attestation rules. Refusals are returned, never thrown (the import
// needs them per row); only the personal-data check, which the Record API alone makes, throws.
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { unprocessable, type FieldError } from '../../infra/errors.js';
import { jcsHash } from '../audit/hash.js';
import { evaluateDecisions, personalDataPaths, type Refusal } from './attestation.js';
import { normaliseEmail } from './person.js';
import { toWire, type RecordRow } from './rows.js';
import type { FlowTermsResolver } from './terms.js';
import type { Admitted, ConsentRecordInput, RecordOutcome } from './types.js';

/** Seconds a `captured_at` may lie ahead of the server clock (clock skew) before it counts as in the future. */
export const CAPTURED_AT_SKEW_SECONDS = 300;

/** Throws 422 `personal_data` when the client facts hold an email address or a phone number. */
export function refusePersonalData(clientFacts: Record<string, unknown> | undefined): void {
  if (clientFacts === undefined) return;
  const found = personalDataPaths(clientFacts);
  if (found.length) {
    throw unprocessable(
      'client_facts must not hold personal data (an email address or a phone number).',
      'personal_data',
      found.map((f) => ({
        path: f.path,
        code: 'personal_data',
        message: `looks like ${f.kind === 'email' ? 'an email address' : 'a phone number'}`,
      })),
    );
  }
}

/** The request fingerprint an idempotency key is bound to. */
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

/** A refusal of the whole input, named by the field at fault. */
function refuseField(path: string, code: Refusal['code'], message: string): RecordOutcome {
  return { kind: 'refused', refusals: [{ purpose: null, code, message }], errors: [{ path, code, message }] };
}

function refusalErrors(refusals: readonly Refusal[]): FieldError[] {
  return refusals.map((r) => ({ path: r.purpose === null ? '(body)' : `decisions.${r.purpose}`, code: r.code, message: r.message }));
}

/**
 * The input admitted under the terms in force at its capture time, or the outcome that ends the attempt here: a
 * refusal, or the earlier record its idempotency key names.
 */
export function evaluateInput(ctx: ServerContext, input: ConsentRecordInput, resolver: FlowTermsResolver): Admitted | RecordOutcome {
  const now = isoNow(ctx.clock);
  const capturedAt = input.capturedAt ? new Date(input.capturedAt).toISOString() : now;
  if (Date.parse(capturedAt) > ctx.clock.now() + CAPTURED_AT_SKEW_SECONDS * 1000) {
    return refuseField('captured_at', 'captured_in_future', 'captured_at lies in the future.');
  }
  const terms = resolver.versionFor(capturedAt, input.flowVersion);
  const applicationId = terms.application_id;
  const print = fingerprint(input);

  if (input.idempotencyKey !== undefined) {
    const earlier = stmt<[string, string], RecordRow>(
      ctx.db,
      'SELECT * FROM consent_records WHERE application_id = ? AND idempotency_key = ?',
    ).get(applicationId, input.idempotencyKey);
    if (earlier && earlier.request_fingerprint !== print) {
      return refuseField('idempotency_key', 'idempotency_key_reused', 'idempotency_key was used for a different record.');
    }
    if (earlier) return { kind: 'existing', record: toWire(ctx, earlier) };
  }

  // A person's records live only in their home cell: the subject's country, else the application's.
  const home = input.subject?.country ?? resolver.applicationHome(applicationId);
  if (home !== ctx.country) {
    return refuseField(
      'subject.country',
      'wrong_country',
      `The subject's records are homed in ${home}; send this record to that country's cell.`,
    );
  }

  const evaluation = evaluateDecisions(terms.config, input.decisions);
  if (!evaluation.ok) return { kind: 'refused', refusals: evaluation.refusals, errors: refusalErrors(evaluation.refusals) };
  return { now, capturedAt, terms, applicationId, print, outcomes: evaluation.outcomes };
}
