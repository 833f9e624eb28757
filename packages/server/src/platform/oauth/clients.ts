// OAuth clients belong to applications: `/api/v1/applications/{id}/oauth_clients` registers them (redirect URIs are
// full URLs, independent of allowed origins), and the provider reads them from here. Secrets are stored hashed and
// shown once, at create and rotation.
import { createOAuthClientRequest, listQuery, oauthClientEnvelope, oauthClientList, type OAuthClient } from '@svc/schemas';
import type { Context } from 'hono';
import { route, routes } from '../../infra/http/route.js';
import { getApplication, type ApplicationRecord } from '../application-store.js';
import { isoNow } from '../../infra/clock.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { notFound, unprocessable } from '../../infra/errors.js';
import { hashSecret, newId, newSecret } from '../../infra/ids.js';
import { DEFAULT_LIMIT, decodeCursor, toPage } from '../../infra/pagination.js';
import { transaction } from '../../infra/transaction.js';

const DEVICE = 'urn:ietf:params:oauth:grant-type:device_code';
const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';

interface ClientRow {
  seq: number;
  id: string;
  account_id: string;
  application_id: string;
  name: string;
  client_type: OAuthClient['client_type'];
  token_endpoint_auth_method: OAuthClient['token_endpoint_auth_method'];
  secret_hash: string | null;
  redirect_uris: string;
  grant_types: string;
  created_at: string;
  secret_rotated_at: string | null;
  /** Null for the provider's default (ES256). */
  id_token_signed_response_alg: OAuthClient['id_token_signed_response_alg'] | null;
}

const select = `SELECT seq, id, account_id, application_id, name, client_type, token_endpoint_auth_method, secret_hash,
  redirect_uris, grant_types, created_at, secret_rotated_at, id_token_signed_response_alg FROM oauth_clients`;

const toClient = (row: ClientRow, secret?: string): OAuthClient => ({
  client_id: row.id,
  application_id: row.application_id,
  name: row.name,
  client_type: row.client_type,
  token_endpoint_auth_method: row.token_endpoint_auth_method,
  redirect_uris: JSON.parse(row.redirect_uris) as string[],
  grant_types: JSON.parse(row.grant_types) as OAuthClient['grant_types'],
  id_token_signed_response_alg: row.id_token_signed_response_alg ?? 'ES256',
  ...(secret ? { client_secret: secret } : {}),
  created_at: row.created_at,
  secret_rotated_at: row.secret_rotated_at,
});

/** A live client by id, with its application's account. */
export function findClient(ctx: ServerContext, id: string): ClientRow | undefined {
  return stmt<[string], ClientRow>(ctx.db, `${select} WHERE id = ? AND deleted_at IS NULL`).get(id);
}

/** What oidc-provider needs of a client (its `Client` model), or undefined for an unknown or deleted one. */
export function clientMetadata(ctx: ServerContext, id: string): Record<string, unknown> | undefined {
  const row = findClient(ctx, id);
  if (!row) return undefined;
  const grants = JSON.parse(row.grant_types) as string[];
  return {
    client_id: row.id,
    client_name: row.name,
    // The stored hash stands for the secret: the provider compares the hash of what is presented (provider.ts).
    ...(row.secret_hash ? { client_secret: row.secret_hash } : {}),
    token_endpoint_auth_method: row.token_endpoint_auth_method,
    redirect_uris: JSON.parse(row.redirect_uris) as string[],
    grant_types: grants,
    response_types: grants.includes('authorization_code') ? ['code'] : [],
    require_pushed_authorization_requests: true,
    ...(row.id_token_signed_response_alg ? { id_token_signed_response_alg: row.id_token_signed_response_alg } : {}),
  };
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why `uri` cannot be a redirect URI of `application`, or undefined when it can. The provider compares redirect URIs
 * exactly (RFC 9700 section 4.1.3), so a registered one is exactly what a URL parser makes of it: nothing a parser
 * drops or rewrites (control characters, whitespace, a host's case, `..` segments) and no wildcard, which would read
 * as a pattern to anyone who matches loosely.
 */
export function redirectUriProblem(uri: string, application: Pick<ApplicationRecord, 'environment'>): string | undefined {
  if (/[\u0000-\u001f\u007f-\u009f]/.test(uri)) return 'must not contain control characters';
  if (/\s/.test(uri)) return 'must not contain whitespace';
  if (uri.includes('*')) return 'must not contain a wildcard (*)';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.hash || uri.includes('#')) return 'must not have a fragment';
  if (url.username || url.password) return 'must not carry credentials';
  if (url.href !== uri) return `must be written exactly as it parses: ${url.href}`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    if (!LOOPBACK.has(url.hostname)) return 'must use https (http only on localhost or 127.0.0.1)';
    return application.environment === 'development' ? undefined : 'must use https in a production application';
  }
  // A native app's private-use scheme is a reverse domain name (RFC 8252 section 7.1), such as com.example.app:/cb.
  return /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/.test(url.protocol) ? undefined : 'must use https, loopback http, or a reverse-domain scheme';
}

