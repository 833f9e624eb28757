// Verify: trust scores and vouches. `GET /api/v1/trust_scores/{subject_id}` answers the one trust-score function
// (delegations/trust-score.ts, which the reputation bound reads) for a person (`prs_…`: an API token of the account,
// or the person's own access token) or an agent identity (`agt_…`: an API token, or a person of the account).
// `/api/v1/vouches`: a person vouches with their own access token, lists what they gave and received, revokes what
// they gave; an API token reads the account's vouches.
import { createVouchRequest, trustScoreEnvelope, vouchEnvelope, vouchList, vouchListQuery } from '@svc/schemas';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { route, routes } from '../../infra/http/route.js';
import { getAgentIdentity } from '../../authority/agents/store.js';
import { personTrustScore, trustScore } from '../../authority/delegations/trust-score.js';
import { requires } from '../../infra/auth.js';
import type { Env, Principal, ServerContext } from '../../infra/context.js';
import { forbidden, notFound } from '../../infra/errors.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { createVouch, isPersonOf, listVouches, revokeVouch, toVouch, visibleVouch } from './vouches.js';

const TRUST_SCORES = '/api/v1/trust_scores';
const VOUCHES = '/api/v1/vouches';
const tag = 'Trust scores and vouches';

/** The calling person, or a 403 naming what the call needs. */
function personOnly(principal: Principal, what: string): Extract<Principal, { kind: 'person' }> {
  if (principal.kind !== 'person')
    throw forbidden(`${what} needs the person's own access token, not an API token.`, 'person_token_required');
  return principal;
}

/**
 * A vouch is a person's own act: the route admits a person's access token only. An API token passes the permission
 * check and is then refused by name (before its body is read), as it always was.
 */
const personalWrite: MiddlewareHandler<Env> = requires('write', { person: true });
const vouching: MiddlewareHandler<Env> = async (c, next) => {
  personOnly(c.get('principal'), 'Vouching');
  await next();
};

function vouchOf(c: Context<Env>, ctx: ServerContext) {
  const row = visibleVouch(ctx, c.get('principal'), c.req.param('id') ?? '');
  if (!row) throw notFound('No such vouch.');
  return row;
}

/** The trust score and vouch routes. */
export const verifyRoutes = routes((app, ctx) => {
  route(
    app,
    {
      method: 'get',
      path: `${TRUST_SCORES}/{subject_id}`,
      summary:
        "A trust score (0-100) with its factors, of a person (prs_…: an API token, or the person's own access token) or an agent identity (agt_…: an API token, or a person of the account). Deterministic: 50 plus each factor's contribution, its weight times its value bounded by its cap. Agents: actions allowed (+1 per 10, cap 30), denied (-2, cap 30), escalations denied (-5, cap 20), grants revoked (-10, cap 40), vouches received (+5, cap 20) and revoked (-5, cap 20). Persons: verified sign-ins (+2, cap 10), consents in force (+1, cap 10), consents withdrawn (weight 0), age (+1 per 30 days, cap 10), vouches received (+5, cap 20) and revoked (-5, cap 20). The reputation bound of a delegation reads the same score",
      tag,
      permission: 'read',
      access: { person: true },
      response: { status: 200, description: 'The score now', schema: trustScoreEnvelope },
      errors: [404, 421],
    },
    (c) => {
      const principal = c.get('principal');
      const id = c.req.param('subject_id')!;
      if (id.startsWith('prs_')) {
        // A person reads their own score; the organisation reads its people's.
        const visible = principal.kind === 'person' ? principal.personId === id : isPersonOf(ctx, principal.accountId, id);
        if (!visible) throw notFound('No such person.');
        return c.json({ trust_score: personTrustScore(ctx, id) });
      }
      const agent = id.startsWith('agt_') ? getAgentIdentity(ctx, principal.accountId, id) : undefined;
      if (!agent) throw notFound('No such subject: trust scores are of persons (prs_…) and agent identities (agt_…) of this account.');
      return c.json({ trust_score: trustScore(ctx, agent.id) });
    },
  );

  vouchRoutes(app, ctx);
});

/** `/api/v1/vouches`: given with a person's own token, read by them or by the account's API tokens. */
function vouchRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  route(
    app,
    {
      method: 'post',
      path: VOUCHES,
      summary:
        "Vouch for a person or an agent identity of the account, with the voucher's own access token: one active vouch per pair (409 vouch_exists), never for oneself (422 self_vouch); 422 vouchee_not_found, vouchee_revoked; 421 wrong_country when the person is homed in another cell",
      tag,
      auth: ['access_token'],
      middleware: [personalWrite, vouching],
      body: createVouchRequest,
      response: { status: 201, description: 'The vouch, active', schema: vouchEnvelope },
      errors: [409, 421, 422],
    },
    (c, { body }) => {
      const person = personOnly(c.get('principal'), 'Vouching');
      const row = createVouch(ctx, person.accountId, person.personId, body);
      c.header('Location', `${VOUCHES}/${row.id}`);
      return c.json({ vouch: toVouch(row) }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: VOUCHES,
      summary:
        "List vouches, oldest first: a person's own (direction given or received, default both), or the account's for an API token (filters voucher_id, vouchee_id); status filters either",
      tag,
      permission: 'read',
      access: { person: true },
      query: vouchListQuery,
      response: { status: 200, description: 'A page of vouches', schema: vouchList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, ...filter } }) => c.json(listVouches(ctx, c.get('principal'), { limit, ...filter })),
  );

  route(
    app,
    {
      method: 'get',
      path: `${VOUCHES}/{id}`,
      summary: "Read a vouch (an API token of the account, or its voucher's or vouchee's access token)",
      tag,
      permission: 'read',
      access: { person: true },
      response: { status: 200, description: 'The vouch', schema: vouchEnvelope },
      errors: [404, 421],
    },
    (c) => c.json({ vouch: toVouch(vouchOf(c, ctx)) }),
  );

  // An API token of the account learns whether the vouch exists (404) before it is refused as not its voucher.
  route(
    app,
    {
      method: 'post',
      path: `${VOUCHES}/{id}/revoke`,
      summary:
        "Revoke a vouch, with the voucher's own access token (403 not_your_vouch for anyone else): active -> revoked, once (409 illegal_transition). A revoked vouch counts against the vouchee's trust score",
      tag,
      auth: ['access_token'],
      middleware: [personalWrite],
      response: { status: 200, description: 'The vouch, revoked', schema: vouchEnvelope },
      errors: [404, 409, 421],
    },
    (c) => {
      const row = vouchOf(c, ctx);
      const person = personOnly(c.get('principal'), 'Revoking a vouch');
      return c.json({ vouch: toVouch(revokeVouch(ctx, row, person.personId)) });
    },
  );
}
