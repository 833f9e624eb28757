// Protect: policy templates, policies, data requests (DSAR), data licenses, data offers (the data deal) and
// portability transfers. An API token acts for the organisation; a person's access token (`accessToken`) acts for
// the person on what is theirs: their policies, their data requests and offers (which only they make), their
// transfers.
import {
  dataLicenseAccessEnvelope,
  dataLicenseAccessList,
  dataLicenseEnvelope,
  dataLicenseList,
  dataOfferEnvelope,
  dataOfferList,
  dataRequestEnvelope,
  dataRequestList,
  policyEnvelope,
  policyList,
  policyTemplateEnvelope,
  policyTemplateList,
  portabilityTransferEnvelope,
  portabilityTransferList,
  type CompleteDataRequestRequest,
  type ConfirmPortabilityTransferRequest,
  type CreateDataLicenseRequest,
  type CreateDataOfferRequest,
  type CreateDsarRequest,
  type CreatePolicyRequest,
  type CreatePortabilityTransferRequest,
  type DataLicense,
  type DataLicenseAccess,
  type DataLicenseStatus,
  type DataOffer,
  type DataOfferStatus,
  type DataOfferTermsRequest,
  type DataRequest,
  type DataRequestStatus,
  type DeclineDataOfferRequest,
  type DsarType,
  type ExtendDataRequestRequest,
  type MarkPortabilityTransferReadyRequest,
  type Policy,
  type PolicyOwnerType,
  type PolicyStatus,
  type PolicyTemplate,
  type PolicyTemplateId,
  type PortabilityTransfer,
  type PortabilityTransferStatus,
  type RecordDataLicenseAccessRequest,
  type RejectDataRequestRequest,
} from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';

type Bearer = SvcConnection<'bearer'>;
const at = (base: string, id: string, sub = '') => `${base}/${encodeURIComponent(id)}${sub}`;

// ---- policy templates ------------------------------------------------------------------------------------------

const TEMPLATES = '/api/v1/policy_templates';

/** Lists the built-in policy templates, each with the JSON Schema of its `config` (`GET /api/v1/policy_templates`). */
export function listPolicyTemplates(connection: Bearer, query?: ListQuery, options?: CallOptions): SvcList<PolicyTemplate> {
  return listEndpoint(connection, TEMPLATES, policyTemplateList, 'policy_templates', query, options);
}

/** Reads one policy template (`GET /api/v1/policy_templates/{id}`). */
export function getPolicyTemplate(connection: Bearer, id: PolicyTemplateId, options?: CallOptions): Promise<PolicyTemplate> {
  return connection
    .request({ method: 'GET', path: at(TEMPLATES, id), schema: policyTemplateEnvelope }, options)
    .then((b) => b.policy_template);
}

// ---- policies --------------------------------------------------------------------------------------------------

const POLICIES = '/api/v1/policies';

/** Query of the policy list. */
export type PolicyQuery = ListQuery & {
  template_id?: PolicyTemplateId | undefined;
  status?: PolicyStatus | undefined;
  /** `person` (a person's own policies) or `account` (the organisation's). */
  owner_type?: PolicyOwnerType | undefined;
};

/**
 * Makes a policy from a template (`POST /api/v1/policies`, CreatePolicyRequest): with a person's access token it is
 * their own policy, with an API token (`write`) the account's. A config that does not meet the template's schema is
 * an `SvcValidationError` (`invalid_config`, each path under `config.`).
 */
export function createPolicy(connection: Bearer, request: CreatePolicyRequest, options?: WriteOptions): Promise<Policy> {
  return connection.request({ method: 'POST', path: POLICIES, body: request, schema: policyEnvelope }, options).then((b) => b.policy);
}

/** Reads a policy (`GET /api/v1/policies/{id}`); a deal policy carries its acceptance. */
export function getPolicy(connection: Bearer, id: string, options?: CallOptions): Promise<Policy> {
  return connection.request({ method: 'GET', path: at(POLICIES, id), schema: policyEnvelope }, options).then((b) => b.policy);
}

