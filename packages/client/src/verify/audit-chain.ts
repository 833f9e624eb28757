// Offline verification of an application's audit trail: every event's hash and link to the one before, every
// anchor's RFC 6962 Merkle root, its signature and its link to the previous anchor, and the witness
// countersignatures. Web Crypto and jose only, so it runs unchanged in Node 20+ and browsers.
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

/** The keys to check signatures with: the service's JWKS (`/.well-known/jwks.json`) and the witness's. */
export interface AuditChainKeys {
  /** Keys of the anchor issuer: the service's `/.well-known/jwks.json`. */
  issuer: JSONWebKeySet;
  /** Keys of the witness: `jwks` of `/.well-known/witness-configuration`; without it witness receipts are not checked. */
  witness?: JSONWebKeySet;
}

/** An anchor, optionally with its witness receipts (`GET /api/v1/audit/anchors/{id}/receipts`). */
export type AnchorWithReceipts = AuditAnchor & { receipts?: readonly AnchorReceipt[] };

/** Options of {@link verifyAuditChain}. */
export interface VerifyAuditChainOptions {
  /** Fail when an anchor has no witnessed receipt. Default false. */
  requireWitness?: boolean;
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
      /** Witness receipts whose countersignature verified. */
      witnessed: number;
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

/**
 * Verifies an application's audit trail offline: events in sequence order (from `GET /api/v1/audit/events`), anchors
 * oldest first (from `GET /api/v1/audit/anchors`, each optionally with its `receipts`), and the keys. It recomputes
 * each event's hash (SHA-256 over the JCS event including the previous hash), checks each link, recomputes each
 * anchor's Merkle root over the hashes it covers, checks the anchor signatures and links, and the witness
 * countersignatures. It names the first event that does not fit.
 *
 * @example
 * const result = await verifyAuditChain(events, anchors, { issuer: jwks, witness: witnessConfig.jwks });
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
  let witnessed = 0;
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
    let anchorWitnessed = false;
    for (const receipt of anchor.receipts ?? []) {
      if (receipt.status !== 'witnessed' || !keys.witness) continue;
      if (!(await verifyDetached(receipt.witness_signature, witnessSigningInput(anchor, receipt), keys.witness))) {
        return fail('witness_signature_invalid', from, `witness receipt ${receipt.id} of anchor ${anchor.id} does not verify`, anchor.id);
      }
      anchorWitnessed = true;
      witnessed++;
    }
    if (options.requireWitness && !anchorWitnessed)
      return fail('witness_missing', from, `anchor ${anchor.id} has no verified witness receipt`, anchor.id);
    previousAnchor = anchor;
  }
  return { ok: true, events: events.length, anchors: anchors.length, anchored_through: previousAnchor?.sequence_to ?? null, witnessed };
}
