// RFC 6962 (section 2.1) Merkle tree hashing: a leaf is SHA-256(0x00 || data), a node SHA-256(0x01 || left || right),
// and a list of n > 1 leaves splits at the largest power of two smaller than n.
import { createHash } from 'node:crypto';

const LEAF = Buffer.from([0]);
const NODE = Buffer.from([1]);

/** The hash of one leaf. */
export function leafHash(data: Uint8Array): Buffer {
  return createHash('sha256').update(LEAF).update(data).digest();
}

function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return createHash('sha256').update(NODE).update(left).update(right).digest();
}

/** The largest power of two strictly smaller than `n` (n > 1). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function treeHash(leaves: readonly Buffer[], from: number, to: number): Buffer {
  const n = to - from;
  if (n === 1) return leaves[from]!;
  const k = splitPoint(n);
  return nodeHash(treeHash(leaves, from, from + k), treeHash(leaves, from + k, to));
}

/**
 * The Merkle Tree Hash of a list of leaf data, lower-case hex. The empty list hashes to SHA-256 of nothing, as
 * RFC 6962 defines; anchors never cover an empty list.
 */
export function merkleRoot(data: readonly Uint8Array[]): string {
  if (data.length === 0) return createHash('sha256').digest('hex');
  const leaves = data.map(leafHash);
  return treeHash(leaves, 0, leaves.length).toString('hex');
}

/** The Merkle root over audit events, whose leaves are the 32 raw bytes of each event's hex `hash`, in sequence order. */
export function auditMerkleRoot(hashes: readonly string[]): string {
  return merkleRoot(hashes.map((h) => Buffer.from(h, 'hex')));
}
