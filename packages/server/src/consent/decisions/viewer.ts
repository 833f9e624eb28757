// The person signed in on the trust URL in the browser a page request came from: the service's own OpenID
// provider's session, the one `/inbox` signs people in with.
import type { Context } from 'hono';
import type { Env, ServerContext } from '../../infra/context.js';
import { signedInPerson } from '../../people/inbox/session.js';
import type { Viewer } from './authentication.js';
import type { DecisionRow } from './row.js';

/**
 * The signed-in person, or undefined (no session, or one without a verified email). Only a decision addressed to
 * someone asks who is signed in; for any other the provider's session is not read.
 */
export async function viewerOf(
  ctx: ServerContext,
  c: Context<Env>,
  row: Pick<DecisionRow, 'addressee_email'>,
): Promise<Viewer | undefined> {
  if (!row.addressee_email) return undefined;
  const person = await signedInPerson(ctx, c);
  return person ? { email: person.email, authenticatedAt: person.authenticatedAt, method: 'trust_session' } : undefined;
}
