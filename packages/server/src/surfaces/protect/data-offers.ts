// Data offers: the data deal negotiated over a deal policy of the person's (data_license, data_offer, bounty,
// broadcast) with an application of the organisation. The moves and who makes them come from the pure state machine
// in deal.ts; this module stores them. An open offer past its `expires_at` (server clock) is expired the moment
// anything reads or moves it, at the time it ran out. Acceptance is recorded on the policy itself (`accepted_at`,
// `acceptance`), in the transaction that accepts the offer; a policy is accepted once.
import {
  DATA_OFFER_DEFAULT_LIFETIME_DAYS,
  DATA_OFFER_MAX_LIFETIME_DAYS,
  type CreateDataOfferRequest,
  type DataOffer,
  type DataOfferAction,
  type DataOfferRound,
  type DataOfferStatus,
  type PolicyAcceptance,
} from '@svc/schemas';
import { appendAuditEvent } from '../../consent/audit/chain.js';
import { assertHomedHere } from '../../infra/cells/routing.js';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { homedId } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { transaction } from '../../infra/transaction.js';
import { accountApplication, illegalTransition, parsed, plusDays, refused, type Caller } from './common.js';
import { dealTransition, OPEN_DEAL_STATES, turnOf } from './deal.js';
import { isDeal, referencedPolicy, type PolicyRow } from './policies.js';

export interface DataOfferRow {
  seq: number;
  id: string;
  account_id: string;
  policy_id: string;
  application_id: string;
  person_id: string;
  status: DataOfferStatus;
  terms: string;
  counter_count: number;
  requested_expires_at: string | null;
  expires_at: string | null;
  offered_at: string | null;
  decided_at: string | null;
  decline_reason: string | null;
  created_at: string;
  updated_at: string;
}

interface RoundRow {
  round: number;
  action: DataOfferAction;
  by_party: DataOfferRound['by'];
  terms: string | null;
  message: string | null;
  at: string;
}

const OFFER_ID = /^dof_(?:[a-z]{2}_)?[A-Za-z0-9]{16,24}$/;
const byId = (ctx: ServerContext, id: string) => stmt<[string], DataOfferRow>(ctx.db, 'SELECT * FROM data_offers WHERE id = ?').get(id);

