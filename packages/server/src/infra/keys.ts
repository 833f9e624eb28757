import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { calculateJwkThumbprint, createLocalJWKSet, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';

/** The server's signing key: made on first start, kept in the data directory, published in the JWKS. */
export interface SigningKeys {
  /** Key id of the current signing key (its RFC 7638 thumbprint). */
  kid: string;
  /** JWS algorithm of the current key. */
  alg: 'ES256';
  /** The private key for jose's signers. */
  privateKey: CryptoKey;
  /** The public JWK Set served at `/.well-known/jwks.json` (every key ever used, newest first). */
  jwks: { keys: JWK[] };
  /**
   * The same set as jose's key resolver for verifying what the server signed, made once: jose imports each key the
   * first time it is used and keeps it, where a resolver made per verification imports it every time.
   */
  keySet: ReturnType<typeof createLocalJWKSet>;
}

interface StoredKey {
  kid: string;
  alg: 'ES256';
  created_at: string;
  private_jwk: JWK;
}

/** Loads the keys from `dataDir/keys.json`, creating a fresh ES256 key pair on first start. */
export async function loadSigningKeys(dataDir: string): Promise<SigningKeys> {
  const file = join(dataDir, 'keys.json');
  let stored: StoredKey[];
  if (existsSync(file)) {
    stored = JSON.parse(readFileSync(file, 'utf8')) as StoredKey[];
  } else {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const privateJwk = await exportJWK(privateKey);
    const kid = await calculateJwkThumbprint(privateJwk);
    stored = [{ kid, alg: 'ES256', created_at: new Date().toISOString(), private_jwk: { ...privateJwk, kid } }];
    writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  const current = stored[0];
  if (!current) throw new Error(`${file} holds no key`);
  const privateKey = (await importJWK(current.private_jwk, current.alg)) as CryptoKey;
  const jwks = {
    keys: stored.map(({ kid, alg, private_jwk: { d: _d, ...pub } }) => ({ ...pub, kid, alg, use: 'sig' })),
  };
  return { kid: current.kid, alg: current.alg, privateKey, jwks, keySet: createLocalJWKSet(jwks) };
}
