import type { JSONWebKeySet } from 'jose';
import {
  anchorReceipts,
  auditAnchorEnvelope,
  auditAnchorList,
  auditEventList,
  localWitnessKeys,
  witnessConfiguration,
  type AnchorReceipt,
  type AuditAnchor,
  type AuditEvent,
  type WitnessConfiguration,
} from '@svc/schemas';
import type { CallOptions, SvcConnection } from '../lib/connection.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';
import type { AnchorWithReceipts, AuditChainKeys, AuditChainVerification, VerifyAuditChainOptions } from '../verify/audit-chain.js';
import type { TimestampTrustAnchors } from '../verify/timestamp.js';
import { getJwks } from './receipts.js';

/** Query of the audit lists: the application (default: the account's first) and a page of up to 1,000 items. */
export type AuditListQuery = ListQuery & {
  /** The application whose trail to read; default the account's first application. */
  application_id?: string | undefined;
};

/** Options of {@link fetchAuditTrail} and {@link verifyAuditTrail}; `signal`, `timeoutMs` and `maxRetries` apply to each request. */
export interface AuditTrailOptions extends CallOptions {
  /** The application whose trail to read; default the account's first application. */
  applicationId?: string | undefined;
  /**
   * Keys to check the signatures with, such as a copy pinned earlier or the witness's keys obtained from the witness
   * itself. Default: the service's `/.well-known/jwks.json` and the `jwks` of its `/.well-known/witness-configuration`.
   */
  keys?: AuditChainKeys | undefined;
  /**
   * CA certificates of the RFC 3161 authorities the operator names in `/.well-known/witness-configuration` (PEM text
   * or DER), obtained from the authorities themselves: with them each time-stamp receipt is checked offline. They
   * join `keys` (and the trail's keys).
   */
  timestampAuthorities?: TimestampTrustAnchors | undefined;
}

/** Everything `verifyAuditChain` needs, as {@link fetchAuditTrail} collects it: keep it to re-verify later, offline. */
export interface AuditTrail {
  /** Every event of the application, in sequence order. */
  events: AuditEvent[];
  /** Every anchor, oldest first, each with its witness receipts. */
  anchors: AnchorWithReceipts[];
  /** The issuer's and the witness's keys. */
  keys: AuditChainKeys;
}

const PAGE = 1000;
const RECEIPT_REQUESTS_IN_FLIGHT = 8;
const anchorPath = (id: string, action = '') => `/api/v1/audit/anchors/${encodeURIComponent(id)}${action}`;

/** Lists an application's hash-chained audit events, oldest first (`GET /api/v1/audit/events`). */
export function listAuditEvents(connection: SvcConnection<'bearer'>, query?: AuditListQuery, options?: CallOptions): SvcList<AuditEvent> {
  return listEndpoint(connection, '/api/v1/audit/events', auditEventList, 'audit_events', query, options);
}

/** Lists an application's audit anchors (signed Merkle roots over its events), oldest first (`GET /api/v1/audit/anchors`). */
export function listAuditAnchors(connection: SvcConnection<'bearer'>, query?: AuditListQuery, options?: CallOptions): SvcList<AuditAnchor> {
  return listEndpoint(connection, '/api/v1/audit/anchors', auditAnchorList, 'anchors', query, options);
}

/** Reads one audit anchor (`GET /api/v1/audit/anchors/{id}`). */
export function getAuditAnchor(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<AuditAnchor> {
  return connection.request({ method: 'GET', path: anchorPath(id), schema: auditAnchorEnvelope }, options).then((body) => body.anchor);
}

/** Reads the witness receipts (countersignatures, or `failed` answers) of an anchor (`GET /api/v1/audit/anchors/{id}/receipts`). */
export function getAuditAnchorReceipts(
  connection: SvcConnection<'bearer'>,
  anchorId: string,
  options?: CallOptions,
): Promise<AnchorReceipt[]> {
  return connection
    .request({ method: 'GET', path: anchorPath(anchorId, '/receipts'), schema: anchorReceipts }, options)
    .then((body) => body.receipts);
}

/** Reads the witness's description and keys (`GET /.well-known/witness-configuration`). Public: any connection may read it. */
export function getWitnessConfiguration(connection: SvcConnection, options?: CallOptions): Promise<WitnessConfiguration> {
  return connection.request({ method: 'GET', path: '/.well-known/witness-configuration', schema: witnessConfiguration }, options);
}

async function all<T>(list: SvcList<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of list) items.push(item);
  return items;
}

/** Maps with at most `limit` calls in flight, keeping the order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, map: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      out[index] = await map(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Collects an application's whole audit trail: every anchor with its witness receipts, then every event (read after
 * the anchors, so every anchored event is among them), and the keys. Hand the result to `verifyAuditChain`, or
 * store it as evidence to verify again later without the service.
 */
