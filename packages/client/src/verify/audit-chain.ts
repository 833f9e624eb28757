// Offline verification of an application's audit trail: every event's hash and link to the one before, every
// anchor's RFC 6962 Merkle root, its signature and its link to the previous anchor, and the witness
// countersignatures and RFC 3161 time-stamp tokens. Web Crypto, jose and (for tokens only, loaded when there is one)
// pkijs, so it runs unchanged in Node 20+ and browsers.
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import {
  AUDIT_GENESIS_HASH,
  anchorSigningInput,
  auditHashInput,
  witnessSigningInput,
  type AnchorReceipt,
  type AuditAnchor,
  type AuditEvent,
} from '@svc/schemas';
import { base64url, canonicalBytes, sha256Hex } from './jcs.js';
import type { TimestampTrustAnchors, TimestampVerification } from './timestamp.js';

/** The keys to check signatures with: the service's JWKS (`/.well-known/jwks.json`) and the witness's. */
export interface AuditChainKeys {
  /** Keys of the anchor issuer: the service's `/.well-known/jwks.json`. */
  issuer: JSONWebKeySet;
  /** Keys of the witness: `jwks` of `/.well-known/witness-configuration`; without it witness receipts are not checked. */
  witness?: JSONWebKeySet;
  /**
   * CA certificates of the RFC 3161 time-stamping authorities (PEM text, one or several, or DER): the receipts whose
   * `witness_signature` is a TimeStampToken are checked against them; without them tokens are not checked.
   */
  timestampAuthorities?: TimestampTrustAnchors;
}

/** An anchor, optionally with its witness receipts (`GET /api/v1/audit/anchors/{id}/receipts`). */
export type AnchorWithReceipts = AuditAnchor & { receipts?: readonly AnchorReceipt[] };

/** Options of {@link verifyAuditChain}. */
export interface VerifyAuditChainOptions {
  /** Fail when an anchor has no witnessed receipt. Default false. */
  requireWitness?: boolean;
  /** Fail when an anchor has no verified RFC 3161 time-stamp (needs `keys.timestampAuthorities`). Default false. */
  requireExternalWitness?: boolean;
}

/** A witness receipt that verified. */
export interface VerifiedWitnessReceipt {
  anchor_id: string;
  /** The witness: an RFC 3161 authority's URL, or the local witness's id. */
  witness_id: string | null;
  /** True for an RFC 3161 time-stamp from an authority outside the service; false for the local witness. */
  external: boolean;
  /** When the witness saw the anchor (for a time-stamp, its genTime). */
  witnessed_at: string | null;
}

/** Why the chain does not verify. */
export type AuditChainFailureReason =
  | 'malformed'
  | 'sequence_gap'
  | 'application_mismatch'
  | 'previous_hash_mismatch'
  | 'hash_mismatch'
  | 'anchor_range'
  | 'anchor_mismatch'
  | 'merkle_root_mismatch'
  | 'anchor_link_broken'
  | 'anchor_signature_invalid'
  | 'witness_signature_invalid'
  | 'witness_missing';

/** The verdict: every check passed, or the first event (or anchor) that does not fit and why. */
export type AuditChainVerification =
  | {
      ok: true;
      /** Events checked. */
      events: number;
      /** Anchors checked. */
      anchors: number;
      /** The last anchored sequence, or null when nothing is anchored yet. */
      anchored_through: number | null;
      /** Witness receipts whose countersignature (or time-stamp) verified. */
      witnessed: number;
      /** Anchors with a verified RFC 3161 time-stamp from an external authority. */
      externally_witnessed: number;
      /** Every witness receipt that verified, anchor by anchor. */
      witnesses: VerifiedWitnessReceipt[];
    }
  | {
      ok: false;
      /** The first event that does not fit (for an anchor problem, the first event it covers), or null. */
      sequence: number | null;
      /** The anchor concerned, for anchor problems. */
      anchor_id: string | null;
      reason: AuditChainFailureReason;
      message: string;
    };

const fail = (
  reason: AuditChainFailureReason,
  sequence: number | null,
  message: string,
  anchorId: string | null = null,
): AuditChainVerification => ({ ok: false, sequence, anchor_id: anchorId, reason, message });

