import { ApiError, unprocessable } from '../errors.js';
import { newSecret } from '../ids.js';
import type { ServerContext } from '../context.js';
import { stmt } from '../db.js';

/**
 * Type prefixes of ids whose resource is homed in one cell: personal data, and the evidence packages a cell drew. A
 * homed id carries its country after the prefix (`cr_de_…`); an id of these types without one predates cells and
 * belongs to the first country.
 */
export const HOMED_PREFIXES = [
  'dec_',
  'ctxn_',
  'cr_',
  'imp_',
  'prs_',
  'ar_',
  'nr_',
  'dlg_',
  'esc_',
  'agr_',
  'pty_',
  'cred_',
  'clr_',
  'crq_',
  'vch_',
  'col_',
  'cmb_', // vouches, collaborations and their memberships
  'con_',
  'dlk_',
  'pair_', // Connect: connections, device links, trust pairings
  'pol_',
  'dsar_',
  'dlic_',
  'dla_',
  'dof_',
  'ptr_', // Protect: policies, data requests, data licenses and accesses, data offers, portability transfers
  'evp_', // evidence packages, kept by the cell that drew them
] as const;

const SESSION_PREFIX = 'dts_';
/** A session or capture token is `dts_` and 43 base64url characters, or 46 with its country: the length tells. */
const HOMED_SESSION = /^dts_([a-z]{2})_[A-Za-z0-9_-]{43}$/;
const LEGACY_SESSION = /^dts_[A-Za-z0-9_-]{43}$/;
/** Any decision session or capture token, with or without its country. */
export const SESSION_TOKEN = /^dts_(?:[a-z]{2}_)?[A-Za-z0-9_-]{43}$/;
const COUNTRY_PART = /^([a-z]{2})_[0-9A-Za-z]+$/;

/**
 * The home country of a homed id or session token, or `undefined` when the string is not one. `firstCountry`
 * answers for ids minted before cells existed.
 */
export function homeOf(id: string, firstCountry: string): string | undefined {
  if (id.startsWith(SESSION_PREFIX)) {
    const homed = HOMED_SESSION.exec(id);
    if (homed) return homed[1]!.toUpperCase();
    return LEGACY_SESSION.test(id) ? firstCountry : undefined;
  }
  for (const prefix of HOMED_PREFIXES) {
    if (!id.startsWith(prefix)) continue;
    const rest = id.slice(prefix.length);
    // Delegation grants keep the spec's region segment: `dlg_<region>_<hashid>`, the region being the cell's country.
    const match = COUNTRY_PART.exec(rest);
    if (match) return match[1]!.toUpperCase();
    return /^[0-9A-Za-z]+$/.test(rest) || /^dev_[0-9A-Za-z]+$/.test(rest) ? firstCountry : undefined;
  }
  return undefined;
}

/** A fresh session or capture token homed in `country`: `dts_de_` and 32 random bytes. */
export function sessionTokenFor(country: string): string {
  return `${SESSION_PREFIX}${country.toLowerCase()}_${newSecret()}`;
}

/** The 421 a cell answers for a resource homed elsewhere: the country to re-issue against, nothing of the resource. */
export function wrongCountry(home: string): ApiError {
  return new ApiError(
    421,
    `This resource is served from its home country, ${home}. Re-issue the request there.`,
    'wrong_country',
    undefined,
    home,
  );
}

/** The first country of the deployment (where ids minted before cells belong). */
export function firstCountry(ctx: ServerContext): string {
  return ctx.cells.list()[0]?.country ?? ctx.country;
}

/**
 * The cell that serves `id` when it is not this one: its home country, or undefined for an id homed here, an id that
 * is not homed, and one naming a country no cell serves (it names nothing, so it is answered here: 404).
 */
export function elsewhereHome(ctx: ServerContext, id: string): string | undefined {
  const home = homeOf(id, firstCountry(ctx));
  return home && home !== ctx.country && ctx.cells.get(home) ? home : undefined;
}

/** Throws the 421 when `id` is homed in another cell than this one. */
export function assertHomedHere(ctx: ServerContext, id: string): void {
  const home = elsewhereHome(ctx, id);
  if (home) throw wrongCountry(home);
}

/** Refuses a country the service runs no cell for: nothing could be homed there. */
export function assertCountryCell(ctx: ServerContext, country: string | undefined, path = 'home_country'): void {
  if (country === undefined || ctx.cells.get(country)) return;
  const known = ctx.cells
    .list()
    .map((cell) => cell.country)
    .join(', ');
  const message = `${country} is not a country this service runs a cell for (${known}).`;
  throw unprocessable(message, 'validation_failed', [{ path, code: 'unknown_country', message }]);
}

/**
 * Where a new person's record is homed: the subject's country when the request names one, else the application's.
 * Throws the 421 when that is not this cell, so the client re-issues the request there; a subject's country no cell
 * serves is refused by name (422 at `subject.country`), since no cell could take it.
 */
export function assertCreatesHere(ctx: ServerContext, applicationHome: string, subjectCountry?: string): void {
  assertCountryCell(ctx, subjectCountry, 'subject.country');
  const home = subjectCountry ?? applicationHome;
  if (home !== ctx.country) throw wrongCountry(home);
}

/** The home country of an application's new personal data (its `home_country`, else the first country). */
export function applicationHome(ctx: ServerContext, applicationId: string): string {
  const home = stmt<[string], string | null>(ctx.db, 'SELECT home_country FROM applications WHERE id = ?').pluck().get(applicationId) as
    | string
    | null
    | undefined;
  return home ?? firstCountry(ctx);
}

/** The home of a flow's application, or undefined when the account has no such flow (the caller then answers as before). */
export function flowHome(ctx: ServerContext, accountId: string, flowId: string): string | undefined {
  const applicationId = stmt<[string, string], string>(ctx.db, 'SELECT application_id FROM flows WHERE id = ? AND account_id = ?')
    .pluck()
    .get(flowId, accountId) as string | undefined;
  return applicationId === undefined ? undefined : applicationHome(ctx, applicationId);
}
