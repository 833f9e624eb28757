// A person's own agreements and collaborations over the API, with their access token (scopes `agreements:read`,
// `agreements:write`): `GET /api/v1/me/agreements` (`?multi_party=true`: the multi-party ones), one agreement, and
// `POST .../{id}/sign|decline`; `GET /api/v1/me/collaborations`, one, and `POST .../{id}/sign|leave`. Every change goes
// through the Agree surface's own functions (a party's quorum vote, a membership's signature or revocation): the same
// signature, audit events and webhooks. Only the person themself acts: a delegate may read (when the grant delegates
// agreements:read), never sign, decline or leave (ARCHITECTURE.md, "Who may answer a decision"). A replay of an
// action already done answers the thing as it is, with no second effect.
import {
  AGREEMENTS_READ_SCOPE,
  AGREEMENTS_WRITE_SCOPE,
  personAgreementEnvelope,
  personAgreementList,
  personAgreementListQuery,
  personCollaborationEnvelope,
  personCollaborationList,
  personCollaborationListQuery,
  signMembershipRequest,
  signPersonAgreementRequest,
} from '@svc/schemas';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { castQuorumVote } from '../../surfaces/agree/agreements.js';
import { revokeMembership, signMembership } from '../../surfaces/agree/collaborations.js';
import { requires } from '../../infra/auth.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { notFound } from '../../infra/errors.js';
import { route, routes } from '../../infra/http/route.js';
import { holding, personOf, readerOf } from '../reader.js';
import {
  findPersonAgreement,
  findPersonCollaboration,
  listPersonAgreements,
  listPersonCollaborations,
  personMembershipOf,
  toPersonAgreement,
  toPersonCollaboration,
} from './store.js';

const AGREEMENTS = '/api/v1/me/agreements';
const COLLABORATIONS = '/api/v1/me/collaborations';

/** Reading: the person, or a delegate whose grant delegates agreements:read. */
const reading = (what: string) => [
  requires('read', { person: true, delegateScope: AGREEMENTS_READ_SCOPE }),
  holding(AGREEMENTS_READ_SCOPE, what),
];
/** Acting: the person themself (a delegate is refused, delegate_not_allowed), holding agreements:write. */
const acting = (what: string) => [requires('write', { person: true }), holding(AGREEMENTS_WRITE_SCOPE, what)];

/** The caller's agreement named in the path, or the same 404 for every agreement they are not a party of (no oracle). */
function ownAgreement(ctx: ServerContext, c: Context<Env>) {
  const reader = readerOf(ctx, personOf(c));
  const row = reader && findPersonAgreement(ctx, reader, c.req.param('id')!);
  if (!row) throw notFound('No such agreement.');
  return row;
}

/** The caller's collaboration named in the path (with the reader), or the same 404 for every other one. */
function ownCollaboration(ctx: ServerContext, c: Context<Env>) {
  const reader = readerOf(ctx, personOf(c));
  const row = reader && findPersonCollaboration(ctx, reader, c.req.param('id')!);
  if (!row || !reader) throw notFound('No such collaboration.');
  return { reader, row };
}

/** 404 before the body is read, for a thing that is not the caller's. */
const owning =
  (find: (ctx: ServerContext, c: Context<Env>) => unknown, ctx: ServerContext): MiddlewareHandler<Env> =>
  async (c, next) => {
    find(ctx, c);
    await next();
  };

export const personAgreementRoutes = routes((app, ctx) => {
  agreementRoutes(app, ctx);
  collaborationRoutes(app, ctx);
});

function agreementRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  const tag = 'Person agreements';
  route(
    app,
    {
      method: 'get',
      path: AGREEMENTS,
      tag,
      summary:
        "The agreements the signed-in person is a party of (by their verified email), most recently created first, with the document and their own part; multi_party=true for those of quorum two or more. With the service's own clients, every organisation's; with an organisation's client, that organisation's only",
      auth: ['access_token'],
      query: personAgreementListQuery,
      middleware: reading('agreements'),
      response: { status: 200, description: "A page of the person's agreements (needs agreements:read)", schema: personAgreementList },
      errors: [400],
    },
    (c, { query }) => {
      const reader = readerOf(ctx, personOf(c));
      if (!reader) return c.json({ agreements: [], next_cursor: null });
      return c.json(listPersonAgreements(ctx, reader, query));
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${AGREEMENTS}/{id}`,
      tag,
      summary: 'One agreement the signed-in person is a party of (any other is 404)',
      auth: ['access_token'],
      middleware: reading('agreements'),
      response: { status: 200, description: 'The agreement as the party reads it', schema: personAgreementEnvelope },
      errors: [404],
    },
    (c) => c.json({ agreement: toPersonAgreement(ctx, ownAgreement(ctx, c)) }),
  );

  for (const [action, vote, outcome, summary] of [
    [
      'sign',
      'approve',
      'signed',
      "The person signs an agreement they are a party of, themself (a delegate cannot): their quorum vote approve, through the party's signing session, with the same signature, audit event and webhook (signature.signed). Signing again answers the agreement unchanged; a party that declined or whose session expired is 409 party_decided",
    ],
    [
      'decline',
      'deny',
      'declined',
      'The person declines an agreement they are a party of, themself: their quorum vote deny (signature.declined). Declining again answers the agreement unchanged; a party that signed or whose session expired is 409 party_decided',
    ],
  ] as const) {
    route(
      app,
      {
        method: 'post',
        path: `${AGREEMENTS}/{id}/${action}`,
        tag,
        summary,
        auth: ['access_token'],
        middleware: [...acting('agreements'), owning(ownAgreement, ctx)],
        body: signPersonAgreementRequest,
        optionalBody: true,
        response: { status: 200, description: 'The agreement after the vote', schema: personAgreementEnvelope },
        errors: [404, 409, 422],
      },
      (c, { body }) => {
        const row = ownAgreement(ctx, c);
        if (toPersonAgreement(ctx, row).you.status !== outcome) {
          // The party's organisation is the agreement's; the person's email names the party (castQuorumVote checks it).
          const principal = { ...personOf(c), accountId: row.account_id };
          castQuorumVote(ctx, principal, row.id, { vote, ...(body.comment !== undefined ? { comment: body.comment } : {}) });
        }
        return c.json({ agreement: toPersonAgreement(ctx, ownAgreement(ctx, c)) });
      },
    );
  }
}

function collaborationRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  const tag = 'Person collaborations';
  route(
    app,
    {
      method: 'get',
      path: COLLABORATIONS,
      tag,
      summary:
        "The collaborations the signed-in person is (or was) a member of, most recently created first, each with their own membership and the data categories they share. With the service's own clients, every organisation's; with an organisation's client, that organisation's only",
      auth: ['access_token'],
      query: personCollaborationListQuery,
      middleware: reading('collaborations'),
      response: {
        status: 200,
        description: "A page of the person's collaborations (needs agreements:read)",
        schema: personCollaborationList,
      },
      errors: [400],
    },
    (c, { query }) => {
      const reader = readerOf(ctx, personOf(c));
      if (!reader) return c.json({ collaborations: [], next_cursor: null });
      return c.json(listPersonCollaborations(ctx, reader, query));
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${COLLABORATIONS}/{id}`,
      tag,
      summary: 'One collaboration the signed-in person is (or was) a member of (any other is 404)',
      auth: ['access_token'],
      middleware: reading('collaborations'),
      response: { status: 200, description: 'The collaboration as its member reads it', schema: personCollaborationEnvelope },
      errors: [404],
    },
    (c) => {
      const { reader, row } = ownCollaboration(ctx, c);
      return c.json({ collaboration: toPersonCollaboration(ctx, reader, row) });
    },
  );

  route(
    app,
    {
      method: 'post',
      path: `${COLLABORATIONS}/{id}/sign`,
      tag,
      summary:
        'The person signs their pending membership, themself (a delegate cannot), choosing the data categories they share (default: those proposed): the same audit event as the organisation API; the collaboration becomes active when its two or more current members have all signed. Signing again answers it unchanged; a left membership or a dissolved collaboration is 409 illegal_transition',
      auth: ['access_token'],
      middleware: [...acting('collaborations'), owning(ownCollaboration, ctx)],
      body: signMembershipRequest,
      optionalBody: true,
      response: { status: 200, description: 'The collaboration after the signature', schema: personCollaborationEnvelope },
      errors: [404, 409, 422],
    },
    (c, { body }) => {
      const { reader, row } = ownCollaboration(ctx, c);
      const membership = personMembershipOf(ctx, reader, row.id);
      if (membership.status !== 'signed') {
        // The member is the reader's person row in the collaboration's organisation.
        const principal = { ...personOf(c), personId: membership.user_id!, accountId: row.account_id };
        signMembership(ctx, principal, row, membership, body.shared_data_categories);
      }
      return c.json({ collaboration: toPersonCollaboration(ctx, reader, ownCollaboration(ctx, c).row) });
    },
  );

  route(
    app,
    {
      method: 'post',
      path: `${COLLABORATIONS}/{id}/leave`,
      tag,
      summary:
        'The person leaves a collaboration, themself: their membership is revoked (the same audit event as the organisation API); an active collaboration left with fewer than two members is dissolved. Leaving again answers it unchanged; a dissolved collaboration is 409 illegal_transition',
      auth: ['access_token'],
      middleware: [...acting('collaborations'), owning(ownCollaboration, ctx)],
      response: { status: 200, description: 'The collaboration after the person left', schema: personCollaborationEnvelope },
      errors: [404, 409],
    },
    (c) => {
      const { reader, row } = ownCollaboration(ctx, c);
      const membership = personMembershipOf(ctx, reader, row.id);
      if (membership.status !== 'revoked') {
        const principal = { ...personOf(c), personId: membership.user_id!, accountId: row.account_id };
        revokeMembership(ctx, principal, row, membership);
      }
      return c.json({ collaboration: toPersonCollaboration(ctx, reader, ownCollaboration(ctx, c).row) });
    },
  );
}
