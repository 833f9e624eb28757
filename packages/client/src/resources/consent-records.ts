import {
  consentImportEnvelope,
  consentRecordEnvelope,
  consentRecordList,
  type ConsentImport,
  type ConsentRecord,
  type ConsentRecordStatus,
  type CreateConsentRecordRequest,
  type CreateImportRequest,
  type WithdrawConsentRecordRequest,
} from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import { SvcConfigurationError } from '../lib/errors.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';

const path = (id: string, action = '') => `/api/v1/consent_records/${encodeURIComponent(id)}${action}`;
const importsPath = '/api/v1/consent_records/imports';

/**
 * Records decisions made in the organisation's own systems (`POST /api/v1/consent_records`, channel
 * `controller_attested`): the person by email (`external_id` stays on the record), a decision per purpose, and
 * how each control was shown. A consent purpose attested as default-ticked or mandatory, an unknown purpose key, or
 * personal data in `client_facts` is refused (`SvcValidationError`).
 *
 * The Record API's idempotency is the body's `idempotency_key`: a repeat returns the same record. The option
 * `idempotencyKey` is sent as that field (and makes the client retry a lost POST, which is then safe); pass one
 * or the other, or the same value in both.
 */
export async function createConsentRecord(
  connection: SvcConnection<'bearer'>,
  request: CreateConsentRecordRequest,
  options: WriteOptions = {},
): Promise<ConsentRecord> {
  const key = request.idempotency_key ?? options.idempotencyKey;
  if (options.idempotencyKey !== undefined && request.idempotency_key !== undefined && options.idempotencyKey !== request.idempotency_key) {
    throw new SvcConfigurationError(
      'createConsentRecord got two different idempotency keys (request.idempotency_key and options.idempotencyKey); pass one.',
    );
  }
  const body: CreateConsentRecordRequest = key === undefined ? request : { ...request, idempotency_key: key };
  const { consent_record } = await connection.request(
    { method: 'POST', path: '/api/v1/consent_records', body, schema: consentRecordEnvelope },
    { ...options, idempotencyKey: key },
  );
  return consent_record;
}

