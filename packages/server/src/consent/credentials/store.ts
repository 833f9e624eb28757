// Credentials: an IETF SD-JWT VC issued from a fulfilled consent decision of this cell. Every claim that says
// something about the person or the consent is selectively disclosable (each granted purpose on its own), so the
// holder presents only what a verifier needs; `home_country` (which cell's key verifies it), `vct`, the status
// reference and the times are always visible.
import {
  CREDENTIAL_DEFAULT_VALIDITY_DAYS,
  CREDENTIAL_FORMAT,
  type CreateCredentialRequest,
  type Credential,
  type CredentialListQuery,
  type CredentialStatus,
} from '@svc/schemas';
import type { SdJwtVcPayload } from '@sd-jwt/sd-jwt-vc';
import { appendAuditEvent } from '../audit/chain.js';
import { assertHomedHere } from '../../infra/cells/routing.js';
import { consentRecordIdOf } from '../decisions/kinds/consent/record.js';
import type { DecisionRow } from '../decisions/row.js';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { ApiError, unprocessable } from '../../infra/errors.js';
import { homedId } from '../../infra/ids.js';
import { decodeCursor, DEFAULT_LIMIT, toPage } from '../../infra/pagination.js';
import { transaction } from '../../infra/transaction.js';
import { getConsentRecord } from '../records/read.js';
import { issuerOf } from './crypto.js';
import { allocateStatusIndex, statusListChanged, statusListUri } from './status-list.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A stored credential. */
export interface CredentialRow {
  seq: number;
  id: string;
  account_id: string;
  application_id: string;
  decision_id: string;
  consent_transaction_id: string;
  credential_type: string;
  purposes: string;
  holder_bound: number;
  status_list_id: string;
  status_idx: number;
  credential: string;
  issued_at: string;
  expires_at: string;
  revoked_at: string | null;
}

const refuse = (path: string, code: string, message: string): ApiError => unprocessable(message, code, [{ path, code, message }]);

function statusOf(row: CredentialRow, now: string): CredentialStatus {
  if (row.revoked_at) return 'revoked';
  return row.expires_at <= now ? 'expired' : 'active';
}

/** A credential row in its wire shape. */
export function toCredential(ctx: ServerContext, row: CredentialRow): Credential {
  return {
    id: row.id,
    credential_type: row.credential_type,
    format: CREDENTIAL_FORMAT,
    status: statusOf(row, isoNow(ctx.clock)),
    issued_at: row.issued_at,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    home_country: ctx.country,
    application_id: row.application_id,
    consent_transaction_id: row.consent_transaction_id,
    purposes: JSON.parse(row.purposes) as string[],
    holder_bound: row.holder_bound === 1,
    status_list: { idx: row.status_idx, uri: statusListUri(ctx, row.status_list_id) },
    credential: row.credential,
  };
}

/**
 * The fulfilled consent decision of the caller's account with `consentTransactionId`, and the purposes it grants
 * now (its consent record's, so a purpose withdrawn since is not attested) and until when. A transaction homed in
 * another cell is the 421; an unknown one, or a decision that is not a fulfilled, still-granted consent, a 422 naming
 * `consent_transaction_id`.
 */
function grantedConsent(
  ctx: ServerContext,
  accountId: string,
  consentTransactionId: string,
): { decision: DecisionRow; purposes: string[]; expiresAt: string | null } {
  assertHomedHere(ctx, consentTransactionId);
  const decision = stmt<[string], DecisionRow>(ctx.db, 'SELECT * FROM decisions WHERE consent_transaction_id = ?').get(
    consentTransactionId,
  );
  if (!decision || decision.account_id !== accountId) {
    throw refuse(
      'consent_transaction_id',
      'consent_transaction_not_found',
      'consent_transaction_id names no completed decision of this account.',
    );
  }
  if (decision.kind !== 'consent') {
    throw refuse(
      'consent_transaction_id',
      'not_a_consent',
      `consent_transaction_id belongs to a ${decision.kind} decision: credentials attest consent decisions only.`,
    );
  }
  if (decision.status !== 'fulfilled') {
    throw refuse(
      'consent_transaction_id',
      'consent_not_fulfilled',
      `The consent decision ended ${decision.status}: only a fulfilled consent can be attested.`,
    );
  }
  const recordId = consentRecordIdOf(ctx, decision);
  const record = recordId ? getConsentRecord(ctx, accountId, recordId) : undefined;
  const purposes = record
    ? record.purposes.filter((p) => p.outcome === 'granted').map((p) => p.key)
    : (JSON.parse(decision.purposes ?? '[]') as { key: string; outcome: string }[])
        .filter((p) => p.outcome === 'granted')
        .map((p) => p.key);
  if ((record && record.status !== 'fulfilled') || purposes.length === 0) {
    throw refuse(
      'consent_transaction_id',
      'consent_not_fulfilled',
      `The consent is ${record?.status === 'expired' ? 'expired' : 'withdrawn or grants no purpose'}: there is nothing to attest.`,
    );
  }
  return { decision, purposes, expiresAt: record?.expires_at ?? null };
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * Issues a credential of a fulfilled consent decision (`POST /api/v1/credentials`): reserves a status list index,
 * signs the SD-JWT VC with the cell's key (`iss` the cell's base URL, `kid` in its JWKS) and stores it. Expires after
 * `validity_days` (default 90), never later than the consent itself.
 */
