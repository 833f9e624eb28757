// The delegation grants a person made, over the API: `GET /api/v1/me/delegations`, `GET /api/v1/me/delegations/{id}`,
// `POST /api/v1/me/delegations` (a new grant) and `POST /api/v1/me/delegations/{id}/{suspend|resume|revoke}`, with
// the person's access token (scopes `delegations:read`, `delegations:write`), or a delegate's whose grant delegates
// them. A grant is made by the organisation API's own `createGrant` (its checks, receipt and audit event), the changes
// by its `changeGrantStatus`: the same audit events, webhooks, cascade, and the delegate's tokens stop at once. What
// the people's delegations page and `<svc-delegations>` call.
import {
  createPersonDelegation,
  DELEGATIONS_READ_SCOPE,
  DELEGATIONS_WRITE_SCOPE,
  personDelegationEnvelope,
  personDelegationList,
  personDelegationListQuery,
} from '@svc/schemas';
import type { Context } from 'hono';
import { changeGrantStatus, createGrant, findGrant, type GrantAction } from '../../authority/delegations/grants.js';
import { requires } from '../../infra/auth.js';
import type { Env } from '../../infra/context.js';
import { forbidden, notFound } from '../../infra/errors.js';
import { route, routes } from '../../infra/http/route.js';
import { transaction } from '../../infra/transaction.js';
import { findClient } from '../../platform/oauth/clients.js';
import { firstPartyScopes } from '../../platform/oauth/first-party.js';
import { holding, personOf, readerOf } from '../reader.js';
import {
  delegateByEmail,
  delegatingOrganisations,
  findPersonGrant,
  type GrantingReader,
  grantPlace,
  listPersonGrants,
  toPersonDelegation,
} from './store.js';

const API = '/api/v1/me/delegations';
const tag = 'Person delegations';

const CHANGES: [GrantAction, string][] = [
  ['suspend', 'The person pauses a grant they made: its tokens answer 403 grant_suspended until resumed'],
  ['resume', 'The person resumes a grant they suspended'],
  ['revoke', 'The person revokes a grant they made, and every grant made under it: every token issued from them stops at once (final)'],
];

export const personDelegationRoutes = routes((app, ctx) => {
  /** Who reads; with one of the service's own clients, the service's own account is nobody's organisation. */
  const readerFor = (c: Context<Env>): GrantingReader | undefined => {
    const principal = personOf(c);
    const reader = readerOf(ctx, principal);
    const own = firstPartyScopes(ctx, principal.clientId) !== undefined;
    return reader && { ...reader, serviceAccountId: own ? principal.accountId : undefined };
  };
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
  const writing = [
    requires('write', { person: true, delegateScope: DELEGATIONS_WRITE_SCOPE }),
    holding(DELEGATIONS_WRITE_SCOPE, 'delegation grants'),
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
        description:
          "A page of the person's grants and the organisations they may make one in (needs the delegations:read scope; a delegate needs it delegated)",
        schema: personDelegationList,
      },
      errors: [400],
    },
    (c, { query }) => {
      const reader = readerFor(c);
      if (!reader) return c.json({ delegations: [], next_cursor: null, organisations: [] });
      return c.json({ ...listPersonGrants(ctx, reader, query), organisations: delegatingOrganisations(ctx, reader) });
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

  route(
    app,
    {
      method: 'post',
      path: API,
      tag,
      summary:
        "The person lets someone act for them: a grant to a person (by email or prs_ id) or an agent identity (agt_), with its bounds, made by the organisation's own POST /api/v1/delegations as the person's row in that organisation (one of the list's organisations; any other is 404 and nothing is made). Never to themselves (422 self_delegation); a delegate acting for them cannot (403 delegate_cannot_delegate)",
      auth: ['access_token'],
      middleware: writing,
      body: createPersonDelegation,
      response: { status: 201, description: 'The grant, active', schema: personDelegationEnvelope },
      errors: [404, 422],
    },
    (c, { body }) => {
      const principal = personOf(c);
      // Refused before any look-up, so a delegate learns nothing of the organisation's people (createGrant's own rule).
      if (principal.delegation)
        throw forbidden('A delegate acting for the person cannot make grants in their name.', 'delegate_cannot_delegate');
      const reader = readerFor(c);
      const client = reader?.accountId === undefined ? undefined : findClient(ctx, principal.clientId);
      const own = client && { accountId: principal.accountId, applicationId: client.application_id };
      const place = reader && grantPlace(ctx, reader, body, own);
      if (!place) throw notFound('No such organisation: the person has no relationship with it.');
      const { organisation_id: _o, application_id: _a, delegate_email: email, delegate_id: id, delegation_grant } = body;
      const granter = { ...principal, accountId: place.accountId, personId: place.personId };
      // The delegate's person row (made for an email the organisation does not know yet) stands only with the grant.
      const made = transaction(ctx.db, () => {
        const delegateId = email === undefined ? id! : delegateByEmail(ctx, place, email);
        return createGrant(ctx, granter, { delegate_id: delegateId, delegation_grant }, place.applicationId);
      });
      c.header('Location', `${API}/${made.id}`);
      return c.json({ delegation: toPersonDelegation(ctx, findPersonGrant(ctx, reader, made.id)!) }, 201);
    },
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
        middleware: writing,
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
