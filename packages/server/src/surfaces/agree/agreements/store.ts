// Agreements: a document to sign, its parties and the quorum. A party's outcome (signed, declined, countered,
// expired) is recorded once, with its quorum vote; a signature is a compact JWS over the document hash, the party and
// the time, and the agreement moves pending -> partially_signed -> active when the quorum is reached. The receipt is
// the set of signatures.
import {
  AGREEMENT_DEFAULT_LIFETIME_SECONDS,
  AGREEMENT_MAX_LIFETIME_SECONDS,
  type Agreement,
  type AnswerAuthentication,
  type AgreementParty,
  type AgreementReceipt,
  type AgreementStatus,
  type CreateAgreementRequest,
  type PartyStatus,
  type QuorumStatus,
  type QuorumVote,
  type SignatureDecisionData,
} from '@svc/schemas';
import { KeyObject, sign } from 'node:crypto';
import { appendAuditEvent } from '../../../consent/audit/chain.js';
import { jcs, sha256Hex } from '../../../consent/audit/hash.js';
import { isoNow } from '../../../infra/clock.js';
import type { ServerContext } from '../../../infra/context.js';
import { stmt } from '../../../infra/db.js';
import { ApiError, unprocessable } from '../../../infra/errors.js';
import type { SigningKeys } from '../../../infra/keys.js';
import { homedId } from '../../../infra/ids.js';
import { decodeCursor, toPage } from '../../../infra/pagination.js';
import { transaction } from '../../../infra/transaction.js';

export interface AgreementRow {
  seq: number;
  id: string;
  account_id: string;
  application_id: string;
  title: string;
  document_text: string;
  document_sha256: string;
  quorum: number;
  status: AgreementStatus;
  created_at: string;
  updated_at: string;
  activated_at: string | null;
  expires_at: string | null;
}

export interface PartyRow {
  seq: number;
  id: string;
  agreement_id: string;
  email: string;
  name: string | null;
  home_country: string;
  decision_id: string | null;
  status: PartyStatus;
  vote: 'approve' | 'deny' | null;
  comment: string | null;
  decided_at: string | null;
  signature_jws: string | null;
}

/** The JWS header type of a party's signature. */
export const SIGNATURE_TYP = 'svc-signature+jwt';

/** The outcome a party's signing session ended with. */
export type PartyOutcome =
  | { outcome: 'signed'; signedName: string; comment?: string | null | undefined; authentication?: AnswerAuthentication | undefined }
  | { outcome: 'declined'; comment?: string | null | undefined }
  | { outcome: 'countered'; counterProposal: string }
  | { outcome: 'expired' };

/** The agreement `id` of `accountId`, or undefined. */
export function findAgreementRow(ctx: ServerContext, accountId: string, id: string): AgreementRow | undefined {
  if (!/^agr_(?:[a-z]{2}_)?[A-Za-z0-9]{16,24}$/.test(id)) return undefined;
  const row = stmt<[string], AgreementRow>(ctx.db, 'SELECT * FROM agreements WHERE id = ?').get(id);
  return row?.account_id === accountId ? row : undefined;
}

/** The parties of an agreement, in the order they were named. */
export function partiesOf(ctx: ServerContext, agreementId: string): PartyRow[] {
  return stmt<[string], PartyRow>(ctx.db, 'SELECT * FROM agreement_parties WHERE agreement_id = ? ORDER BY seq').all(agreementId);
}

/** The party whose signing session is the decision `decisionId`, or undefined. */
export function partyOfDecision(ctx: ServerContext, decisionId: string): PartyRow | undefined {
  return stmt<[string], PartyRow>(ctx.db, 'SELECT * FROM agreement_parties WHERE decision_id = ?').get(decisionId);
}

/** The agreement a party belongs to (any account; the caller holds the party). */
export function agreementOfParty(ctx: ServerContext, party: PartyRow): AgreementRow {
  return stmt<[string], AgreementRow>(ctx.db, 'SELECT * FROM agreements WHERE id = ?').get(party.agreement_id)!;
}

/** Whether the quorum can still be reached, is reached, or no longer can be. */
export function quorumStatusOf(quorum: number, parties: readonly Pick<PartyRow, 'status'>[]): QuorumStatus {
  const signed = parties.filter((p) => p.status === 'signed').length;
  if (signed >= quorum) return 'reached';
  const open = parties.filter((p) => p.status === 'pending').length;
  return signed + open >= quorum ? 'open' : 'unreachable';
}

/** The agreement's status after `signed` signatures (the spec's state table). */
function statusAfter(quorum: number, signed: number): AgreementStatus {
  if (signed >= quorum) return 'active';
  return signed > 0 ? 'partially_signed' : 'pending';
}