export async function fetchAuditTrail(connection: SvcConnection<'bearer'>, options: AuditTrailOptions = {}): Promise<AuditTrail> {
  const { applicationId, keys: given, timestampAuthorities, ...callOptions } = options;
  const query = { application_id: applicationId, limit: PAGE };
  const keys = (
    given
      ? Promise.resolve(given)
      : Promise.all([getJwks(connection, callOptions), getWitnessConfiguration(connection, callOptions)]).then(
          ([issuer, witness]): AuditChainKeys => ({ issuer, witness: localWitnessKeys(witness) as JSONWebKeySet }),
        )
  ).then((k): AuditChainKeys => (timestampAuthorities === undefined ? k : { ...k, timestampAuthorities }));
  const anchors = await mapLimited(
    await all(listAuditAnchors(connection, query, callOptions)),
    RECEIPT_REQUESTS_IN_FLIGHT,
    async (anchor) => ({
      ...anchor,
      receipts: await getAuditAnchorReceipts(connection, anchor.id, callOptions),
    }),
  );
  const events = await all(listAuditEvents(connection, query, callOptions));
  return { events, anchors, keys: await keys };
}

/**
 * Fetches an application's audit trail ({@link fetchAuditTrail}) and verifies it with `verifyAuditChain`: every
 * event's hash and link, every anchor's Merkle root, signature and link, the witness countersignatures and, with
 * `timestampAuthorities`, the RFC 3161 time-stamps. Resolves to the verdict, which names the first event that does
 * not fit and lists which anchors are witnessed externally; it rejects only when the trail cannot be fetched.
 *
 * @example
 * const verdict = await svc.audit.verify({ applicationId: 'tp_dev_...', requireWitness: true });
 * const external = await svc.audit.verify({ timestampAuthorities: caPem, requireExternalWitness: true });
 * if (!verdict.ok) alert(`audit event ${verdict.sequence}: ${verdict.reason}`);
 */
export async function verifyAuditTrail(
  connection: SvcConnection<'bearer'>,
  options: AuditTrailOptions & VerifyAuditChainOptions = {},
): Promise<AuditChainVerification> {
  const { requireWitness, requireExternalWitness, ...fetchOptions } = options;
  const trail = await fetchAuditTrail(connection, fetchOptions);
  // Loaded on first use, so a browser bundle of createClient carries the verifier (and jose) only when it verifies.
  const { verifyAuditChain } = await import('../verify/audit-chain.js');
  return verifyAuditChain(trail.events, trail.anchors, trail.keys, { requireWitness, requireExternalWitness });
}

/** The tamper-evident audit trail of each application. */
export interface AuditResource {
  /** Lists audit events; see {@link listAuditEvents}. */
  events(query?: AuditListQuery, options?: CallOptions): SvcList<AuditEvent>;
  /** Lists anchors; see {@link listAuditAnchors}. */
  anchors(query?: AuditListQuery, options?: CallOptions): SvcList<AuditAnchor>;
  /** Reads one anchor; see {@link getAuditAnchor}. */
  getAnchor(id: string, options?: CallOptions): Promise<AuditAnchor>;
  /** Reads an anchor's witness receipts; see {@link getAuditAnchorReceipts}. */
  anchorReceipts(anchorId: string, options?: CallOptions): Promise<AnchorReceipt[]>;
  /** Reads the witness's description and keys; see {@link getWitnessConfiguration}. */
  witnessConfiguration(options?: CallOptions): Promise<WitnessConfiguration>;
  /** Collects events, anchors, receipts and keys for offline verification; see {@link fetchAuditTrail}. */
  trail(options?: AuditTrailOptions): Promise<AuditTrail>;
  /** Fetches the trail and verifies it; see {@link verifyAuditTrail}. */
  verify(options?: AuditTrailOptions & VerifyAuditChainOptions): Promise<AuditChainVerification>;
}

/** Binds the audit functions to a connection. */
export function auditResource(connection: SvcConnection<'bearer'>): AuditResource {
  return {
    events: (query, options) => listAuditEvents(connection, query, options),
    anchors: (query, options) => listAuditAnchors(connection, query, options),
    getAnchor: (id, options) => getAuditAnchor(connection, id, options),
    anchorReceipts: (anchorId, options) => getAuditAnchorReceipts(connection, anchorId, options),
    witnessConfiguration: (options) => getWitnessConfiguration(connection, options),
    trail: (options) => fetchAuditTrail(connection, options),
    verify: (options) => verifyAuditTrail(connection, options),
  };
}
