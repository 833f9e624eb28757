// Signing secrets must be usable (the server computes HMACs with them), so unlike API tokens they cannot be stored
// as one-way hashes. They, and the outbox bodies (which can carry a consent token), are sealed with AES-256-GCM
// under a key kept in its own file beside the database: a copy of the database alone (a backup, a support dump)
// reveals neither. Production deployments can put the key elsewhere with SVC_WEBHOOK_KEY.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBase62 } from './ids.js';

/** File name of the at-rest key in the data directory (32 random bytes, base64url, mode 0600). */
export const KEY_FILE = 'webhook-secrets.key';

/** Encrypts and decrypts values bound to a context string (the row id), so a sealed value cannot move rows. */
export interface Sealer {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

function parseKey(text: string, where: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64url');
  if (key.length !== 32) throw new Error(`${where} must hold 32 bytes as base64url (found ${key.length})`);
  return key;
}

/**
 * Loads the at-rest key: `SVC_WEBHOOK_KEY` (base64url of 32 bytes) when set, else `<dataDir>/webhook-secrets.key`,
 * created on first start.
 */
export function loadSealer(dataDir: string, env: NodeJS.ProcessEnv = process.env): Sealer {
  let key: Buffer;
  if (env.SVC_WEBHOOK_KEY) {
    key = parseKey(env.SVC_WEBHOOK_KEY, 'SVC_WEBHOOK_KEY');
  } else {
    const file = join(dataDir, KEY_FILE);
    if (!existsSync(file)) {
      try {
        writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    key = parseKey(readFileSync(file, 'utf8'), file);
  }
  return {
    seal(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `v1.${iv.toString('base64url')}.${data.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
    },
    open(sealed, context) {
      const [version, iv, data, tag] = sealed.split('.');
      if (version !== 'v1' || iv === undefined || data === undefined || tag === undefined) throw new Error('not a sealed value');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/** A new signing secret: `whsec_` and 43 base62 characters (about 256 bits). */
export function newSigningSecret(): string {
  return `whsec_${randomBase62(43)}`;
}
