import { ApiError } from '../lib/errors.js';
import type { ServerContext } from '../lib/context.js';

/**
 * Type prefixes of ids whose resource is personal data homed in one cell. A homed id carries its country after the
 * prefix (`cr_de_…`); an id of these types without one predates cells and belongs to the first country.
 */
export const HOMED_PREFIXES = [
  'dec_', 'ctxn_', 'cr_', 'imp_', 'prs_', 'ar_', 'nr_', 'dlg_', 'esc_', 'act_', 'agr_', 'pty_', 'cred_',
] as const;

const SESSION_PREFIX = 'dts_';
/** A session or capture token is `dts_` and 43 base64url characters, or 46 with its country: the length tells. */
const HOMED_SESSION = /^dts_([a-z]{2})_[A-Za-z0-9_-]{43}$/;
const LEGACY_SESSION = /^dts_[A-Za-z0-9_-]{43}$/;
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

/** The 421 a cell answers for a resource homed elsewhere: the country to re-issue against, nothing of the resource. */
export function wrongCountry(home: string): ApiError {
  return new ApiError(421, `This resource is served from its home country, ${home}. Re-issue the request there.`, 'wrong_country', undefined, home);
}

/** The first country of the deployment (where ids minted before cells belong). */
export function firstCountry(ctx: ServerContext): string {
  return ctx.cells.list()[0]?.country ?? ctx.country;
}

/** Throws the 421 when `id` is homed in another country than this cell's. */
export function assertHomedHere(ctx: ServerContext, id: string): void {
  const home = homeOf(id, firstCountry(ctx));
  if (home && home !== ctx.country) throw wrongCountry(home);
}
