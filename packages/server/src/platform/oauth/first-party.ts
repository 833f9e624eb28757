// The service's own OAuth clients: the hosted pages that sign a person in for themselves (the Trust Inbox) start an
// authorization with one of these, as any application would. They belong to the service's own account and
// application (made on first use, like the sandbox), never to an organisation's, so a person who signs in there is
// nobody's customer. They are public clients (PKCE, no secret: the page needs no token, the provider's session says
// who is signed in), redirecting only to the service's own origin, and the person is not asked to consent to the
// service itself (provider.ts grants their scopes at once).
import type { ServerContext } from '../../infra/context.js';
import { isoNow } from '../../infra/clock.js';
import { stmt } from '../../infra/db.js';
import { newId } from '../../infra/ids.js';
import { transaction } from '../../infra/transaction.js';

/** The name the service's own account, application and clients go by. */
const SERVICE_NAME = 'svc Trust Service';
const SETTING = 'first_party_oauth';

/** One first-party client: its id and the scopes it is granted without a consent screen. */
export interface FirstPartyClient {
  client_id: string;
  scopes: string[];
}

interface Stored {
  account_id: string;
  application_id: string;
  clients: Record<string, { client_id: string; name: string; scopes: string[] }>;
}

const read = (ctx: ServerContext): Stored | undefined => {
  const value = stmt<[string], string>(ctx.db, 'SELECT value FROM settings WHERE key = ?').pluck().get(SETTING) as unknown as
    | string
    | undefined;
  return value ? (JSON.parse(value) as Stored) : undefined;
};

/** The redirect URIs each context has already written (its base URL is fixed once it listens). */
const current = new WeakMap<ServerContext, Set<string>>();

/**
 * How many times the setting was written. Only {@link firstPartyClient} writes it, and every cell of a server runs in
 * this process (sharing the control plane's `settings`), so a write through any cell's context makes every context
 * read it again; until then a context answers {@link firstPartyScopes} (asked on every person's token) from memory.
 */
let writes = 0;
/** Each context's first-party scopes by client id, as of `writes`. */
const known = new WeakMap<ServerContext, { writes: number; scopes: Map<string, string[]> }>();

/**
 * The first-party client `key` (e.g. `inbox`), made on first use with `redirectPath` on the service's own origin and
 * `scopes`; on later uses its redirect URI follows the server's base URL (the port may differ between starts).
 */
export function firstPartyClient(
  ctx: ServerContext,
  key: string,
  options: { name: string; redirectPath: string; scopes: string[] },
): FirstPartyClient {
  const redirectUri = `${ctx.baseUrl}${options.redirectPath}`;
  const seen = current.get(ctx) ?? new Set<string>();
  current.set(ctx, seen);
  const made = read(ctx)?.clients[key];
  if (made && seen.has(`${key} ${redirectUri}`)) return { client_id: made.client_id, scopes: made.scopes };
  try {
    const client = transaction(ctx.db, () => save(ctx, key, options));
    seen.add(`${key} ${redirectUri}`);
    return client;
  } finally {
    writes += 1;
  }
}

/** Makes the client `key` (or updates its name, scopes and redirect URIs) and writes the setting. */
function save(ctx: ServerContext, key: string, options: { name: string; redirectPath: string; scopes: string[] }): FirstPartyClient {
  // One client for the service (its setting is the control plane's), signing in at every cell's own origin.
  const redirectUris = JSON.stringify(
    [...new Set([ctx.baseUrl, ...ctx.cells.list().map((cell) => cell.base_url)])].map((url) => `${url}${options.redirectPath}`),
  );
  const now = isoNow(ctx.clock);
  let stored = read(ctx);
  if (!stored) {
    const accountId = newId('acct_');
    const applicationId = newId('tp_dev_');
    stmt(ctx.db, 'INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').run(accountId, SERVICE_NAME, now);
    stmt(
      ctx.db,
      `INSERT INTO applications (id, account_id, name, environment, created_at, updated_at)
        VALUES (?, ?, ?, 'development', ?, ?)`,
    ).run(applicationId, accountId, SERVICE_NAME, now, now);
    stored = { account_id: accountId, application_id: applicationId, clients: {} };
  }
  let client = stored.clients[key];
  const live =
    client &&
    stmt<[string], string>(ctx.db, 'SELECT id FROM oauth_clients WHERE id = ? AND deleted_at IS NULL').pluck().get(client.client_id);
  if (!client || !live) {
    client = { client_id: newId('oc_', 24), name: options.name, scopes: options.scopes };
    // Written directly: the redirect URI is the service's own, whatever the environment rules for an application's.
    stmt(
      ctx.db,
      `INSERT INTO oauth_clients (id, account_id, application_id, name, client_type, token_endpoint_auth_method,
        secret_hash, redirect_uris, grant_types, created_at) VALUES (?, ?, ?, ?, 'public', 'none', NULL, ?, '["authorization_code"]', ?)`,
    ).run(client.client_id, stored.account_id, stored.application_id, options.name, redirectUris, now);
  } else {
    client = { ...client, name: options.name, scopes: options.scopes };
    stmt(ctx.db, 'UPDATE oauth_clients SET redirect_uris = ?, name = ? WHERE id = ?').run(redirectUris, options.name, client.client_id);
  }
  stored = { ...stored, clients: { ...stored.clients, [key]: client } };
  stmt(ctx.db, 'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
    SETTING,
    JSON.stringify(stored),
  );
  return { client_id: client.client_id, scopes: client.scopes };
}

/** The scopes the service grants its own client `clientId` without asking; undefined for every other client. */
export function firstPartyScopes(ctx: ServerContext, clientId: string): string[] | undefined {
  let clients = known.get(ctx);
  if (clients?.writes !== writes) {
    const stored = Object.values(read(ctx)?.clients ?? {});
    clients = { writes, scopes: new Map(stored.map((client) => [client.client_id, client.scopes])) };
    known.set(ctx, clients);
  }
  const scopes = clients.scopes.get(clientId);
  return scopes && [...scopes];
}