const hexToBytes = (hex: string): Uint8Array => {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
};
const bytesToHex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

async function digest(parts: readonly Uint8Array[]): Promise<Uint8Array> {
  const length = parts.reduce((n, p) => n + p.length, 0);
  const joined = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    joined.set(p, at);
    at += p.length;
  }
  return new Uint8Array(await crypto.subtle.digest('SHA-256', joined as BufferSource));
}

/**
 * The RFC 6962 Merkle Tree Hash of leaf data, lower-case hex: a leaf is SHA-256(0x00 || data), a node
 * SHA-256(0x01 || left || right), and n > 1 leaves split at the largest power of two smaller than n.
 */
export async function merkleTreeHash(leaves: readonly Uint8Array[]): Promise<string> {
  if (leaves.length === 0) return bytesToHex(await digest([]));
  const hashed = await Promise.all(leaves.map((d) => digest([Uint8Array.of(0), d])));
  const tree = async (from: number, to: number): Promise<Uint8Array> => {
    const n = to - from;
    if (n === 1) return hashed[from]!;
    let k = 1;
    while (k * 2 < n) k *= 2;
    return digest([Uint8Array.of(1), await tree(from, from + k), await tree(from + k, to)]);
  };
  return bytesToHex(await tree(0, hashed.length));
}

async function verifyDetached(signature: string | null | undefined, signed: unknown, jwks: JSONWebKeySet): Promise<boolean> {
  const match = typeof signature === 'string' ? /^([A-Za-z0-9_-]+)\.\.([A-Za-z0-9_-]+)$/.exec(signature) : null;
  if (!match) return false;
  try {
    await compactVerify(`${match[1]}.${base64url(canonicalBytes(signed))}.${match[2]}`, createLocalJWKSet(jwks), { algorithms: ['ES256'] });
    return true;
  } catch {
    return false;
  }
}

type TimestampModule = typeof import('./timestamp.js');
let timestampModule: Promise<TimestampModule> | undefined;

/**
 * Verifies an RFC 3161 time-stamp token offline (see `verify/timestamp.ts`): its CMS signature, its signer's chain
 * to one of `trustAnchors` at genTime, the signer's critical id-kp-timeStamping, and its SHA-256 imprint of `data`.
 * The verifier (with pkijs) loads on the first call, so a bundle that never checks a token does not carry it.
 */
export async function verifyTimestampToken(
  tokenBase64: string,
  data: Uint8Array | string,
  trustAnchors: TimestampTrustAnchors,
): Promise<TimestampVerification> {
  timestampModule ??= import('./timestamp.js');
  return (await timestampModule).verifyTimestampToken(tokenBase64, data, trustAnchors);
}

/** Leading zeros aside, two hex serial numbers are the same. */
const sameSerial = (a: string | null, b: string) => (a ?? '').toLowerCase().replace(/^0+/, '') === b.replace(/^0+/, '');

/** Checks an RFC 3161 receipt: the token time-stamps the anchor's `signature`, and the receipt's fields are the token's. */
async function checkTimestampReceipt(
  anchor: AuditAnchor,
  receipt: AnchorReceipt,
  trustAnchors: TimestampTrustAnchors,
): Promise<string | null> {
  const verdict = await verifyTimestampToken(receipt.witness_signature ?? '', anchor.signature, trustAnchors);
  if (!verdict.ok) return `${verdict.message} (${verdict.reason})`;
  if (receipt.witnessed_at === null || Date.parse(receipt.witnessed_at) !== Date.parse(verdict.gen_time))
    return `its witnessed_at ${receipt.witnessed_at} is not the token's genTime ${verdict.gen_time}`;
  if (!sameSerial(receipt.receipt_id, verdict.serial_number))
    return `its receipt_id is not the token's serial number ${verdict.serial_number}`;
  if (receipt.witness_key_version !== null && receipt.witness_key_version !== verdict.signer_certificate_sha256)
    return "its witness_key_version is not the SHA-256 of the token's signer certificate";
  return null;
}

