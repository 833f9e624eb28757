// `/api/v1/agreements`: an organisation's agreements (API tokens: `write` to create, `read` to look). Creating one
// opens each party's signing session (a decision of kind `signature_request`); reading one first moves the sessions
// past their deadline to `expired` (and their parties with them), so what it answers is never stale. Another
// account's agreement is a 404, as if it did not exist.
import {
  agreementEnvelope,
  agreementList,
  agreementListQuery,
  createAgreementRequest,
  quorumVoteList,
  signedAgreementReceipt,
  type CreateAgreementRequest,
} from '@svc/schemas';
import type { Context } from 'hono';
import { route, routes } from '../../../infra/http/route.js';
import { defaultApplication, getApplication } from '../../../consent/decisions/applications.js';
import { createDecision, findDecision } from '../../../consent/decisions/store.js';
import type { Env, Principal, ServerContext } from '../../../infra/context.js';
import { stmt } from '../../../infra/db.js';
import { ApiError, notFound, unprocessable } from '../../../infra/errors.js';
import { DEFAULT_LIMIT } from '../../../infra/pagination.js';
import { signJcs } from '../../../consent/receipts/sign.js';
import { agreementReceiptOf, createAgreement, findAgreementRow, listAgreements, partiesOf, quorumVotesOf, toAgreement } from './store.js';

const BASE = '/api/v1/agreements';

/**
 * Moves every signing session of the agreement that is past its deadline to `expired` (its party with it, and
 * `signature.expired` once): the shared layer's expiry, applied when the agreement is read rather than only when a
 * session is (the sweep does the same every second).
 */
export function expireDueSessions(ctx: ServerContext, agreementId: string): void {
  const now = ctx.clock.now();
  for (const party of partiesOf(ctx, agreementId)) {
    if (party.status !== 'pending' || !party.decision_id) continue;
    const session = stmt<[string], { session_token: string; deadline_at: string }>(
      ctx.db,
      'SELECT session_token, deadline_at FROM decisions WHERE id = ?',
    ).get(party.decision_id);
    if (session && Date.parse(session.deadline_at) <= now) findDecision(ctx, session.session_token);
  }
}

/** The caller's agreement `{id}`, with due sessions expired; 404 for anything else. */
function owned(ctx: ServerContext, c: Context<Env>) {
  const id = c.req.param('id') ?? '';
  const row = findAgreementRow(ctx, c.get('principal').accountId, id);
  if (!row) throw notFound('No such agreement.');
  expireDueSessions(ctx, row.id);
  return findAgreementRow(ctx, c.get('principal').accountId, id)!;
}

/**
 * Creates the agreement `principal` asked for, in its application (the named one, 404 `application_not_found` when it
 * is not the account's; else the account's first), opening each party's signing session. `path` names the request's
 * envelope in errors. The multi-party agreements of the Agree surface are made here too.
 */
export function createAgreementFor(
  ctx: ServerContext,
  principal: Principal,
  agreement: CreateAgreementRequest['agreement'],
  path = 'agreement',
) {
  const application = agreement.application_id
    ? getApplication(ctx, agreement.application_id)
    : defaultApplication(ctx, principal.accountId);
  if (agreement.application_id && application?.account_id !== principal.accountId) {
    throw new ApiError(404, `No application ${agreement.application_id} in this account.`, 'application_not_found', [
      { path: `${path}.application_id`, code: 'application_not_found', message: 'no such application' },
    ]);
  }
  if (!application) throw unprocessable('The account has no active application to hold this agreement.', 'application_missing');
  return createAgreement(
    ctx,
    { accountId: principal.accountId, applicationId: application.id, agreement },
    (party, deadlineAt) =>
      createDecision(
        ctx,
        principal,
        {
          kind: 'signature_request',
          subject_ref: party.id,
          delivery_mode: agreement.delivery_mode ?? 'redirect',
          ...(agreement.embed_origin !== undefined ? { embed_origin: agreement.embed_origin } : {}),
          ...(agreement.redirect_uri !== undefined ? { redirect_uri: agreement.redirect_uri } : {}),
        },
        { applicationId: application.id, deadlineAt },
      ).id,
  );
}

const tag = 'Agreements';

/** `POST|GET /api/v1/agreements`, `GET …/{id}`, `GET …/{id}/receipt`, `GET …/{id}/quorum_votes`. */
export const agreementRoutes = routes((app, ctx) => {
  route(
    app,
    {
      method: 'post',
      path: BASE,
      summary:
        "Create an agreement: the document to sign (its text and SHA-256, checked: 422 digest_mismatch), the parties by email with their home country, the quorum (at most the number of parties); opens each party's signing session (kind signature_request)",
      tag,
      permission: 'write',
      body: createAgreementRequest,
      response: {
        status: 201,
        description: "The agreement, pending, with each party's session_token and url (the hosted signing page)",
        schema: agreementEnvelope,
      },
      errors: [404, 422],
    },
    (c, { body: { agreement } }) => {
      const row = createAgreementFor(ctx, c.get('principal'), agreement);
      c.header('Location', `${BASE}/${row.id}`);
      return c.json({ agreement: toAgreement(ctx, row) }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: BASE,
      summary: "List the account's agreements, oldest first (filter: status)",
      tag,
      permission: 'read',
      query: agreementListQuery,
      response: { status: 200, description: 'A page of agreements', schema: agreementList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor, status } }) => {
      const accountId = c.get('principal').accountId;
      // The status filter must see the agreements as they are now: expire what is due on the page first.
      for (const agreement of listAgreements(ctx, accountId, { limit, cursor }).agreements) expireDueSessions(ctx, agreement.id);
      return c.json(listAgreements(ctx, accountId, { limit, cursor, status }));
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${BASE}/{id}`,
      summary: 'Read an agreement: its status (pending, partially_signed, active), quorum status and parties',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The agreement', schema: agreementEnvelope },
      errors: [404],
    },
    (c) => c.json({ agreement: toAgreement(ctx, owned(ctx, c)) }),
  );

  route(
    app,
    {
      method: 'get',
      path: `${BASE}/{id}/receipt`,
      summary:
        "The agreement's receipt, the set of its signatures (each a compact JWS over the document hash, the party and the time), signed like a receipt: a detached JWS over its RFC 8785 bytes, verifiable offline with the JWKS",
      tag,
      permission: 'read',
      response: { status: 200, description: '{agreement_receipt, signature}', schema: signedAgreementReceipt },
      errors: [404],
    },
    async (c) => {
      const receipt = agreementReceiptOf(ctx, owned(ctx, c));
      return c.json({ agreement_receipt: receipt, signature: await signJcs(receipt, ctx.keys.privateKey, ctx.keys.kid) });
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${BASE}/{id}/quorum_votes`,
      summary:
        "The parties' quorum votes (approve with a signature, deny with a decline or a counter-proposal, with the comment), in the order they were cast",
      tag,
      permission: 'read',
      response: { status: 200, description: '{quorum_votes}', schema: quorumVoteList },
      errors: [404],
    },
    (c) => c.json({ quorum_votes: quorumVotesOf(ctx, owned(ctx, c)) }),
  );
});