/** Lists policies, oldest first: the account's (API token) or the person's own (`GET /api/v1/policies`). */
export function listPolicies(connection: Bearer, query?: PolicyQuery, options?: CallOptions): SvcList<Policy> {
  return listEndpoint(connection, POLICIES, policyList, 'policies', query, options);
}

/** Revokes a policy (`POST /api/v1/policies/{id}/revoke`; final). A person's policy is revoked with their own token. */
export function revokePolicy(connection: Bearer, id: string, options?: WriteOptions): Promise<Policy> {
  return connection.request({ method: 'POST', path: at(POLICIES, id, '/revoke'), schema: policyEnvelope }, options).then((b) => b.policy);
}

// ---- data requests (DSAR) --------------------------------------------------------------------------------------

const REQUESTS = '/api/v1/data_requests';

/** Query of the data request list. */
export type DataRequestQuery = ListQuery & {
  status?: DataRequestStatus | undefined;
  dsar_type?: DsarType | undefined;
  application_id?: string | undefined;
};

/**
 * Files a data request (`POST /api/v1/data_requests`, CreateDsarRequest) with a person's access token: received now,
 * due in 30 days. An API token cannot file one (403 `person_token_required`).
 */
export function createDataRequest(connection: Bearer, request: CreateDsarRequest, options?: WriteOptions): Promise<DataRequest> {
  return connection
    .request({ method: 'POST', path: REQUESTS, body: request, schema: dataRequestEnvelope }, options)
    .then((b) => b.data_request);
}

/** Reads a data request (`GET /api/v1/data_requests/{id}`): status, due date, `overdue`, and the export once an access request completes. */
export function getDataRequest(connection: Bearer, id: string, options?: CallOptions): Promise<DataRequest> {
  return connection.request({ method: 'GET', path: at(REQUESTS, id), schema: dataRequestEnvelope }, options).then((b) => b.data_request);
}

/** Lists data requests, oldest first: the account's (API token) or the person's own (`GET /api/v1/data_requests`). */
export function listDataRequests(connection: Bearer, query?: DataRequestQuery, options?: CallOptions): SvcList<DataRequest> {
  return listEndpoint(connection, REQUESTS, dataRequestList, 'data_requests', query, options);
}

/** Starts processing a data request (`POST …/{id}/start`, received -> in_progress; API token). */
export function startDataRequest(connection: Bearer, id: string, options?: WriteOptions): Promise<DataRequest> {
  return connection
    .request({ method: 'POST', path: at(REQUESTS, id, '/start'), schema: dataRequestEnvelope }, options)
    .then((b) => b.data_request);
}

/** Extends the due date once, before it passes, by at most 60 days (`POST …/{id}/extend`; API token). */
export function extendDataRequest(
  connection: Bearer,
  id: string,
  request: ExtendDataRequestRequest,
  options?: WriteOptions,
): Promise<DataRequest> {
  return connection
    .request({ method: 'POST', path: at(REQUESTS, id, '/extend'), body: request, schema: dataRequestEnvelope }, options)
    .then((b) => b.data_request);
}

/** Completes a data request in progress (`POST …/{id}/complete`; API token); an access request gets its export. */
export function completeDataRequest(
  connection: Bearer,
  id: string,
  request: CompleteDataRequestRequest = {},
  options?: WriteOptions,
): Promise<DataRequest> {
  return connection
    .request({ method: 'POST', path: at(REQUESTS, id, '/complete'), body: request, schema: dataRequestEnvelope }, options)
    .then((b) => b.data_request);
}

/** Rejects a data request with the reason (`POST …/{id}/reject`; API token). */
export function rejectDataRequest(
  connection: Bearer,
  id: string,
  request: RejectDataRequestRequest,
  options?: WriteOptions,
): Promise<DataRequest> {
  return connection
    .request({ method: 'POST', path: at(REQUESTS, id, '/reject'), body: request, schema: dataRequestEnvelope }, options)
    .then((b) => b.data_request);
}