/** Reads a consent record with its current status and purpose outcomes (`GET /api/v1/consent_records/{id}`). */
export function getConsentRecord(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<ConsentRecord> {
  return connection.request({ method: 'GET', path: path(id), schema: consentRecordEnvelope }, options).then((body) => body.consent_record);
}

/** Query of the record list; every filter given must hold. */
export type ConsentRecordQuery = ListQuery & {
  /** Only the records of this flow. */
  flow_id?: string | undefined;
  /** Only records with this status now (`fulfilled`, `revoked`, `expired`). */
  status?: ConsentRecordStatus | undefined;
  /** Only records that name this purpose key, whatever its outcome. */
  purpose?: string | undefined;
  /** Only the records of this person: by email (any case) and/or the organisation's `external_id`. */
  subject?: { email?: string | undefined; external_id?: string | undefined } | undefined;
  /** Only records captured at or after this instant (RFC 3339 with an offset, e.g. `2026-01-01T00:00:00Z`). */
  captured_since?: string | undefined;
};

/**
 * Lists the account's consent records, most recently recorded first (`GET /api/v1/consent_records`). Only the
 * records homed in the cell the client talks to: a record homed in another country is listed by that country's cell.
 * `for await` walks every record across pages; `.page()` fetches one page (`limit` 1-100, default 20).
 */
export function listConsentRecords(
  connection: SvcConnection<'bearer'>,
  query: ConsentRecordQuery = {},
  options?: CallOptions,
): SvcList<ConsentRecord> {
  const { subject, ...rest } = query;
  const wire = { ...rest, 'subject[email]': subject?.email, 'subject[external_id]': subject?.external_id };
  return listEndpoint(connection, '/api/v1/consent_records', consentRecordList, 'consent_records', wire, options);
}

/**
 * Withdraws some purposes of a record, or (without `purposes`) every withdrawable one
 * (`POST /api/v1/consent_records/{id}/withdraw`): a consent becomes `revoked`, a legitimate interest `objected`.
 * `event_channel` says where the withdrawal was made (default `organisation`). Queues `consent.revoked` and
 * `consent.purpose_revoked`; the receipt gains the withdrawal events, its frozen part never changes.
 */
export function withdrawConsentRecord(
  connection: SvcConnection<'bearer'>,
  id: string,
  request: WithdrawConsentRecordRequest = {},
  options?: WriteOptions,
): Promise<ConsentRecord> {
  return connection
    .request(
      { method: 'POST', path: path(id, '/withdraw'), body: request satisfies WithdrawConsentRecordRequest, schema: consentRecordEnvelope },
      options,
    )
    .then((body) => body.consent_record);
}

/**
 * Imports up to 5,000 decisions captured elsewhere (`POST /api/v1/consent_records/imports`, channel `imported`):
 * each row is accepted or refused by name while the others proceed, and the import commits atomically. `dry_run`
 * reports and writes nothing; `send_receipts` is off by default.
 *
 * Re-running an import is safe for rows that carry an `idempotency_key` (they find their earlier record). With
 * the option `idempotencyKey`, every row without a key gets `<idempotencyKey>:<row index>`, so the whole import
 * can be re-sent (and a lost POST is retried) without creating a record twice.
 */
export function createConsentImport(
  connection: SvcConnection<'bearer'>,
  request: CreateImportRequest,
  options: WriteOptions = {},
): Promise<ConsentImport> {
  const key = options.idempotencyKey;
  const body: CreateImportRequest =
    key === undefined
      ? request
      : {
          ...request,
          records: request.records.map((row, index) =>
            row.idempotency_key === undefined ? { ...row, idempotency_key: `${key}:${index}` } : row,
          ),
        };
  return connection
    .request({ method: 'POST', path: importsPath, body, schema: consentImportEnvelope }, options)
    .then((answer) => answer.import);
}

/** Reads an import and its per-row results (`GET /api/v1/consent_records/imports/{id}`; dry runs are not stored). */
export function getConsentImport(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<ConsentImport> {
  return connection
    .request({ method: 'GET', path: `${importsPath}/${encodeURIComponent(id)}`, schema: consentImportEnvelope }, options)
    .then((body) => body.import);
}

/** Bulk imports of consent records. */
export interface ConsentImportsResource {
  /** Runs (or dry-runs) an import; see {@link createConsentImport}. */
  create(request: CreateImportRequest, options?: WriteOptions): Promise<ConsentImport>;
  /** Reads an import; see {@link getConsentImport}. */
  get(id: string, options?: CallOptions): Promise<ConsentImport>;
}

/** Consent records made through the Record API or an import, and their withdrawal. */
export interface ConsentRecordsResource {
  /** Lists records, newest first, filtered and paged; see {@link listConsentRecords}. */
  list(query?: ConsentRecordQuery, options?: CallOptions): SvcList<ConsentRecord>;
  /** Records decisions; see {@link createConsentRecord}. */
  create(request: CreateConsentRecordRequest, options?: WriteOptions): Promise<ConsentRecord>;
  /** Reads a record; see {@link getConsentRecord}. */
  get(id: string, options?: CallOptions): Promise<ConsentRecord>;
  /** Withdraws some or all purposes; see {@link withdrawConsentRecord}. */
  withdraw(id: string, request?: WithdrawConsentRecordRequest, options?: WriteOptions): Promise<ConsentRecord>;
  /** Bulk imports. */
  readonly imports: ConsentImportsResource;
}

/** Binds the consent record functions to a connection. */
export function consentRecordsResource(connection: SvcConnection<'bearer'>): ConsentRecordsResource {
  return {
    list: (query, options) => listConsentRecords(connection, query, options),
    create: (request, options) => createConsentRecord(connection, request, options),
    get: (id, options) => getConsentRecord(connection, id, options),
    withdraw: (id, request, options) => withdrawConsentRecord(connection, id, request, options),
    imports: {
      create: (request, options) => createConsentImport(connection, request, options),
      get: (id, options) => getConsentImport(connection, id, options),
    },
  };
}
