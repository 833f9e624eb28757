// The authorization server as the OAuth helpers see it: its discovered metadata, and the request options every
// oauth4webapi call takes (plain http only for a loopback issuer; the caller's fetch).
import * as oauth from 'oauth4webapi';
import { SvcConfigurationError } from '../lib/errors.js';
import type { FetchImplementation } from '../lib/options.js';
import { toSvcError } from './errors.js';

/** The options every oauth4webapi request takes here (assignable to each call's own options type). */
export interface RequestOptions {
  [oauth.allowInsecureRequests]?: boolean;
  [oauth.customFetch]?: (url: string, options: oauth.CustomFetchOptions<string, unknown>) => Promise<Response>;
}

/** A discovered authorization server and the options to call it with. */
export interface Issuer {
  /** Its metadata (`/.well-known/openid-configuration`). */
  readonly as: oauth.AuthorizationServer;
  /** Options for every oauth4webapi request to it. */
  readonly options: RequestOptions;
}

/** How a client authenticates at the token endpoint: a public client sends its id only, a confidential one its secret too. */
export interface ClientCredentials {
  /** The OAuth client id (`oc_...`). */
  clientId: string;
  /** The secret of a confidential client (`client_secret_basic`); none for a public client (PKCE). */
  clientSecret?: string | undefined;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether `url` is plain http on this machine, the only place oauth4webapi's https rule is relaxed. */
export const isLoopbackHttp = (url: URL): boolean => url.protocol === 'http:' && LOOPBACK.has(url.hostname);

/** The issuer as a URL: https, or http on localhost / 127.0.0.1 / [::1] only; a `SvcConfigurationError` otherwise. */
export function issuerUrl(issuer: string | URL): URL {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new SvcConfigurationError(`issuer is not a URL: ${String(issuer)}`);
  }
  if (url.search || url.hash || url.username || url.password || !(url.protocol === 'https:' || isLoopbackHttp(url))) {
    throw new SvcConfigurationError(
      `issuer must be an https URL (http only on localhost or 127.0.0.1) without query, fragment or credentials: ${url.href}`,
    );
  }
  return url;
}

/** Request options for an issuer: `allowInsecureRequests` only for loopback http, and the caller's fetch. */
export function requestOptions(issuer: URL, fetchImpl?: FetchImplementation): RequestOptions {
  const options: RequestOptions = {};
  if (isLoopbackHttp(issuer)) options[oauth.allowInsecureRequests] = true;
  if (fetchImpl) options[oauth.customFetch] = (url, init) => fetchImpl(url, init as RequestInit);
  return options;
}

// The endpoints the helpers call; with plain http allowed, each must stay on loopback like the issuer.
const ENDPOINTS = [
  'pushed_authorization_request_endpoint',
  'authorization_endpoint',
  'token_endpoint',
  'userinfo_endpoint',
  'revocation_endpoint',
  'device_authorization_endpoint',
] as const;

/** Fetches and checks the issuer's metadata (the `issuer` it states must be `issuer` exactly). */
export async function discover(issuer: string | URL, fetchImpl?: FetchImplementation): Promise<Issuer> {
  const url = issuerUrl(issuer);
  const options = requestOptions(url, fetchImpl);
  let as: oauth.AuthorizationServer;
  try {
    as = await oauth.processDiscoveryResponse(url, await oauth.discoveryRequest(url, options));
  } catch (err) {
    throw toSvcError(err, `discovery of ${url.href}`);
  }
  if (isLoopbackHttp(url)) {
    // A loopback issuer may use http; its metadata must not send a token to plain http anywhere else.
    for (const name of ENDPOINTS) {
      const endpoint = as[name];
      if (endpoint && new URL(endpoint).protocol === 'http:' && !isLoopbackHttp(new URL(endpoint))) {
        throw new SvcConfigurationError(`${name} of ${url.href} is plain http off this machine: ${endpoint}`);
      }
    }
  }
  return { as, options };
}

/** The oauth4webapi client and its token endpoint authentication for `credentials`. */
export function clientOf(credentials: ClientCredentials): { client: oauth.Client; auth: oauth.ClientAuth } {
  return {
    client: { client_id: credentials.clientId },
    auth: credentials.clientSecret ? oauth.ClientSecretBasic(credentials.clientSecret) : oauth.None(),
  };
}