// ---- data licenses ---------------------------------------------------------------------------------------------

const LICENSES = '/api/v1/data_licenses';

/** Query of the data license list. */
export type DataLicenseQuery = ListQuery & {
  status?: DataLicenseStatus | undefined;
  agreement_id?: string | undefined;
};

/** Issues a data license under an active agreement of the account (`POST /api/v1/data_licenses`, CreateDataLicenseRequest; API token). */
export function createDataLicense(connection: Bearer, request: CreateDataLicenseRequest, options?: WriteOptions): Promise<DataLicense> {
  return connection
    .request({ method: 'POST', path: LICENSES, body: request, schema: dataLicenseEnvelope }, options)
    .then((b) => b.data_license);
}

/** Reads a data license with its access count (`GET /api/v1/data_licenses/{id}`). */
export function getDataLicense(connection: Bearer, id: string, options?: CallOptions): Promise<DataLicense> {
  return connection.request({ method: 'GET', path: at(LICENSES, id), schema: dataLicenseEnvelope }, options).then((b) => b.data_license);
}

/** Lists the account's data licenses, oldest first (`GET /api/v1/data_licenses`). */
export function listDataLicenses(connection: Bearer, query?: DataLicenseQuery, options?: CallOptions): SvcList<DataLicense> {
  return listEndpoint(connection, LICENSES, dataLicenseList, 'data_licenses', query, options);
}

/**
 * Counts one access (`POST /api/v1/data_licenses/{id}/accesses`), atomically: once every allowed access is used the
 * call fails with an `SvcHttpError` of status 409, code `max_access_count_reached`.
 */
export function recordDataLicenseAccess(
  connection: Bearer,
  id: string,
  request: RecordDataLicenseAccessRequest = {},
  options?: WriteOptions,
): Promise<DataLicenseAccess> {
  return connection
    .request({ method: 'POST', path: at(LICENSES, id, '/accesses'), body: request, schema: dataLicenseAccessEnvelope }, options)
    .then((b) => b.data_license_access);
}

/** Lists a license's accesses in the order they were counted (`GET …/{id}/accesses`). */
export function listDataLicenseAccesses(
  connection: Bearer,
  id: string,
  query?: ListQuery,
  options?: CallOptions,
): SvcList<DataLicenseAccess> {
  return listEndpoint(connection, at(LICENSES, id, '/accesses'), dataLicenseAccessList, 'data_license_accesses', query, options);
}

/** Revokes a data license (`POST …/{id}/revoke`; final). */
export function revokeDataLicense(connection: Bearer, id: string, options?: WriteOptions): Promise<DataLicense> {
  return connection
    .request({ method: 'POST', path: at(LICENSES, id, '/revoke'), schema: dataLicenseEnvelope }, options)
    .then((b) => b.data_license);
}

// ---- data offers -----------------------------------------------------------------------------------------------

const OFFERS = '/api/v1/data_offers';

/** Query of the data offer list. */
export type DataOfferQuery = ListQuery & {
  status?: DataOfferStatus | undefined;
  policy_id?: string | undefined;
  application_id?: string | undefined;
};

/** Drafts a data offer: the person's terms for a deal policy of theirs (`POST /api/v1/data_offers`; the person's token). */
export function createDataOffer(connection: Bearer, request: CreateDataOfferRequest, options?: WriteOptions): Promise<DataOffer> {
  return connection.request({ method: 'POST', path: OFFERS, body: request, schema: dataOfferEnvelope }, options).then((b) => b.data_offer);
}

/** Reads a data offer: its status, whose turn it is, the terms on the table and every round (`GET /api/v1/data_offers/{id}`). */
export function getDataOffer(connection: Bearer, id: string, options?: CallOptions): Promise<DataOffer> {
  return connection.request({ method: 'GET', path: at(OFFERS, id), schema: dataOfferEnvelope }, options).then((b) => b.data_offer);
}

