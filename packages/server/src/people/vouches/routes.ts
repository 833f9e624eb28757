// A person's own trust scores and vouches over the API: `GET /api/v1/me/trust_scores` (their score at each
// organisation that knows them, each factor in plain words), `GET|POST /api/v1/me/vouches` (the vouches they gave and
// received; vouch for someone), one vouch and `POST /api/v1/me/vouches/{id}/revoke`, with the person's access token
// (scopes `vouches:read`, `vouches:write`). Vouching is Verify's own createVouch and revokeVouch: the organisation reads
// the vouch on its API and in the vouchee's trust score (and a delegation's reputation bound) at once. A vouch is the
// person's own word: a delegate may read the person's vouches when the grant delegates vouches:read, never vouch.
// What the people's trust pages and `<svc-vouches>` call.
import {
  createPersonVouchRequest,
  personTrustScoreList,
  personTrustScoreListQuery,
  personVouchEnvelope,
  personVouchList,
  personVouchListQuery,
  VOUCHES_READ_SCOPE,
  VOUCHES_WRITE_SCOPE,
} from '@svc/schemas';
import type { Context } from 'hono';
import { requires } from '../../infra/auth.js';
import type { Env } from '../../infra/context.js';
import { notFound } from '../../infra/errors.js';
import { route, routes } from '../../infra/http/route.js';
import { firstPartyScopes } from '../../platform/oauth/first-party.js';
import { holding, personOf, readerOf } from '../reader.js';
import {
  findPersonVouch,
  listPersonTrustScores,
  listPersonVouches,
  revokeAsPerson,
  toPersonVouch,
  type VouchReader,
  vouchAsPerson,
} from './store.js';

const SCORES = '/api/v1/me/trust_scores';
const API = '/api/v1/me/vouches';
const tag = 'Person trust scores and vouches';

export const personVouchRoutes = routes((app, ctx) => {
  /** Who reads; with one of the service's own clients, the service's own account is nobody's organisation. */
  const readerFor = (c: Context<Env>): VouchReader | undefined => {
    const principal = personOf(c);
    const reader = readerOf(ctx, principal);
    const own = firstPartyScopes(ctx, principal.clientId) !== undefined;
    return reader && { ...reader, serviceAccountId: own ? principal.accountId : undefined };
  };
  /** The caller's vouch named in the path (given or received), or the same 404 for every other (no oracle). */
  const ownVouch = (c: Context<Env>) => {
    const reader = readerFor(c);
    const row = reader && findPersonVouch(ctx, reader, c.req.param('id')!);
    if (!reader || !row) throw notFound('No such vouch.');
    return { reader, row };
  };
  const reading = [
    requires('read', { person: true, delegateScope: VOUCHES_READ_SCOPE }),
    holding(VOUCHES_READ_SCOPE, 'trust scores and vouches'),
  ];
  const writing = [requires('write', { person: true }), holding(VOUCHES_WRITE_SCOPE, 'vouches')];

  route(
    app,
    {
      method: 'get',
      path: SCORES,
      tag,
      summary:
        "The signed-in person's trust score at each organisation that knows them (homed in this cell), oldest relationship first, with each factor in plain words: the same function the organisation reads at GET /api/v1/trust_scores/{subject_id}. With the service's own clients every organisation of their verified email; with an organisation's client, that organisation's only",
      auth: ['access_token'],
      query: personTrustScoreListQuery,
      middleware: reading,
      response: { status: 200, description: "A page of the person's trust scores (needs vouches:read)", schema: personTrustScoreList },
      errors: [400],
    },
    (c, { query }) => {
      const reader = readerFor(c);
      if (!reader) return c.json({ trust_scores: [], next_cursor: null });
      return c.json(listPersonTrustScores(ctx, reader, query));
    },
  );

  route(
    app,
    {
      method: 'get',
      path: API,
      tag,
      summary:
        'The vouches the signed-in person gave and received, most recent first (direction given or received, status active or revoked), across the organisations the token reads',
      auth: ['access_token'],
      query: personVouchListQuery,
      middleware: reading,
      response: { status: 200, description: "A page of the person's vouches (needs vouches:read)", schema: personVouchList },
      errors: [400],
    },
    (c, { query }) => {
      const reader = readerFor(c);
      if (!reader) return c.json({ vouches: [], next_cursor: null });
      return c.json(listPersonVouches(ctx, reader, query));
    },
  );

  route(
    app,
    {
      method: 'post',
      path: API,
      tag,
      summary:
        "The person vouches for a person (prs_…) or an agent identity (agt_…) of an organisation that knows them, as the organisation's own POST /api/v1/vouches: never for themselves (422 self_vouch), 422 vouchee_not_found for anyone outside their organisations, 422 vouchee_revoked; a second vouch for the same vouchee answers the active one (200), nothing more recorded",
      auth: ['access_token'],
      middleware: writing,
      body: createPersonVouchRequest,
      response: { status: 201, description: 'The vouch, active (200 when it already was)', schema: personVouchEnvelope },
      errors: [421, 422],
    },
    (c, { body }) => {
      const reader = readerFor(c);
      if (!reader) throw notFound('No person or agent identity to vouch for: this account has no verified email.');
      const { id, created } = vouchAsPerson(ctx, reader, body);
      c.header('Location', `${API}/${id}`);
      return c.json({ vouch: toPersonVouch(findPersonVouch(ctx, reader, id)!) }, created ? 201 : 200);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${API}/{id}`,
      tag,
      summary: 'One vouch the signed-in person gave or received (any other is 404)',
      auth: ['access_token'],
      middleware: reading,
      response: { status: 200, description: 'The vouch as the person reads it', schema: personVouchEnvelope },
      errors: [404],
    },
    (c) => c.json({ vouch: toPersonVouch(ownVouch(c).row) }),
  );

  route(
    app,
    {
      method: 'post',
      path: `${API}/{id}/revoke`,
      tag,
      summary:
        "The person withdraws a vouch they gave, through the organisation's own revoke: it stops lifting the vouchee's trust score, and counts against it. One they received is 403 not_your_vouch; one already withdrawn stays as it is",
      auth: ['access_token'],
      middleware: writing,
      response: { status: 200, description: 'The vouch, revoked', schema: personVouchEnvelope },
      errors: [404],
    },
    (c) => {
      const { reader, row } = ownVouch(c);
      revokeAsPerson(ctx, reader, row);
      return c.json({ vouch: toPersonVouch(ownVouch(c).row) });
    },
  );
});
