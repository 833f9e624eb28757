// Verifying a presented credential in any cell, against the ISSUING cell's published key (from the cell directory:
// the reference server's cells publish their JWKS to each other), never by calling the issuing cell's API. The only
// request that leaves the cell is for the issuer's public status list, cached per URI until its `ttl`.
import { createHash } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, jwtVerify, type JWK } from 'jose';
import { SDJwtInstance } from '@sd-jwt/core';
import { StatusList, type BitsPerStatus } from '@sd-jwt/jwt-status-list';
import type { PresentationVerification, VerifyPresentationRequest } from '@svc/schemas';
import { defaultApplication, getApplication } from '../decisions/applications.js';
import type { ServerContext } from '../../infra/context.js';
import { ApiError, unprocessable } from '../../infra/errors.js';
import { outboundRequest } from '../../infra/outbound/index.js';
import { adequacyOf, lawfulBasisFor, recordTransfer } from '../../surfaces/comply/transfers/register.js';
import { hasher, jwkVerifier, jwksVerifier, keySetOf, SD_ALG } from './crypto.js';
import { STATUS_LIST_MEDIA_TYPE, STATUS_LIST_PATH, STATUS_LIST_TTL_SECONDS } from './status-list.js';

/** Header `typ` values of an SD-JWT VC: the current drafts' `dc+sd-jwt` and the earlier `vc+sd-jwt`. */
const SD_JWT_VC_TYPES = new Set(['dc+sd-jwt', 'vc+sd-jwt']);
/** Clock skew tolerated between cells (seconds), for `iat`/`nbf`/`exp` of credentials and status lists. */
const SKEW_SECONDS = 30;
/** How old (or how far ahead) a key binding JWT's `iat` may be, in seconds. */
const KEY_BINDING_MAX_AGE_SECONDS = 300;
/** The longest a status list is cached, whatever its `ttl` says. */
const STATUS_LIST_MAX_CACHE_SECONDS = 24 * 60 * 60;
/** How long connecting to a status list's host, then reading the list, may each take. */
const STATUS_FETCH_TIMEOUT_MS = 5_000;
/** The largest status list read (a list of a million 8-bit statuses compresses far below this). */
const STATUS_LIST_MAX_BYTES = 1024 * 1024;
/** Status lists kept per cell. */
const STATUS_CACHE_ENTRIES = 256;

/** Claims that are about the token, not its subject: never listed among the disclosed claims. */
const TOKEN_CLAIMS = new Set(['iss', 'iat', 'nbf', 'exp', 'vct', 'vct#integrity', 'status', 'cnf', '_sd_alg', 'jti']);

/** A refusal of a presentation: 422 with its code, naming `presentation`. */
const refuse = (code: string, message: string, options?: ErrorOptions): ApiError =>
  unprocessable(message, code, [{ path: 'presentation', code, message }], options);

/** The cell whose key verifies a credential: the one whose base URL is its `iss`. */
interface IssuerCell {
  country: string;
  base_url: string;
  jwks: { keys: JWK[] };
}

function issuerCell(ctx: ServerContext, iss: string): IssuerCell | undefined {
  const cell = ctx.cells.list().find((c) => c.base_url === iss);
  if (cell) return cell;
  // Until the directory lists this cell (a single cell, or while cells start), it still knows its own key.
  return iss === ctx.baseUrl ? { country: ctx.country, base_url: ctx.baseUrl, jwks: ctx.keys.jwks } : undefined;
}

// ---- the structure of the presentation ----------------------------------------------------------------------

interface Parsed {
  jwt: string;
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  /** Each disclosure's digest (base64url SHA-256 of its encoded form) and decoded value. */
  disclosures: { digest: string; value: unknown }[];
  keyBinding: string | undefined;
}