/** Lists data offers, oldest first: the account's (API token) or the person's own (`GET /api/v1/data_offers`). */
export function listDataOffers(connection: Bearer, query?: DataOfferQuery, options?: CallOptions): SvcList<DataOffer> {
  return listEndpoint(connection, OFFERS, dataOfferList, 'data_offers', query, options);
}

/** Sends the draft (`POST …/{id}/offer`, draft -> offered; the person's token). */
export function sendDataOffer(connection: Bearer, id: string, options?: WriteOptions): Promise<DataOffer> {
  return connection
    .request({ method: 'POST', path: at(OFFERS, id, '/offer'), schema: dataOfferEnvelope }, options)
    .then((b) => b.data_offer);
}

/** The organisation's counter-offer (`POST …/{id}/counter`, offered | user_revised -> countered; API token). */
export function counterDataOffer(
  connection: Bearer,
  id: string,
  request: DataOfferTermsRequest,
  options?: WriteOptions,
): Promise<DataOffer> {
  return connection
    .request({ method: 'POST', path: at(OFFERS, id, '/counter'), body: request, schema: dataOfferEnvelope }, options)
    .then((b) => b.data_offer);
}

/** The person's revision of a counter-offer (`POST …/{id}/revise`, countered -> user_revised; the person's token). */
export function reviseDataOffer(
  connection: Bearer,
  id: string,
  request: DataOfferTermsRequest,
  options?: WriteOptions,
): Promise<DataOffer> {
  return connection
    .request({ method: 'POST', path: at(OFFERS, id, '/revise'), body: request, schema: dataOfferEnvelope }, options)
    .then((b) => b.data_offer);
}

/** Accepts the other side's terms (`POST …/{id}/accept`); the acceptance is recorded on the policy. */
export function acceptDataOffer(connection: Bearer, id: string, options?: WriteOptions): Promise<DataOffer> {
  return connection
    .request({ method: 'POST', path: at(OFFERS, id, '/accept'), schema: dataOfferEnvelope }, options)
    .then((b) => b.data_offer);
}

/** Declines the other side's terms (`POST …/{id}/decline`; final). */
export function declineDataOffer(
  connection: Bearer,
  id: string,
  request: DeclineDataOfferRequest = {},
  options?: WriteOptions,
): Promise<DataOffer> {
  return connection
    .request({ method: 'POST', path: at(OFFERS, id, '/decline'), body: request, schema: dataOfferEnvelope }, options)
    .then((b) => b.data_offer);
}

// ---- portability transfers -------------------------------------------------------------------------------------

const TRANSFERS = '/api/v1/portability_transfers';

/** Query of the portability transfer list. */
export type PortabilityTransferQuery = ListQuery & {
  status?: PortabilityTransferStatus | undefined;
  policy_id?: string | undefined;
};

/** Opens a transfer under a person's portability policy (`POST /api/v1/portability_transfers`, CreatePortabilityTransferRequest). */
export function createPortabilityTransfer(
  connection: Bearer,
  request: CreatePortabilityTransferRequest,
  options?: WriteOptions,
): Promise<PortabilityTransfer> {
  return connection
    .request({ method: 'POST', path: TRANSFERS, body: request, schema: portabilityTransferEnvelope }, options)
    .then((b) => b.portability_transfer);
}

/** Reads a portability transfer (`GET /api/v1/portability_transfers/{id}`). */
export function getPortabilityTransfer(connection: Bearer, id: string, options?: CallOptions): Promise<PortabilityTransfer> {
  return connection
    .request({ method: 'GET', path: at(TRANSFERS, id), schema: portabilityTransferEnvelope }, options)
    .then((b) => b.portability_transfer);
}

/** Lists portability transfers, oldest first (`GET /api/v1/portability_transfers`). */
export function listPortabilityTransfers(
  connection: Bearer,
  query?: PortabilityTransferQuery,
  options?: CallOptions,
): SvcList<PortabilityTransfer> {
  return listEndpoint(connection, TRANSFERS, portabilityTransferList, 'portability_transfers', query, options);
}