export async function issueCredential(ctx: ServerContext, accountId: string, input: CreateCredentialRequest): Promise<Credential> {
  const { decision, purposes, expiresAt: consentExpiresAt } = grantedConsent(ctx, accountId, input.consent_transaction_id);
  // Whole seconds, as the credential's iat and exp state them.
  const issuedAt = new Date(Math.floor(ctx.clock.now() / 1000) * 1000).toISOString();
  let expiresAt = new Date(Date.parse(issuedAt) + (input.validity_days ?? CREDENTIAL_DEFAULT_VALIDITY_DAYS) * DAY_MS).toISOString();
  if (consentExpiresAt && consentExpiresAt < expiresAt)
    expiresAt = new Date(Math.floor(Date.parse(consentExpiresAt) / 1000) * 1000).toISOString();
  const id = homedId(ctx.country, 'cred_', 20);

  // The row is reserved first (its status index is unique), signed outside the transaction, then completed.
  const { listId, idx } = transaction(ctx.db, () => {
    const slot = allocateStatusIndex(ctx);
    stmt(
      ctx.db,
      `INSERT INTO credentials (id, account_id, application_id, decision_id, consent_transaction_id, credential_type, purposes,
        holder_bound, status_list_id, status_idx, credential, issued_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?, ?)`,
    ).run(
      id,
      accountId,
      decision.application_id,
      decision.id,
      input.consent_transaction_id,
      input.credential_type,
      JSON.stringify(purposes),
      input.holder_jwk ? 1 : 0,
      slot.listId,
      slot.idx,
      issuedAt,
      expiresAt,
    );
    return slot;
  });

  const payload: SdJwtVcPayload = {
    iss: ctx.baseUrl,
    iat: seconds(issuedAt),
    exp: seconds(expiresAt),
    vct: input.credential_type,
    status: { status_list: { idx, uri: statusListUri(ctx, listId) } },
    home_country: ctx.country,
    ...(input.holder_jwk ? { cnf: { jwk: { kty: 'EC', crv: 'P-256', x: input.holder_jwk.x, y: input.holder_jwk.y } } } : {}),
    jti: id,
    application_id: decision.application_id,
    consent_transaction_id: input.consent_transaction_id,
    flow_id: decision.flow_id,
    consented_at: decision.completed_at,
    purposes: Object.fromEntries(purposes.map((key) => [key, true])),
    ...(decision.subject_email ? { email: decision.subject_email } : {}),
  };
  const frame = {
    _sd: ['jti', 'application_id', 'consent_transaction_id', 'flow_id', 'consented_at', ...(decision.subject_email ? ['email'] : [])],
    purposes: { _sd: purposes },
  } as unknown as Parameters<ReturnType<typeof issuerOf>['issue']>[1];
  let sdJwt: string;
  try {
    sdJwt = await issuerOf(ctx.keys).issue(payload, frame, { header: { kid: ctx.keys.kid } });
  } catch (err) {
    stmt(ctx.db, 'DELETE FROM credentials WHERE id = ?').run(id);
    throw err;
  }
  transaction(ctx.db, () => {
    stmt(ctx.db, 'UPDATE credentials SET credential = ? WHERE id = ?').run(sdJwt, id);
    appendAuditEvent(ctx, {
      applicationId: decision.application_id,
      type: 'credential.issued',
      occurredAt: issuedAt,
      data: {
        credential_id: id,
        credential_type: input.credential_type,
        consent_transaction_id: input.consent_transaction_id,
        decision_id: decision.id,
        purposes,
        expires_at: expiresAt,
      },
    });
  });
  ctx.metrics.increment('credentials.issued_total', { holder_bound: input.holder_jwk ? 'true' : 'false' });
  return toCredential(ctx, findCredentialRow(ctx, accountId, id)!);
}

