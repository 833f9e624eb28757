// The OpenID provider's HTTP surface: oidc-provider answers `/oauth/*` and `/.well-known/openid-configuration` on
// the raw Node request (it is a Koa application), the spec's second PAR path, the token exchange path and RFC 8414's
// metadata path are aliases of its own, and the sign-in and consent pages are ours (interactions.ts).
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import type Provider from 'oidc-provider';
import { route, routes } from '../../infra/http/route.js';

const tag = 'OpenID provider';
import type { Env, Principal, ServerContext } from '../../infra/context.js';
import { findClient } from './clients.js';
import { noteClientAddress } from './guessing.js';
import { interactionRoutes } from './interactions.js';
import { isPersonOf } from './people.js';
import { PROVIDER_JWKS_PATH } from './published.js';

const providers = new WeakMap<ServerContext, Promise<Provider>>();

/**
 * The server's provider, made on first use: its issuer is the base URL, known once the server listens, and
 * oidc-provider (with its Koa stack) loads then rather than with every start of the service.
 */
export function oauthProvider(ctx: ServerContext): Promise<Provider> {
  let provider = providers.get(ctx);
  if (!provider) {
    provider = import('./provider.js').then(({ createProvider }) => createProvider(ctx));
    // A provider that could not be made is tried again on the next request, not refused for the server's life.
    provider.catch(() => providers.delete(ctx));
    providers.set(ctx, provider);
  }
  return provider;
}

/**
 * A person's access token on the REST API: opaque (oidc-provider keeps it in storage), so a revocation or a deleted
 * client ends it at once. DPoP-bound tokens need a proof the REST API does not take.
 */
export async function personOfAccessToken(ctx: ServerContext, value: string): Promise<Principal | undefined> {
  const token = await (await oauthProvider(ctx)).AccessToken.find(value);
  if (!token?.accountId || token.jkt || token.isSenderConstrained?.()) return undefined;
  const client = token.clientId ? findClient(ctx, token.clientId) : undefined;
  // The person must be the client's account's: a principal never pairs one organisation with another's person.
  if (!client || !isPersonOf(ctx, token.accountId, client.account_id)) return undefined;
  return { kind: 'person', accountId: client.account_id, personId: token.accountId, clientId: client.id, scopes: [...token.scopes] };
}

/** Mounts the provider, its aliases and the interaction pages. */
export const oauthRoutes = routes((app, ctx) => {
  let callback: ReturnType<Provider['callback']> | undefined;
  // Hands the request to oidc-provider, at `path` when it is an alias of one of its own.
  const handOff = async (c: Context<Env>, path?: string) => {
    const { incoming, outgoing } = c.env as unknown as HttpBindings;
    noteClientAddress(ctx, c, incoming);
    if (path) incoming.url = path + (incoming.url?.slice(c.req.path.length) ?? '');
    callback ??= (await oauthProvider(ctx)).callback();
    void callback(incoming, outgoing);
    return RESPONSE_ALREADY_SENT;
  };

  interactionRoutes(app, ctx, () => oauthProvider(ctx));
  // The provider reads these requests' form bodies and authenticates their clients itself.
  route(
    app,
    {
      method: 'post',
      path: '/oauth2/par',
      summary: 'Pushed authorization request (RFC 9126): the same as /oauth/par',
      tag,
      response: { status: 201, description: 'The request_uri to authorize with' },
      errors: [400, 401],
    },
    (c) => handOff(c, '/oauth/par'),
  );
  // Token exchange (RFC 8693) has a path of its own in the spec; it is the token endpoint with that grant.
  route(
    app,
    {
      method: 'post',
      path: '/oauth/token/exchange',
      summary: 'Token exchange (RFC 8693): a delegation grant for an agent token',
      tag,
      response: { status: 200, description: 'The agent token' },
      errors: [400, 401],
    },
    (c) => handOff(c, '/oauth/token'),
  );
  route(
    app,
    {
      method: 'get',
      path: PROVIDER_JWKS_PATH,
      summary: "The OpenID provider's public signing keys (ES256 and RS256): discovery's jwks_uri",
      tag,
      response: { status: 200, description: 'A JWK Set' },
    },
    (c) => handOff(c),
  );
  app.all('/oauth/*', (c) => handOff(c));
  route(
    app,
    {
      method: 'get',
      path: '/.well-known/openid-configuration',
      summary: "The OpenID provider's discovery document",
      tag,
      response: { status: 200, description: 'OpenID Provider Metadata' },
    },
    (c) => handOff(c),
  );
  // RFC 8414: OAuth clients that know no OpenID (MCP clients among them) look for the metadata here; it is the same
  // document, as RFC 8414 section 5 allows.
  route(
    app,
    {
      method: 'get',
      path: '/.well-known/oauth-authorization-server',
      summary: "The authorization server's metadata (RFC 8414): the same document as openid-configuration",
      tag,
      response: { status: 200, description: 'OAuth 2.0 Authorization Server Metadata' },
    },
    (c) => handOff(c, '/.well-known/openid-configuration'),
  );
});
