// The decisions API: create and read decisions, exchange a completed one, verify consent tokens, and the deprecated
// `/api/v1/consent_sessions` alias of all of it.
import {
  consentExchange,
  consentSessionEnvelope,
  createConsentSessionRequest,
  consentVerification,
  createDecisionRequest,
  decisionEnvelope,
  exchangeRequest,
  verifyConsentTokenRequest,
  type VerifyConsentTokenRequest,
} from '@svc/schemas';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { z } from 'zod/mini';
import type { Env, ServerContext } from '../../infra/context.js';
import { route } from '../../infra/http/route.js';
import { jsonBody } from '../../infra/validate.js';
import { consentSessionOf, createConsentSession, originOf, readAliasCreate } from './alias.js';
import { exchangeDecision } from './exchange.js';
import { verifyConsentToken } from './kinds/consent/token.js';
import { createDecision, findOwnedDecision } from './store.js';
import { toWire } from './wire.js';

/** Where the current decisions API lives, and its deprecated alias. */
const DECISIONS = '/api/v1/decisions';
const ALIAS = '/api/v1/consent_sessions';

/** When the alias was deprecated (RFC 9745 `Deprecation: @<unix seconds>`): 2026-01-01T00:00:00Z. */
export const ALIAS_DEPRECATED_AT = Date.UTC(2026, 0, 1) / 1000;
/** When the alias stops working (RFC 8594 `Sunset`, an HTTP-date): 2027-12-31T23:59:59Z. */
export const ALIAS_SUNSET = new Date(Date.UTC(2027, 11, 31, 23, 59, 59)).toUTCString();

/**
 * Adds the deprecation headers to every answer of the alias: `Deprecation`, `Sunset` and a `Link` to the same
 * operation under `/api/v1/decisions` (`rel="successor-version"`).
 */
function deprecated(ctx: ServerContext): MiddlewareHandler<Env> {
  return async (c, next) => {
    await next();
    // From the path as sent (still percent-encoded): a decoded token may hold characters no header can carry.
    const path = new URL(c.req.url).pathname;
    const successor = path === `${ALIAS}/verify` ? '/api/v1/consent_tokens/verify' : DECISIONS + path.slice(ALIAS.length);
    c.res.headers.set('Deprecation', `@${ALIAS_DEPRECATED_AT}`);
    c.res.headers.set('Sunset', ALIAS_SUNSET);
    c.res.headers.append('Link', `<${ctx.baseUrl}${successor}>; rel="successor-version"`);
  };
}

const tag = 'Decisions';

/** Mounts the decisions API and its deprecated alias (the same operations, marked deprecated in the document). */
export function decisionRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  app.use(`${ALIAS}/*`, deprecated(ctx));
  for (const base of [DECISIONS, ALIAS]) decisionsAt(app, ctx, base);
  const verify = (c: Context<Env>, { body }: { body: VerifyConsentTokenRequest }) =>
    c.json(verifyConsentToken(ctx, c.get('principal').accountId, body.consent_token));
  for (const path of ['/api/v1/consent_tokens/verify', `${ALIAS}/verify`]) {
    const alias = path.startsWith(ALIAS);
    route(
      app,
      {
        method: 'post',
        path,
        tag,
        deprecated: alias,
        summary: `Verify a consent token once: valid within 5 minutes of issue, expired after or when verified before${alias ? ' (deprecated alias of /api/v1/consent_tokens/verify)' : ''}`,
        permission: 'read',
        body: verifyConsentTokenRequest,
        response: { status: 200, description: 'ConsentVerification', schema: consentVerification },
        errors: [400, 422],
      },
      verify,
    );
  }
}

