// Portability transfers: a person's data moved from one application of the account to another under a portability
// policy of theirs. The source marks the package ready and declares its SHA-256 (`POST …/{id}/ready {data_hash}`);
// the destination confirms with the digest of what it received (`POST …/confirm {transfer_id, data_hash}`), compared
// in constant time: a mismatch is 422 `data_hash_mismatch` and counted, and the transfer stays ready.
// `pending -> ready -> confirmed`; `pending | ready -> cancelled`; confirmed and cancelled are final.
import type {
  ConfirmPortabilityTransferRequest,
  CreatePortabilityTransferRequest,
  PolicyTemplateConfig,
  PortabilityTransfer,
  PortabilityTransferStatus,
} from '@svc/schemas';
import { appendAuditEvent } from '../../consent/audit/chain.js';
import { assertHomedHere } from '../../infra/cells/routing.js';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { homedId, safeEqual } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { transaction } from '../../infra/transaction.js';
import { accountApplication, illegalTransition, parsed, refused, type Caller } from './common.js';
import { referencedPolicy } from './policies.js';

export interface TransferRow {
  seq: number;
  id: string;
  account_id: string;
  policy_id: string;
  person_id: string;
  source_application_id: string;
  destination_application_id: string;
  negotiated_format: string;
  status: PortabilityTransferStatus;
  data_hash: string | null;
  mismatch_count: number;
  ready_at: string | null;
  confirmed_at: string | null;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
}

const TRANSFER_ID = /^ptr_(?:[a-z]{2}_)?[A-Za-z0-9]{16,24}$/;
const byId = (ctx: ServerContext, id: string) =>
  stmt<[string], TransferRow>(ctx.db, 'SELECT * FROM portability_transfers WHERE id = ?').get(id);

/** A digest as stored: `sha256:` and lower-case hex. */
export const normaliseHash = (hash: string) => `sha256:${hash.replace(/^sha256:/, '').toLowerCase()}`;

