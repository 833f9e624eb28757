// Agree: multi-party agreements (a view over the agreements module: those of quorum two or more), a party's quorum
// vote with their own access token, and collaborations with their memberships.
import {
  addMembershipRequest,
  castQuorumVoteRequest,
  collaborationEnvelope,
  collaborationList,
  collaborationListQuery,
  createCollaborationRequest,
  createMultiPartyAgreementRequest,
  membershipEnvelope,
  multiPartyAgreementEnvelope,
  multiPartyAgreementList,
  agreementListQuery,
  quorumVoteCast,
  signMembershipRequest,
} from '@svc/schemas';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod/mini';
import { type Answer, route, routes } from '../../infra/http/route.js';
import { createAgreementFor } from './agreements/routes.js';
import { requires } from '../../infra/auth.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { forbidden } from '../../infra/errors.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { validate } from '../../infra/validate.js';
import { castQuorumVote, findMultiPartyAgreement, listMultiPartyAgreements, toMultiPartyAgreement } from './agreements.js';
import {
  addMembership,
  createCollaboration,
  dissolveCollaboration,
  listCollaborations,
  membershipOf,
  revokeMembership,
  signMembership,
  toCollaborationDetail,
  toMembership,
  visibleCollaboration,
} from './collaborations.js';

const MULTI = '/api/v1/multi_party_agreements';
const AGREEMENTS = '/api/v1/agreements';
const COLLABORATIONS = '/api/v1/collaborations';
const MEMBERSHIPS = `${COLLABORATIONS}/{id}/memberships`;

/** A quorum vote is a party's own: cast with their access token (an API token that may write is refused here). */
function party(c: Context<Env>) {
  const principal = c.get('principal');
  if (principal.kind !== 'person') {
    throw forbidden(
      "A quorum vote is a party's: cast it with the party's own access token (the person whose email is the party's).",
      'party_token_required',
    );
  }
  return principal;
}

// Checked before the body is read, as the vote's credentials come first.
const partyToken: MiddlewareHandler<Env> = async (c, next) => {
  party(c);
  await next();
};

function collaboration(ctx: ServerContext, c: Context<Env>) {
  return visibleCollaboration(ctx, c.get('principal'), c.req.param('id') ?? '');
}

const agreementsTag = 'Multi-party agreements';
const collaborationsTag = 'Collaborations';
const person = { person: true };

/** The Agree routes. */
export const agreeRoutes = routes((app, ctx) => {
  multiPartyRoutes(app, ctx);
  collaborationRoutes(app, ctx);
  membershipRoutes(app, ctx);
});

/** Multi-party agreements, and the spec's Cast quorum vote request: a party, with their own access token. */
function multiPartyRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  route(
    app,
    {
      method: 'post',
      path: MULTI,
      summary:
        'Create a multi-party agreement: an agreement (the same request as POST /api/v1/agreements, enveloped as multi_party_agreement) whose quorum is at least two; each party gets a signing session. It is also /api/v1/agreements/{id}',
      tag: agreementsTag,
      permission: 'write',
      body: createMultiPartyAgreementRequest,
      response: { status: 201, description: 'The multi-party agreement, pending', schema: multiPartyAgreementEnvelope },
      errors: [404, 422],
    },
    (c, { body: { multi_party_agreement } }) => {
      const row = createAgreementFor(ctx, c.get('principal'), multi_party_agreement, 'multi_party_agreement');
      c.header('Location', `${MULTI}/${row.id}`);
      return c.json({ multi_party_agreement: toMultiPartyAgreement(ctx, row) }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: MULTI,
      summary: "List the account's multi-party agreements (quorum of two or more), oldest first (filter: status)",
      tag: agreementsTag,
      permission: 'read',
      query: agreementListQuery,
      response: { status: 200, description: 'A page of multi-party agreements', schema: multiPartyAgreementList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor, status } }) =>
      c.json(listMultiPartyAgreements(ctx, c.get('principal').accountId, { limit, cursor, status })),
  );

  route(
    app,
    {
      method: 'get',
      path: `${MULTI}/{id}`,
      summary:
        'Read a multi-party agreement: its status (pending, partially_signed, active), quorum status, signed_count and quorum votes; an agreement of quorum one is 404 not_multi_party',
      tag: agreementsTag,
      permission: 'read',
      response: { status: 200, description: 'The multi-party agreement', schema: multiPartyAgreementEnvelope },
      errors: [404],
    },
    (c) =>
      c.json({
        multi_party_agreement: toMultiPartyAgreement(ctx, findMultiPartyAgreement(ctx, c.get('principal').accountId, c.req.param('id')!)),
      }),
  );

  // Only a party's access token succeeds, so the document names that alone (the check admits `write` API tokens to
  // refuse them with party_token_required).
  route(
    app,
    {
      method: 'post',
      path: `${AGREEMENTS}/{id}/quorum_votes`,
      summary:
        "Cast a party's quorum vote with the party's own access token (the person whose email is the party's; 404 for anyone else): approve signs the document, deny declines it, either ending the party's signing session with the same signature, audit event and webhook (signature.signed, signature.declined). A party votes once: 409 party_decided",
      tag: 'Agreements',
      auth: ['access_token'],
      middleware: [requires('write', person), partyToken],
      body: castQuorumVoteRequest,
      response: { status: 201, description: 'The vote and the agreement after it', schema: quorumVoteCast },
      errors: [404, 409],
    },
    (c, { body }) => c.json(castQuorumVote(ctx, party(c), c.req.param('id')!, body), 201),
  );
}