function parse(presentation: string): Parsed {
  const parts = presentation.split('~');
  if (parts.length < 2) {
    throw refuse(
      'malformed_presentation',
      'presentation is not an SD-JWT: expected the issuer-signed JWT, its disclosures and "~" separators.',
    );
  }
  const [jwt, ...rest] = parts as [string, ...string[]];
  const keyBinding = rest.pop() || undefined;
  let header: Record<string, unknown>;
  let payload: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(jwt) as Record<string, unknown>;
    payload = decodeJwt(jwt) as Record<string, unknown>;
  } catch (err) {
    throw refuse('malformed_presentation', 'The issuer-signed JWT of the presentation cannot be decoded.', { cause: err });
  }
  const disclosures = rest.map((encoded, index) => {
    let value: unknown;
    try {
      if (!/^[A-Za-z0-9_-]+$/.test(encoded)) throw new Error('not base64url');
      value = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    } catch (err) {
      throw refuse('malformed_presentation', `Disclosure ${index + 1} of the presentation is not base64url-encoded JSON.`, { cause: err });
    }
    if (
      !Array.isArray(value) ||
      (value.length !== 2 && value.length !== 3) ||
      typeof value[0] !== 'string' ||
      (value.length === 3 && typeof value[1] !== 'string')
    ) {
      throw refuse('malformed_presentation', `Disclosure ${index + 1} of the presentation is not [salt, name, value] or [salt, value].`);
    }
    return { digest: createHash('sha256').update(encoded, 'ascii').digest('base64url'), value };
  });
  return { jwt, header, payload, disclosures, keyBinding };
}

/** Every digest an object references (`_sd` entries and `{"...": digest}` array elements), recursively. */
function collectDigests(value: unknown, into: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) {
      if (
        item &&
        typeof item === 'object' &&
        !Array.isArray(item) &&
        Object.keys(item).length === 1 &&
        typeof (item as Record<string, unknown>)['...'] === 'string'
      ) {
        into.push((item as Record<string, string>)['...']!);
      } else collectDigests(item, into);
    }
  } else if (value && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      if (key === '_sd' && Array.isArray(member)) into.push(...member.filter((d): d is string => typeof d === 'string'));
      else collectDigests(member, into);
    }
  }
}

/**
 * What the library leaves to its caller (RFC 9901, 7.1): every disclosure must be referenced by a digest of the
 * signed payload or of another disclosure, and no digest may appear twice. A disclosure whose value was changed has
 * another digest, so it is refused here instead of being silently dropped. Answers how many referenced digests
 * stayed undisclosed.
 */
function checkDisclosures({ payload, disclosures }: Parsed): number {
  const referenced: string[] = [];
  collectDigests(payload, referenced);
  for (const d of disclosures) collectDigests(d.value, referenced);
  if (new Set(referenced).size !== referenced.length)
    throw refuse('duplicate_digest', 'A digest appears more than once in the credential.');
  const known = new Set(referenced);
  const seen = new Set<string>();
  for (const [index, d] of disclosures.entries()) {
    if (seen.has(d.digest)) throw refuse('duplicate_disclosure', `Disclosure ${index + 1} is presented twice.`);
    seen.add(d.digest);
    if (!known.has(d.digest)) {
      throw refuse(
        'disclosure_not_referenced',
        `Disclosure ${index + 1} is not part of the credential the issuer signed: it was altered or added.`,
      );
    }
  }
  return referenced.length - disclosures.length;
}

// ---- status lists -------------------------------------------------------------------------------------------

interface CachedList {
  list: StatusList;
  /** When it was fetched and until when it is used (milliseconds on the cell's clock). */
  fetchedAt: number;
  refreshAt: number;
}

const statusCaches = new WeakMap<ServerContext, Map<string, CachedList | Promise<CachedList>>>();

function statusCacheOf(ctx: ServerContext): Map<string, CachedList | Promise<CachedList>> {
  let cache = statusCaches.get(ctx);
  if (!cache) {
    cache = new Map();
    statusCaches.set(ctx, cache);
  }
  return cache;
}

