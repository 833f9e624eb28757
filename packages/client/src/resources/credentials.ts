import {
  credentialEnvelope,
  credentialList,
  presentationEnvelope,
  type CreateCredentialRequest,
  type Credential,
  type CredentialStatus,
  type PresentationVerification,
  type VerifyPresentationRequest,
} from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';

/** Query of the credential list. */
export type CredentialQuery = ListQuery & {
  /** Only credentials in this status (`active`, `revoked`, `expired`). */
  status?: CredentialStatus | undefined;
  /** Only the credentials of this consent transaction. */
  consent_transaction_id?: string | undefined;
};

const BASE = '/api/v1/credentials';
const path = (id: string, sub = '') => `${BASE}/${encodeURIComponent(id)}${sub}`;

/**
 * Issues a verifiable credential of a fulfilled consent decision (`POST /api/v1/credentials`, an API token holding
 * `write`), at the cell the consent is homed in: an SD-JWT VC (`credential.credential`) signed with that cell's key,
 * whose granted purposes (`purposes.<key>`), application, transaction, time and email are each selectively
 * disclosable. The holder presents it with `presentCredential` from `@svc/client/credentials`.
 */
export function createCredential(
  connection: SvcConnection<'bearer'>,
  request: CreateCredentialRequest,
  options?: WriteOptions,
): Promise<Credential> {
  return connection
    .request({ method: 'POST', path: BASE, body: request, schema: credentialEnvelope }, options)
    .then((body) => body.credential);
}

/** Reads a credential (`GET /api/v1/credentials/{id}`). */
export function getCredential(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<Credential> {
  return connection.request({ method: 'GET', path: path(id), schema: credentialEnvelope }, options).then((body) => body.credential);
}

/** Lists the account's credentials of the cell, oldest first (`GET /api/v1/credentials`). */
export function listCredentials(connection: SvcConnection<'bearer'>, query?: CredentialQuery, options?: CallOptions): SvcList<Credential> {
  return listEndpoint(connection, BASE, credentialList, 'credentials', query, options);
}

/**
 * Revokes a credential (`POST /api/v1/credentials/{id}/revoke`): its bit in the issuer's status list is set at once;
 * verifiers see it when their cached copy of the list expires (its `ttl`, 300 s).
 */
export function revokeCredential(connection: SvcConnection<'bearer'>, id: string, options?: WriteOptions): Promise<Credential> {
  return connection
    .request({ method: 'POST', path: path(id, '/revoke'), schema: credentialEnvelope }, options)
    .then((body) => body.credential);
}

/**
 * Verifies a presented credential (`POST /api/v1/presentations`, an API token holding `read`) in any cell, against
 * the issuing cell's published key: `{valid, revoked, disclosed_claims, undisclosed_count, issuer_country, …}`. A
 * presentation that cannot be trusted (bad signature, altered disclosure, unknown issuer, expired, key binding that
 * does not verify) is an `SvcValidationError` with the refusal's code.
 */
export function verifyPresentation(
  connection: SvcConnection<'bearer'>,
  request: VerifyPresentationRequest,
  options?: WriteOptions,
): Promise<PresentationVerification> {
  return connection
    .request({ method: 'POST', path: '/api/v1/presentations', body: request, schema: presentationEnvelope }, options)
    .then((body) => body.presentation);
}

/** `svc.credentials`. */
export interface CredentialsResource {
  /** Issues a credential; see {@link createCredential}. */
  create(request: CreateCredentialRequest, options?: WriteOptions): Promise<Credential>;
  /** Reads a credential; see {@link getCredential}. */
  get(id: string, options?: CallOptions): Promise<Credential>;
  /** Lists the credentials; see {@link listCredentials}. */
  list(query?: CredentialQuery, options?: CallOptions): SvcList<Credential>;
  /** Revokes a credential; see {@link revokeCredential}. */
  revoke(id: string, options?: WriteOptions): Promise<Credential>;
}

/** `svc.presentations`. */
export interface PresentationsResource {
  /** Verifies a presentation; see {@link verifyPresentation}. */
  verify(request: VerifyPresentationRequest, options?: WriteOptions): Promise<PresentationVerification>;
}

/** Binds the credential functions to a connection. */
export function credentialsResource(connection: SvcConnection<'bearer'>): CredentialsResource {
  return {
    create: (request, options) => createCredential(connection, request, options),
    get: (id, options) => getCredential(connection, id, options),
    list: (query, options) => listCredentials(connection, query, options),
    revoke: (id, options) => revokeCredential(connection, id, options),
  };
}

/** Binds the presentation functions to a connection. */
export function presentationsResource(connection: SvcConnection<'bearer'>): PresentationsResource {
  return { verify: (request, options) => verifyPresentation(connection, request, options) };
}
