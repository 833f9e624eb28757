// Who is signed in on `/inbox`: the service's own OpenID provider says so. Its session (the `_session` cookie it sets
// on the service's origin when a person signs in with their email and a code) names the person; their verified email
// is the inbox's address. A browser without a session starts an authorization with the inbox's first-party client
// (PAR, PKCE S256), so the person signs in on the provider's own pages; the page needs no token of its own, so the
// code that comes back is never redeemed (it dies with its 60 seconds, bound to a verifier no one kept). Signing out
// ends the provider's session.
import { createHash, randomBytes } from 'node:crypto';
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Env, ServerContext } from '../../infra/context.js';
import { firstPartyClient } from '../../platform/oauth/first-party.js';
import { oauthProvider } from '../../platform/oauth/routes.js';
import { inboxEmailOf } from './store.js';

/** Where the provider sends the browser back after signing in. */
export const CALLBACK_PATH = '/inbox/callback';
const PENDING_COOKIE = 'svc_inbox_sign_in';
const PENDING_SECONDS = 600;

/** The signed-in person of the inbox page. */
export interface InboxPerson {
  personId: string;
  email: string;
  /** When the person signed in (the provider's session `auth_time`). */
  authenticatedAt: string;
}

const koaOf = (ctx: ServerContext, c: Context<Env>) => {
  const { incoming, outgoing } = c.env as unknown as HttpBindings;
  return oauthProvider(ctx).createContext(incoming, outgoing);
};

/** The inbox's first-party client. */
export const inboxClient = (ctx: ServerContext) =>
  firstPartyClient(ctx, 'inbox', { name: 'Trust Inbox', redirectPath: CALLBACK_PATH, scopes: ['openid'] });

/** The person the provider's session in this browser names, with their verified email; undefined when none. */
export async function signedInPerson(ctx: ServerContext, c: Context<Env>): Promise<InboxPerson | undefined> {
  const session = await oauthProvider(ctx).Session.get(koaOf(ctx, c));
  const personId = session.accountId;
  if (!personId) return undefined;
  const email = inboxEmailOf(ctx, personId);
  const authTime = session.authTime();
  return email && authTime ? { personId, email, authenticatedAt: new Date(authTime * 1000).toISOString() } : undefined;
}

/** Ends the provider's session in this browser (every application's sign-in through it, as signing out should). */
export async function signOut(ctx: ServerContext, c: Context<Env>): Promise<void> {
  const provider = oauthProvider(ctx);
  const session = await provider.Session.get(koaOf(ctx, c));
  if (session.accountId) await session.destroy();
  const name = provider.cookieName('session');
  for (const cookie of [name, `${name}.sig`]) deleteCookie(c, cookie, { path: '/' });
}

const secure = (ctx: ServerContext) => ctx.baseUrl.startsWith('https:');

/**
 * Starts a sign-in: pushes the authorization request of the inbox's client (scope `openid`, PKCE S256) and answers
 * where to send the browser. `returnTo` (the page's query) comes back with the browser, kept in a short cookie with
 * the request's state.
 */
export async function startSignIn(ctx: ServerContext, c: Context<Env>, returnTo: string): Promise<string> {
  const client = inboxClient(ctx);
  const state = randomBytes(24).toString('base64url');
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  const res = await fetch(`${ctx.baseUrl}/oauth/par`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: `${ctx.baseUrl}${CALLBACK_PATH}`,
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
      `pushing the inbox's authorization request failed: ${res.status} ${pushed.error ?? ''} ${pushed.error_description ?? ''}`,
    );
  setCookie(c, PENDING_COOKIE, `${state}.${Buffer.from(returnTo, 'utf8').toString('base64url')}`, {
    path: '/inbox',
    httpOnly: true,
    sameSite: 'Lax',
    secure: secure(ctx),
    maxAge: PENDING_SECONDS,
  });
  const url = new URL('/oauth/authorize', ctx.baseUrl);
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('request_uri', pushed.request_uri);
  return `${url.pathname}${url.search}`;
}

/**
 * The end of a sign-in: the query the page had when it started (`''` when the callback is not the one this browser
 * started, which changes nothing: the provider's session alone says who is signed in).
 */
export function finishSignIn(c: Context<Env>): string {
  const pending = getCookie(c, PENDING_COOKIE);
  deleteCookie(c, PENDING_COOKIE, { path: '/inbox' });
  const [state, returnTo] = pending?.split('.') ?? [];
  if (!state || state !== c.req.query('state') || returnTo === undefined) return '';
  const query = Buffer.from(returnTo, 'base64url').toString('utf8');
  return query.startsWith('?') ? query : '';
}
