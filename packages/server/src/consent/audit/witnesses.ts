// Which witnesses a server's anchors go to: the RFC 3161 authorities the operator configured
// (`SVC_WITNESS_TSA_URL`, comma-separated), each anchor to every one of them; without any, the local witness.
import type { ServerContext } from '../../infra/context.js';
import { parseTsaUrls, publicTsaUrl, timestampAuthorityWitness } from './tsa.js';
import { LOCAL_WITNESS_ID, localWitness, type Witness } from './witness.js';

/** The witness option of `startServer`: the time-stamping authorities' URLs (credentials allowed, never published). */
export interface WitnessOptions {
  tsaUrls?: readonly string[];
}

/** The witness option from the environment: `SVC_WITNESS_TSA_URL`, comma-separated. */
export function witnessOptionsFromEnv(env: NodeJS.ProcessEnv): WitnessOptions {
  return { tsaUrls: (env.SVC_WITNESS_TSA_URL ?? '').split(',') };
}

/** Checks the options (http and https URLs only) and gives the authorities' URLs; throws a clear error otherwise. */
export function witnessSettingsOf(options: WitnessOptions): URL[] {
  return parseTsaUrls(options.tsaUrls ?? []);
}

/** One line for the startup banner: the authorities, or that the witness is local. */
export function witnessLine(tsaUrls: readonly URL[]): string {
  if (tsaUrls.length === 0) return 'local witness (development only; set SVC_WITNESS_TSA_URL)';
  return `RFC 3161 ${tsaUrls.map(publicTsaUrl).join(', ')} (SVC_WITNESS_TSA_URL)`;
}

const configured = new WeakMap<ServerContext, Witness[]>();

/** Sends this cell's anchors to these authorities (none: the local witness). */
export function configureWitnesses(ctx: ServerContext, tsaUrls: readonly URL[]): void {
  if (tsaUrls.length > 0) configured.set(ctx, tsaUrls.map(timestampAuthorityWitness));
  else configured.delete(ctx);
}

/** The witnesses each of this cell's anchors goes to. */
export async function witnessesOf(ctx: ServerContext): Promise<Witness[]> {
  return configured.get(ctx) ?? [await localWitness(ctx)];
}

/** The ids of the witnesses of this cell, without making the local witness's key. */
export function witnessIdsOf(ctx: ServerContext): string[] {
  return configured.get(ctx)?.map((w) => w.id) ?? [LOCAL_WITNESS_ID];
}