/** The caller's credential `id` (a complete one), or undefined; an id homed in another cell is the 421. */
export function findCredentialRow(ctx: ServerContext, accountId: string, id: string): CredentialRow | undefined {
  assertHomedHere(ctx, id);
  const row = stmt<[string], CredentialRow>(ctx.db, "SELECT * FROM credentials WHERE id = ? AND credential <> ''").get(id);
  return row && row.account_id === accountId ? row : undefined;
}

/** A page of the caller's credentials, oldest first, optionally of one status or one consent transaction. */
export function listCredentials(
  ctx: ServerContext,
  accountId: string,
  query: Pick<CredentialListQuery, 'status' | 'consent_transaction_id' | 'cursor'> & { limit?: number },
) {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const now = isoNow(ctx.clock);
  const status = query.status ?? null;
  const rows = stmt<
    [string, number, string | null, string | null, string | null, string | null, string | null, string, string | null, string, number],
    CredentialRow
  >(
    ctx.db,
    `
    SELECT * FROM credentials WHERE account_id = ? AND seq > ? AND credential <> ''
      AND (? IS NULL OR consent_transaction_id = ?)
      AND (? IS NULL
        OR (? = 'revoked' AND revoked_at IS NOT NULL)
        OR (? = 'expired' AND revoked_at IS NULL AND expires_at <= ?)
        OR (? = 'active' AND revoked_at IS NULL AND expires_at > ?))
    ORDER BY seq LIMIT ?`,
  ).all(
    accountId,
    decodeCursor(query.cursor),
    query.consent_transaction_id ?? null,
    query.consent_transaction_id ?? null,
    status,
    status,
    status,
    now,
    status,
    now,
    limit + 1,
  );
  const { items, next_cursor } = toPage(rows, limit, (r) => r.seq);
  return { credentials: items.map((row) => toCredential(ctx, row)), next_cursor };
}

/**
 * Revokes a credential: sets its bit in its status list (published at once; verifiers see it when their cached copy
 * of the list expires, within its `ttl`). Revoking a revoked credential changes nothing and answers it as it is.
 */
export function revokeCredential(
  ctx: ServerContext,
  row: CredentialRow,
  reason: 'revoked' | 'consent_withdrawn' = 'revoked',
): CredentialRow {
  if (row.revoked_at) return row;
  const now = isoNow(ctx.clock);
  transaction(ctx.db, () => {
    stmt(ctx.db, 'UPDATE credentials SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, row.id);
    appendAuditEvent(ctx, {
      applicationId: row.application_id,
      type: 'credential.revoked',
      occurredAt: now,
      data: {
        credential_id: row.id,
        credential_type: row.credential_type,
        consent_transaction_id: row.consent_transaction_id,
        status_list_id: row.status_list_id,
        status_idx: row.status_idx,
        reason,
      },
    });
  });
  statusListChanged(ctx, row.status_list_id);
  ctx.metrics.increment('credentials.revoked_total', { reason });
  return { ...row, revoked_at: now };
}

const followed = new WeakSet<ServerContext>();

/**
 * A credential never outlives the consent it attests: when a consent record made by a decision loses a purpose
 * (`consent.purpose_revoked`) or all of them (`consent.revoked`), the decision's credentials attesting it are
 * revoked in the same transaction. Subscribed once per cell.
 */
export function followWithdrawals(ctx: ServerContext): void {
  if (followed.has(ctx)) return;
  followed.add(ctx);
  const revokeFor = (eventCtx: ServerContext, recordId: unknown, purposes: readonly string[] | 'all') => {
    if (typeof recordId !== 'string') return;
    const key = stmt<[string], string | null>(eventCtx.db, 'SELECT idempotency_key FROM consent_records WHERE id = ?')
      .pluck()
      .get(recordId) as string | null | undefined;
    if (!key?.startsWith('decision:')) return;
    const rows = stmt<[string], CredentialRow>(eventCtx.db, 'SELECT * FROM credentials WHERE decision_id = ? AND revoked_at IS NULL').all(
      key.slice('decision:'.length),
    );
    for (const row of rows) {
      const attested = JSON.parse(row.purposes) as string[];
      if (purposes === 'all' || attested.some((p) => purposes.includes(p))) revokeCredential(eventCtx, row, 'consent_withdrawn');
    }
  };
  ctx.events.on('consent.revoked', (eventCtx, event) => revokeFor(eventCtx, event.data.record_id, 'all'));
  ctx.events.on('consent.purpose_revoked', (eventCtx, event) => {
    if (event.data.outcome === 'revoked' && typeof event.data.purpose === 'string')
      revokeFor(eventCtx, event.data.record_id, [event.data.purpose]);
  });
}
