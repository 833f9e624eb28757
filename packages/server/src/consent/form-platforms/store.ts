// Form connection storage. Signing secrets are sealed with the server's at-rest key for signing secrets (the one
// webhook endpoints use), bound to the connection id, since verifying an HMAC needs the secret itself.
import type { FormConnection, FormField, PurposeBinding, SubjectBinding } from '@svc/schemas';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt, type Db } from '../../infra/db.js';
import { transaction } from '../../infra/transaction.js';
import { newId, randomBase62 } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { loadSealer, type Sealer } from '../../infra/secrets.js';

/** How long the secret before a rotation keeps verifying submissions (spec Limits: one day, server clock). */
export const PREVIOUS_SECRET_TTL_SECONDS = 24 * 60 * 60;

/** A stored connection. */
export interface ConnectionRow {
  seq: number;
  id: string;
  account_id: string;
  application_id: string;
  flow_id: string;
  platform: 'typeform';
  name: string;
  form_id: string | null;
  fields: string;
  subject: string;
  purposes: string;
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_secret_expires_at: string | null;
  secret_rotated_at: string | null;
  last_submission_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

const sealers = new WeakMap<ServerContext, Sealer>();

/** The at-rest sealer of signing secrets, loaded once per server. */
export function sealerOf(ctx: ServerContext): Sealer {
  let sealer = sealers.get(ctx);
  if (!sealer) sealers.set(ctx, (sealer = loadSealer(ctx.controlDataDir)));
  return sealer;
}

/** A new signing secret: `fcsec_` and 43 base62 characters (about 256 bits). */
export function newFormSecret(): string {
  return `fcsec_${randomBase62(43)}`;
}

/** The connection in its wire shape; `secret` only when just issued. */
export function toConnection(ctx: ServerContext, row: ConnectionRow, secret?: string): FormConnection {
  const now = isoNow(ctx.clock);
  const previousLive = row.previous_secret_expires_at !== null && row.previous_secret_expires_at > now;
  return {
    id: row.id,
    application_id: row.application_id,
    flow_id: row.flow_id,
    platform: row.platform,
    name: row.name,
    form_id: row.form_id,
    fields: JSON.parse(row.fields) as FormField[],
    subject: JSON.parse(row.subject) as { email: SubjectBinding; external_id?: SubjectBinding },
    purposes: JSON.parse(row.purposes) as Record<string, PurposeBinding>,
    webhook_url: `${ctx.baseUrl}/hooks/forms/${row.id}`,
    ...(secret !== undefined ? { secret } : {}),
    secret_rotated_at: row.secret_rotated_at,
    previous_secret_expires_at: previousLive ? row.previous_secret_expires_at : null,
    last_submission_at: row.last_submission_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Creates a connection and its first signing secret. */
export function insertConnection(
  ctx: ServerContext,
  input: Pick<ConnectionRow, 'account_id' | 'application_id' | 'flow_id' | 'platform' | 'name' | 'form_id'> & {
    fields: FormField[];
    subject: { email: SubjectBinding; external_id?: SubjectBinding | undefined };
    purposes: Record<string, PurposeBinding>;
  },
): { row: ConnectionRow; secret: string } {
  const id = newId('fcn_', 20);
  const secret = newFormSecret();
  const now = isoNow(ctx.clock);
  transaction(ctx.db, () =>
    stmt(
      ctx.db,
      `INSERT INTO form_connections (id, account_id, application_id, flow_id, platform, name, form_id, fields,
      subject, purposes, secret_enc, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      input.account_id,
      input.application_id,
      input.flow_id,
      input.platform,
      input.name,
      input.form_id,
      JSON.stringify(input.fields),
      JSON.stringify(input.subject),
      JSON.stringify(input.purposes),
      sealerOf(ctx).seal(secret, id),
      now,
      now,
    ),
  );
  return { row: findConnection(ctx, id)!, secret };
}

/** A live connection by id (any account), or undefined. */
export function findConnection(ctx: ServerContext, id: string): ConnectionRow | undefined {
  return stmt<[string], ConnectionRow>(ctx.db, 'SELECT * FROM form_connections WHERE id = ? AND deleted_at IS NULL').get(id);
}

/** A live connection of the application, or undefined. */
export function findApplicationConnection(ctx: ServerContext, applicationId: string, id: string): ConnectionRow | undefined {
  const row = findConnection(ctx, id);
  return row?.application_id === applicationId ? row : undefined;
}

/** A page of the application's live connections, oldest first. */
export function listConnections(ctx: ServerContext, applicationId: string, page: { limit: number; cursor?: string | undefined }) {
  const rows = stmt<[string, number, number], ConnectionRow>(
    ctx.db,
    'SELECT * FROM form_connections WHERE application_id = ? AND deleted_at IS NULL AND seq > ? ORDER BY seq LIMIT ?',
  ).all(applicationId, decodeCursor(page.cursor), page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.seq);
  return { form_connections: items.map((r) => toConnection(ctx, r)), next_cursor };
}

/** Removes a connection: its hook answers 404 from now on; the records it made stay. */
export function deleteConnection(ctx: ServerContext, id: string): void {
  const now = isoNow(ctx.clock);
  transaction(ctx.db, () => stmt(ctx.db, 'UPDATE form_connections SET deleted_at = ?, updated_at = ? WHERE id = ?').run(now, now, id));
}

/** Issues a new secret; the current one stays valid for one day (replacing any earlier previous secret). */
export function rotateConnectionSecret(ctx: ServerContext, row: ConnectionRow): { row: ConnectionRow; secret: string } {
  const secret = newFormSecret();
  const now = isoNow(ctx.clock);
  const expires = new Date(ctx.clock.now() + PREVIOUS_SECRET_TTL_SECONDS * 1000).toISOString();
  transaction(ctx.db, () =>
    stmt(
      ctx.db,
      `UPDATE form_connections SET secret_enc = ?, previous_secret_enc = ?, previous_secret_expires_at = ?,
      secret_rotated_at = ?, updated_at = ? WHERE id = ?`,
    ).run(sealerOf(ctx).seal(secret, row.id), row.secret_enc, expires, now, now, row.id),
  );
  return { row: findConnection(ctx, row.id)!, secret };
}

/** The secrets that verify a submission now: the current one, and the previous one during its day. */
export function liveSecrets(ctx: ServerContext, row: ConnectionRow): string[] {
  const sealer = sealerOf(ctx);
  const secrets = [sealer.open(row.secret_enc, row.id)];
  if (row.previous_secret_enc && row.previous_secret_expires_at && row.previous_secret_expires_at > isoNow(ctx.clock)) {
    secrets.push(sealer.open(row.previous_secret_enc, row.id));
  }
  return secrets;
}

/** The record an earlier delivery of this submission made, if any. */
export function findSubmission(ctx: ServerContext, connectionId: string, token: string): string | undefined {
  return stmt<[string, string], { record_id: string }>(
    ctx.db,
    'SELECT record_id FROM form_submissions WHERE connection_id = ? AND response_token = ?',
  ).get(connectionId, token)?.record_id;
}

/** Remembers an accepted submission. */
export function insertSubmission(ctx: ServerContext, connectionId: string, token: string, recordId: string): void {
  const now = isoNow(ctx.clock);
  stmt(ctx.db, 'INSERT INTO form_submissions (connection_id, response_token, record_id, received_at) VALUES (?, ?, ?, ?)').run(
    connectionId,
    token,
    recordId,
    now,
  );
  stmt(ctx.db, 'UPDATE form_connections SET last_submission_at = ? WHERE id = ?').run(now, connectionId);
}
