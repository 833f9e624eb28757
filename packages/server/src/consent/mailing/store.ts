// Mailing connection storage: the connection (its API key sealed with the server's at-rest key, the one webhook
// endpoints and form connections use; its inbound secret kept as a hash), the outbox of permission writes owed to
// the provider, and the last state the service itself wrote for each member (the echo guard).
import { createHash } from 'node:crypto';
import type { MailingConnection, MailingProvider } from '@svc/schemas';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { hashSecret, newId, randomBase62 } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { transaction } from '../../infra/transaction.js';
import { sealerOf } from '../form-platforms/store.js';

/** A stored connection. */
export interface MailingConnectionRow {
  seq: number;
  id: string;
  account_id: string;
  application_id: string;
  provider: MailingProvider;
  api_key_enc: string;
  api_base_url: string | null;
  list_id: string;
  flow_id: string;
  purpose: string;
  marketing_permission_id: string | null;
  webhook_secret_hash: string;
  provider_webhook_id: string | null;
  status: 'active' | 'disconnected';
  created_at: string;
  disconnected_at: string | null;
  /** Records of the flow whose term ended up to this time have had their permission written off. */
  expired_through: string | null;
}

/** One permission write owed to the provider. */
export interface MailingOutboxRow {
  seq: number;
  id: string;
  connection_id: string;
  email_enc: string | null;
  member_hash: string;
  enabled: number;
  status: 'pending' | 'sent' | 'failed';
  attempt_count: number;
  next_attempt_ms: number | null;
  in_flight: number;
  last_error: string | null;
  created_at: string;
  completed_at: string | null;
}

/** The new connection's id and inbound secret, before anything is stored (the webhook URL is registered first). */
export function newConnectionIds(): { id: string; secret: string } {
  return { id: newId('mlc_', 20), secret: `mlsec_${randomBase62(43)}` };
}

/** The inbound URL registered at the provider: it carries the secret, the only credential a provider's call has. */
export function webhookUrl(ctx: ServerContext, id: string, secret: string): string {
  return `${ctx.baseUrl}/hooks/mailing/${id}/${secret}`;
}

/** The wire shape; the URL's secret is only known when just made, so later answers show it masked. */
export function toMailingConnection(ctx: ServerContext, row: MailingConnectionRow, secret?: string): MailingConnection {
  return {
    id: row.id,
    provider: row.provider,
    list_id: row.list_id,
    flow_id: row.flow_id,
    purpose: row.purpose,
    marketing_permission_id: row.marketing_permission_id,
    webhook_url: webhookUrl(ctx, row.id, secret ?? '…'),
    status: row.status,
    created_at: row.created_at,
  };
}

/** Stores a connection whose webhook the provider has registered. */
export function insertMailingConnection(
  ctx: ServerContext,
  input: Omit<
    MailingConnectionRow,
    'seq' | 'api_key_enc' | 'webhook_secret_hash' | 'status' | 'created_at' | 'disconnected_at' | 'expired_through'
  > & {
    api_key: string;
    secret: string;
  },
): MailingConnectionRow {
  stmt(
    ctx.db,
    `INSERT INTO mailing_connections (id, account_id, application_id, provider, api_key_enc, api_base_url, list_id, flow_id,
      purpose, marketing_permission_id, webhook_secret_hash, provider_webhook_id, status, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?)`,
  ).run(
    input.id,
    input.account_id,
    input.application_id,
    input.provider,
    sealerOf(ctx).seal(input.api_key, input.id),
    input.api_base_url,
    input.list_id,
    input.flow_id,
    input.purpose,
    input.marketing_permission_id,
    hashSecret(input.secret),
    input.provider_webhook_id,
    isoNow(ctx.clock),
  );
  return findMailingConnection(ctx, input.id)!;
}

/** A connection by id (any account, any status), or undefined. */
export function findMailingConnection(ctx: ServerContext, id: string): MailingConnectionRow | undefined {
  return stmt<[string], MailingConnectionRow>(ctx.db, 'SELECT * FROM mailing_connections WHERE id = ?').get(id);
}