/** The wire shape; `session` says where each party's signing session is (the organisation hands it out). */
export function toAgreement(ctx: ServerContext, row: AgreementRow): Agreement {
  const parties = partiesOf(ctx, row.id);
  const tokens = new Map(
    parties
      .filter((p) => p.decision_id)
      .map((p) => [
        p.id,
        stmt<[string], string>(ctx.db, 'SELECT session_token FROM decisions WHERE id = ?').pluck().get(p.decision_id!) as unknown as string,
      ]),
  );
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    quorum_status: quorumStatusOf(row.quorum, parties),
    parties: parties.map((p) => p.id),
    party_details: parties.map(
      (p): AgreementParty => ({
        id: p.id,
        email: p.email,
        name: p.name,
        home_country: p.home_country,
        status: p.status,
        vote: p.vote,
        comment: p.comment,
        decided_at: p.decided_at,
        session_token: tokens.get(p.id) ?? '',
        url: `${ctx.trustUrl}/decisions/${tokens.get(p.id) ?? ''}`,
      }),
    ),
    quorum: row.quorum,
    document_sha256: row.document_sha256,
    application_id: row.application_id,
    created_at: row.created_at,
    activated_at: row.activated_at,
    expires_at: row.expires_at,
  };
}

/** The party `id` (any account; callers check the agreement's), or undefined. */
export function findPartyRow(ctx: ServerContext, id: string): PartyRow | undefined {
  if (!/^pty_(?:[a-z]{2}_)?[A-Za-z0-9]{16,24}$/.test(id)) return undefined;
  return stmt<[string], PartyRow>(ctx.db, 'SELECT * FROM agreement_parties WHERE id = ?').get(id);
}

/**
 * Until when the parties can sign: `expiresAt`, which must lie ahead of now by at most ninety days (422
 * `expires_at_invalid`), or seven days from now.
 */
function signingDeadline(now: string, expiresAt: string | undefined): string {
  if (expiresAt === undefined) return new Date(Date.parse(now) + AGREEMENT_DEFAULT_LIFETIME_SECONDS * 1000).toISOString();
  const at = Date.parse(expiresAt);
  if (at <= Date.parse(now) || at > Date.parse(now) + AGREEMENT_MAX_LIFETIME_SECONDS * 1000) {
    throw unprocessable('agreement.expires_at must lie in the future, at most ninety days ahead.', 'expires_at_invalid', [
      { path: 'agreement.expires_at', code: 'expires_at_invalid', message: 'must be after now and at most ninety days ahead' },
    ]);
  }
  return new Date(at).toISOString();
}

/**
 * Stores an agreement and its parties, checking the document's digest (422 `digest_mismatch` naming
 * `agreement.document.sha256` when the SHA-256 of the text is not the one given) and the deadline. `openSession`
 * opens each party's signing session inside the same transaction (a refusal there leaves nothing behind) and answers
 * its decision id.
 */
