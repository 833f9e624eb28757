// A person's own agreements and collaborations: which a signed-in person may see, and how each reads for them. A party
// of an agreement is named by email, so the person's agreements are those with a party of their verified email; a
// collaboration's members are person rows, one per organisation, found by that email too (people/reader.ts). What an
// organisation's client sees stops at that organisation. The wire shape never carries a party's email or signing
// session: holding a session token opens the signing page, and the fellow parties' emails are theirs.
import type { AgreementStatus, CollaborationStatus, PersonAgreement, PersonCollaboration } from '@svc/schemas';
import { expireDueSessions } from '../../surfaces/agree/agreements/routes.js';
import { type AgreementRow, partiesOf, quorumStatusOf } from '../../surfaces/agree/agreements/store.js';
import { MULTI_PARTY_QUORUM } from '../../surfaces/agree/agreements.js';
import type { CollaborationRow, MembershipRow } from '../../surfaces/agree/collaborations.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { DEFAULT_LIMIT, decodeCursor, toPage } from '../../infra/pagination.js';
import { type PersonReader, readerParams, readerPersons } from '../reader.js';

type Names = { organisation_name: string; application_name: string };
export type PersonAgreementRow = AgreementRow & Names & { party_id: string };

/** The reader's agreements: those with a party of their email, in their organisation when they have one. */
const AGREEMENTS = `SELECT a.*, p.id AS party_id, acc.name AS organisation_name, ap.name AS application_name
  FROM agreements a JOIN agreement_parties p ON p.agreement_id = a.id AND p.email = ?
  JOIN accounts acc ON acc.id = a.account_id JOIN applications ap ON ap.id = a.application_id
  WHERE (? IS NULL OR a.account_id = ?)`;
const agreementParams = (reader: PersonReader) => [reader.email, reader.accountId ?? null, reader.accountId ?? null];

type Page = { limit?: number | undefined; cursor?: string | undefined };

/** A page of the reader's agreements, most recently created first (`seq`), optionally of one status and kind. */
export function listPersonAgreements(
  ctx: ServerContext,
  reader: PersonReader,
  page: Page & { status?: AgreementStatus | undefined; multi_party?: 'true' | 'false' | undefined },
): { agreements: PersonAgreement[]; next_cursor: string | null } {
  const limit = page.limit ?? DEFAULT_LIMIT;
  const before = page.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(page.cursor);
  const kind = page.multi_party === undefined ? '1' : `a.quorum ${page.multi_party === 'true' ? '>=' : '<'} ${MULTI_PARTY_QUORUM}`;
  const status = page.status ?? null;
  const rows = stmt<unknown[], PersonAgreementRow>(
    ctx.db,
    `${AGREEMENTS} AND a.seq < ? AND (? IS NULL OR a.status = ?) AND ${kind} ORDER BY a.seq DESC LIMIT ?`,
  ).all(...agreementParams(reader), before, status, status, limit + 1);
  const { items, next_cursor } = toPage(rows, limit, (r) => r.seq);
  return { agreements: items.map((row) => toPersonAgreement(ctx, row)), next_cursor };
}

/** The reader's agreement `id`, or undefined: one they are not a party of (or another organisation's, for its client) is not there. */
export function findPersonAgreement(ctx: ServerContext, reader: PersonReader, id: string): PersonAgreementRow | undefined {
  return stmt<unknown[], PersonAgreementRow>(ctx.db, `${AGREEMENTS} AND a.id = ?`).get(...agreementParams(reader), id);
}

