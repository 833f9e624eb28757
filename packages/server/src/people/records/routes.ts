// A person's own consent records over the API: `GET /api/v1/me/consent_records`, `GET /api/v1/me/consent_records/{id}`
// and `POST /api/v1/me/consent_records/{id}/withdraw`, with the person's access token (scopes `records:read`,
// `records:write`), or a delegate's whose grant delegates them. What the people's records pages and `<svc-records>` call.
import {
  personConsentRecordEnvelope,
  personConsentRecordList,
  personConsentRecordListQuery,
  RECORDS_READ_SCOPE,
  RECORDS_WRITE_SCOPE,
  withdrawPersonConsentRecordRequest,
} from '@svc/schemas';
import type { Context, MiddlewareHandler } from 'hono';
import { requires } from '../../infra/auth.js';
import type { Env, Principal } from '../../infra/context.js';
import { ApiError, forbidden, notFound } from '../../infra/errors.js';
import { route, routes } from '../../infra/http/route.js';
import { withdrawConsentRecord } from '../../consent/records/withdrawals.js';
import { holding, personOf, readerOf } from '../reader.js';
import { findPersonRecord, listPersonRecords, toPersonRecord } from './store.js';

const API = '/api/v1/me/consent_records';
const tag = 'Person records';

export const personRecordRoutes = routes((app, ctx) => {
  /** The caller's record named in the path, or the same 404 for every record that is not theirs (no oracle). */
  const ownRecord = (c: Context<Env>) => {
    const reader = readerOf(ctx, personOf(c));
    const row = reader && findPersonRecord(ctx, reader, c.req.param('id')!);
    if (!row) throw notFound('No such consent record.');
    return row;
  };
  const reading = [requires('read', { person: true, delegateScope: RECORDS_READ_SCOPE }), holding(RECORDS_READ_SCOPE, 'consent records')];

  route(
    app,
    {
      method: 'get',
      path: API,
      tag,
      summary:
        "The signed-in person's consent records homed in this cell, most recently recorded first: with the service's own clients, every organisation's records of their verified email; with an organisation's client, that organisation's only",
      auth: ['access_token'],
      query: personConsentRecordListQuery,
      middleware: reading,
      response: {
        status: 200,
        description: "A page of the person's records (needs the records:read scope; a delegate needs it delegated)",
        schema: personConsentRecordList,
      },
      errors: [400],
    },
    (c, { query }) => {
      const reader = readerOf(ctx, personOf(c));
      if (!reader) return c.json({ consent_records: [], next_cursor: null });
      return c.json(listPersonRecords(ctx, reader, query));
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${API}/{id}`,
      tag,
      summary: "One of the signed-in person's consent records (another person's, or another organisation's for its client, is 404)",
      auth: ['access_token'],
      middleware: reading,
      response: { status: 200, description: 'The record as the person reads it', schema: personConsentRecordEnvelope },
      errors: [404],
    },
    (c) => c.json({ consent_record: toPersonRecord(ctx, ownRecord(c)) }),
  );

  route(
    app,
    {
      method: 'post',
      path: `${API}/{id}/withdraw`,
      tag,
      summary:
        "The person withdraws some or all purposes of their record (event channel person_records); withdrawal is immediate: the record's live consent tokens verify revoked at once",
      auth: ['access_token'],
      // 404 before the body is read, for a record that is not the caller's.
      middleware: [
        requires('write', { person: true, delegateScope: RECORDS_WRITE_SCOPE }),
        holding(RECORDS_WRITE_SCOPE, 'consent records'),
        async (c, next) => {
          ownRecord(c);
          await next();
        },
      ],
      body: withdrawPersonConsentRecordRequest,
      optionalBody: true,
      response: { status: 200, description: 'The record after the withdrawal', schema: personConsentRecordEnvelope },
      errors: [404, 422],
    },
    (c, { body }) => {
      const row = ownRecord(c);
      withdrawConsentRecord(ctx, row.account_id, row.id, { purposes: body.purposes, eventChannel: 'person_records' });
      return c.json({ consent_record: toPersonRecord(ctx, ownRecord(c)) });
    },
  );
});