export function createAgreement(
  ctx: ServerContext,
  input: { accountId: string; applicationId: string; agreement: CreateAgreementRequest['agreement'] },
  openSession: (party: { id: string; email: string; homeCountry: string }, deadlineAt: string) => string,
): AgreementRow {
  const { agreement } = input;
  const digest = sha256Hex(agreement.document.text);
  if (digest !== agreement.document.sha256) {
    throw unprocessable(
      'agreement.document.sha256 is not the SHA-256 of agreement.document.text (UTF-8 bytes, lower-case hex).',
      'digest_mismatch',
      [{ path: 'agreement.document.sha256', code: 'digest_mismatch', message: `the text's SHA-256 is ${digest}` }],
    );
  }
  const id = homedId(ctx.country, 'agr_', 20);
  const now = isoNow(ctx.clock);
  const expiresAt = signingDeadline(now, agreement.expires_at);
  return transaction(ctx.db, () => {
    stmt(
      ctx.db,
      `INSERT INTO agreements (id, account_id, application_id, title, document_text, document_sha256, quorum, status, created_at, updated_at, expires_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
    ).run(
      id,
      input.accountId,
      input.applicationId,
      agreement.title,
      agreement.document.text,
      digest,
      agreement.quorum,
      now,
      now,
      expiresAt,
    );
    for (const party of agreement.parties) {
      const partyId = homedId(ctx.country, 'pty_', 20);
      const email = party.email.toLowerCase();
      stmt(
        ctx.db,
        `INSERT INTO agreement_parties (id, agreement_id, email, name, home_country, status) VALUES (?, ?, ?, ?, ?, 'pending')`,
      ).run(partyId, id, email, party.name ?? null, party.home_country);
      const decisionId = openSession({ id: partyId, email, homeCountry: party.home_country }, expiresAt);
      stmt(ctx.db, 'UPDATE agreement_parties SET decision_id = ? WHERE id = ?').run(decisionId, partyId);
    }
    appendAuditEvent(ctx, {
      applicationId: input.applicationId,
      type: 'agreement.created',
      occurredAt: now,
      data: {
        agreement_id: id,
        document_sha256: digest,
        quorum: agreement.quorum,
        parties: agreement.parties.length,
        expires_at: expiresAt,
      },
    });
    return stmt<[string], AgreementRow>(ctx.db, 'SELECT * FROM agreements WHERE id = ?').get(id)!;
  });
}

/** A page of the account's agreements, oldest first. */
export function listAgreements(
  ctx: ServerContext,
  accountId: string,
  page: { limit: number; cursor?: string | undefined; status?: AgreementStatus | undefined },
) {
  const status = page.status ?? null;
  const rows = stmt<[string, number, string | null, string | null, number], AgreementRow>(
    ctx.db,
    'SELECT * FROM agreements WHERE account_id = ? AND seq > ? AND (? IS NULL OR status = ?) ORDER BY seq LIMIT ?',
  ).all(accountId, decodeCursor(page.cursor), status, status, page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.seq);
  return { agreements: items.map((r) => toAgreement(ctx, r)), next_cursor };
}

const keyObjects = new WeakMap<CryptoKey, KeyObject>();

/**
 * Signs `payload` as a compact JWS (ES256, `kid`, `typ: svc-signature+jwt`) with the server's key, synchronously
 * (node:crypto over the same key jose signs receipts with), so a signature is made inside the transaction that
 * records it and carries that transaction's time.
 */
function signatureOf(keys: SigningKeys, payload: Record<string, unknown>): string {
  let key = keyObjects.get(keys.privateKey);
  if (!key) keyObjects.set(keys.privateKey, (key = KeyObject.from(keys.privateKey)));
  const segment = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
  const input = `${segment(JSON.stringify({ alg: 'ES256', kid: keys.kid, typ: SIGNATURE_TYP }))}.${segment(jcs(payload))}`;
  // JWS ES256 is the raw r || s pair (IEEE P1363), not DER.
  return `${input}.${sign('sha256', Buffer.from(input, 'ascii'), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

/** What a signature's JWS says; the receipt's verifier checks each against the agreement. */
export function signaturePayloadOf(
  agreement: Pick<AgreementRow, 'id' | 'document_sha256'>,
  party: Pick<PartyRow, 'id' | 'email'>,
  signedName: string,
  signedAt: string,
  authentication?: AnswerAuthentication,
) {
  return {
    agreement_id: agreement.id,
    document_sha256: agreement.document_sha256,
    party_id: party.id,
    party_email: party.email,
    signed_name: signedName,
    signed_at: signedAt,
    ...(authentication ? { authentication } : {}),
  };
}

/**
 * Records a party's outcome inside the caller's transaction: once (a party already decided is 409
 * `party_decided`), with the quorum vote it casts (approve for a signature, deny for a decline or a counter, none for
 * an expiry) and, for a signature, the signature made now over the document hash, the party and `at`; moves the
 * agreement `pending -> partially_signed -> active` as signatures reach the quorum (once active it stays active).
 * Appends `signature.<outcome>` to the audit trail (without the party's email or texts) and answers the `data` of the
 * `signature.<outcome>` webhook, which the caller emits.
 */
export function recordPartyOutcome(ctx: ServerContext, party: PartyRow, outcome: PartyOutcome, at: string): SignatureDecisionData {
  const current = stmt<[string], PartyRow>(ctx.db, 'SELECT * FROM agreement_parties WHERE id = ?').get(party.id)!;
  if (current.status !== 'pending') throw new ApiError(409, `Party ${party.id} already ${current.status}.`, 'party_decided');
  const agreement = agreementOfParty(ctx, current);
  const vote = outcome.outcome === 'signed' ? 'approve' : outcome.outcome === 'expired' ? null : 'deny';
  const comment =
    outcome.outcome === 'countered' ? outcome.counterProposal : outcome.outcome === 'expired' ? null : (outcome.comment ?? null);
  const signature =
    outcome.outcome === 'signed'
      ? signatureOf(ctx.keys, signaturePayloadOf(agreement, current, outcome.signedName, at, outcome.authentication))
      : null;
  stmt(ctx.db, 'UPDATE agreement_parties SET status = ?, vote = ?, comment = ?, decided_at = ?, signature_jws = ? WHERE id = ?').run(
    outcome.outcome,
    vote,
    comment,
    at,
    signature,
    current.id,
  );
  const parties = partiesOf(ctx, agreement.id);
  const signed = parties.filter((p) => p.status === 'signed').length;
  // Active is for good: signatures only add up, and the state table has no way back.
  const status = agreement.status === 'active' ? 'active' : statusAfter(agreement.quorum, signed);
  if (status !== agreement.status) {
    stmt(
      ctx.db,
      "UPDATE agreements SET status = ?, updated_at = ?, activated_at = CASE WHEN ? = 'active' THEN ? ELSE activated_at END WHERE id = ?",
    ).run(status, at, status, at, agreement.id);
  }
  const quorumStatus = quorumStatusOf(agreement.quorum, parties);
  appendAuditEvent(ctx, {
    applicationId: agreement.application_id,
    type: `signature.${outcome.outcome}`,
    occurredAt: at,
    data: {
      agreement_id: agreement.id,
      party_id: current.id,
      outcome: outcome.outcome,
      vote,
      agreement_status: status,
      quorum_status: quorumStatus,
      signatures: signed,
      quorum: agreement.quorum,
      home_country: current.home_country,
      ...(signature ? { signature_sha256: sha256Hex(signature) } : {}),
    },
  });
  return {
    agreement_id: agreement.id,
    party_id: current.id,
    party_email: current.email,
    home_country: current.home_country,
    decision_id: current.decision_id ?? '',
    outcome: outcome.outcome,
    vote,
    comment,
    counter_proposal: outcome.outcome === 'countered' ? outcome.counterProposal : null,
    signature,
    document_sha256: agreement.document_sha256,
    agreement_status: status,
    quorum_status: quorumStatus,
    signatures: signed,
    quorum: agreement.quorum,
    decided_at: at,
  };
}

/** The quorum votes cast so far, in the order they were cast. */
export function quorumVotesOf(ctx: ServerContext, row: AgreementRow): QuorumVote[] {
  return partiesOf(ctx, row.id)
    .filter((p) => p.vote !== null && p.decided_at !== null)
    .sort((a, b) => (a.decided_at! < b.decided_at! ? -1 : a.decided_at! > b.decided_at! ? 1 : a.seq - b.seq))
    .map((p) => ({ party_id: p.id, vote: p.vote!, comment: p.comment, cast_at: p.decided_at! }));
}

/**
 * What the receipt of a consent record captured with a party's signature says of it (`extensions.signature_evidence`):
 * a pointer to the agreement's receipt, where the signature is, and `sha256:<hex>` of the signature's JWS (its ASCII
 * bytes). The party must be one of the account's agreements' and have signed (422 `signature_not_found`,
 * `signature_not_signed`), and be the record's subject, by email (422 `signature_subject_mismatch`).
 */
export function signatureEvidenceFor(
  ctx: ServerContext,
  accountId: string,
  ref: { agreement_id: string; party_id: string },
  subjectEmail: string,
) {
  const refuse = (code: string, message: string) => unprocessable(message, code, [{ path: 'signature', code, message }]);
  const agreement = findAgreementRow(ctx, accountId, ref.agreement_id);
  const party = agreement && findPartyRow(ctx, ref.party_id);
  if (!agreement || !party || party.agreement_id !== agreement.id) {
    throw refuse('signature_not_found', `No party ${ref.party_id} of agreement ${ref.agreement_id} in this account.`);
  }
  if (party.status !== 'signed' || !party.signature_jws)
    throw refuse('signature_not_signed', `Party ${party.id} has not signed (it is ${party.status}).`);
  if (party.email !== subjectEmail.trim().toLowerCase()) {
    throw refuse(
      'signature_subject_mismatch',
      "The signature is not the record's subject's: the party's email differs from subject.email.",
    );
  }
  return { pointer: `${ctx.baseUrl}/api/v1/agreements/${agreement.id}/receipt`, digest: `sha256:${sha256Hex(party.signature_jws)}` };
}

/** The receipt of an agreement: the set of its signatures, in the order the parties signed. */
export function agreementReceiptOf(ctx: ServerContext, row: AgreementRow): AgreementReceipt {
  const signatures = partiesOf(ctx, row.id)
    .filter((p) => p.status === 'signed' && p.signature_jws)
    .sort((a, b) => (a.decided_at! < b.decided_at! ? -1 : a.decided_at! > b.decided_at! ? 1 : a.seq - b.seq))
    .map((p) => ({ party_id: p.id, signed_at: p.decided_at!, jws: p.signature_jws! }));
  return {
    agreement_id: row.id,
    title: row.title,
    document_sha256: row.document_sha256,
    quorum: row.quorum,
    status: row.status,
    signatures,
    issued_at: isoNow(ctx.clock),
  };
}