/** The account's connection, or undefined (another account's is not there). */
export function findAccountConnection(ctx: ServerContext, accountId: string, id: string): MailingConnectionRow | undefined {
  const row = findMailingConnection(ctx, id);
  return row?.account_id === accountId ? row : undefined;
}

/** The connection's API key, opened. */
export function apiKeyOf(ctx: ServerContext, row: MailingConnectionRow): string {
  return sealerOf(ctx).open(row.api_key_enc, row.id);
}

/** A page of the account's connections, oldest first. */
export function listMailingConnections(ctx: ServerContext, accountId: string, page: { limit: number; cursor?: string | undefined }) {
  const rows = stmt<[string, number, number], MailingConnectionRow>(
    ctx.db,
    'SELECT * FROM mailing_connections WHERE account_id = ? AND seq > ? ORDER BY seq LIMIT ?',
  ).all(accountId, decodeCursor(page.cursor), page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.seq);
  return { mailing_connections: items.map((r) => toMailingConnection(ctx, r)), next_cursor };
}

/** Marks a connection disconnected: its hook answers 404 and no more writes are queued for it. */
export function markDisconnected(ctx: ServerContext, id: string): void {
  transaction(ctx.db, () =>
    stmt(ctx.db, "UPDATE mailing_connections SET status = 'disconnected', disconnected_at = ? WHERE id = ?").run(isoNow(ctx.clock), id),
  );
}

/** The active connections of a flow's purpose. */
export function connectionsOf(ctx: ServerContext, flowId: string, purpose: string): MailingConnectionRow[] {
  return stmt<[string, string], MailingConnectionRow>(
    ctx.db,
    "SELECT * FROM mailing_connections WHERE flow_id = ? AND purpose = ? AND status = 'active' ORDER BY seq",
  ).all(flowId, purpose);
}

/** The active connections of a flow. */
export function connectionsOfFlow(ctx: ServerContext, flowId: string): MailingConnectionRow[] {
  return stmt<[string], MailingConnectionRow>(
    ctx.db,
    "SELECT * FROM mailing_connections WHERE flow_id = ? AND status = 'active' ORDER BY seq",
  ).all(flowId);
}

/** A member's key in the echo guard: a hash of the connection and the lower-cased email (no address is kept). */
export function memberHash(connectionId: string, email: string): string {
  return createHash('sha256').update(`${connectionId}\n${email.trim().toLowerCase()}`, 'utf8').digest('hex');
}

/** Queues a permission write (inside the caller's transaction); the email is sealed until it is sent. */
export function queueWrite(ctx: ServerContext, row: MailingConnectionRow, email: string, enabled: boolean): void {
  const id = newId('mlw_', 20);
  stmt(
    ctx.db,
    `INSERT INTO mailing_outbox (id, connection_id, email_enc, member_hash, enabled, status, next_attempt_ms, created_at)
      VALUES (?, ?, ?, ?, ?, 'pending', ?, ?)`,
  ).run(id, row.id, sealerOf(ctx).seal(email, id), memberHash(row.id, email), enabled ? 1 : 0, ctx.clock.now(), isoNow(ctx.clock));
}

/** Remembers the state the service itself just wrote for a member. */
export function rememberWrite(ctx: ServerContext, connectionId: string, hash: string, enabled: boolean): void {
  stmt(
    ctx.db,
    `INSERT INTO mailing_writes (connection_id, member_hash, enabled, written_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (connection_id, member_hash) DO UPDATE SET enabled = excluded.enabled, written_at = excluded.written_at`,
  ).run(connectionId, hash, enabled ? 1 : 0, isoNow(ctx.clock));
}

/** The last state the service wrote for the member, or undefined when it never wrote one. */
export function lastWrite(ctx: ServerContext, connectionId: string, email: string): boolean | undefined {
  const row = stmt<[string, string], { enabled: number }>(
    ctx.db,
    'SELECT enabled FROM mailing_writes WHERE connection_id = ? AND member_hash = ?',
  ).get(connectionId, memberHash(connectionId, email));
  return row === undefined ? undefined : row.enabled === 1;
}
