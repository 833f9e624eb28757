// A person's own credentials over the API: `GET /api/v1/me/credentials`, one credential, `POST …/{id}/presentations`
// (present it with the claims they chose) and `GET /api/v1/me/presentations` (what they presented, to whom, when),
// with the person's access token (scopes `credentials:read`, `credentials:write`). What `<svc-credentials>` calls.
import {
  CREDENTIALS_READ_SCOPE,
  CREDENTIALS_WRITE_SCOPE,
  createdPersonPresentationEnvelope,
  createPersonPresentationRequest,
  personCredentialEnvelope,
  personCredentialList,
  personCredentialListQuery,
  personPresentationList,
  personPresentationListQuery,
} from '@svc/schemas';
import type { Context } from 'hono';
import { requires } from '../../infra/auth.js';
import type { Env } from '../../infra/context.js';
import { notFound } from '../../infra/errors.js';
import { route, routes } from '../../infra/http/route.js';
import { holding, personOf, readerOf } from '../reader.js';
import { presentForPerson } from './present.js';
import { findPersonCredential, listPersonCredentials, listPersonPresentations, toPersonCredential } from './store.js';

const API = '/api/v1/me/credentials';
const PRESENTATIONS = '/api/v1/me/presentations';
const tag = 'Person credentials';

export const personCredentialRoutes = routes((app, ctx) => {
  /** The caller's credential named in the path, or the same 404 for every credential that is not theirs (no oracle). */
  const ownCredential = (c: Context<Env>) => {
    const reader = readerOf(ctx, personOf(c));
    const row = reader && findPersonCredential(ctx, reader, c.req.param('id')!);
    if (!row) throw notFound('No such credential.');
    return row;
  };
  const reading = [
    requires('read', { person: true, delegateScope: CREDENTIALS_READ_SCOPE }),
    holding(CREDENTIALS_READ_SCOPE, 'credentials'),
  ];

  route(
    app,
    {
      method: 'get',
      path: API,
      tag,
      summary:
        "The signed-in person's credentials homed in this cell (those organisations issued of their consents), most recently issued first: with the service's own clients every organisation's, with an organisation's client that organisation's only. Each claim with its label and whether it is always shared; never the SD-JWT itself",
      auth: ['access_token'],
      query: personCredentialListQuery,
      middleware: reading,
      response: { status: 200, description: "A page of the person's credentials (needs credentials:read)", schema: personCredentialList },
      errors: [400],
    },
    async (c, { query }) => {
      const reader = readerOf(ctx, personOf(c));
      if (!reader) return c.json({ credentials: [], next_cursor: null });
      return c.json(await listPersonCredentials(ctx, reader, query));
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${API}/{id}`,
      tag,
      summary: "One of the signed-in person's credentials (another person's, or another organisation's for its client, is 404)",
      auth: ['access_token'],
      middleware: reading,
      response: { status: 200, description: 'The credential as the person reads it', schema: personCredentialEnvelope },
      errors: [404],
    },
    async (c) => c.json({ credential: await toPersonCredential(ctx, ownCredential(c)) }),
  );

  route(
    app,
    {
      method: 'post',
      path: `${API}/{id}/presentations`,
      tag,
      summary:
        "The person presents their credential to a verifier, disclosing exactly the claims they chose (and those always shared): an SD-JWT presentation made with the holder's function of @svc/client/credentials and checked by the service's verifier. 422 unknown_claim, credential_not_active, holder_key_required (a credential bound to a wallet's key is presented from that wallet)",
      auth: ['access_token'],
      // 404 before the body is read, for a credential that is not the caller's. No delegate presents for a person.
      middleware: [
        requires('write', { person: true }),
        holding(CREDENTIALS_WRITE_SCOPE, 'credentials'),
        async (c, next) => {
          ownCredential(c);
          await next();
        },
      ],
      body: createPersonPresentationRequest,
      response: {
        status: 201,
        description: 'The presentation to hand to the verifier, what was shared with whom, and what the verifier makes of it',
        schema: createdPersonPresentationEnvelope,
      },
      errors: [404, 422],
    },
    async (c, { body }) => c.json({ presentation: await presentForPerson(ctx, ownCredential(c), body) }, 201),
  );

  route(
    app,
    {
      method: 'get',
      path: PRESENTATIONS,
      tag,
      summary:
        'What the signed-in person presented of their credentials through the service: to whom, when, which claims (never the presentation itself), most recent first',
      auth: ['access_token'],
      query: personPresentationListQuery,
      middleware: reading,
      response: {
        status: 200,
        description: "A page of the person's presentations (needs credentials:read)",
        schema: personPresentationList,
      },
      errors: [400],
    },
    (c, { query }) => {
      const reader = readerOf(ctx, personOf(c));
      if (!reader) return c.json({ presentations: [], next_cursor: null });
      return c.json(listPersonPresentations(ctx, reader, query));
    },
  );
});