/** Whether a receipt's `witness_signature` is an RFC 3161 token (base64 DER) rather than a JWS with detached payload. */
const isTimestampToken = (signature: string | null): signature is string => typeof signature === 'string' && !signature.includes('.');

/** The anchor's witness receipts that verify, or the failure of the first that does not. */
async function checkReceipts(
  anchor: AnchorWithReceipts,
  keys: AuditChainKeys,
  from: number,
): Promise<VerifiedWitnessReceipt[] | AuditChainVerification> {
  const verified: VerifiedWitnessReceipt[] = [];
  for (const receipt of anchor.receipts ?? []) {
    if (receipt.status !== 'witnessed') continue;
    const external = isTimestampToken(receipt.witness_signature);
    let problem: string | null;
    if (external) {
      if (!keys.timestampAuthorities) continue;
      problem = await checkTimestampReceipt(anchor, receipt, keys.timestampAuthorities);
    } else {
      if (!keys.witness) continue;
      problem = (await verifyDetached(receipt.witness_signature, witnessSigningInput(anchor, receipt), keys.witness))
        ? null
        : 'does not verify';
    }
    if (problem) {
      const what = external
        ? `time-stamp receipt ${receipt.id} of anchor ${anchor.id} by ${receipt.witness_id}`
        : `witness receipt ${receipt.id} of anchor ${anchor.id}`;
      return fail('witness_signature_invalid', from, `${what} ${external ? `does not verify: ${problem}` : problem}`, anchor.id);
    }
    verified.push({ anchor_id: anchor.id, witness_id: receipt.witness_id, external, witnessed_at: receipt.witnessed_at });
  }
  return verified;
}

/**
 * Verifies an application's audit trail offline: events in sequence order (from `GET /api/v1/audit/events`), anchors
 * oldest first (from `GET /api/v1/audit/anchors`, each optionally with its `receipts`), and the keys. It recomputes
 * each event's hash (SHA-256 over the JCS event including the previous hash), checks each link, recomputes each
 * anchor's Merkle root over the hashes it covers, checks the anchor signatures and links, and the witness
 * countersignatures. With `keys.timestampAuthorities` it checks each RFC 3161 receipt's token against those CAs: it
 * must time-stamp the anchor's `signature` (SHA-256 of its UTF-8 bytes), and `witnessed_at` must be its genTime. It
 * names the first event that does not fit; the verdict lists every receipt that verified, and whether it is external.
 * Throws a TypeError when `timestampAuthorities` hold no certificate and there is a token to check.
 *
 * @example
 * const result = await verifyAuditChain(events, anchors, { issuer: jwks, timestampAuthorities: caPem }, { requireExternalWitness: true });
 * if (!result.ok) console.error(`audit event ${result.sequence}: ${result.reason}`);
 */