/** The source marks the package ready and declares its SHA-256 (`POST …/{id}/ready`, pending -> ready; API token). */
export function markPortabilityTransferReady(
  connection: Bearer,
  id: string,
  request: MarkPortabilityTransferReadyRequest,
  options?: WriteOptions,
): Promise<PortabilityTransfer> {
  return connection
    .request({ method: 'POST', path: at(TRANSFERS, id, '/ready'), body: request, schema: portabilityTransferEnvelope }, options)
    .then((b) => b.portability_transfer);
}

/**
 * The destination confirms with the digest of what it received (`POST /api/v1/portability_transfers/confirm`,
 * ConfirmPortabilityTransferRequest; API token): another digest than the declared one is an `SvcValidationError`
 * with code `data_hash_mismatch`.
 */
export function confirmPortabilityTransfer(
  connection: Bearer,
  request: ConfirmPortabilityTransferRequest,
  options?: WriteOptions,
): Promise<PortabilityTransfer> {
  return connection
    .request({ method: 'POST', path: `${TRANSFERS}/confirm`, body: request, schema: portabilityTransferEnvelope }, options)
    .then((b) => b.portability_transfer);
}

/** Cancels a transfer while pending or ready (`POST …/{id}/cancel`). */
export function cancelPortabilityTransfer(connection: Bearer, id: string, options?: WriteOptions): Promise<PortabilityTransfer> {
  return connection
    .request({ method: 'POST', path: at(TRANSFERS, id, '/cancel'), schema: portabilityTransferEnvelope }, options)
    .then((b) => b.portability_transfer);
}

// ---- resource groups -------------------------------------------------------------------------------------------

/** `svc.policyTemplates`. */
export interface PolicyTemplatesResource {
  list(query?: ListQuery, options?: CallOptions): SvcList<PolicyTemplate>;
  get(id: PolicyTemplateId, options?: CallOptions): Promise<PolicyTemplate>;
}

/** `svc.policies`. */
export interface PoliciesResource {
  create(request: CreatePolicyRequest, options?: WriteOptions): Promise<Policy>;
  get(id: string, options?: CallOptions): Promise<Policy>;
  list(query?: PolicyQuery, options?: CallOptions): SvcList<Policy>;
  revoke(id: string, options?: WriteOptions): Promise<Policy>;
}

/** `svc.dataRequests`. */
export interface DataRequestsResource {
  create(request: CreateDsarRequest, options?: WriteOptions): Promise<DataRequest>;
  get(id: string, options?: CallOptions): Promise<DataRequest>;
  list(query?: DataRequestQuery, options?: CallOptions): SvcList<DataRequest>;
  start(id: string, options?: WriteOptions): Promise<DataRequest>;
  extend(id: string, request: ExtendDataRequestRequest, options?: WriteOptions): Promise<DataRequest>;
  complete(id: string, request?: CompleteDataRequestRequest, options?: WriteOptions): Promise<DataRequest>;
  reject(id: string, request: RejectDataRequestRequest, options?: WriteOptions): Promise<DataRequest>;
}

/** `svc.dataLicenses`. */
export interface DataLicensesResource {
  create(request: CreateDataLicenseRequest, options?: WriteOptions): Promise<DataLicense>;
  get(id: string, options?: CallOptions): Promise<DataLicense>;
  list(query?: DataLicenseQuery, options?: CallOptions): SvcList<DataLicense>;
  recordAccess(id: string, request?: RecordDataLicenseAccessRequest, options?: WriteOptions): Promise<DataLicenseAccess>;
  listAccesses(id: string, query?: ListQuery, options?: CallOptions): SvcList<DataLicenseAccess>;
  revoke(id: string, options?: WriteOptions): Promise<DataLicense>;
}

/** `svc.dataOffers`. */
export interface DataOffersResource {
  create(request: CreateDataOfferRequest, options?: WriteOptions): Promise<DataOffer>;
  get(id: string, options?: CallOptions): Promise<DataOffer>;
  list(query?: DataOfferQuery, options?: CallOptions): SvcList<DataOffer>;
  offer(id: string, options?: WriteOptions): Promise<DataOffer>;
  counter(id: string, request: DataOfferTermsRequest, options?: WriteOptions): Promise<DataOffer>;
  revise(id: string, request: DataOfferTermsRequest, options?: WriteOptions): Promise<DataOffer>;
  accept(id: string, options?: WriteOptions): Promise<DataOffer>;
  decline(id: string, request?: DeclineDataOfferRequest, options?: WriteOptions): Promise<DataOffer>;
}

