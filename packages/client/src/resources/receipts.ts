import type { JSONWebKeySet } from 'jose';
import { z } from 'zod/mini';
import { consentReceiptEnvelope, signedReceipt, type ReceiptFlavor, type ReceiptRecord, type SignedReceipt } from '@svc/schemas';
import type { CallOptions, Schema, SvcConnection } from '../lib/connection.js';

// The server keeps these two shapes beside its routes; they live here until they move into the shared schemas.

/** The service's public signing keys (`/.well-known/jwks.json`): every key it ever signed with, newest first. */
const jwksSchema = z.object({
  keys: z.array(z.looseObject({ kty: z.string(), kid: z.optional(z.string()) })),
}) as unknown as Schema<JSONWebKeySet>;

/** The dpv flavor: JSON-LD in W3C Data Privacy Vocabulary terms, its context embedded (no network needed to read it). */
const dpvReceipt = z.looseObject({
  '@context': z.unknown(),
  '@id': z.string(),
  '@type': z.string(),
  'dct:identifier': z.string(),
  'dpv:hasPurpose': z.array(z.looseObject({ '@id': z.string(), '@type': z.string() })),
});

/** A receipt as JSON-LD with terms of the W3C Data Privacy Vocabulary (`?flavor=dpv`); the context is embedded. */
export type DpvReceipt = z.infer<typeof dpvReceipt>;

const path = (recordId: string) => `/api/v1/consent_receipts/${encodeURIComponent(recordId)}`;
const flavored = (flavor: Exclude<ReceiptFlavor, 'canonical'>) => ({ flavor });

/**
 * Reads a record's receipt in the canonical flavor (`GET /api/v1/consent_receipts/{id}`): the `svc-cr/2.13` record
 * (ISO/IEC TS 27560:2023), its events being the frozen prefix plus those appended since (withdrawal, expiry).
 * The receipt id is the record id.
 */
export function getReceipt(connection: SvcConnection<'bearer'>, recordId: string, options?: CallOptions): Promise<ReceiptRecord> {
  return connection
    .request({ method: 'GET', path: path(recordId), schema: consentReceiptEnvelope }, options)
    .then((body) => body.consent_receipt);
}

/**
 * Reads a record's receipt in the signed flavor (`?flavor=signed`): `{receipt, signature}`, a detached JWS over the
 * RFC 8785 bytes of `receipt`. Keep it as evidence; `verifyReceipt(signed, jwks)` checks it offline, with the keys
 * of {@link getJwks} (fetched once and kept) or any other copy of the service's JWKS.
 */
export function getSignedReceipt(connection: SvcConnection<'bearer'>, recordId: string, options?: CallOptions): Promise<SignedReceipt> {
  return connection.request({ method: 'GET', path: path(recordId), query: flavored('signed'), schema: signedReceipt }, options);
}

/**
 * Reads a record's receipt as JSON-LD in W3C Data Privacy Vocabulary terms (`?flavor=dpv`, `application/ld+json`).
 * Refused (`SvcValidationError`, reason `dpv_not_applicable`) for an authorization record without personal-data
 * processing.
 */
export function getDpvReceipt(connection: SvcConnection<'bearer'>, recordId: string, options?: CallOptions): Promise<DpvReceipt> {
  return connection.request({ method: 'GET', path: path(recordId), query: flavored('dpv'), schema: dpvReceipt }, options);
}

/**
 * Fetches the service's public signing keys (`GET /.well-known/jwks.json`), which verify signed receipts
 * (`verifyReceipt`) and audit anchors (`verifyAuditChain`). Public: any connection may read them.
 */
export function getJwks(connection: SvcConnection, options?: CallOptions): Promise<JSONWebKeySet> {
  return connection.request({ method: 'GET', path: '/.well-known/jwks.json', schema: jwksSchema }, options);
}

/** Consent receipts in their three flavors, and the keys that verify them. */
export interface ReceiptsResource {
  /** Reads the canonical receipt; see {@link getReceipt}. */
  get(recordId: string, options?: CallOptions): Promise<ReceiptRecord>;
  /** Reads the signed receipt, for `verifyReceipt`; see {@link getSignedReceipt}. */
  getSigned(recordId: string, options?: CallOptions): Promise<SignedReceipt>;
  /** Reads the JSON-LD (DPV) receipt; see {@link getDpvReceipt}. */
  getDpv(recordId: string, options?: CallOptions): Promise<DpvReceipt>;
  /** Fetches the service's JWKS; see {@link getJwks}. */
  jwks(options?: CallOptions): Promise<JSONWebKeySet>;
}

/** Binds the receipt functions to a connection. */
export function receiptsResource(connection: SvcConnection<'bearer'>): ReceiptsResource {
  return {
    get: (recordId, options) => getReceipt(connection, recordId, options),
    getSigned: (recordId, options) => getSignedReceipt(connection, recordId, options),
    getDpv: (recordId, options) => getDpvReceipt(connection, recordId, options),
    jwks: (options) => getJwks(connection, options),
  };
}
