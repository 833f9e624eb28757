// Who is signed in on the people's pages (`/decisions`, `/inbox`, …): the service's own OpenID provider says so. Its
// session (the `_session` cookie it sets on the service's origin when a person signs in with their email and a code)
// names the person; their verified email is what every people's page reads by. A browser without a session starts
// an authorization with a first-party client (PAR, PKCE S256), so the person signs in on the provider's own pages;
// the pages need no token from it, so the code that comes back is never redeemed (it dies with its 60 seconds, bound
// to a verifier no one kept). The elements on a page ask `/session/access_token` for a short-lived token instead.
// Signing out ends the provider's session.
import { createHash, randomBytes } from 'node:crypto';
import type { HttpBindings } from '@hono/node-server';
import {
  CONNECTIONS_READ_SCOPE,
  CONNECTIONS_WRITE_SCOPE,
  DELEGATIONS_READ_SCOPE,
  DELEGATIONS_WRITE_SCOPE,
  RECEIPTS_READ_SCOPE,
  RECORDS_READ_SCOPE,
  RECORDS_WRITE_SCOPE,
} from '@svc/schemas';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Env, ServerContext } from '../infra/context.js';
import { isoNow } from '../infra/clock.js';
import { transaction } from '../infra/transaction.js';
import { personFor } from '../consent/records/person.js';
import { findClient } from '../platform/oauth/clients.js';
import { firstPartyClient, type FirstPartyClient } from '../platform/oauth/first-party.js';
import { isPersonOf } from '../platform/oauth/people.js';
import { OAUTH_SCOPES } from '../platform/oauth/published.js';
import { oauthProvider } from '../platform/oauth/routes.js';
import { endConsoleTokens } from '../console/tokens.js';
import { inboxEmailOf } from './inbox/store.js';

/** A first-party client a people's page signs in with: where the provider sends the browser back, and its cookie. */
export interface SignInClient {
  key: string;
  name: string;
  scopes: readonly string[];
  callbackPath: string;
  /** The cookie that keeps a sign-in's state and where to go back to, scoped to the callback's directory. */
  cookie: { name: string; path: string };
}

/** The trust center's client: every people's family signs in with it, and the elements' tokens are its. */
export const TRUST_SIGN_IN: SignInClient = {
  key: 'trust',
  name: 'Trust Center',
  scopes: [
    'openid',
    'inbox:read',
    RECORDS_READ_SCOPE,
    RECORDS_WRITE_SCOPE,
    'data_requests:read',
    'data_requests:write',
    DELEGATIONS_READ_SCOPE,
    DELEGATIONS_WRITE_SCOPE,
    'credentials:read',
    'credentials:write',
    'agreements:read',
    'agreements:write',
    CONNECTIONS_READ_SCOPE,
    CONNECTIONS_WRITE_SCOPE,
    RECEIPTS_READ_SCOPE,
    'vouches:read',
    'vouches:write',
    'data_offers:read',
    'data_offers:write',
  ],
  callbackPath: '/session/callback',
  cookie: { name: 'svc_trust_sign_in', path: '/session' },
};

const PENDING_SECONDS = 600;
/** How long an access token minted for a page's elements lives. */
export const PAGE_TOKEN_SECONDS = 600;

/** The signed-in person of a people's page. */
export interface SignedInPerson {
  personId: string;
  email: string;
  /** When the person signed in (the provider's session `auth_time`). */
  authenticatedAt: string;
  /** The browser session's id: what the tokens minted for its pages die with. */
  sessionUid: string;
}

/** The provider with its session in this browser (an empty one when nobody is signed in). */
async function sessionOf(ctx: ServerContext, c: Context<Env>) {
  const provider = await oauthProvider(ctx);
  const { incoming, outgoing } = c.env as unknown as HttpBindings;
  return { provider, session: await provider.Session.get(provider.createContext(incoming, outgoing)) };
}

/** The first-party client of `client`, made on first use. */
export const signInClient = (ctx: ServerContext, client: SignInClient = TRUST_SIGN_IN): FirstPartyClient =>
  firstPartyClient(ctx, client.key, { name: client.name, redirectPath: client.callbackPath, scopes: [...client.scopes] });

/** The person the provider's session in this browser names, with their verified email; undefined when none. */
export async function signedInPerson(ctx: ServerContext, c: Context<Env>): Promise<SignedInPerson | undefined> {
  const { session } = await sessionOf(ctx, c);
  const personId = session.accountId;
  if (!personId) return undefined;
  const email = inboxEmailOf(ctx, personId);
  const authTime = session.authTime();
  return email && authTime
    ? { personId, email, authenticatedAt: new Date(authTime * 1000).toISOString(), sessionUid: session.uid }
    : undefined;
}

const secure = (ctx: ServerContext) => ctx.baseUrl.startsWith('https:');

/**
 * Starts a sign-in: pushes the authorization request of `client` (scope `openid`, PKCE S256) and answers where to
 * send the browser. `returnTo` (validated by the caller) comes back with the browser, kept in a short cookie with
 * the request's state.
 */
