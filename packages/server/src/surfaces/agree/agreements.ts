// Agree's view of agreements, over the agreements module (no second copy of its logic): multi-party agreements are
// the agreements whose quorum is two or more, read with their signatures counted and their quorum votes; and the
// spec's Cast quorum vote request, a party voting with their own access token, which ends their signing session
// through the participant step the hosted page would take (so the party's outcome, signature, audit event and webhook
// are the ones a signing session makes).
import type { AgreementStatus, CastQuorumVoteRequest, MultiPartyAgreement, QuorumVote, QuorumVoteCast } from '@svc/schemas';
import { expireDueSessions } from './agreements/routes.js';
import { findAgreementRow, partiesOf, quorumVotesOf, toAgreement, type AgreementRow } from './agreements/store.js';
import { SIGNATURE_SCREENS } from '../../consent/decisions/kinds/signature/steps.js';
import { TERMINAL } from '../../consent/decisions/row.js';
import { findDecision, recordTransition } from '../../consent/decisions/store.js';
import { applyTransition } from '../../consent/decisions/transitions.js';
import { isoNow } from '../../infra/clock.js';
import type { Principal, ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { ApiError, notFound } from '../../infra/errors.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { transaction } from '../../infra/transaction.js';

/** The smallest quorum that makes an agreement multi-party. */
export const MULTI_PARTY_QUORUM = 2;

/** The wire shape of a multi-party agreement. */
export function toMultiPartyAgreement(ctx: ServerContext, row: AgreementRow): MultiPartyAgreement {
  const agreement = toAgreement(ctx, row);
  return {
    ...agreement,
    signed_count: agreement.party_details.filter((p) => p.status === 'signed').length,
    quorum_votes: quorumVotesOf(ctx, row),
  };
}

/**
 * The account's multi-party agreement `id`, with its due signing sessions expired; 404 for anything else, and for an
 * agreement of quorum one (which lives at `/api/v1/agreements/{id}` only).
 */
export function findMultiPartyAgreement(ctx: ServerContext, accountId: string, id: string): AgreementRow {
  const row = findAgreementRow(ctx, accountId, id);
  if (!row) throw notFound('No such multi-party agreement.');
  if (row.quorum < MULTI_PARTY_QUORUM) {
    throw new ApiError(
      404,
      `Agreement ${row.id} has a quorum of one, so it is not a multi-party agreement; read it at /api/v1/agreements/${row.id}.`,
      'not_multi_party',
    );
  }
  expireDueSessions(ctx, row.id);
  return findAgreementRow(ctx, accountId, id)!;
}

/** A page of the account's multi-party agreements, oldest first, as they are now. */
export function listMultiPartyAgreements(
  ctx: ServerContext,
  accountId: string,
  page: { limit: number; cursor?: string | undefined; status?: AgreementStatus | undefined },
) {
  const select = (status: AgreementStatus | null) =>
    stmt<[string, number, number, string | null, string | null, number], AgreementRow>(
      ctx.db,
      'SELECT * FROM agreements WHERE account_id = ? AND quorum >= ? AND seq > ? AND (? IS NULL OR status = ?) ORDER BY seq LIMIT ?',
    ).all(accountId, MULTI_PARTY_QUORUM, decodeCursor(page.cursor), status, status, page.limit + 1);
  // The status filter must see the agreements as they are now: expire what is due on the page first.
  for (const row of select(null)) expireDueSessions(ctx, row.id);
  const { items, next_cursor } = toPage(select(page.status ?? null), page.limit, (r) => r.seq);
  return { multi_party_agreements: items.map((r) => toMultiPartyAgreement(ctx, r)), next_cursor };
}

const SIGN_SCREEN = SIGNATURE_SCREENS.indexOf('sign');

/**
 * A party's quorum vote through the API, with their own access token: the person whose email is a party of the
 * account's agreement `agreementId` (404 for anyone else, as if it did not exist). Their access token stands for the
 * sign-in code of the signing session; `approve` then signs (the signed name: the party's name, else their email) and
 * `deny` declines, each through the session's own step. A party votes once: 409 `party_decided` after a signature,
 * a decline, a counter-proposal or an expiry.
 */
export function castQuorumVote(
  ctx: ServerContext,
  person: Extract<Principal, { kind: 'person' }>,
  agreementId: string,
  input: CastQuorumVoteRequest,
): QuorumVoteCast {
  const row = findAgreementRow(ctx, person.accountId, agreementId);
  const email = stmt<[string], string>(ctx.db, 'SELECT email FROM persons WHERE id = ?').pluck().get(person.personId) as string | undefined;
  if (!row || !email) throw notFound('No such agreement.');
  expireDueSessions(ctx, row.id);
  const party = partiesOf(ctx, row.id).find((p) => p.email === email.toLowerCase());
  if (!party) throw notFound('No such agreement.');
  const decided = () =>
    new ApiError(
      409,
      `Party ${party.id} cannot vote: it already ${partiesOf(ctx, row.id).find((p) => p.id === party.id)!.status}, and a party votes once.`,
      'party_decided',
    );
  if (party.status !== 'pending' || !party.decision_id) throw decided();
  const token = stmt<[string], string>(ctx.db, 'SELECT session_token FROM decisions WHERE id = ?').pluck().get(party.decision_id) as string;
  transaction(ctx.db, () => {
    const session = findDecision(ctx, token);
    if (!session || TERMINAL.has(session.status)) throw decided();
    if (session.step_index !== SIGN_SCREEN) {
      // The access token proves the party's email as the code would: the session moves to its signing screen.
      const now = isoNow(ctx.clock);
      const from = session.status;
      session.status = 'reviewing';
      session.step_index = SIGN_SCREEN;
      session.subject_email = session.addressee_email;
      stmt(ctx.db, 'UPDATE decisions SET status = ?, step_index = ?, subject_email = ?, updated_at = ? WHERE id = ?').run(
        session.status,
        session.step_index,
        session.subject_email,
        now,
        session.id,
      );
      recordTransition(ctx, session, 'verify_access_token', from, now);
    }
    const comment = input.comment !== undefined ? { comment: input.comment } : {};
    const viewer = { email: party.email, authenticatedAt: isoNow(ctx.clock), method: 'access_token' } as const;
    applyTransition(
      ctx,
      token,
      input.vote === 'approve' ? { action: 'sign', name: party.name ?? party.email, ...comment } : { action: 'decline', ...comment },
      viewer,
    );
  });
  const after = findAgreementRow(ctx, person.accountId, row.id)!;
  const vote: QuorumVote | undefined = quorumVotesOf(ctx, after).find((v) => v.party_id === party.id);
  return { quorum_vote: vote!, agreement: toAgreement(ctx, after) };
}