/** An agreement as one of its parties reads it, with the signing sessions past their deadline expired first. */
export function toPersonAgreement(ctx: ServerContext, row: PersonAgreementRow): PersonAgreement {
  expireDueSessions(ctx, row.id);
  const agreement = stmt<[string], AgreementRow>(ctx.db, 'SELECT * FROM agreements WHERE id = ?').get(row.id)!;
  const parties = partiesOf(ctx, row.id);
  const you = parties.find((p) => p.id === row.party_id)!;
  const open = agreement.expires_at === null || Date.parse(agreement.expires_at) > ctx.clock.now();
  return {
    id: agreement.id,
    title: agreement.title,
    status: agreement.status,
    quorum_status: quorumStatusOf(agreement.quorum, parties),
    quorum: agreement.quorum,
    signed_count: parties.filter((p) => p.status === 'signed').length,
    multi_party: agreement.quorum >= MULTI_PARTY_QUORUM,
    organisation: { id: agreement.account_id, name: row.organisation_name },
    application: { id: agreement.application_id, name: row.application_name },
    document: { text: agreement.document_text, sha256: agreement.document_sha256 },
    you: { party_id: you.id, status: you.status, decided_at: you.decided_at },
    parties: parties.map((p) => ({ name: p.name, status: p.status, is_you: p.id === you.id })),
    can_sign: you.status === 'pending' && you.decision_id !== null && open,
    created_at: agreement.created_at,
    activated_at: agreement.activated_at,
    expires_at: agreement.expires_at,
  };
}

export type PersonCollaborationRow = CollaborationRow & Names;

const MINE = readerPersons('m.user_id');
/** The reader's collaborations: those with a membership (current or past) of one of their person rows. */
const COLLABORATIONS = `SELECT c.*, acc.name AS organisation_name, ap.name AS application_name
  FROM collaborations c JOIN accounts acc ON acc.id = c.account_id JOIN applications ap ON ap.id = c.application_id
  WHERE EXISTS (SELECT 1 FROM collaboration_memberships m WHERE m.collaboration_id = c.id AND ${MINE})`;

/** A page of the reader's collaborations, most recently created first (`seq`), optionally of one status. */
export function listPersonCollaborations(
  ctx: ServerContext,
  reader: PersonReader,
  page: Page & { status?: CollaborationStatus | undefined },
): { collaborations: PersonCollaboration[]; next_cursor: string | null } {
  const limit = page.limit ?? DEFAULT_LIMIT;
  const before = page.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(page.cursor);
  const status = page.status ?? null;
  const rows = stmt<unknown[], PersonCollaborationRow>(
    ctx.db,
    `${COLLABORATIONS} AND c.seq < ? AND (? IS NULL OR c.status = ?) ORDER BY c.seq DESC LIMIT ?`,
  ).all(...readerParams(reader), before, status, status, limit + 1);
  const { items, next_cursor } = toPage(rows, limit, (r) => r.seq);
  return { collaborations: items.map((row) => toPersonCollaboration(ctx, reader, row)), next_cursor };
}

/** The reader's collaboration `id`, or undefined: one they never were a member of is not there. */
export function findPersonCollaboration(ctx: ServerContext, reader: PersonReader, id: string): PersonCollaborationRow | undefined {
  return stmt<unknown[], PersonCollaborationRow>(ctx.db, `${COLLABORATIONS} AND c.id = ?`).get(...readerParams(reader), id);
}

/** The reader's latest membership of the collaboration (they may have left and been added again). */
export function personMembershipOf(ctx: ServerContext, reader: PersonReader, collaborationId: string): MembershipRow {
  return stmt<unknown[], MembershipRow>(
    ctx.db,
    `SELECT * FROM collaboration_memberships m WHERE m.collaboration_id = ? AND ${MINE} ORDER BY m.seq DESC LIMIT 1`,
  ).get(collaborationId, ...readerParams(reader))!;
}

/** A collaboration as one of its members reads it: its state and terms, and their own membership. */
export function toPersonCollaboration(ctx: ServerContext, reader: PersonReader, row: PersonCollaborationRow): PersonCollaboration {
  const m = personMembershipOf(ctx, reader, row.id);
  const live = row.status !== 'dissolved';
  return {
    id: row.id,
    status: row.status,
    organisation: { id: row.account_id, name: row.organisation_name },
    application: { id: row.application_id, name: row.application_name },
    terms: JSON.parse(row.terms) as Record<string, unknown>,
    member_count: row.member_count,
    signed_count: row.signed_count,
    membership: {
      id: m.id,
      role: m.role,
      status: m.status,
      shared_data_categories: JSON.parse(m.shared_data_categories) as string[],
      created_at: m.created_at,
      signed_at: m.signed_at,
      revoked_at: m.revoked_at,
    },
    can_sign: live && m.status === 'pending',
    can_leave: live && m.status !== 'revoked',
    created_at: row.created_at,
    activated_at: row.activated_at,
    dissolved_at: row.dissolved_at,
  };
}