export async function startSignIn(ctx: ServerContext, c: Context<Env>, returnTo: string, client = TRUST_SIGN_IN): Promise<string> {
  const { client_id } = signInClient(ctx, client);
  const state = randomBytes(24).toString('base64url');
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  const res = await fetch(`${ctx.baseUrl}/oauth/par`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id,
      redirect_uri: `${ctx.baseUrl}${client.callbackPath}`,
      response_type: 'code',
      scope: 'openid',
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }).toString(),
  });
  const pushed = (await res.json()) as { request_uri?: string; error?: string; error_description?: string };
  if (!res.ok || !pushed.request_uri)
    throw new Error(
      `pushing the ${client.name} authorization request failed: ${res.status} ${pushed.error ?? ''} ${pushed.error_description ?? ''}`,
    );
  setCookie(c, client.cookie.name, `${state}.${Buffer.from(returnTo, 'utf8').toString('base64url')}`, {
    path: client.cookie.path,
    httpOnly: true,
    sameSite: 'Lax',
    secure: secure(ctx),
    maxAge: PENDING_SECONDS,
  });
  const url = new URL('/oauth/authorize', ctx.baseUrl);
  url.searchParams.set('client_id', client_id);
  url.searchParams.set('request_uri', pushed.request_uri);
  return `${url.pathname}${url.search}`;
}

/**
 * The end of a sign-in: the `returnTo` it started with (`''` when the callback is not the one this browser started,
 * which changes nothing: the provider's session alone says who is signed in). The caller validates it again.
 */
export function finishSignIn(c: Context<Env>, client = TRUST_SIGN_IN): string {
  const pending = getCookie(c, client.cookie.name);
  deleteCookie(c, client.cookie.name, { path: client.cookie.path });
  const [state, returnTo] = pending?.split('.') ?? [];
  if (!state || state !== c.req.query('state') || returnTo === undefined) return '';
  return Buffer.from(returnTo, 'base64url').toString('utf8');
}

/**
 * The grant of tokens minted for a browser session whose person is another organisation's (signed in through that
 * organisation's client): named after the session, so signing out finds it; never recorded in the session, whose
 * grants must be its own person's.
 */
const mappedGrantId = (sessionUid: string) => `trust_${createHash('sha256').update(`trust-session:${sessionUid}`).digest('base64url')}`;

/** Ends the provider's session in this browser (every application's sign-in through it) and the tokens minted for it. */
export async function signOut(ctx: ServerContext, c: Context<Env>): Promise<void> {
  const { provider, session } = await sessionOf(ctx, c);
  if (session.accountId) {
    const trustGrant = session.grantIdFor(signInClient(ctx).client_id);
    for (const grantId of [trustGrant, mappedGrantId(session.uid)]) if (grantId) await provider.AccessToken.revokeByGrantId(grantId);
    endConsoleTokens(ctx, session.uid);
    await session.destroy();
  }
  const name = provider.cookieName('session');
  for (const cookie of [name, `${name}.sig`]) deleteCookie(c, cookie, { path: '/' });
}

/** A minted access token, as the token endpoint would answer it. */
export interface PageToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

/**
 * Mints a short-lived access token of the trust center's client for the person signed in in this browser, stored by
 * the provider like any it issues (so the REST API finds it the same way); undefined without a session. A session of
 * the service's own person is the token's, and the token dies with it; a session of another organisation's person
 * (signed in through that organisation's client) gets the service's person of the same verified email, the person
 * every first-party page reads by.
 */
export async function mintPageToken(ctx: ServerContext, c: Context<Env>): Promise<PageToken | undefined> {
  const { provider, session } = await sessionOf(ctx, c);
  const email = session.accountId ? inboxEmailOf(ctx, session.accountId) : undefined;
  if (!session.accountId || !email) return undefined;
  const client = signInClient(ctx);
  const accountOfClient = findClient(ctx, client.client_id)!.account_id;
  const own = isPersonOf(ctx, session.accountId, accountOfClient);
  const accountId = own ? session.accountId : transaction(ctx.db, () => personFor(ctx, accountOfClient, email, isoNow(ctx.clock)));
  const scope = client.scopes.filter((s) => (OAUTH_SCOPES as readonly string[]).includes(s)).join(' ');
  const grantId = await grantFor(ctx, own ? session.grantIdFor(client.client_id) : mappedGrantId(session.uid), {
    accountId,
    clientId: client.client_id,
    scope,
  });
  if (own && session.grantIdFor(client.client_id) !== grantId) {
    session.grantIdFor(client.client_id, grantId);
    await session.persist();
  }
  const oidcClient = await provider.Client.find(client.client_id);
  if (!oidcClient) throw new Error("the trust center's client is missing");
  const token = new provider.AccessToken({
    accountId,
    client: oidcClient,
    grantId,
    scope,
    // What the token was minted from: the browser's signed-in session, not a grant type of the token endpoint.
    gty: 'session',
    expiresIn: PAGE_TOKEN_SECONDS,
    ...(own ? { sessionUid: session.uid, expiresWithSession: true } : {}),
  });
  const value = await token.save();
  return { access_token: value, token_type: 'Bearer', expires_in: PAGE_TOKEN_SECONDS, scope };
}

/**
 * The grant `id` when it is the person's for the client (its scopes widened to `scope`), else a new one: `id` as its
 * id when given one the provider does not hold (the per-session grant), a fresh id otherwise.
 */
async function grantFor(
  ctx: ServerContext,
  id: string | undefined,
  want: { accountId: string; clientId: string; scope: string },
): Promise<string> {
  const { Grant } = await oauthProvider(ctx);
  const found = id ? await Grant.find(id) : undefined;
  const usable = found && found.accountId === want.accountId && found.clientId === want.clientId;
  const grant = usable ? found : new Grant({ accountId: want.accountId, clientId: want.clientId });
  if (!usable && id?.startsWith('trust_')) grant.jti = id;
  const granted = new Set(grant.getOIDCScope().split(' '));
  if (!usable || want.scope.split(' ').some((s) => !granted.has(s))) {
    grant.addOIDCScope(want.scope);
    return grant.save();
  }
  return grant.jti;
}