/** Collaborations: created, listed, read and dissolved by their initiator or an API token. */
function collaborationRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  route(
    app,
    {
      method: 'post',
      path: COLLABORATIONS,
      summary:
        'Create a collaboration (everything optional: application_id, participant_ids, terms). Each participant (a person of the account, homed in this cell: 421 otherwise, 422 person_not_found) is a pending member; a person creating it with their own access token is its initiator and a member',
      tag: collaborationsTag,
      permission: 'write',
      access: person,
      body: createCollaborationRequest,
      response: { status: 201, description: 'The collaboration, pending, with its memberships', schema: collaborationEnvelope },
      errors: [404, 421, 422],
    },
    (c, { body }) => {
      const row = createCollaboration(ctx, c.get('principal'), body);
      c.header('Location', `${COLLABORATIONS}/${row.id}`);
      return c.json({ collaboration: toCollaborationDetail(ctx, row) }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: COLLABORATIONS,
      summary: "List collaborations, oldest first: the account's (API token) or the person's own (access token); filter status",
      tag: collaborationsTag,
      permission: 'read',
      access: person,
      query: collaborationListQuery,
      response: { status: 200, description: 'A page of collaborations (without memberships)', schema: collaborationList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor, status } }) =>
      c.json(listCollaborations(ctx, c.get('principal'), { limit, cursor, status })),
  );

  route(
    app,
    {
      method: 'get',
      path: `${COLLABORATIONS}/{id}`,
      summary: 'Read a collaboration with its memberships (an API token, or the access token of its initiator or a member)',
      tag: collaborationsTag,
      permission: 'read',
      access: person,
      response: { status: 200, description: 'The collaboration', schema: collaborationEnvelope },
      errors: [404],
    },
    (c) => c.json({ collaboration: toCollaborationDetail(ctx, collaboration(ctx, c)) }),
  );

  route(
    app,
    {
      method: 'post',
      path: `${COLLABORATIONS}/{id}/dissolve`,
      summary: 'Dissolve a collaboration (the initiator or an API token): pending|active -> dissolved, for good (409 illegal_transition)',
      tag: collaborationsTag,
      permission: 'write',
      access: person,
      response: { status: 200, description: 'The collaboration, dissolved', schema: collaborationEnvelope },
      errors: [404, 409],
    },
    (c) => c.json({ collaboration: toCollaborationDetail(ctx, dissolveCollaboration(ctx, c.get('principal'), collaboration(ctx, c))) }),
  );
}

/** A collaboration's memberships: added by its organisers, signed by their member, ended by either. */
function membershipRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  route(
    app,
    {
      method: 'post',
      path: MEMBERSHIPS,
      summary:
        'Add a member (the initiator or an API token) to a pending collaboration (409 illegal_transition once active or dissolved, 409 already_member); role member or observer, shared_data_categories proposed',
      tag: collaborationsTag,
      permission: 'write',
      access: person,
      body: addMembershipRequest,
      response: { status: 201, description: 'The membership, pending', schema: membershipEnvelope },
      errors: [404, 409, 421, 422],
    },
    (c, { body }) => {
      const row = collaboration(ctx, c);
      const membership = addMembership(ctx, c.get('principal'), row, body);
      c.header('Location', `${COLLABORATIONS}/${row.id}/memberships/${membership.id}`);
      return c.json({ membership: toMembership(membership) }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${MEMBERSHIPS}/{membership_id}`,
      summary: 'Read a membership',
      tag: collaborationsTag,
      permission: 'read',
      access: person,
      response: { status: 200, description: 'The membership', schema: membershipEnvelope },
      errors: [404],
    },
    (c) => c.json({ membership: toMembership(membershipOf(ctx, collaboration(ctx, c), c.req.param('membership_id')!)) }),
  );

  const sign: Answer<z.output<typeof signMembershipRequest>> = (c, { shared_data_categories }) => {
    const row = collaboration(ctx, c);
    const membership = membershipOf(ctx, row, c.req.param('membership_id')!);
    return c.json({ membership: toMembership(signMembership(ctx, c.get('principal'), row, membership, shared_data_categories)) });
  };
  // Only the member's access token signs, so the document names that alone (the check admits `write` API tokens to
  // refuse them with member_token_required); the body is optional.
  route(
    app,
    {
      method: 'post',
      path: `${MEMBERSHIPS}/{membership_id}/sign`,
      summary:
        "Sign a membership with the member's own access token (403 member_token_required, not_your_membership): pending -> signed, once (409 illegal_transition); the optional body chooses the shared data categories. The collaboration becomes active when its two or more current members have all signed",
      tag: collaborationsTag,
      auth: ['access_token'],
      middleware: [requires('write', person)],
      optionalBody: true,
      body: signMembershipRequest,
      response: { status: 200, description: 'The membership, signed', schema: membershipEnvelope },
      errors: [404, 409],
    },
    (c, { body }) => sign(c, body),
  );

  route(
    app,
    {
      method: 'post',
      path: `${MEMBERSHIPS}/{membership_id}/revoke`,
      summary:
        'End a membership (its member, the initiator or an API token): pending|signed -> revoked, once (409 illegal_transition); an active collaboration left with fewer than two members is dissolved',
      tag: collaborationsTag,
      permission: 'write',
      access: person,
      response: { status: 200, description: 'The membership, revoked', schema: membershipEnvelope },
      errors: [404, 409],
    },
    (c) => {
      const row = collaboration(ctx, c);
      const membership = membershipOf(ctx, row, c.req.param('membership_id')!);
      return c.json({ membership: toMembership(revokeMembership(ctx, c.get('principal'), row, membership)) });
    },
  );
}