export function toDataOffer(ctx: ServerContext, row: DataOfferRow): DataOffer {
  const rounds = stmt<[string], RoundRow>(
    ctx.db,
    'SELECT round, action, by_party, terms, message, at FROM data_offer_rounds WHERE data_offer_id = ? ORDER BY round',
  ).all(row.id);
  return {
    id: row.id,
    policy_id: row.policy_id,
    application_id: row.application_id,
    person_id: row.person_id,
    status: row.status,
    terms: parsed(row.terms)!,
    turn: turnOf(row.status),
    counter_count: row.counter_count,
    rounds: rounds.map((r) => ({ round: r.round, action: r.action, by: r.by_party, terms: parsed(r.terms), message: r.message, at: r.at })),
    expires_at: row.expires_at,
    offered_at: row.offered_at,
    decided_at: row.decided_at,
    decline_reason: row.decline_reason,
    home_country: ctx.country,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function addRound(ctx: ServerContext, offerId: string, round: Omit<RoundRow, 'round'>): void {
  const next =
    ((stmt<[string], number>(ctx.db, 'SELECT coalesce(max(round), 0) FROM data_offer_rounds WHERE data_offer_id = ?')
      .pluck()
      .get(offerId) as unknown as number) ?? 0) + 1;
  stmt(
    ctx.db,
    'INSERT INTO data_offer_rounds (data_offer_id, round, action, by_party, terms, message, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(offerId, next, round.action, round.by_party, round.terms, round.message, round.at);
}

/**
 * Expires open offers whose time ran out (all of this cell's, or only `offerId`): status `expired`, decided at their
 * `expires_at`, with a round by the service. Called before every read and move, so nobody sees an offer open past
 * its time.
 */
export function expireDueOffers(ctx: ServerContext, offerId?: string): void {
  const now = isoNow(ctx.clock);
  const due = stmt<[string, string | null, string | null], DataOfferRow>(
    ctx.db,
    `SELECT * FROM data_offers WHERE status IN ('offered', 'countered', 'user_revised') AND expires_at <= ? AND (? IS NULL OR id = ?)`,
  ).all(now, offerId ?? null, offerId ?? null);
  if (due.length === 0) return;
  transaction(ctx.db, () => {
    for (const row of due) {
      const step = dealTransition(row.status, 'expire', 'service');
      if (!step.ok) continue;
      const changed = stmt(ctx.db, 'UPDATE data_offers SET status = ?, decided_at = ?, updated_at = ? WHERE id = ? AND status = ?').run(
        step.to,
        row.expires_at,
        now,
        row.id,
        row.status,
      );
      if (changed.changes)
        addRound(ctx, row.id, { action: 'expire', by_party: 'service', terms: null, message: null, at: row.expires_at! });
    }
  });
}

/** The offer `id` the caller may see (their own for a person, the account's for the organisation), expired if due. */
export function findDataOffer(ctx: ServerContext, caller: Caller, id: string): DataOfferRow | undefined {
  if (!OFFER_ID.test(id)) return undefined;
  const row = byId(ctx, id);
  if (!row || row.account_id !== caller.accountId) return undefined;
  if (caller.kind === 'person' && row.person_id !== caller.personId) return undefined;
  if (OPEN_DEAL_STATES.includes(row.status) && row.expires_at && Date.parse(row.expires_at) <= ctx.clock.now()) {
    expireDueOffers(ctx, row.id);
    return byId(ctx, id);
  }
  return row;
}

/** The expiry an offer asks for: in the future, at most 90 days ahead (422 `expires_at_invalid`). */
function requestedExpiry(ctx: ServerContext, expiresAt: string | undefined): string | null {
  if (expiresAt === undefined) return null;
  const at = Date.parse(expiresAt);
  const now = ctx.clock.now();
  if (at <= now || at > now + DATA_OFFER_MAX_LIFETIME_DAYS * 86_400_000) {
    throw refused(
      'expires_at',
      'expires_at_invalid',
      `expires_at must lie in the future, at most ${DATA_OFFER_MAX_LIFETIME_DAYS} days ahead.`,
    );
  }
  return new Date(at).toISOString();
}

/** A deal policy the person may negotiate: theirs, active, a deal template's, not yet accepted (422 otherwise). */
function negotiablePolicy(ctx: ServerContext, person: Extract<Caller, { kind: 'person' }>, id: string): PolicyRow {
  const policy = referencedPolicy(ctx, person, id);
  if (policy.status !== 'active') throw refused('policy_id', 'policy_not_active', `Policy ${policy.id} is ${policy.status}.`);
  if (!isDeal(policy)) {
    throw refused(
      'policy_id',
      'policy_not_deal',
      `Policy ${policy.id} is a ${policy.template_id} policy; data offers negotiate deal policies (data_license, data_offer, bounty, broadcast).`,
    );
  }
  if (policy.accepted_at)
    throw refused('policy_id', 'policy_already_accepted', `Policy ${policy.id} was accepted on ${policy.accepted_at}.`);
  return policy;
}

/** The person's draft: their terms for a deal policy of theirs, to an active application of the account. */
export function createDataOffer(
  ctx: ServerContext,
  person: Extract<Caller, { kind: 'person' }>,
  input: CreateDataOfferRequest,
): DataOfferRow {
  const policy = negotiablePolicy(ctx, person, input.policy_id);
  const applicationId = accountApplication(ctx, person.accountId, input.application_id, 'application_id');
  const requested = requestedExpiry(ctx, input.expires_at);
  const id = homedId(ctx.country, 'dof_', 20);
  const now = isoNow(ctx.clock);
  stmt(
    ctx.db,
    `INSERT INTO data_offers (id, account_id, policy_id, application_id, person_id, status, terms, requested_expires_at, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, 'draft', ?, ?, ?, ?)`,
  ).run(id, person.accountId, policy.id, applicationId, person.personId, JSON.stringify(input.terms), requested, now, now);
  return byId(ctx, id)!;
}

/** A page of the offers the caller may see, oldest first (due ones expired first). */
export function listDataOffers(
  ctx: ServerContext,
  caller: Caller,
  page: {
    limit: number;
    cursor?: string | undefined;
    status?: DataOfferStatus | undefined;
    policy_id?: string | undefined;
    application_id?: string | undefined;
  },
) {
  expireDueOffers(ctx);
  const person = caller.kind === 'person' ? caller.personId : null;
  const status = page.status ?? null;
  const policy = page.policy_id ?? null;
  const app = page.application_id ?? null;
  const rows = stmt<unknown[], DataOfferRow>(
    ctx.db,
    `SELECT * FROM data_offers WHERE account_id = ? AND seq > ?
      AND (? IS NULL OR person_id = ?) AND (? IS NULL OR status = ?) AND (? IS NULL OR policy_id = ?) AND (? IS NULL OR application_id = ?)
    ORDER BY seq LIMIT ?`,
  ).all(caller.accountId, decodeCursor(page.cursor), person, person, status, status, policy, policy, app, app, page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.seq);
  return { data_offers: items.map((r) => toDataOffer(ctx, r)), next_cursor };
}

/** A move and what it carries. */
export type DataOfferMove =
  | { action: 'offer' }
  | { action: 'counter' | 'revise'; terms: Record<string, unknown>; message?: string | undefined }
  | { action: 'accept' }
  | { action: 'decline'; reason?: string | undefined };

/**
 * Makes a move on the offer as the caller (the person or the organisation), if the state machine allows it from the
 * offer's current state (expired first if due): 409 `illegal_transition` naming the transition otherwise. Accepting
 * records the acceptance on the policy (409 `policy_already_accepted` when another offer of it was accepted first,
 * 409 `policy_not_active` when it was revoked meanwhile).
 */
export function moveDataOffer(ctx: ServerContext, caller: Caller, row: DataOfferRow, move: DataOfferMove): DataOfferRow {
  expireDueOffers(ctx, row.id);
  return transaction(ctx.db, () => {
    const current = byId(ctx, row.id)!;
    const actor = caller.kind;
    const step = dealTransition(current.status, move.action, actor);
    if (!step.ok) throw illegalTransition(step.message);
    const now = isoNow(ctx.clock);
    let terms: string | null = null;
    let message: string | null = null;
    switch (move.action) {
      case 'offer': {
        if (current.requested_expires_at && Date.parse(current.requested_expires_at) <= ctx.clock.now()) {
          throw refused(
            'expires_at',
            'expires_at_invalid',
            `The draft asked to expire at ${current.requested_expires_at}, which has passed; make a new offer.`,
          );
        }
        const policy = stmt<[string], PolicyRow>(ctx.db, 'SELECT * FROM policies WHERE id = ?').get(current.policy_id)!;
        if (policy.status !== 'active')
          throw illegalTransition(`Policy ${policy.id} was revoked: its offers cannot be sent.`, 'policy_not_active');
        if (policy.accepted_at)
          throw illegalTransition(`Policy ${policy.id} was already accepted on ${policy.accepted_at}.`, 'policy_already_accepted');
        const expiresAt = current.requested_expires_at ?? plusDays(now, DATA_OFFER_DEFAULT_LIFETIME_DAYS);
        stmt(ctx.db, 'UPDATE data_offers SET status = ?, offered_at = ?, expires_at = ?, updated_at = ? WHERE id = ?').run(
          step.to,
          now,
          expiresAt,
          now,
          current.id,
        );
        terms = current.terms;
        break;
      }
      case 'counter':
      case 'revise':
        terms = JSON.stringify(move.terms);
        message = move.message ?? null;
        stmt(ctx.db, 'UPDATE data_offers SET status = ?, terms = ?, counter_count = counter_count + ?, updated_at = ? WHERE id = ?').run(
          step.to,
          terms,
          move.action === 'counter' ? 1 : 0,
          now,
          current.id,
        );
        break;
      case 'accept': {
        const policy = stmt<[string], PolicyRow>(ctx.db, 'SELECT * FROM policies WHERE id = ?').get(current.policy_id)!;
        if (policy.status !== 'active')
          throw illegalTransition(`Policy ${policy.id} was revoked: its offers cannot be accepted.`, 'policy_not_active');
        if (policy.accepted_at)
          throw illegalTransition(`Policy ${policy.id} was already accepted on ${policy.accepted_at}.`, 'policy_already_accepted');
        const acceptance: PolicyAcceptance = {
          data_offer_id: current.id,
          application_id: current.application_id,
          accepted_by: actor,
          accepted_at: now,
          terms: parsed(current.terms)!,
        };
        stmt(ctx.db, 'UPDATE policies SET accepted_at = ?, acceptance = ?, updated_at = ? WHERE id = ? AND accepted_at IS NULL').run(
          now,
          JSON.stringify(acceptance),
          now,
          policy.id,
        );
        stmt(ctx.db, 'UPDATE data_offers SET status = ?, decided_at = ?, updated_at = ? WHERE id = ?').run(step.to, now, now, current.id);
        break;
      }
      case 'decline':
        message = move.reason ?? null;
        stmt(ctx.db, 'UPDATE data_offers SET status = ?, decided_at = ?, decline_reason = ?, updated_at = ? WHERE id = ?').run(
          step.to,
          now,
          message,
          now,
          current.id,
        );
        break;
    }
    addRound(ctx, current.id, { action: move.action, by_party: actor, terms, message, at: now });
    if (move.action === 'accept' || move.action === 'decline') {
      appendAuditEvent(ctx, {
        applicationId: current.application_id,
        type: `data_offer.${step.to}`,
        occurredAt: now,
        data: { data_offer_id: current.id, policy_id: current.policy_id, by: actor, counter_count: current.counter_count },
      });
    }
    return byId(ctx, current.id)!;
  });
}