export async function verifyAuditChain(
  events: readonly AuditEvent[],
  anchors: readonly AnchorWithReceipts[],
  keys: AuditChainKeys,
  options: VerifyAuditChainOptions = {},
): Promise<AuditChainVerification> {
  if (!Array.isArray(events) || !Array.isArray(anchors)) return fail('malformed', null, 'events and anchors must be arrays');
  const application = events[0]?.application_id ?? anchors[0]?.application_id;
  const bySequence = new Map<number, AuditEvent>();
  let previous: AuditEvent | undefined;
  for (const event of events) {
    if (typeof event?.sequence !== 'number' || typeof event.hash !== 'string' || typeof event.previous_hash !== 'string') {
      return fail(
        'malformed',
        typeof event?.sequence === 'number' ? event.sequence : null,
        'an event lacks sequence, hash or previous_hash',
      );
    }
    if (event.application_id !== application) {
      return fail('application_mismatch', event.sequence, `event ${event.sequence} belongs to ${event.application_id}, not ${application}`);
    }
    if (previous && event.sequence !== previous.sequence + 1) {
      return fail('sequence_gap', event.sequence, `event ${event.sequence} follows event ${previous.sequence}`);
    }
    const expectedPrevious = previous ? previous.hash : event.sequence === 1 ? AUDIT_GENESIS_HASH : event.previous_hash;
    if (event.previous_hash !== expectedPrevious) {
      return fail(
        'previous_hash_mismatch',
        event.sequence,
        `event ${event.sequence} does not link to the hash of event ${event.sequence - 1}`,
      );
    }
    let recomputed: string;
    try {
      recomputed = await sha256Hex(canonicalBytes(auditHashInput(event)));
    } catch {
      return fail('malformed', event.sequence, `event ${event.sequence} cannot be canonicalised`);
    }
    if (recomputed !== event.hash) {
      return fail('hash_mismatch', event.sequence, `event ${event.sequence} does not match its hash: it was changed after it was recorded`);
    }
    bySequence.set(event.sequence, event);
    previous = event;
  }

  let previousAnchor: AnchorWithReceipts | undefined;
  const witnesses: VerifiedWitnessReceipt[] = [];
  let externallyWitnessed = 0;
  for (const anchor of anchors) {
    const from = anchor.sequence_from ?? null;
    const to = anchor.sequence_to ?? null;
    if (from === null || to === null || to < from) return fail('malformed', from, `anchor ${anchor.id} has no sequence range`, anchor.id);
    if (anchor.application_id !== undefined && application !== undefined && anchor.application_id !== application) {
      return fail('application_mismatch', from, `anchor ${anchor.id} belongs to another application`, anchor.id);
    }
    const expectedFrom = previousAnchor ? (previousAnchor.sequence_to ?? 0) + 1 : from;
    const expectedLink = previousAnchor ? previousAnchor.id : from === 1 ? null : (anchor.previous_anchor_id ?? null);
    if ((anchor.previous_anchor_id ?? null) !== expectedLink || from !== expectedFrom) {
      return fail('anchor_link_broken', from, `anchor ${anchor.id} does not continue the previous anchor`, anchor.id);
    }
    const covered: string[] = [];
    for (let s = from; s <= to; s++) {
      const event = bySequence.get(s);
      if (!event)
        return fail('anchor_range', s, `anchor ${anchor.id} covers event ${s}, which is missing from the events given`, anchor.id);
      if (event.anchor_id !== null && event.anchor_id !== undefined && event.anchor_id !== anchor.id) {
        return fail('anchor_mismatch', s, `event ${s} names anchor ${event.anchor_id}, but anchor ${anchor.id} covers it`, anchor.id);
      }
      covered.push(event.hash);
    }
    if (anchor.record_count !== undefined && anchor.record_count !== covered.length) {
      return fail('anchor_range', from, `anchor ${anchor.id} says ${anchor.record_count} events but covers ${covered.length}`, anchor.id);
    }
    const root = await merkleTreeHash(covered.map(hexToBytes));
    if (root !== anchor.merkle_root) {
      return fail('merkle_root_mismatch', from, `the events ${from}..${to} do not produce anchor ${anchor.id}'s Merkle root`, anchor.id);
    }
    if (!(await verifyDetached(anchor.signature, anchorSigningInput(anchor), keys.issuer))) {
      return fail('anchor_signature_invalid', from, `anchor ${anchor.id}'s signature does not verify with the issuer's keys`, anchor.id);
    }
    const checked = await checkReceipts(anchor, keys, from);
    if (!Array.isArray(checked)) return checked;
    witnesses.push(...checked);
    if (options.requireWitness && checked.length === 0)
      return fail('witness_missing', from, `anchor ${anchor.id} has no verified witness receipt`, anchor.id);
    if (checked.some((w) => w.external)) externallyWitnessed++;
    else if (options.requireExternalWitness) {
      const hint = keys.timestampAuthorities ? '' : ' (give the authorities’ CA certificates to check RFC 3161 receipts)';
      return fail('witness_missing', from, `anchor ${anchor.id} has no verified RFC 3161 time-stamp${hint}`, anchor.id);
    }
    previousAnchor = anchor;
  }
  return {
    ok: true,
    events: events.length,
    anchors: anchors.length,
    anchored_through: previousAnchor?.sequence_to ?? null,
    witnessed: witnesses.length,
    externally_witnessed: externallyWitnessed,
    witnesses,
  };
}
