// The delegation grants a person made, over the API: `GET /api/v1/me/delegations`, `GET /api/v1/me/delegations/{id}`
// and `POST /api/v1/me/delegations/{id}/{suspend|resume|revoke}`, with the person's access token (scopes
// `delegations:read`, `delegations:write`), or a delegate's whose grant delegates them. The changes go through the
// organisation API's own `changeGrantStatus`: the same audit events, webhooks, cascade, and the delegate's tokens
// stop at once. What the people's delegations page and `<svc-delegations>` call.
import {
  DELEGATIONS_READ_SCOPE,
  DELEGATIONS_WRITE_SCOPE,
  personDelegationEnvelope,
  personDelegationList,
  personDelegationListQuery,
} from '@svc/schemas';
import type { Context } from 'hono';
import { changeGrantStatus, findGrant, type GrantAction } from '../../authority/delegations/grants.js';
import { requires } from '../../infra/auth.js';
import type { Env } from '../../infra/context.js';
import { notFound } from '../../infra/errors.js';
import { route, routes } from '../../infra/http/route.js';
import { holding, personOf, readerOf } from '../reader.js';
import { findPersonGrant, listPersonGrants, toPersonDelegation } from './store.js';

const API = '/api/v1/me/delegations';
const tag = 'Person delegations';

const CHANGES: [GrantAction, string][] = [
  ['suspend', 'The person pauses a grant they made: its tokens answer 403 grant_suspended until resumed'],
  ['resume', 'The person resumes a grant they suspended'],
  ['revoke', 'The person revokes a grant they made, and every grant made under it: every token issued from them stops at once (final)'],
];

export const personDelegationRoutes = routes((app, ctx) => {
  /** The caller's grant named in the path, or the same 404 for every grant that is not theirs (no oracle). */
  const ownGrant = (c: Context<Env>) => {
    const reader = readerOf(ctx, personOf(c));
    const row = reader && findPersonGrant(ctx, reader, c.req.param('id')!);
    if (!row) throw notFound('No such delegation grant.');
    return row;
  };
  const reading = [
    requires('read', { person: true, delegateScope: DELEGATIONS_READ_SCOPE }),
    holding(DELEGATIONS_READ_SCOPE, 'delegation grants'),
  ];

  route(
    app,
    {
      method: 'get',
      path: API,
      tag,
      summary:
        "The delegation grants the signed-in person made, most recently made first: with the service's own clients, in every organisation (by their verified email); with an organisation's client, in that organisation only",
      auth: ['access_token'],
      query: personDelegationListQuery,
      middleware: reading,
      response: {
        status: 200,
        description: "A page of the person's grants (needs the delegations:read scope; a delegate needs it delegated)",
        schema: personDelegationList,
      },
      errors: [400],
    },
    (c, { query }) => {
      const reader = readerOf(ctx, personOf(c));
      if (!reader) return c.json({ delegations: [], next_cursor: null });
      return c.json(listPersonGrants(ctx, reader, query));
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${API}/{id}`,
      tag,
      summary: "One of the grants the signed-in person made (another person's, or another organisation's for its client, is 404)",
      auth: ['access_token'],
      middleware: reading,
      response: { status: 200, description: 'The grant as the person reads it', schema: personDelegationEnvelope },
      errors: [404],
    },
    (c) => c.json({ delegation: toPersonDelegation(ctx, ownGrant(c)) }),
  );

  for (const [action, summary] of CHANGES) {
    route(
      app,
      {
        method: 'post',
        path: `${API}/{id}/${action}`,
        tag,
        summary,
        auth: ['access_token'],
        middleware: [
          requires('write', { person: true, delegateScope: DELEGATIONS_WRITE_SCOPE }),
          holding(DELEGATIONS_WRITE_SCOPE, 'delegation grants'),
        ],
        response: {
          status: 200,
          description: 'The grant in its new status (unchanged, with no second audit event, when it already had it)',
          schema: personDelegationEnvelope,
        },
        errors: [404, 409],
      },
      (c) => {
        const row = ownGrant(c);
        // The principal of the grant is the reader's person row in the grant's organisation (ownGrant checked it).
        const principal = { ...personOf(c), personId: row.principal_id, accountId: row.account_id };
        changeGrantStatus(ctx, principal, findGrant(ctx, row.id)!, action);
        return c.json({ delegation: toPersonDelegation(ctx, ownGrant(c)) });
      },
    );
  }
});