/** The status list at `uri`, fetched, checked (issuer's signature, `sub`, `typ`) and decoded. */
async function fetchStatusList(ctx: ServerContext, issuer: IssuerCell, uri: string): Promise<CachedList> {
  const unavailable = (why: string, cause?: unknown) =>
    new ApiError(503, `The issuer's status list ${uri} is unavailable (${why}); try again later.`, {
      code: 'status_list_unavailable',
      cause,
    });
  // Through the service's outbound client. The issuer's base URL comes from the cell directory, the operator's own
  // configuration (its cells often share a private network), so no address is refused; redirects are not followed.
  const response = await outboundRequest(uri, {
    policy: 'any',
    headers: { accept: STATUS_LIST_MEDIA_TYPE },
    connectTimeoutMs: STATUS_FETCH_TIMEOUT_MS,
    readTimeoutMs: STATUS_FETCH_TIMEOUT_MS,
    keepBytes: STATUS_LIST_MAX_BYTES,
    maxBytes: STATUS_LIST_MAX_BYTES,
  });
  if (response.error) throw unavailable(response.error.endsWith('_timeout') ? 'timed out' : 'unreachable', response.errorMessage);
  if (response.statusCode === null || response.statusCode < 200 || response.statusCode >= 300) {
    throw unavailable(`HTTP ${response.statusCode}`);
  }
  if (response.truncated) throw unavailable(`larger than ${STATUS_LIST_MAX_BYTES} bytes`);
  const token = response.body!.toString('utf8').trim();
  const fetchedAt = ctx.clock.now();
  let claims: Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(token, keySetOf(issuer.jwks), {
      algorithms: ['ES256'],
      typ: 'statuslist+jwt',
      subject: uri,
      currentDate: new Date(fetchedAt),
      clockTolerance: SKEW_SECONDS,
    }));
  } catch (err) {
    throw new ApiError(502, `The status list at ${uri} does not verify against its issuer's key: ${(err as Error).message}`, {
      code: 'status_list_invalid',
      cause: err,
    });
  }
  const sl = claims.status_list as { bits?: unknown; lst?: unknown } | undefined;
  if (!sl || ![1, 2, 4, 8].includes(sl.bits as number) || typeof sl.lst !== 'string') {
    throw new ApiError(502, `The status list at ${uri} has no valid status_list claim.`, 'status_list_invalid');
  }
  let list: StatusList;
  try {
    list = StatusList.decompressStatusList(sl.lst, sl.bits as BitsPerStatus);
  } catch (err) {
    throw new ApiError(502, `The status list at ${uri} cannot be decompressed.`, { code: 'status_list_invalid', cause: err });
  }
  const ttl = typeof claims.ttl === 'number' && claims.ttl > 0 ? claims.ttl : STATUS_LIST_TTL_SECONDS;
  let refreshAt = fetchedAt + Math.min(ttl, STATUS_LIST_MAX_CACHE_SECONDS) * 1000;
  if (typeof claims.exp === 'number') refreshAt = Math.min(refreshAt, claims.exp * 1000);
  return { list, fetchedAt, refreshAt };
}

/**
 * The status list at `uri` from this cell's cache, fetched again once its `ttl` (or `exp`) has passed on the cell's
 * clock. Concurrent verifications share one fetch.
 */
async function statusListAt(ctx: ServerContext, issuer: IssuerCell, uri: string): Promise<CachedList> {
  const cache = statusCacheOf(ctx);
  const entry = cache.get(uri);
  if (entry && (entry instanceof Promise || ctx.clock.now() < entry.refreshAt)) return entry;
  const pending = fetchStatusList(ctx, issuer, uri);
  cache.delete(uri);
  cache.set(uri, pending);
  try {
    const fetched = await pending;
    if (cache.get(uri) === pending) cache.set(uri, fetched);
    // Oldest first: drop what overflows.
    for (const key of cache.keys()) {
      if (cache.size <= STATUS_CACHE_ENTRIES) break;
      cache.delete(key);
    }
    return fetched;
  } catch (err) {
    if (cache.get(uri) === pending) cache.delete(uri);
    throw err;
  }
}

