// Which person an OAuth client is handed. People are one per lower-cased email per organisation (account), and the
// provider's session is the browser's, shared by every organisation's clients: so a client of an organisation is
// only ever handed that organisation's person for the signed-in email (made on first sign-in), never another
// organisation's. The service's own clients (the hosted pages) take whoever is signed in: they read the email.
import type { ServerContext } from '../../infra/context.js';
import { isoNow } from '../../infra/clock.js';
import { stmt } from '../../infra/db.js';
import { transaction } from '../../infra/transaction.js';
import { personFor } from '../../consent/records/person.js';
import { findClient } from './clients.js';
import { firstPartyScopes } from './first-party.js';

/** Why the sign-in page is asked for although the browser is signed in: the person is another organisation's. */
export const OTHER_ORGANISATION = 'other_organisation';

interface PersonRow {
  account_id: string;
  email: string;
}

const personRow = (ctx: ServerContext, id: string) =>
  stmt<[string], PersonRow>(ctx.db, 'SELECT account_id, email FROM persons WHERE id = ?').get(id);

/** The organisation whose person `clientId` must be handed; undefined for the service's own clients (and unknown ones). */
function organisationOf(ctx: ServerContext, clientId: string): string | undefined {
  if (firstPartyScopes(ctx, clientId)) return undefined;
  return findClient(ctx, clientId)?.account_id;
}

/** Whether `personId` is a person of the account `accountId` (a token's person must be its client's account's). */
export function isPersonOf(ctx: ServerContext, personId: string, accountId: string): boolean {
  return personRow(ctx, personId)?.account_id === accountId;
}

/** Whether `personId` is another organisation's person than `clientId`'s, so the client must not be handed them. */
export function personOfAnotherOrganisation(ctx: ServerContext, personId: string, clientId: string): boolean {
  const organisation = organisationOf(ctx, clientId);
  return organisation !== undefined && personRow(ctx, personId)?.account_id !== organisation;
}

/**
 * The person `clientId` is handed for the signed-in `personId`: the same person when they are the client's
 * organisation's (or the client is the service's own), else that organisation's person with the same email, made if
 * needed. Undefined when the signed-in person has no email or the client is unknown.
 */
export function personForClient(ctx: ServerContext, personId: string, clientId: string): string | undefined {
  const person = personRow(ctx, personId);
  if (!person?.email.includes('@')) return undefined;
  if (!personOfAnotherOrganisation(ctx, personId, clientId)) return personId;
  const organisation = organisationOf(ctx, clientId);
  return organisation && transaction(ctx.db, () => personFor(ctx, organisation, person.email, isoNow(ctx.clock)));
}
