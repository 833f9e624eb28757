import { SDJwtInstance } from '@sd-jwt/core';
import { importJWK, type JWK } from 'jose';

/** SHA-256 through Web Crypto (the only `_sd_alg` the service issues). */
async function hasher(data: string | ArrayBuffer, alg: string): Promise<Uint8Array> {
  if (alg.toLowerCase() !== 'sha-256') throw new Error(`Unsupported _sd_alg ${alg}: only sha-256 is supported.`);
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : new Uint8Array(data);
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
}

function base64url(bytes: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Key binding: prove possession of the key the credential is bound to (`holder_jwk` at issuance). */
export interface KeyBindingOptions {
  /** The holder's private P-256 key: a Web Crypto key or a private JWK. */
  privateKey: CryptoKey | JWK;
  /** The verifier's challenge (sent again as `nonce` to `POST /api/v1/presentations`). */
  nonce: string;
  /** Who the presentation is for: the verifying cell's base URL unless it says otherwise (`audience`). */
  audience: string;
  /** Seconds since the epoch to state as `iat` (default now). */
  issuedAt?: number;
}

/** Options of {@link presentCredential}. */
export interface PresentCredentialOptions {
  /**
   * The selectively disclosable claims to disclose, as dotted paths: `purposes.newsletter` (one granted purpose),
   * `application_id`, `consent_transaction_id`, `consented_at`, `flow_id`, `email`, `jti` (the credential id).
   * Everything else stays hidden; an empty list discloses nothing but the always-visible claims.
   */
  disclose: readonly string[];
  /** Adds a key binding JWT (required for a credential bound to a holder key). */
  keyBinding?: KeyBindingOptions;
}

function isCryptoKey(key: CryptoKey | JWK): key is CryptoKey {
  return typeof (key as CryptoKey).algorithm === 'object' && typeof (key as CryptoKey).type === 'string';
}

function instance(kb?: KeyBindingOptions): SDJwtInstance<Record<string, unknown>> {
  if (!kb) return new SDJwtInstance({ hasher });
  const given = kb.privateKey;
  let key: Promise<CryptoKey> | undefined;
  return new SDJwtInstance({
    hasher,
    kbSignAlg: 'ES256',
    kbSigner: async (data: string) => {
      key ??= isCryptoKey(given) ? Promise.resolve(given) : (importJWK({ ...given, alg: 'ES256' }, 'ES256') as Promise<CryptoKey>);
      return base64url(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, await key, new TextEncoder().encode(data)));
    },
  });
}

/** The credential's claims as its holder sees them (every disclosure applied; no signature check). */
export async function credentialClaims(sdJwt: string): Promise<Record<string, unknown>> {
  return (await instance().getClaims(sdJwt)) as Record<string, unknown>;
}

/** The dotted paths of the claims a presentation may disclose or withhold (`purposes.newsletter`, `email`, …). */
export function disclosableClaims(sdJwt: string): Promise<string[]> {
  return instance().presentableKeys(sdJwt);
}

/**
 * Makes a presentation of an issued credential (`credential.credential` from `svc.credentials.create`) that discloses
 * only `disclose`, for a verifier to check with `svc.presentations.verify({presentation})` in any country cell.
 * Throws when a path names no disclosable claim of this credential.
 *
 * @example
 * ```ts
 * import { presentCredential } from '@svc/client/credentials';
 * const presentation = await presentCredential(credential.credential, { disclose: ['purposes.newsletter'] });
 * const { valid, disclosed_claims } = await svc.presentations.verify({ presentation });
 * ```
 */
export async function presentCredential(sdJwt: string, options: PresentCredentialOptions): Promise<string> {
  const sd = instance(options.keyBinding);
  const disclosable = new Set(await sd.presentableKeys(sdJwt));
  const unknown = options.disclose.filter((path) => !disclosable.has(path));
  if (unknown.length) {
    throw new Error(
      `No disclosable claim ${unknown.map((p) => JSON.stringify(p)).join(', ')} in this credential; it has ${[...disclosable].join(', ')}.`,
    );
  }
  type Frame = { [key: string]: boolean | Frame };
  const frame: Frame = {};
  for (const path of options.disclose) {
    const parts = path.split('.');
    let node = frame;
    for (const [i, part] of parts.entries()) {
      if (i === parts.length - 1) node[part] = node[part] ?? true;
      else {
        const child = node[part];
        node = typeof child === 'object' ? child : (node[part] = {});
      }
    }
  }
  const kb = options.keyBinding;
  return sd.present(
    sdJwt,
    frame,
    kb
      ? {
          kb: { payload: { iat: kb.issuedAt ?? Math.floor(Date.now() / 1000), aud: kb.audience, nonce: kb.nonce } },
        }
      : undefined,
  );
}
