import {
  agreementEnvelope,
  agreementList,
  quorumVoteCast,
  quorumVoteList,
  signedAgreementReceipt,
  type Agreement,
  type CastQuorumVoteRequest,
  type QuorumVoteCast,
  type AgreementStatus,
  type CreateAgreementRequest,
  type QuorumVote,
  type SignedAgreementReceipt,
} from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';

/** Query of the agreement list. */
export type AgreementQuery = ListQuery & {
  /** Only agreements in this status (`pending`, `partially_signed`, `active`). */
  status?: AgreementStatus | undefined;
};

const BASE = '/api/v1/agreements';
const path = (id: string, sub = '') => `${BASE}/${encodeURIComponent(id)}${sub}`;

/**
 * Creates an agreement (`POST /api/v1/agreements`, an API token holding `write`): the document to sign (its text and
 * SHA-256, which the server checks: 422 `digest_mismatch`), the parties by email with each one's home country, and
 * the quorum. Each party gets a signing session (`party_details[].session_token` and `url`, a decision of kind
 * `signature_request`) to hand out; the agreement moves `pending -> partially_signed -> active` as they sign.
 */
export function createAgreement(
  connection: SvcConnection<'bearer'>,
  request: CreateAgreementRequest,
  options?: WriteOptions,
): Promise<Agreement> {
  return connection
    .request({ method: 'POST', path: BASE, body: request, schema: agreementEnvelope }, options)
    .then((body) => body.agreement);
}

/** Lists the account's agreements, oldest first (`GET /api/v1/agreements`). */
export function listAgreements(connection: SvcConnection<'bearer'>, query?: AgreementQuery, options?: CallOptions): SvcList<Agreement> {
  return listEndpoint(connection, BASE, agreementList, 'agreements', query, options);
}

/** Reads an agreement (`GET /api/v1/agreements/{id}`). */
export function getAgreement(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<Agreement> {
  return connection.request({ method: 'GET', path: path(id), schema: agreementEnvelope }, options).then((body) => body.agreement);
}

/**
 * Reads an agreement's receipt, the set of its signatures (`GET /api/v1/agreements/{id}/receipt`):
 * `{agreement_receipt, signature}`, which `verifyAgreementReceipt` checks offline against the service's JWKS.
 */
export function getAgreementReceipt(
  connection: SvcConnection<'bearer'>,
  id: string,
  options?: CallOptions,
): Promise<SignedAgreementReceipt> {
  return connection.request({ method: 'GET', path: path(id, '/receipt'), schema: signedAgreementReceipt }, options);
}

/** Reads the parties' quorum votes, in the order they were cast (`GET /api/v1/agreements/{id}/quorum_votes`). */
export function listQuorumVotes(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<QuorumVote[]> {
  return connection
    .request({ method: 'GET', path: path(id, '/quorum_votes'), schema: quorumVoteList }, options)
    .then((body) => body.quorum_votes);
}

/**
 * Casts the calling party's quorum vote (`POST /api/v1/agreements/{id}/quorum_votes`, with the party's own access
 * token: the person whose email is a party's): `approve` signs the document, `deny` declines it, either ending the
 * party's signing session; answers the vote and the agreement after it. A party votes once (409 `party_decided`).
 */
export function castQuorumVote(
  connection: SvcConnection<'bearer'>,
  id: string,
  request: CastQuorumVoteRequest,
  options?: WriteOptions,
): Promise<QuorumVoteCast> {
  return connection.request({ method: 'POST', path: path(id, '/quorum_votes'), body: request, schema: quorumVoteCast }, options);
}

/** `svc.agreements`. */
export interface AgreementsResource {
  /** Creates an agreement; see {@link createAgreement}. */
  create(request: CreateAgreementRequest, options?: WriteOptions): Promise<Agreement>;
  /** Lists the agreements; see {@link listAgreements}. */
  list(query?: AgreementQuery, options?: CallOptions): SvcList<Agreement>;
  /** Reads an agreement; see {@link getAgreement}. */
  get(id: string, options?: CallOptions): Promise<Agreement>;
  /** Reads the signed receipt; see {@link getAgreementReceipt}. */
  receipt(id: string, options?: CallOptions): Promise<SignedAgreementReceipt>;
  /** Reads the quorum votes; see {@link listQuorumVotes}. */
  quorumVotes(id: string, options?: CallOptions): Promise<QuorumVote[]>;
  /** Casts the calling party's quorum vote; see {@link castQuorumVote}. */
  castQuorumVote(id: string, request: CastQuorumVoteRequest, options?: WriteOptions): Promise<QuorumVoteCast>;
}

/** Binds the agreement functions to a connection. */
export function agreementsResource(connection: SvcConnection<'bearer'>): AgreementsResource {
  return {
    create: (request, options) => createAgreement(connection, request, options),
    list: (query, options) => listAgreements(connection, query, options),
    get: (id, options) => getAgreement(connection, id, options),
    receipt: (id, options) => getAgreementReceipt(connection, id, options),
    quorumVotes: (id, options) => listQuorumVotes(connection, id, options),
    castQuorumVote: (id, request, options) => castQuorumVote(connection, id, request, options),
  };
}