/** Create, read and exchange under `base` (the API's path or its deprecated alias). */
function decisionsAt(app: OpenAPIHono<Env>, ctx: ServerContext, base: string): void {
  const deprecatedAlias = base === ALIAS;
  const note = deprecatedAlias ? ' (deprecated alias of /api/v1/decisions; answers carry Deprecation, Sunset and Link headers)' : '';
  const token = (c: Context<Env>) => c.req.param('session_token') ?? '';

  if (deprecatedAlias) aliasCreateAndRead(app, ctx, note);
  else createAndRead(app, ctx);

  // 404 before reading a body for someone else's decision.
  const owned: MiddlewareHandler<Env> = async (c, next) => {
    findOwnedDecision(ctx, c.get('principal'), token(c));
    await next();
  };
  route(
    app,
    {
      method: 'post',
      path: `${base}/{session_token}/exchange`,
      tag,
      deprecated: deprecatedAlias,
      summary: `Exchange the exchange_token of svc:complete, once, for the outcome and (for granted consent) the consent token${note}`,
      permission: 'read',
      middleware: [owned],
      body: exchangeRequest,
      response: { status: 200, description: 'ConsentExchange', schema: consentExchange },
      errors: [400, 404, 422],
    },
    (c, { body }) => c.json(exchangeDecision(ctx, c.get('principal'), token(c), body.exchange_token)),
  );
}

/** Create and read under `/api/v1/decisions`. */
function createAndRead(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  route(
    app,
    {
      method: 'post',
      path: DECISIONS,
      tag,
      summary: 'Create a decision: a consent (subject_ref = flow id) or an approval (subject_ref = escalation id)',
      permission: 'write',
      access: { publishable: true },
      body: createDecisionRequest,
      response: { status: 201, description: 'The kind-uniform decision session', schema: decisionEnvelope },
      errors: [400, 404, 422],
    },
    (c, { body }) => {
      const row = createDecision(ctx, c.get('principal'), body, { atApplicationHome: true });
      c.header('Location', `${DECISIONS}/${row.session_token}`);
      return c.json({ decision: toWire(ctx, row) }, 201);
    },
  );
  route(
    app,
    {
      method: 'get',
      path: `${DECISIONS}/{session_token}`,
      tag,
      summary: "Read a decision of the caller's account",
      permission: 'read',
      response: { status: 200, description: 'The decision', schema: decisionEnvelope },
      errors: [404],
    },
    (c) => c.json({ decision: toWire(ctx, findOwnedDecision(ctx, c.get('principal'), c.req.param('session_token') ?? '')) }),
  );
}

/**
 * Create and read under the deprecated alias: the spec's Consent session request is answered `{consent_session}`
 * (and read back so), a Decision creation request `{decision}` as under `/api/v1/decisions`.
 */
function aliasCreateAndRead(app: OpenAPIHono<Env>, ctx: ServerContext, note: string): void {
  route(
    app,
    {
      method: 'post',
      path: ALIAS,
      tag,
      deprecated: true,
      summary: `Create a consent session (the spec's Consent session request; delivery_mode iframe, popup or redirect; inline is refused with 422 delivery_mode_unsupported) or a decision (a Decision creation request)${note}`,
      permission: 'write',
      access: { publishable: true },
      middleware: [jsonBody()],
      rawBody: z.union([createConsentSessionRequest, createDecisionRequest]),
      response: {
        status: 201,
        description: 'The Consent session ({consent_session}) or, for a Decision request, the decision ({decision})',
        schema: z.union([consentSessionEnvelope, decisionEnvelope]),
      },
      errors: [400, 404, 413, 422],
    },
    async (c) => {
      const created = await readAliasCreate(c);
      if (created.shape === 'consent_session') {
        const session = createConsentSession(ctx, c.get('principal'), created.request, originOf(c));
        c.header('Location', `${ALIAS}/${session.session_token}`);
        return c.json({ consent_session: session }, 201);
      }
      const row = createDecision(ctx, c.get('principal'), created.request, { atApplicationHome: true });
      c.header('Location', `${DECISIONS}/${row.session_token}`);
      return c.json({ decision: toWire(ctx, row) }, 201);
    },
  );
  route(
    app,
    {
      method: 'get',
      path: `${ALIAS}/{session_token}`,
      tag,
      deprecated: true,
      summary: `Read a consent session ({consent_session}, when created with the Consent session request) or a decision ({decision})${note}`,
      permission: 'read',
      response: {
        status: 200,
        description: 'The Consent session or the decision',
        schema: z.union([consentSessionEnvelope, decisionEnvelope]),
      },
      errors: [404],
    },
    (c) => {
      const row = findOwnedDecision(ctx, c.get('principal'), c.req.param('session_token') ?? '');
      const session = consentSessionOf(ctx, row);
      return session ? c.json({ consent_session: session }) : c.json({ decision: toWire(ctx, row) });
    },
  );
}
