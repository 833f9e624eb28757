import {
  multiPartyAgreementEnvelope,
  multiPartyAgreementList,
  type CreateMultiPartyAgreementRequest,
  type MultiPartyAgreement,
} from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import { listEndpoint, type SvcList } from '../lib/pagination.js';
import type { AgreementQuery } from './agreements.js';

const BASE = '/api/v1/multi_party_agreements';

/**
 * Creates a multi-party agreement (`POST /api/v1/multi_party_agreements`, an API token holding `write`): an agreement
 * whose quorum is at least two, with each party's signing session; the same resource as `/api/v1/agreements/{id}`.
 */
export function createMultiPartyAgreement(
  connection: SvcConnection<'bearer'>,
  request: CreateMultiPartyAgreementRequest,
  options?: WriteOptions,
): Promise<MultiPartyAgreement> {
  return connection
    .request({ method: 'POST', path: BASE, body: request, schema: multiPartyAgreementEnvelope }, options)
    .then((body) => body.multi_party_agreement);
}

/** Reads a multi-party agreement with its signed_count and quorum votes (`GET /api/v1/multi_party_agreements/{id}`). */
export function getMultiPartyAgreement(
  connection: SvcConnection<'bearer'>,
  id: string,
  options?: CallOptions,
): Promise<MultiPartyAgreement> {
  return connection
    .request({ method: 'GET', path: `${BASE}/${encodeURIComponent(id)}`, schema: multiPartyAgreementEnvelope }, options)
    .then((body) => body.multi_party_agreement);
}

/** Lists the account's multi-party agreements (quorum two or more), oldest first (`GET /api/v1/multi_party_agreements`). */
export function listMultiPartyAgreements(
  connection: SvcConnection<'bearer'>,
  query?: AgreementQuery,
  options?: CallOptions,
): SvcList<MultiPartyAgreement> {
  return listEndpoint(connection, BASE, multiPartyAgreementList, 'multi_party_agreements', query, options);
}

/** `svc.multiPartyAgreements`. */
export interface MultiPartyAgreementsResource {
  /** Creates one; see {@link createMultiPartyAgreement}. */
  create(request: CreateMultiPartyAgreementRequest, options?: WriteOptions): Promise<MultiPartyAgreement>;
  /** Reads one; see {@link getMultiPartyAgreement}. */
  get(id: string, options?: CallOptions): Promise<MultiPartyAgreement>;
  /** Lists them; see {@link listMultiPartyAgreements}. */
  list(query?: AgreementQuery, options?: CallOptions): SvcList<MultiPartyAgreement>;
}

/** Binds the multi-party agreement functions to a connection. */
export function multiPartyAgreementsResource(connection: SvcConnection<'bearer'>): MultiPartyAgreementsResource {
  return {
    create: (request, options) => createMultiPartyAgreement(connection, request, options),
    get: (id, options) => getMultiPartyAgreement(connection, id, options),
    list: (query, options) => listMultiPartyAgreements(connection, query, options),
  };
}
