// Who is signed in on `/inbox`: the people's pages' session (../session.ts), through the inbox's own first-party
// client, whose callback is `/inbox/callback`. What the sign-in carries back is the page's query (its filters).
import type { Context } from 'hono';
import type { Env, ServerContext } from '../../infra/context.js';
import * as people from '../session.js';

export { signedInPerson, signOut, type SignedInPerson as InboxPerson } from '../session.js';

/** Where the provider sends the browser back after signing in. */
export const CALLBACK_PATH = '/inbox/callback';

const INBOX_SIGN_IN: people.SignInClient = {
  key: 'inbox',
  name: 'Trust Inbox',
  scopes: ['openid'],
  callbackPath: CALLBACK_PATH,
  cookie: { name: 'svc_inbox_sign_in', path: '/inbox' },
};

/** The inbox's first-party client. */
export const inboxClient = (ctx: ServerContext) => people.signInClient(ctx, INBOX_SIGN_IN);

/** Starts a sign-in that comes back to `/inbox` with `query` (the page's filters, `?…` or `''`). */
export const startSignIn = (ctx: ServerContext, c: Context<Env>, query: string): Promise<string> =>
  people.startSignIn(ctx, c, query, INBOX_SIGN_IN);

/** The end of a sign-in: the query the page had when it started (`''` when it is not one this browser started). */
export function finishSignIn(c: Context<Env>): string {
  const query = people.finishSignIn(c, INBOX_SIGN_IN);
  return query.startsWith('?') ? query : '';
}