/** Registers a client for `application`; the answer carries the secret of a confidential one, once. */
export function createClient(
  ctx: ServerContext,
  application: ApplicationRecord,
  input: {
    name: string;
    client_type: OAuthClient['client_type'];
    token_endpoint_auth_method?: OAuthClient['token_endpoint_auth_method'] | undefined;
    redirect_uris: string[];
    grant_types?: OAuthClient['grant_types'] | undefined;
    id_token_signed_response_alg?: OAuthClient['id_token_signed_response_alg'] | undefined;
  },
): OAuthClient {
  const errors = input.redirect_uris.flatMap((uri, i) => {
    const problem = redirectUriProblem(uri, application);
    return problem ? [{ path: `oauth_client.redirect_uris.${i}`, code: 'invalid_redirect_uri', message: `${uri} ${problem}` }] : [];
  });
  const confidential = input.client_type === 'confidential';
  const method = input.token_endpoint_auth_method ?? (confidential ? 'client_secret_basic' : 'none');
  if (confidential === (method === 'none')) {
    errors.push({
      path: 'oauth_client.token_endpoint_auth_method',
      code: 'invalid_auth_method',
      message: confidential
        ? 'a confidential client authenticates with client_secret_basic or client_secret_post'
        : 'a public client authenticates with none (PKCE)',
    });
  }
  const grants =
    input.grant_types ??
    (confidential ? ['authorization_code', 'refresh_token', DEVICE, EXCHANGE] : ['authorization_code', 'refresh_token', DEVICE]);
  if (grants.includes('authorization_code') && input.redirect_uris.length === 0) {
    errors.push({
      path: 'oauth_client.redirect_uris',
      code: 'redirect_uri_required',
      message: 'the authorization code grant needs at least one redirect URI',
    });
  }
  if (!confidential && grants.includes(EXCHANGE)) {
    errors.push({ path: 'oauth_client.grant_types', code: 'grant_not_allowed', message: 'token exchange is for confidential clients' });
  }
  if (errors.length) throw unprocessable(errors.map((e) => `${e.path}: ${e.message}`).join('; '), errors[0]!.code, errors);
  const secret = confidential ? `ocs_${newSecret()}` : undefined;
  const id = newId('oc_', 24);
  transaction(ctx.db, () =>
    stmt(
      ctx.db,
      `INSERT INTO oauth_clients (id, account_id, application_id, name, client_type, token_endpoint_auth_method,
    secret_hash, redirect_uris, grant_types, created_at, id_token_signed_response_alg) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      application.account_id,
      application.id,
      input.name,
      input.client_type,
      method,
      secret ? hashSecret(secret) : null,
      JSON.stringify([...new Set(input.redirect_uris)]),
      JSON.stringify([...new Set(grants)]),
      isoNow(ctx.clock),
      input.id_token_signed_response_alg ?? null,
    ),
  );
  return toClient(findClient(ctx, id)!, secret);
}

function ownedApplication(ctx: ServerContext, accountId: string, id: string): ApplicationRecord {
  const app = getApplication(ctx, accountId, id);
  if (!app) throw notFound('No such application.');
  return app;
}

function ownedClient(ctx: ServerContext, application: ApplicationRecord, id: string): ClientRow {
  const row = findClient(ctx, id);
  if (!row || row.application_id !== application.id) throw notFound('No such OAuth client.');
  return row;
}

const tag = 'OAuth clients';
const base = '/api/v1/applications/{id}/oauth_clients';

/** `GET|POST /api/v1/applications/{id}/oauth_clients`, `GET|DELETE …/{client_id}`, `POST …/{client_id}/rotate_secret`. */
export const oauthClientRoutes = routes((app, ctx) => {
  const applicationOf = (c: Context<Env>) => ownedApplication(ctx, c.get('principal').accountId, c.req.param('id')!);
  const clientOf = (c: Context<Env>) => ownedClient(ctx, applicationOf(c), c.req.param('client_id')!);

  route(
    app,
    {
      method: 'get',
      path: base,
      summary: "List an application's OAuth clients",
      tag,
      permission: 'read',
      query: listQuery,
      response: { status: 200, description: 'A page of OAuth clients (never their secrets)', schema: oauthClientList },
      errors: [400, 404],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor } }) => {
      const application = applicationOf(c);
      const rows = stmt<[string, number, number], ClientRow>(
        ctx.db,
        `${select} WHERE application_id = ? AND deleted_at IS NULL AND seq > ? ORDER BY seq LIMIT ?`,
      ).all(application.id, decodeCursor(cursor), limit + 1);
      const page = toPage(rows, limit, (r) => r.seq);
      return c.json({ oauth_clients: page.items.map((r) => toClient(r)), next_cursor: page.next_cursor });
    },
  );

  route(
    app,
    {
      method: 'post',
      path: base,
      summary: 'Register an OAuth client (confidential or public)',
      tag,
      permission: 'write',
      body: createOAuthClientRequest,
      response: { status: 201, description: 'The client, with its secret shown this once when confidential', schema: oauthClientEnvelope },
      errors: [400, 404, 422],
    },
    (c, { body: { oauth_client: input } }) => c.json({ oauth_client: createClient(ctx, applicationOf(c), input) }, 201),
  );

  route(
    app,
    {
      method: 'get',
      path: `${base}/{client_id}`,
      summary: 'Read an OAuth client',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The client', schema: oauthClientEnvelope },
      errors: [404],
    },
    (c) => c.json({ oauth_client: toClient(clientOf(c)) }),
  );

  route(
    app,
    {
      method: 'post',
      path: `${base}/{client_id}/rotate_secret`,
      summary: "Replace a confidential client's secret (the old one stops at once)",
      tag,
      permission: 'write',
      response: { status: 200, description: 'The client with its new secret, shown this once', schema: oauthClientEnvelope },
      errors: [404, 422],
    },
    (c) => {
      const row = clientOf(c);
      if (row.client_type !== 'confidential') throw unprocessable('A public client has no secret to rotate.', 'public_client');
      const secret = `ocs_${newSecret()}`;
      transaction(ctx.db, () =>
        stmt(ctx.db, 'UPDATE oauth_clients SET secret_hash = ?, secret_rotated_at = ? WHERE id = ?').run(
          hashSecret(secret),
          isoNow(ctx.clock),
          row.id,
        ),
      );
      return c.json({ oauth_client: toClient(findClient(ctx, row.id)!, secret) });
    },
  );

  // Deleting a client ends what it holds: its tokens, codes and grants go with it.
  route(
    app,
    {
      method: 'delete',
      path: `${base}/{client_id}`,
      summary: 'Delete an OAuth client and every token, code and grant it holds',
      tag,
      permission: 'write',
      response: { status: 204, description: 'Deleted' },
      errors: [404],
    },
    (c) => {
      const row = clientOf(c);
      transaction(ctx.db, () => {
        stmt(ctx.db, 'UPDATE oauth_clients SET deleted_at = ? WHERE id = ?').run(isoNow(ctx.clock), row.id);
        stmt(ctx.db, "DELETE FROM oidc_payloads WHERE json_extract(payload, '$.clientId') = ?").run(row.id);
      });
      return c.body(null, 204);
    },
  );
});