/** `svc.portabilityTransfers`. */
export interface PortabilityTransfersResource {
  create(request: CreatePortabilityTransferRequest, options?: WriteOptions): Promise<PortabilityTransfer>;
  get(id: string, options?: CallOptions): Promise<PortabilityTransfer>;
  list(query?: PortabilityTransferQuery, options?: CallOptions): SvcList<PortabilityTransfer>;
  markReady(id: string, request: MarkPortabilityTransferReadyRequest, options?: WriteOptions): Promise<PortabilityTransfer>;
  confirm(request: ConfirmPortabilityTransferRequest, options?: WriteOptions): Promise<PortabilityTransfer>;
  cancel(id: string, options?: WriteOptions): Promise<PortabilityTransfer>;
}

/** Every Protect resource group of `createClient`. */
export interface ProtectResources {
  policyTemplates: PolicyTemplatesResource;
  policies: PoliciesResource;
  dataRequests: DataRequestsResource;
  dataLicenses: DataLicensesResource;
  dataOffers: DataOffersResource;
  portabilityTransfers: PortabilityTransfersResource;
}

/** Binds the Protect functions to a connection. */
export function protectResources(c: Bearer): ProtectResources {
  return {
    policyTemplates: { list: (q, o) => listPolicyTemplates(c, q, o), get: (id, o) => getPolicyTemplate(c, id, o) },
    policies: {
      create: (r, o) => createPolicy(c, r, o),
      get: (id, o) => getPolicy(c, id, o),
      list: (q, o) => listPolicies(c, q, o),
      revoke: (id, o) => revokePolicy(c, id, o),
    },
    dataRequests: {
      create: (r, o) => createDataRequest(c, r, o),
      get: (id, o) => getDataRequest(c, id, o),
      list: (q, o) => listDataRequests(c, q, o),
      start: (id, o) => startDataRequest(c, id, o),
      extend: (id, r, o) => extendDataRequest(c, id, r, o),
      complete: (id, r, o) => completeDataRequest(c, id, r, o),
      reject: (id, r, o) => rejectDataRequest(c, id, r, o),
    },
    dataLicenses: {
      create: (r, o) => createDataLicense(c, r, o),
      get: (id, o) => getDataLicense(c, id, o),
      list: (q, o) => listDataLicenses(c, q, o),
      recordAccess: (id, r, o) => recordDataLicenseAccess(c, id, r, o),
      listAccesses: (id, q, o) => listDataLicenseAccesses(c, id, q, o),
      revoke: (id, o) => revokeDataLicense(c, id, o),
    },
    dataOffers: {
      create: (r, o) => createDataOffer(c, r, o),
      get: (id, o) => getDataOffer(c, id, o),
      list: (q, o) => listDataOffers(c, q, o),
      offer: (id, o) => sendDataOffer(c, id, o),
      counter: (id, r, o) => counterDataOffer(c, id, r, o),
      revise: (id, r, o) => reviseDataOffer(c, id, r, o),
      accept: (id, o) => acceptDataOffer(c, id, o),
      decline: (id, r, o) => declineDataOffer(c, id, r, o),
    },
    portabilityTransfers: {
      create: (r, o) => createPortabilityTransfer(c, r, o),
      get: (id, o) => getPortabilityTransfer(c, id, o),
      list: (q, o) => listPortabilityTransfers(c, q, o),
      markReady: (id, r, o) => markPortabilityTransferReady(c, id, r, o),
      confirm: (r, o) => confirmPortabilityTransfer(c, r, o),
      cancel: (id, o) => cancelPortabilityTransfer(c, id, o),
    },
  };
}
