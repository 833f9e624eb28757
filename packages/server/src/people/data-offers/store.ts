// A person's data deals: the data offers they negotiate with organisations, and the data licences granted under
// agreements they signed. Offers belong to a person row per organisation, found by the person's verified email;
// licences to an agreement, found by the email of a party who signed it. What an organisation's client sees stops at
// that organisation. Answers and revocations go through Protect's own `moveDataOffer` and `revokeDataLicense`, so the
// organisation's audit trail and webhooks see them exactly as moves made on its own API.
import type { DataLicenseStatus, DataOfferStatus, PersonDataLicense, PersonDataOffer } from '@svc/schemas';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { DEFAULT_LIMIT, decodeCursor, toPage } from '../../infra/pagination.js';
import { type DataLicenseRow, revokeDataLicense, toDataLicense } from '../../surfaces/protect/data-licenses.js';
import { type DataOfferRow, expireDueOffers, moveDataOffer, toDataOffer } from '../../surfaces/protect/data-offers.js';
import { type PersonReader, readerParams, readerPersons } from '../reader.js';

type Page<S> = { limit?: number | undefined; cursor?: string | undefined; status?: S | undefined };

type PersonOfferRow = DataOfferRow & {
  organisation_name: string;
  application_name: string;
  template_id: PersonDataOffer['policy']['template_id'];
  policy_title: string;
  policy_config: string;
};

const OFFER_SELECT = `SELECT o.*, a.name AS organisation_name, ap.name AS application_name,
    p.template_id, p.title AS policy_title, p.config AS policy_config
  FROM data_offers o JOIN accounts a ON a.id = o.account_id JOIN applications ap ON ap.id = o.application_id
    JOIN policies p ON p.id = o.policy_id
  WHERE ${readerPersons('o.person_id')}`;

/** A page of the reader's offers homed in this cell, most recently drafted first (those past their time expired first). */
export function listPersonDataOffers(
  ctx: ServerContext,
  reader: PersonReader,
  page: Page<DataOfferStatus>,
): { data_offers: PersonDataOffer[]; next_cursor: string | null } {
  expireDueOffers(ctx);
  const limit = page.limit ?? DEFAULT_LIMIT;
  const before = page.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(page.cursor);
  const status = page.status ?? null;
  const rows = stmt<unknown[], PersonOfferRow>(
    ctx.db,
    `${OFFER_SELECT} AND o.seq < ? AND (? IS NULL OR o.status = ?) ORDER BY o.seq DESC LIMIT ?`,
  ).all(...readerParams(reader), before, status, status, limit + 1);
  const { items, next_cursor } = toPage(rows, limit, (r) => r.seq);
  return { data_offers: items.map((row) => toPersonDataOffer(ctx, row)), next_cursor };
}

/** The reader's offer `id` as it is now (expired if due), or undefined: another person's offer is not there. */
export function findPersonDataOffer(ctx: ServerContext, reader: PersonReader, id: string): PersonOfferRow | undefined {
  const find = () => stmt<unknown[], PersonOfferRow>(ctx.db, `${OFFER_SELECT} AND o.id = ?`).get(...readerParams(reader), id);
  if (!find()) return undefined;
  expireDueOffers(ctx, id);
  return find();
}

const categoriesOf = (config: string): string[] => {
  const categories = (JSON.parse(config) as { data_categories?: unknown }).data_categories;
  return Array.isArray(categories) ? categories.filter((c): c is string => typeof c === 'string') : [];
};

/** An offer as the person reads it: the organisation's own view of the negotiation, with names and the policy's categories. */
export function toPersonDataOffer(ctx: ServerContext, row: PersonOfferRow): PersonDataOffer {
  const offer = toDataOffer(ctx, row);
  return {
    id: offer.id,
    status: offer.status,
    turn: offer.turn,
    answerable: offer.status === 'countered',
    organisation: { id: row.account_id, name: row.organisation_name },
    application: { id: row.application_id, name: row.application_name },
    policy: { id: row.policy_id, template_id: row.template_id, title: row.policy_title, data_categories: categoriesOf(row.policy_config) },
    terms: offer.terms,
    counter_count: offer.counter_count,
    rounds: offer.rounds.map(({ action, by, terms, message, at }) => ({ action, by, terms, message, at })),
    expires_at: offer.expires_at,
    offered_at: offer.offered_at,
    decided_at: offer.decided_at,
    decline_reason: offer.decline_reason,
    created_at: offer.created_at,
    updated_at: offer.updated_at,
  };
}