export function toPortabilityTransfer(ctx: ServerContext, row: TransferRow): PortabilityTransfer {
  return {
    id: row.id,
    policy_id: row.policy_id,
    person_id: row.person_id,
    source_application_id: row.source_application_id,
    destination_application_id: row.destination_application_id,
    negotiated_format: row.negotiated_format,
    status: row.status,
    data_hash: row.data_hash,
    mismatch_count: row.mismatch_count,
    ready_at: row.ready_at,
    confirmed_at: row.confirmed_at,
    cancelled_at: row.cancelled_at,
    home_country: ctx.country,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The transfer `id` the caller may see (their own for a person, the account's for the organisation), or undefined. */
export function findTransfer(ctx: ServerContext, caller: Caller, id: string): TransferRow | undefined {
  if (!TRANSFER_ID.test(id)) return undefined;
  const row = byId(ctx, id);
  if (!row || row.account_id !== caller.accountId) return undefined;
  if (caller.kind === 'person' && row.person_id !== caller.personId) return undefined;
  return row;
}

/**
 * Opens a transfer under a person's active portability policy (the person's own when they call; any person's of the
 * account for the organisation), between two different active applications of the account, in one of the policy's
 * formats (default its first).
 */
export function createTransfer(ctx: ServerContext, caller: Caller, input: CreatePortabilityTransferRequest): TransferRow {
  const policy = referencedPolicy(ctx, caller, input.policy_id);
  if (!policy.person_id)
    throw refused(
      'policy_id',
      'policy_not_personal',
      `Policy ${policy.id} is the account's; a transfer moves a person's data under their own policy.`,
    );
  if (policy.template_id !== 'portability')
    throw refused(
      'policy_id',
      'policy_not_portability',
      `Policy ${policy.id} is a ${policy.template_id} policy, not a portability policy.`,
    );
  if (policy.status !== 'active') throw refused('policy_id', 'policy_not_active', `Policy ${policy.id} is ${policy.status}.`);
  const source = accountApplication(ctx, caller.accountId, input.source_application_id, 'source_application_id');
  const destination = accountApplication(ctx, caller.accountId, input.destination_application_id, 'destination_application_id');
  if (source === destination)
    throw refused('destination_application_id', 'same_application', 'The destination must be another application than the source.');
  const { formats } = parsed<PolicyTemplateConfig<'portability'>>(policy.config)!;
  const format = input.negotiated_format ?? formats[0]!;
  if (!formats.includes(format)) {
    throw refused(
      'negotiated_format',
      'format_not_offered',
      `Policy ${policy.id} allows the formats ${formats.join(', ')}; ${format} is not one of them.`,
    );
  }
  assertHomedHere(ctx, policy.person_id);
  const id = homedId(ctx.country, 'ptr_', 20);
  const now = isoNow(ctx.clock);
  stmt(
    ctx.db,
    `INSERT INTO portability_transfers (id, account_id, policy_id, person_id, source_application_id, destination_application_id, negotiated_format, status, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
  ).run(id, caller.accountId, policy.id, policy.person_id, source, destination, format, now, now);
  return byId(ctx, id)!;
}

/** A page of the transfers the caller may see, oldest first. */
export function listTransfers(
  ctx: ServerContext,
  caller: Caller,
  page: {
    limit: number;
    cursor?: string | undefined;
    status?: PortabilityTransferStatus | undefined;
    policy_id?: string | undefined;
  },
) {
  const person = caller.kind === 'person' ? caller.personId : null;
  const status = page.status ?? null;
  const policy = page.policy_id ?? null;
  const rows = stmt<unknown[], TransferRow>(
    ctx.db,
    `SELECT * FROM portability_transfers WHERE account_id = ? AND seq > ?
      AND (? IS NULL OR person_id = ?) AND (? IS NULL OR status = ?) AND (? IS NULL OR policy_id = ?) ORDER BY seq LIMIT ?`,
  ).all(caller.accountId, decodeCursor(page.cursor), person, person, status, status, policy, policy, page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.seq);
  return { portability_transfers: items.map((r) => toPortabilityTransfer(ctx, r)), next_cursor };
}

const FINAL: readonly PortabilityTransferStatus[] = ['confirmed', 'cancelled'];
const cannot = (from: PortabilityTransferStatus, to: string) =>
  illegalTransition(`A portability transfer cannot go from ${from} to ${to}${FINAL.includes(from) ? ` (${from} is final)` : ''}.`);

/** The source declares the package's digest: `pending -> ready`. */
export function markReady(ctx: ServerContext, row: TransferRow, dataHash: string): TransferRow {
  return transaction(ctx.db, () => {
    const current = byId(ctx, row.id)!;
    if (current.status !== 'pending') throw cannot(current.status, 'ready');
    const now = isoNow(ctx.clock);
    stmt(ctx.db, "UPDATE portability_transfers SET status = 'ready', data_hash = ?, ready_at = ?, updated_at = ? WHERE id = ?").run(
      normaliseHash(dataHash),
      now,
      now,
      current.id,
    );
    return byId(ctx, current.id)!;
  });
}

/**
 * The destination confirms: `ready -> confirmed` when `data_hash` equals the declared one (constant-time compare).
 * No hash is 422 `data_hash_required`; another hash is 422 `data_hash_mismatch` (counted in `mismatch_count`, the
 * transfer stays ready).
 */
export function confirmTransfer(ctx: ServerContext, row: TransferRow, input: ConfirmPortabilityTransferRequest): TransferRow {
  const current = byId(ctx, row.id)!;
  if (current.status !== 'ready') throw cannot(current.status, 'confirmed');
  if (input.data_hash === undefined)
    throw refused('data_hash', 'data_hash_required', 'data_hash is required: the SHA-256 of the package the destination received.');
  if (!safeEqual(normaliseHash(input.data_hash), current.data_hash!)) {
    stmt(ctx.db, 'UPDATE portability_transfers SET mismatch_count = mismatch_count + 1, updated_at = ? WHERE id = ?').run(
      isoNow(ctx.clock),
      current.id,
    );
    throw refused(
      'data_hash',
      'data_hash_mismatch',
      'data_hash is not the digest the source declared for this package: it changed on the way, or it is another package.',
    );
  }
  return transaction(ctx.db, () => {
    const now = isoNow(ctx.clock);
    const changed = stmt(
      ctx.db,
      "UPDATE portability_transfers SET status = 'confirmed', confirmed_at = ?, updated_at = ? WHERE id = ? AND status = 'ready'",
    ).run(now, now, current.id);
    if (changed.changes === 0) throw cannot(byId(ctx, current.id)!.status, 'confirmed');
    appendAuditEvent(ctx, {
      applicationId: current.source_application_id,
      type: 'portability_transfer.confirmed',
      occurredAt: now,
      data: {
        portability_transfer_id: current.id,
        policy_id: current.policy_id,
        destination_application_id: current.destination_application_id,
        data_hash: current.data_hash,
      },
    });
    return byId(ctx, current.id)!;
  });
}

/** `pending | ready -> cancelled` (the person or the organisation). */
export function cancelTransfer(ctx: ServerContext, row: TransferRow): TransferRow {
  return transaction(ctx.db, () => {
    const current = byId(ctx, row.id)!;
    if (FINAL.includes(current.status)) throw cannot(current.status, 'cancelled');
    const now = isoNow(ctx.clock);
    stmt(ctx.db, "UPDATE portability_transfers SET status = 'cancelled', cancelled_at = ?, updated_at = ? WHERE id = ?").run(
      now,
      now,
      current.id,
    );
    return byId(ctx, current.id)!;
  });
}