/** Forgets every cached status list of this cell (tests, benchmarks). */
export function clearStatusListCache(ctx: ServerContext): void {
  statusCacheOf(ctx).clear();
}

// ---- verification -------------------------------------------------------------------------------------------

/** Maps the library's verification errors to refusals with a code. */
function refusalOf(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const refusal = (code: string, message: string) => refuse(code, message, { cause: err });
  const message = err instanceof Error ? err.message : String(err);
  if (/expired/i.test(message)) return refusal('credential_expired', 'The credential has expired.');
  if (/not yet valid/i.test(message))
    return refusal('credential_not_yet_valid', 'The credential is not valid yet (iat or nbf lies ahead).');
  if (/Invalid JWT Signature|no signature/i.test(message)) {
    return refusal('invalid_signature', "The credential's signature does not verify against its issuing country's published key.");
  }
  if (/Key Binding JWT not exist/i.test(message))
    return refusal('key_binding_required', 'The credential is bound to a holder key: the presentation needs a key binding JWT.');
  if (/nonce|sd_hash|kb|key binding|signature is not valid/i.test(message))
    return refusal('invalid_key_binding', `The key binding JWT does not verify: ${message}`);
  return refusal('malformed_presentation', `The presentation does not verify: ${message}`);
}

/**
 * Verifies a presentation (`POST /api/v1/presentations`): the issuer-signed JWT against the issuing cell's published
 * key (422 `unknown_issuer` when `iss` is no cell of this deployment), every disclosure against its digest, the key
 * binding JWT of a bound credential, the times, and the status bit from the issuer's (cached) status list. A
 * presentation that cannot be trusted is a 422 with its code; a trustworthy but revoked one answers `valid: false,
 * revoked: true`. A credential issued in another country records a transfer in this cell's register.
 */
