import {
  evidencePackage,
  residencyPostureEnvelope,
  transferRegisterList,
  type EvidencePackage,
  type ResidencyPosture,
  type TransferEntry,
  type TransferRegisterEvidenceRequest,
} from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';

/** Query of the transfer register. */
export type TransferRegisterListQuery = ListQuery & {
  /** Only this application's transfers. */
  application_id?: string | undefined;
};

const REGISTER = '/api/v1/transfer_register';
const POSTURE = '/api/v1/residency_posture';

/**
 * Lists the account's cross-border transfers, oldest first (`GET /api/v1/transfer_register`, an API token holding
 * `read`): each with its data category, route, lawful basis and adequacy verdict. No personal data.
 */
export function listTransferRegister(
  connection: SvcConnection<'bearer'>,
  query?: TransferRegisterListQuery,
  options?: CallOptions,
): SvcList<TransferEntry> {
  return listEndpoint(connection, REGISTER, transferRegisterList, 'transfers', query, options);
}

/**
 * Draws a signed evidence package of the transfer register (`POST /api/v1/transfer_register/evidence_package`):
 * route totals, the entries and the audit chain heads it was drawn against, signed with the cell's key. Check it
 * offline with `verifyEvidencePackage`.
 */
export function getTransferRegisterEvidence(
  connection: SvcConnection<'bearer'>,
  request: TransferRegisterEvidenceRequest = {},
  options?: WriteOptions,
): Promise<EvidencePackage> {
  return connection.request({ method: 'POST', path: `${REGISTER}/evidence_package`, body: request, schema: evidencePackage }, options);
}

/**
 * Reads where the account's subjects' data is stored, per country, as counts, with an assurance status per country
 * (`GET /api/v1/residency_posture`, `read`): `verified` when every personal row a country stores is homed there.
 */
export function getResidencyPosture(connection: SvcConnection<'bearer'>, options?: CallOptions): Promise<ResidencyPosture> {
  return connection
    .request({ method: 'GET', path: POSTURE, schema: residencyPostureEnvelope }, options)
    .then((body) => body.residency_posture);
}

/** Draws a signed proof of residency (`POST /api/v1/residency_posture/evidence_package`): the posture and each country's audit chain heads. */
export function getResidencyPostureEvidence(connection: SvcConnection<'bearer'>, options?: WriteOptions): Promise<EvidencePackage> {
  return connection.request({ method: 'POST', path: `${POSTURE}/evidence_package`, body: {}, schema: evidencePackage }, options);
}

/** `svc.transferRegister`. */
export interface TransferRegisterResource {
  /** Lists the register; see {@link listTransferRegister}. */
  list(query?: TransferRegisterListQuery, options?: CallOptions): SvcList<TransferEntry>;
  /** Draws its signed evidence package; see {@link getTransferRegisterEvidence}. */
  evidencePackage(request?: TransferRegisterEvidenceRequest, options?: WriteOptions): Promise<EvidencePackage>;
}

/** `svc.residencyPosture`. */
export interface ResidencyPostureResource {
  /** Reads the posture; see {@link getResidencyPosture}. */
  get(options?: CallOptions): Promise<ResidencyPosture>;
  /** Draws its signed evidence package; see {@link getResidencyPostureEvidence}. */
  evidencePackage(options?: WriteOptions): Promise<EvidencePackage>;
}

/** Binds the transfer register functions to a connection. */
export function transferRegisterResource(connection: SvcConnection<'bearer'>): TransferRegisterResource {
  return {
    list: (query, options) => listTransferRegister(connection, query, options),
    evidencePackage: (request, options) => getTransferRegisterEvidence(connection, request, options),
  };
}

/** Binds the residency posture functions to a connection. */
export function residencyPostureResource(connection: SvcConnection<'bearer'>): ResidencyPostureResource {
  return {
    get: (options) => getResidencyPosture(connection, options),
    evidencePackage: (options) => getResidencyPostureEvidence(connection, options),
  };
}
