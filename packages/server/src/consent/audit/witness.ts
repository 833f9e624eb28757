// The reference server's local witness: its own ES256 key (kept in the data directory), described at
// `/.well-known/witness-configuration`. It checks an anchor's signature against the server's published JWKS and
// countersigns it; its answer is an AnchorReceipt.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AUDIT_ANCHOR_FORMAT,
  anchorSigningInput,
  WITNESS_RECEIPT_FORMAT,
  witnessSigningInput,
  type AuditAnchor,
  type LocalWitnessDescription,
  type TimestampAuthorityDescription,
} from '@svc/schemas';
import { calculateJwkThumbprint, compactVerify, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { newId } from '../../infra/ids.js';
import { jcs } from './hash.js';
import { signJcs } from '../receipts/sign.js';

/** The local witness's id. */
export const LOCAL_WITNESS_ID = 'svc-local-witness';
/** Format of what the server signs for an anchor. */
export const ANCHOR_FORMAT = AUDIT_ANCHOR_FORMAT;
/** Seconds between anchors on the server clock. */
export const ANCHOR_INTERVAL_SECONDS = 15 * 60;

/** A witness's answer to one anchor, before it is stored as an AnchorReceipt. */
export interface WitnessAnswer {
  status: 'witnessed' | 'failed';
  receipt_id: string | null;
  witness_id: string | null;
  witness_key_version: string | null;
  witness_signature: string | null;
  witnessed_at: string | null;
  /** Why a `failed` answer failed (kept for retries and operators, never on the wire). */
  error?: string;
}

/** Something that countersigns anchors. The reference server has one local witness; others would speak HTTP. */
export interface Witness {
  readonly id: string;
  countersign(anchor: AuditAnchor): Promise<WitnessAnswer>;
  configuration(): LocalWitnessDescription | TimestampAuthorityDescription;
}

/** The witness's answer to an anchor; a throw counts as a refusal (a `failed` answer with the reason). */
export async function askWitness(witness: Witness, anchor: AuditAnchor): Promise<WitnessAnswer> {
  try {
    return await witness.countersign(anchor);
  } catch (error) {
    return {
      status: 'failed',
      receipt_id: null,
      witness_id: witness.id,
      witness_key_version: null,
      witness_signature: null,
      witnessed_at: null,
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

interface StoredWitnessKey {
  version: number;
  kid: string;
  alg: 'ES256';
  created_at: string;
  private_jwk: JWK;
}

async function loadWitnessKey(dataDir: string): Promise<StoredWitnessKey> {
  const file = join(dataDir, 'witness-keys.json');
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as StoredWitnessKey[];
    if (stored[0]) return stored[0];
  }
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  const key: StoredWitnessKey = { version: 1, kid, alg: 'ES256', created_at: new Date().toISOString(), private_jwk: { ...jwk, kid } };
  writeFileSync(file, JSON.stringify([key], null, 2), { mode: 0o600 });
  return key;
}

const witnesses = new WeakMap<ServerContext, Promise<Witness>>();

/** The server's local witness, made (and its key created on first start) once per server. */
export function localWitness(ctx: ServerContext): Promise<Witness> {
  let witness = witnesses.get(ctx);
  if (!witness) {
    witness = makeLocalWitness(ctx);
    witnesses.set(ctx, witness);
  }
  return witness;
}

async function makeLocalWitness(ctx: ServerContext): Promise<Witness> {
  const stored = await loadWitnessKey(ctx.dataDir);
  const privateKey = (await importJWK(stored.private_jwk, 'ES256')) as CryptoKey;
  const { d: _d, ...publicJwk } = stored.private_jwk;
  const jwks = { keys: [{ ...publicJwk, kid: stored.kid, alg: 'ES256', use: 'sig' }] };
  const keyVersion = String(stored.version);
  return {
    id: LOCAL_WITNESS_ID,
    configuration: () => ({
      witness_id: LOCAL_WITNESS_ID,
      kind: 'local',
      external: false,
      description:
        "A local witness, for development: a key inside this server, so it proves nothing to an auditor. It checks each audit anchor's signature against /.well-known/jwks.json and countersigns it. Set SVC_WITNESS_TSA_URL to an RFC 3161 time-stamping authority for an external witness.",
      algorithms: ['ES256'],
      key_version: keyVersion,
      jwks,
      receipt_format: WITNESS_RECEIPT_FORMAT,
    }),
    async countersign(anchor) {
      // A witness vouches only for what the issuer really signed.
      const [header, , signature] = `${anchor.signature}`.split('.');
      const payload = Buffer.from(jcs(anchorSigningInput(anchor)), 'utf8').toString('base64url');
      try {
        await compactVerify(`${header}.${payload}.${signature}`, ctx.keys.keySet, { algorithms: ['ES256'] });
      } catch {
        return {
          status: 'failed',
          receipt_id: null,
          witness_id: LOCAL_WITNESS_ID,
          witness_key_version: null,
          witness_signature: null,
          witnessed_at: null,
        };
      }
      const answer = {
        receipt_id: newId('wr_', 20),
        witness_id: LOCAL_WITNESS_ID,
        witness_key_version: keyVersion,
        witnessed_at: isoNow(ctx.clock),
      };
      const witness_signature = await signJcs(witnessSigningInput(anchor, answer), privateKey, stored.kid);
      return { status: 'witnessed', ...answer, witness_signature };
    },
  };
}