export async function verifyPresentation(
  ctx: ServerContext,
  accountId: string,
  input: VerifyPresentationRequest,
): Promise<PresentationVerification> {
  const parsed = parse(input.presentation);
  const { header, payload } = parsed;
  if (typeof header.typ !== 'string' || !SD_JWT_VC_TYPES.has(header.typ)) {
    throw refuse(
      'unsupported_format',
      `The credential's typ is ${JSON.stringify(header.typ ?? null)}: only SD-JWT VCs (dc+sd-jwt, vc+sd-jwt) are verified.`,
    );
  }
  if (header.alg !== 'ES256')
    throw refuse('unsupported_algorithm', `The credential is signed with ${String(header.alg)}: only ES256 is accepted.`);
  if ((payload._sd_alg ?? SD_ALG) !== SD_ALG)
    throw refuse('unsupported_algorithm', `The credential's _sd_alg is ${String(payload._sd_alg)}: only ${SD_ALG} is accepted.`);
  if (typeof payload.vct !== 'string' || typeof payload.exp !== 'number') {
    throw refuse('malformed_presentation', 'The credential has no vct or no exp claim.');
  }
  const issuer = typeof payload.iss === 'string' ? issuerCell(ctx, payload.iss) : undefined;
  if (!issuer) {
    throw refuse(
      'unknown_issuer',
      `The credential's issuer ${JSON.stringify(payload.iss ?? null)} is not a country cell of this service: there is no published key to verify it with.`,
    );
  }
  const undisclosed = checkDisclosures(parsed);

  const cnf = payload.cnf as { jwk?: JWK } | undefined;
  const bound = cnf?.jwk !== undefined;
  if (bound && !input.nonce)
    throw refuse('nonce_required', 'The credential is bound to a holder key: send the nonce the key binding JWT must carry.');
  const now = ctx.clock.now();
  // The library checks the issuer's signature first, then the key binding: what fails after the latter began is the key binding's.
  let keyBindingChecked = false;
  const holderKey = bound ? jwkVerifier(cnf.jwk!) : undefined;
  const verifier = new SDJwtInstance<Record<string, unknown>>({
    hasher,
    verifier: jwksVerifier(issuer.jwks),
    ...(holderKey
      ? {
          kbVerifier: (data: string, signature: string) => {
            keyBindingChecked = true;
            return holderKey(data, signature);
          },
        }
      : {}),
  });
  let verified: Awaited<ReturnType<typeof verifier.verify>>;
  try {
    verified = await verifier.verify(input.presentation, {
      currentDate: Math.floor(now / 1000),
      skewSeconds: SKEW_SECONDS,
      ...(bound ? { keyBindingNonce: input.nonce } : {}),
    });
  } catch (err) {
    if (keyBindingChecked && !(err instanceof ApiError)) {
      throw refuse(
        'invalid_key_binding',
        `The key binding JWT does not verify against the credential's holder key: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
    throw refusalOf(err);
  }
  if (bound) {
    const kb = verified.kb?.payload;
    const audience = input.audience ?? ctx.baseUrl;
    if (!kb || kb.aud !== audience) throw refuse('invalid_key_binding', `The key binding JWT's aud is not ${audience}.`);
    if (typeof kb.iat !== 'number' || Math.abs(kb.iat - now / 1000) > KEY_BINDING_MAX_AGE_SECONDS) {
      throw refuse('invalid_key_binding', `The key binding JWT's iat is more than ${KEY_BINDING_MAX_AGE_SECONDS} seconds away from now.`);
    }
  }
  const claims = verified.payload as Record<string, unknown>;

  // Status: from the issuer's own status list, under its own base URL (never a URL the credential could point anywhere).
  let revoked = false;
  let statusCheckedAt = now;
  const reference = (payload.status as { status_list?: { idx?: unknown; uri?: unknown } } | undefined)?.status_list;
  if (reference) {
    const { idx, uri } = reference;
    if (
      typeof uri !== 'string' ||
      !uri.startsWith(`${issuer.base_url}${STATUS_LIST_PATH}/`) ||
      !Number.isInteger(idx) ||
      (idx as number) < 0
    ) {
      throw refuse('invalid_status_reference', "The credential's status_list reference is not one of its issuer's status lists.");
    }
    const cached = await statusListAt(ctx, issuer, uri);
    let status: number;
    try {
      status = cached.list.getStatus(idx as number);
    } catch (err) {
      throw refuse('invalid_status_reference', "The credential's status index lies outside its issuer's status list.", { cause: err });
    }
    revoked = status !== 0;
    statusCheckedAt = cached.fetchedAt;
  }

  if (issuer.country !== ctx.country) {
    const application = input.application_id ? getApplication(ctx, input.application_id) : defaultApplication(ctx, accountId);
    if (input.application_id && application?.account_id !== accountId) {
      throw unprocessable(`No application ${input.application_id} in this account.`, 'application_not_found', [
        { path: 'application_id', code: 'application_not_found', message: 'no such application' },
      ]);
    }
    if (application) {
      const adequacy = adequacyOf(issuer.country, ctx.country);
      recordTransfer(ctx, {
        application_id: application.id,
        category: 'credential_presentation',
        from_country: issuer.country,
        to_country: ctx.country,
        lawful_basis: lawfulBasisFor(adequacy),
        adequacy,
      });
    }
  }
  ctx.metrics.increment('presentations.verified_total', {
    result: revoked ? 'revoked' : 'valid',
    cross_border: issuer.country !== ctx.country ? 'true' : 'false',
  });

  const disclosed = Object.fromEntries(Object.entries(claims).filter(([key]) => !TOKEN_CLAIMS.has(key)));
  return {
    valid: !revoked,
    ...(typeof claims.jti === 'string' ? { credential_id: claims.jti } : {}),
    credential_type: payload.vct,
    issuer: issuer.base_url,
    issuer_country: issuer.country,
    disclosed_claims: disclosed,
    undisclosed_count: undisclosed,
    key_bound: bound,
    revoked,
    status_checked_at: new Date(statusCheckedAt).toISOString(),
    issued_at: typeof payload.iat === 'number' ? new Date(payload.iat * 1000).toISOString() : null,
    expires_at: new Date(payload.exp * 1000).toISOString(),
  };
}
