// `/oap/escalations/{id}`: the per-row page of an escalation, on the hosted pages' origin. Its address is known to
// the agent that asked, so it shows only where the request stands and never the decision: the principal decides
// through the link the organisation or their inbox gives them.
import type { Hono } from 'hono';
import type { Env, ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { escapeHtml, messagePage } from '../../hosted/pages/render.js';
import { sendPage } from '../../hosted/pages/routes.js';
import { actionOf, escalationStatusAt, findEscalationRow } from './escalation-store.js';

const STANDING = {
  pending: 'waits for the decision of the person the agent acts for',
  approved: 'was approved; the agent may take this action once',
  denied: 'was denied; the agent may not take this action',
  countered: 'was answered with a counter-proposal; the agent may not take this action as asked',
  expired: 'expired without a decision; the agent may not take this action',
} as const;

/** Mounts `GET /oap/escalations/{id}`. */
export function escalationPageRoutes(app: Hono<Env>, ctx: ServerContext): void {
  app.get('/oap/escalations/:id', (c) => {
    const row = findEscalationRow(ctx, c.req.param('id'));
    if (!row)
      return sendPage(c, messagePage({ title: 'Request not found', message: 'There is no agent request at this address.' }), [], 404);
    const action = actionOf(row);
    const agent =
      (stmt<[string], string>(ctx.db, 'SELECT display_name FROM agent_identities WHERE id = ?').pluck().get(row.agent_id) as unknown as
        | string
        | undefined) ?? row.agent_id;
    const status = escalationStatusAt(row, ctx.clock.now());
    const html = `<p>${escapeHtml(agent)}, an AI agent, asked for approval to: ${escapeHtml(action.description)}${
      action.value !== null ? ` (${escapeHtml(`${action.value} ${action.currency}`)})` : ''
    }.</p>
<p>This request ${STANDING[status]}.</p>
<dl><dt>Reference</dt><dd>${escapeHtml(row.id)}</dd><dt>Asked</dt><dd>${escapeHtml(row.created_at)}</dd></dl>`;
    return sendPage(c, messagePage({ title: 'Agent request', html }), []);
  });
}
