// The keys the OpenID provider signs with: the server's ES256 keys (`keys.json`, infra/keys.ts), and an RS256 key of
// its own for the clients that ask for RS256 ID tokens (`id_token_signed_response_alg`), which every OpenID provider
// must be able to sign with (OpenID Connect Core 1.0 section 15.1). The RSA key is made once per data directory and
// kept beside the server's keys, in `oauth-keys.json`, the same way; the provider's JWKS (`/oauth/jwks`) publishes
// both. `/.well-known/jwks.json` stays the cell's own ES256 keys (receipts, records, credentials).
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JWK } from 'jose';

interface StoredKey {
  kid?: string;
  alg: string;
  created_at?: string;
  private_jwk: JWK;
}

const RSA_FILE = 'oauth-keys.json';

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as StoredKey[];

/**
 * The provider's RS256 keys (newest first), made on first use: a 2048-bit RSA key pair from node:crypto. Its `kid`
 * is left to oidc-provider, which names a key without one by its RFC 7638 thumbprint (the same on every start).
 */
function rsaKeys(dataDir: string): StoredKey[] {
  const file = join(dataDir, RSA_FILE);
  if (existsSync(file)) return read(file);
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const stored: StoredKey[] = [
    { alg: 'RS256', created_at: new Date().toISOString(), private_jwk: privateKey.export({ format: 'jwk' }) as JWK },
  ];
  writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  return stored;
}

/** Every private key the provider signs with, in the JWK form it takes: the server's ES256 keys first. */
export function providerJwks(dataDir: string): JWK[] {
  return [...read(join(dataDir, 'keys.json')), ...rsaKeys(dataDir)].map(({ kid, alg, private_jwk: jwk }) => ({
    ...jwk,
    ...(kid ? { kid } : {}),
    alg,
    use: 'sig',
  }));
}
