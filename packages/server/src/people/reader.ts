// Who a person's token reads for, across organisations. A person has one person row per organisation, joined by
// their verified email; a token of one of the service's own clients (the trust center) reads the person's things in
// every organisation, an organisation's client only in that organisation, so an application embedding the
// people's elements never learns what the person did elsewhere. Every people's API (`/api/v1/me/...`) uses this.
import type { Context, MiddlewareHandler } from 'hono';
import type { Env, Principal, ServerContext } from '../infra/context.js';
import { ApiError, forbidden } from '../infra/errors.js';
import { firstPartyScopes } from '../platform/oauth/first-party.js';
import { inboxEmailOf } from './inbox/store.js';

/** Whose things a caller reads: the person's verified email, in one organisation or (the service's own clients) in all. */
export interface PersonReader {
  email: string;
  /** The organisation whose things only are seen; undefined for a token of one of the service's own clients. */
  accountId: string | undefined;
}

/**
 * The reader a person's token (or a delegate's, for the person they act for) stands for; undefined when that person
 * has no email (an anonymous record's stand-in), who then has nothing to see.
 */
export function readerOf(ctx: ServerContext, principal: Extract<Principal, { kind: 'person' }>): PersonReader | undefined {
  const email = inboxEmailOf(ctx, principal.personId);
  if (!email) return undefined;
  return { email, accountId: firstPartyScopes(ctx, principal.clientId) === undefined ? principal.accountId : undefined };
}

/**
 * SQL that holds when `column` (a person id) is one of the reader's person rows: of their email, in their
 * organisation when they have one, never an anonymous record's stand-in (a `cr_` id). Bind `readerParams(reader)`.
 */
export const readerPersons = (column: string) =>
  `${column} IN (SELECT id FROM persons WHERE email = ? AND (? IS NULL OR account_id = ?) AND id NOT LIKE 'cr\\_%' ESCAPE '\\')`;

/** The parameters of `readerPersons`, in order. */
export const readerParams = (reader: PersonReader) => [reader.email, reader.accountId ?? null, reader.accountId ?? null];

/** The person principal of a request a `holding` middleware admitted. */
export const personOf = (c: Context<Env>) => c.get('principal') as Extract<Principal, { kind: 'person' }>;

/**
 * Admits only a person's token (a delegate's too: `requires` checked the grant) that holds `scope`: a person's own
 * things are theirs, so an application reads them only when the person allowed it; an API token has none. `what`
 * names them in the refusal ("consent records").
 */
export const holding =
  (scope: string, what: string): MiddlewareHandler<Env> =>
  async (c, next) => {
    const principal = c.get('principal');
    if (principal.kind !== 'person') {
      throw forbidden(
        `These are a person's own ${what}: call with their access token (scope ${scope}), not an API token.`,
        'person_token_required',
      );
    }
    if (!principal.scopes.includes(scope)) {
      throw new ApiError(403, `This access token lacks the ${scope} scope: ask for it when the person signs in.`, {
        code: 'insufficient_scope',
        headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"` },
      });
    }
    await next();
  };