/**
 * The person accepts or declines the organisation's terms on the table, through Protect's own `moveDataOffer` (its
 * state machine, the acceptance on the policy, the audit event). The same answer again is a replay: the offer as it
 * is, with no second round or event. Any other move the machine refuses (accept after decline, an offer that is the
 * organisation's turn) is its 409.
 */
export function answerPersonDataOffer(
  ctx: ServerContext,
  row: PersonOfferRow,
  answer: { action: 'accept' } | { action: 'decline'; reason?: string | undefined },
): void {
  const last = toDataOffer(ctx, row).rounds.at(-1);
  if (last?.by === 'person' && last.action === answer.action) return;
  moveDataOffer(ctx, { kind: 'person', accountId: row.account_id, personId: row.person_id }, row, answer);
}

type PersonLicenseRow = DataLicenseRow & {
  organisation_name: string;
  application_name: string;
  agreement_title: string;
  signed_at: string | null;
};

// A licence is over the person's data when it was granted under an agreement they signed (a party by their email).
const LICENSE_SELECT = `SELECT l.*, a.name AS organisation_name, ap.name AS application_name,
    ag.title AS agreement_title, pt.decided_at AS signed_at
  FROM data_licenses l JOIN accounts a ON a.id = l.account_id JOIN applications ap ON ap.id = l.application_id
    JOIN agreements ag ON ag.id = l.agreement_id
    JOIN agreement_parties pt ON pt.agreement_id = l.agreement_id AND pt.email = ? AND pt.status = 'signed'
  WHERE (? IS NULL OR l.account_id = ?)`;

/** A page of the licences over the reader's data homed in this cell, most recently issued first. */
export function listPersonDataLicenses(
  ctx: ServerContext,
  reader: PersonReader,
  page: Page<DataLicenseStatus>,
): { data_licenses: PersonDataLicense[]; next_cursor: string | null } {
  const limit = page.limit ?? DEFAULT_LIMIT;
  const before = page.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(page.cursor);
  const status = page.status ?? null;
  const rows = stmt<unknown[], PersonLicenseRow>(
    ctx.db,
    `${LICENSE_SELECT} AND l.seq < ? AND (? IS NULL OR l.status = ?) ORDER BY l.seq DESC LIMIT ?`,
  ).all(...readerParams(reader), before, status, status, limit + 1);
  const { items, next_cursor } = toPage(rows, limit, (r) => r.seq);
  return { data_licenses: items.map((row) => toPersonDataLicense(ctx, row)), next_cursor };
}

/** The licence `id` over the reader's data, or undefined: any other licence is not there. */
export function findPersonDataLicense(ctx: ServerContext, reader: PersonReader, id: string): PersonLicenseRow | undefined {
  return stmt<unknown[], PersonLicenseRow>(ctx.db, `${LICENSE_SELECT} AND l.id = ?`).get(...readerParams(reader), id);
}

/** A licence as the person reads it: who may use what, how often, under which agreement, and whether it still stands. */
export function toPersonDataLicense(ctx: ServerContext, row: PersonLicenseRow): PersonDataLicense {
  const license = toDataLicense(ctx, row);
  return {
    id: license.id,
    status: license.status,
    revocable: license.status !== 'revoked',
    organisation: { id: row.account_id, name: row.organisation_name },
    application: { id: row.application_id, name: row.application_name },
    agreement: { id: row.agreement_id, title: row.agreement_title, signed_at: row.signed_at },
    terms: license.terms,
    max_access_count: license.max_access_count,
    access_count: license.access_count,
    remaining_accesses: license.remaining_accesses,
    last_accessed_at: license.last_accessed_at,
    revoked_at: license.revoked_at,
    created_at: license.created_at,
  };
}

/** The person revokes a licence over their data through Protect's own `revokeDataLicense`; a revoked one stays as it is. */
export function revokePersonDataLicense(ctx: ServerContext, row: PersonLicenseRow): void {
  if (row.status !== 'revoked') revokeDataLicense(ctx, row);
}
