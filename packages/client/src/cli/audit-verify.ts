// `svc audit verify`: fetches an application's audit trail, verifies it offline and says, anchor by anchor, which
// witness saw it: an RFC 3161 authority outside the service (checked against the CA file of --tsa-ca) or the local one.
import { readFileSync } from 'node:fs';
import type { SvcClient } from '../lib/client.js';
import {
  verifyAuditChain,
  type AnchorWithReceipts,
  type AuditChainVerification,
  type VerifiedWitnessReceipt,
} from '../verify/audit-chain.js';
import type { TimestampTrustAnchors } from '../verify/timestamp.js';
import { CliUsageError } from './config.js';

/** The flags of the command, read. */
export interface AuditVerifyFlags {
  applicationId: string | undefined;
  requireWitness: boolean;
  requireExternalWitness: boolean;
  /** Path of a PEM (or DER) file of the time-stamping authorities' CA certificates. */
  tsaCa: string | undefined;
}

/** One anchor of the `--json` output: its events and the witnesses that verifiably saw it. */
export interface AnchorWitnessing {
  anchor_id: string;
  sequence_from: number | null;
  sequence_to: number | null;
  externally_witnessed: boolean;
  witnesses: Omit<VerifiedWitnessReceipt, 'anchor_id'>[];
  /** RFC 3161 receipts that were not checked (no --tsa-ca). */
  unchecked_timestamps: number;
}

/** Reads the CA file of --tsa-ca: a clear usage error when it cannot be read or holds no certificate. */
export async function readTimestampAuthorities(file: string): Promise<TimestampTrustAnchors> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new CliUsageError(`--tsa-ca: cannot read ${file}: ${(error as Error).message}`);
  }
  const text = bytes.toString('latin1');
  const anchors: TimestampTrustAnchors = text.includes('-----BEGIN') ? text : new Uint8Array(bytes);
  const { parseTrustAnchors } = await import('../verify/timestamp.js');
  try {
    parseTrustAnchors(anchors);
  } catch (error) {
    throw new CliUsageError(`--tsa-ca: ${file} is not a CA certificate file: ${(error as Error).message}`);
  }
  return anchors;
}

const isToken = (signature: string | null) => typeof signature === 'string' && !signature.includes('.');

/** Anchor by anchor: the receipts that verified, and the time-stamps left unchecked. */
function perAnchor(
  anchors: readonly AnchorWithReceipts[],
  verified: readonly VerifiedWitnessReceipt[],
  checked: boolean,
): AnchorWitnessing[] {
  return anchors.map((anchor) => {
    const witnesses = verified.filter((w) => w.anchor_id === anchor.id).map(({ anchor_id: _, ...w }) => w);
    const tokens = (anchor.receipts ?? []).filter((r) => r.status === 'witnessed' && isToken(r.witness_signature)).length;
    return {
      anchor_id: anchor.id,
      sequence_from: anchor.sequence_from ?? null,
      sequence_to: anchor.sequence_to ?? null,
      externally_witnessed: witnesses.some((w) => w.external),
      witnesses,
      unchecked_timestamps: checked ? 0 : tokens,
    };
  });
}

/** One line per anchor: by whom and when it was witnessed. */
function anchorLine(a: AnchorWitnessing): string {
  const range = `events ${a.sequence_from}-${a.sequence_to}`;
  const external = a.witnesses.filter((w) => w.external);
  const local = a.witnesses.filter((w) => !w.external);
  const unchecked = a.unchecked_timestamps ? `; ${a.unchecked_timestamps} RFC 3161 time-stamp(s) not checked (give --tsa-ca)` : '';
  if (external.length)
    return `  ${a.anchor_id} (${range}): witnessed externally by ${external.map((w) => `${w.witness_id} at ${w.witnessed_at}`).join(', ')}`;
  if (local.length)
    return `  ${a.anchor_id} (${range}): NOT witnessed externally; local witness ${local[0]!.witness_id} at ${local[0]!.witnessed_at}${unchecked}`;
  return `  ${a.anchor_id} (${range}): NOT witnessed (no verified receipt)${unchecked}`;
}

/** The summary and the per-anchor lines of a verdict that passed. */
function report(verdict: Extract<AuditChainVerification, { ok: true }>, anchors: AnchorWitnessing[]): string {
  const through = verdict.anchored_through === null ? 'nothing anchored yet' : `anchored through event ${verdict.anchored_through}`;
  return [
    `Audit trail verified: ${verdict.events} events, ${verdict.anchors} anchors (${through}), ${verdict.witnessed} witness receipts.`,
    ...(anchors.length ? [`${verdict.externally_witnessed} of ${verdict.anchors} anchors witnessed externally:`] : []),
    ...anchors.map(anchorLine),
  ].join('\n');
}

/** Runs `svc audit verify`: exit 1 when the trail does not verify. */
export async function auditVerify(svc: SvcClient, flags: AuditVerifyFlags): Promise<{ json: unknown; human: string; exitCode?: number }> {
  const timestampAuthorities = flags.tsaCa === undefined ? undefined : await readTimestampAuthorities(flags.tsaCa);
  const trail = await svc.audit.trail({ applicationId: flags.applicationId, timestampAuthorities });
  const verdict = await verifyAuditChain(trail.events, trail.anchors, trail.keys, {
    requireWitness: flags.requireWitness,
    requireExternalWitness: flags.requireExternalWitness,
  });
  if (!verdict.ok) return { json: verdict, human: `Audit trail does NOT verify: ${verdict.message} (${verdict.reason}).`, exitCode: 1 };
  const anchors = perAnchor(trail.anchors, verdict.witnesses, timestampAuthorities !== undefined);
  return { json: { ...verdict, anchor_witnessing: anchors }, human: report(verdict, anchors) };
}
