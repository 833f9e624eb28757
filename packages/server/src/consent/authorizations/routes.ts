// The withdrawal entry of an authorization record (`authority.withdrawal_method`): a hosted page anyone can open
// without a credential. It says truthfully what withdrawing an approval means here: the service recorded the
// decision but does not carry out the approved action, so a granted approval is withdrawn with the organisation
// that asked for it, quoting the record.
import type { Hono } from 'hono';
import type { Env, ServerContext } from '../../infra/context.js';
import { messagePage } from '../../hosted/pages/render.js';
import { sendPage } from '../../hosted/pages/routes.js';
import { withdrawalFacts } from './store.js';

/** Mounts `GET /authorization_receipts/{record_id}/withdraw` on the hosted pages' origin. */
export function authorizationPageRoutes(app: Hono<Env>, ctx: ServerContext): void {
  app.get('/authorization_receipts/:id/withdraw', (c) => {
    const id = c.req.param('id');
    const facts = withdrawalFacts(ctx, id);
    if (!facts) {
      return sendPage(c, messagePage({ title: 'Record not found', message: 'There is no authorization record at this address.' }), [], 404);
    }
    if (facts.grantId) {
      const grant = `You delegated authority through ${facts.applicationName} (grant ${facts.grantId}, record ${id}). To revoke it, sign in to ${facts.applicationName} and revoke the grant there, or have any app you signed in to through this service call POST /api/v1/delegations/${facts.grantId}/revoke with your sign-in. Revocation stops every token issued from the grant at once; actions already taken stay on the record.`;
      return sendPage(c, messagePage({ title: 'Revoking a delegation', message: grant }), []);
    }
    const message =
      facts.outcome === 'approved'
        ? `You approved a request from ${facts.applicationName}. This service recorded your approval; ${facts.applicationName} carries out the action. To withdraw your approval, contact ${facts.applicationName} and quote record ${id}. An action already carried out cannot be undone here.`
        : `You ${facts.outcome === 'denied' ? 'denied' : 'made a counter-proposal to'} a request from ${facts.applicationName} (record ${id}). Nothing was authorized, so there is nothing to withdraw.`;
    return sendPage(c, messagePage({ title: 'Withdrawing an approval', message }), []);
  });
}
