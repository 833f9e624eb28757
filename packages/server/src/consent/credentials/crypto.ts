// The primitives the SD-JWT library is configured with: SHA-256 digests of disclosures, random salts, ES256 signing
// with the cell's key, and ES256 verification against a cell's published JWKS (the key chosen by the JWT's `kid`).
import { createHash, randomBytes } from 'node:crypto';
import { compactVerify, createLocalJWKSet, importJWK, type JWK } from 'jose';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import type { SigningKeys } from '../../infra/keys.js';

/** The only digest algorithm issued and accepted (`_sd_alg`). */
export const SD_ALG = 'sha-256';

/** SHA-256 of a disclosure (or of a presentation, for a key binding JWT's `sd_hash`). */
export function hasher(data: string | ArrayBuffer, alg: string): Uint8Array {
  if (alg.toLowerCase() !== SD_ALG) throw new Error(`Unsupported _sd_alg ${alg}: only ${SD_ALG} is accepted.`);
  return new Uint8Array(
    createHash('sha256')
      .update(typeof data === 'string' ? data : Buffer.from(data))
      .digest(),
  );
}

/** A disclosure's salt: 128 random bits, base64url (the SD-JWT specification's recommendation). */
export function saltGenerator(length: number): string {
  return randomBytes(Math.max(16, length)).toString('base64url');
}

/** An ES256 signer over a JWS signing input with `key`: the raw `r || s` signature, base64url (JWS's form). */
export function es256Signer(key: CryptoKey): (data: string) => Promise<string> {
  return async (data) => {
    const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key, new TextEncoder().encode(data));
    return Buffer.from(signature).toString('base64url');
  };
}

const jwkSets = new WeakMap<object, ReturnType<typeof createLocalJWKSet>>();

/** jose's resolver over a published JWKS, made once per set (jose imports each key the first time it is used). */
export function keySetOf(jwks: { keys: JWK[] }): ReturnType<typeof createLocalJWKSet> {
  let set = jwkSets.get(jwks);
  if (!set) {
    set = createLocalJWKSet(jwks);
    jwkSets.set(jwks, set);
  }
  return set;
}

/**
 * A verifier of JWS signatures made with one of `jwks`' keys: the protected header's `kid` picks the key and its
 * `alg` must be ES256. Answers false (never throws) on any mismatch, so the library reports an invalid signature.
 */
export function jwksVerifier(jwks: { keys: JWK[] }): (data: string, signature: string) => Promise<boolean> {
  const keys = keySetOf(jwks);
  return async (data, signature) => {
    try {
      await compactVerify(`${data}.${signature}`, keys, { algorithms: ['ES256'] });
      return true;
    } catch {
      return false;
    }
  };
}

/** A verifier of JWS signatures made with the private half of one public JWK (a holder's `cnf.jwk`). */
export function jwkVerifier(jwk: JWK): (data: string, signature: string) => Promise<boolean> {
  let key: Promise<CryptoKey | Uint8Array> | undefined;
  return async (data, signature) => {
    try {
      key ??= importJWK({ ...jwk, alg: 'ES256' }, 'ES256');
      await compactVerify(`${data}.${signature}`, await key, { algorithms: ['ES256'] });
      return true;
    } catch {
      return false;
    }
  };
}

const issuers = new WeakMap<SigningKeys, SDJwtVcInstance>();

/** The SD-JWT VC issuer of a cell's keys (made once per key set). */
export function issuerOf(keys: SigningKeys): SDJwtVcInstance {
  let issuer = issuers.get(keys);
  if (!issuer) {
    issuer = new SDJwtVcInstance({ hasher, hashAlg: SD_ALG, saltGenerator, signer: es256Signer(keys.privateKey), signAlg: 'ES256' });
    issuers.set(keys, issuer);
  }
  return issuer;
}
