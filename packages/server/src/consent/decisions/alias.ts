// The deprecated `/api/v1/consent_sessions` shape: the spec's Consent session create request, mapped onto a consent
// decision, and the Consent session resource it answers (until the alias's Sunset date). A Decision creation request
// sent to the alias is still a decision, answered as one.
import {
  type ConsentSession,
  type CreateConsentSessionRequest,
  type CreateDecisionRequest,
  createConsentSessionRequest,
  createDecisionRequest,
} from '@svc/schemas';
import type { Context } from 'hono';
import type { Env, Principal, ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { transaction } from '../../infra/transaction.js';
import { validate } from '../../infra/validate.js';
import { requestOrigin } from '../../platform/origins.js';
import { allowedOrigins } from './applications.js';
import { refuse } from './refusals.js';
import type { DecisionRow } from './row.js';
import { createDecision } from './store.js';
import { toWire } from './wire.js';

/** What the alias's create body is: the spec's Consent session request, or a Decision creation request. */
export type AliasCreate =
  | { shape: 'consent_session'; request: CreateConsentSessionRequest }
  | { shape: 'decision'; request: CreateDecisionRequest };

/**
 * Reads the alias's create body (already checked to be JSON within budget). A body naming `flow_id` and no `kind` is
 * the Consent session request; anything else is validated as a Decision request, as before.
 */
export async function readAliasCreate(c: Context<Env>): Promise<AliasCreate> {
  const value: unknown = JSON.parse(await c.req.text());
  const legacy = typeof value === 'object' && value !== null && !Array.isArray(value) && 'flow_id' in value && !('kind' in value);
  if (legacy) return { shape: 'consent_session', request: validate(createConsentSessionRequest, value) };
  return { shape: 'decision', request: validate(createDecisionRequest, value) };
}

/** The Decision delivery mode of each Consent session mode the service serves. */
const MODES = { iframe: 'embed', popup: 'popup', redirect: 'redirect' } as const;

interface AliasRow {
  delivery_mode: keyof typeof MODES;
  metadata: string | null;
}

/**
 * Creates the consent decision a Consent session request asks for, remembering the mode as sent and its metadata.
 * `inline` (the element rendered in the page itself) is refused: no session page renders inside the host's DOM.
 */
export function createConsentSession(
  ctx: ServerContext,
  principal: Principal,
  request: CreateConsentSessionRequest,
  origin: string | undefined,
): ConsentSession {
  const mode = request.delivery_mode ?? 'iframe';
  if (mode === 'inline') {
    throw refuse(
      'delivery_mode_unsupported',
      'delivery_mode inline is not served for consent sessions: use iframe, popup or redirect, or render the consent field element in the page and post it to POST /api/v1/captures.',
      'delivery_mode',
    );
  }
  const decision: CreateDecisionRequest = {
    kind: 'consent',
    subject_ref: request.flow_id,
    delivery_mode: MODES[mode],
    ...(mode === 'iframe' ? { embed_origin: embedOriginOf(ctx, principal, request, origin) } : {}),
    ...(request.redirect_uri !== undefined ? { redirect_uri: request.redirect_uri } : {}),
    ...(request.meeting_id !== undefined ? { meeting_id: request.meeting_id } : {}),
  };
  return transaction(ctx.db, () => {
    const row = createDecision(ctx, principal, decision, { atApplicationHome: true });
    const alias: AliasRow = { delivery_mode: mode, metadata: request.metadata ? JSON.stringify(request.metadata) : null };
    stmt(ctx.db, 'INSERT INTO consent_session_aliases (decision_id, delivery_mode, metadata) VALUES (?, ?, ?)').run(
      row.id,
      alias.delivery_mode,
      alias.metadata,
    );
    return toConsentSession(ctx, row, alias);
  });
}

/**
 * The origin that embeds an `iframe` session: `embed_origin` when sent; else the request's `Origin` (the page that
 * creates the session is the page that embeds it); else the flow's application's only allowed origin. The decision
 * then checks it is one of the application's allowed origins, as for any embed.
 */
function embedOriginOf(
  ctx: ServerContext,
  principal: Principal,
  request: CreateConsentSessionRequest,
  origin: string | undefined,
): string | undefined {
  if (request.embed_origin !== undefined) return request.embed_origin;
  if (origin !== undefined) return origin;
  const applicationId = stmt<[string, string], string>(ctx.db, 'SELECT application_id FROM flows WHERE id = ? AND account_id = ?')
    .pluck()
    .get(request.flow_id, principal.accountId) as unknown as string | undefined;
  if (applicationId === undefined) return undefined; // the decision answers 404 for the flow
  const origins = allowedOrigins(ctx, applicationId);
  if (origins.length === 1) return origins[0];
  throw refuse(
    'embed_origin_required',
    `An iframe consent session needs the origin that embeds it: send embed_origin, create the session from that page (its Origin header), or register exactly one allowed origin for application ${applicationId} (it has ${origins.length}).`,
    'embed_origin',
  );
}

/** The Consent session of a decision created through the alias's own shape, or undefined for any other decision. */
export function consentSessionOf(ctx: ServerContext, row: DecisionRow): ConsentSession | undefined {
  const alias = stmt<[string], AliasRow>(ctx.db, 'SELECT delivery_mode, metadata FROM consent_session_aliases WHERE decision_id = ?').get(
    row.id,
  );
  return alias ? toConsentSession(ctx, row, alias) : undefined;
}

/**
 * A decision's status as one of the nine consent token statuses, with how it ended: a session that ended without
 * consent (declined or cancelled) is `expired` (no consent token will ever verify), the ending in `outcome`.
 */
export function consentTokenStatusOf(status: DecisionRow['status']): Pick<ConsentSession, 'status' | 'outcome'> {
  switch (status) {
    case 'declined':
    case 'cancelled':
      return { status: 'expired', outcome: status };
    case 'fulfilled':
    case 'revoked':
      return { status, outcome: 'granted' };
    case 'pending':
    case 'authenticating':
    case 'verifying':
    case 'reviewing':
    case 'informed':
    case 'evidenced':
    case 'expired':
      return { status, outcome: null };
    default:
      throw new Error(`a consent decision cannot be ${status}`);
  }
}

function toConsentSession(ctx: ServerContext, row: DecisionRow, alias: AliasRow): ConsentSession {
  const wire = toWire(ctx, row);
  return {
    id: wire.id,
    flow_id: wire.subject_ref,
    ...consentTokenStatusOf(row.status),
    delivery_mode: alias.delivery_mode,
    embed_url: wire.embed_url,
    url: wire.url,
    session_token: wire.session_token,
    redirect_uri: wire.redirect_uri,
    meeting_id: wire.meeting_id,
    metadata: alias.metadata === null ? null : (JSON.parse(alias.metadata) as Record<string, unknown>),
    created_at: wire.created_at,
    expires_at: wire.deadline_at,
  };
}

/** The request's `Origin`, as the alias's create reads it. */
export const originOf = (c: Context<Env>): string | undefined => requestOrigin(c);
