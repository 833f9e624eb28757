// What `svc` adds to an error so that it says what to do: the service that did not answer and how to start or
// point at one; the country cells the service knows after a 421 that could not be followed, and how to ask one.
import type { AnySvcError } from '../lib/errors.js';
import { loadConfig } from './config.js';

/** Whether `url` names this machine, where `pnpm start` runs the reference server. */
export function isLocal(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** Where the configured base URL comes from, as the user would change it: `SVC_BASE_URL`, or the sandbox.json. */
export function baseUrlOrigin(env: Record<string, string | undefined>, cwd: string): { baseUrl: string; from: string } | undefined {
  try {
    const config = loadConfig(env, cwd);
    const sandbox = config.source.split(' and ').find((part) => part.endsWith('sandbox.json'));
    return { baseUrl: config.baseUrl, from: env.SVC_BASE_URL ? 'SVC_BASE_URL' : `base_url of ${sandbox ?? 'sandbox.json'}` };
  } catch {
    return undefined;
  }
}

const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

/**
 * The base URL a request that got no answer was sent to: the configured one when the URL starts with it, else the
 * URL's origin (a country cell's, after a 421).
 */
export function unansweredBase(tried: string | undefined, configured: { baseUrl: string } | undefined): string | undefined {
  if (tried === undefined) return configured?.baseUrl;
  const base = configured?.baseUrl.replace(/\/+$/, '');
  return base !== undefined && (tried === base || tried.startsWith(`${base}/`)) ? configured!.baseUrl : originOf(tried);
}

/**
 * What follows a network error: the base URL that did not answer (`tried`, else the configured one) and where it
 * was configured and, for this machine, `pnpm start`; for another host, to check the URL.
 */
export function unreachableHint(tried: string | undefined, configured: { baseUrl: string; from: string } | undefined): string {
  const url = unansweredBase(tried, configured);
  if (url === undefined) return '';
  const where = `${url}${configured?.baseUrl === url ? ` (${configured.from})` : ''}`;
  const fix = isLocal(url)
    ? 'start the reference server with pnpm start (in the svc-sdk checkout), or set SVC_BASE_URL to a running service'
    : 'check that URL, or set SVC_BASE_URL to a running service';
  return `; nothing answered at ${where}: ${fix}`;
}

/**
 * What follows a 421 the client could not follow: the cells the service knows (by country, with their base
 * URLs) and how to ask one. Empty when no cell is known (the error already says why the list could not be read).
 */
export function wrongCountryHint(err: AnySvcError, cells: Record<string, string>): string {
  const known = Object.entries(cells);
  if (err.code !== 'ERR_SVC_WRONG_COUNTRY' || known.length === 0) return '';
  const list = known.map(([country, url]) => `${country} at ${url}`).join(', ');
  const home = err.homeCountry;
  // A second 421 is the service contradicting itself: asking the home cell again would not help.
  if (err.refusal === 'second_hop') return `; known cells: ${list}`;
  const ask = cells[home]
    ? `ask ${home}'s cell with SVC_BASE_URL=${cells[home]}`
    : `no cell serves ${home}; to ask a cell, set SVC_BASE_URL to its base URL`;
  return `; known cells: ${list}; ${ask}`;
}
