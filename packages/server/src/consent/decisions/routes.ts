// The decisions API: create and read decisions, exchange a completed one, verify consent tokens, and the deprecated
// `/api/v1/consent_sessions` alias of all of it.
import {
  consentExchange,
  consentVerification,
  createDecisionRequest,
  decisionEnvelope,
  exchangeRequest,
  verifyConsentTokenRequest,
} from '@svc/client/schemas';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { requires } from '../../infra/auth.js';
import type { Env, ServerContext } from '../../infra/context.js';
import type { Operation } from '../../infra/operations.js';
import { readJson } from '../../infra/validate.js';
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

/** Mounts the decisions API and its deprecated alias. */
export function decisionRoutes(app: Hono<Env>, ctx: ServerContext): void {
  const create = async (c: Context<Env>) => {
    const request = await readJson(c, createDecisionRequest);
    const row = createDecision(ctx, c.get('principal'), request, { atApplicationHome: true });
    c.header('Location', `${DECISIONS}/${row.session_token}`);
    return c.json({ decision: toWire(ctx, row) }, 201);
  };
  const read = (c: Context<Env>) => c.json({ decision: toWire(ctx, findOwnedDecision(ctx, c.get('principal'), c.req.param('token') ?? '')) });
  const exchange = async (c: Context<Env>) => {
    const token = c.req.param('token') ?? '';
    findOwnedDecision(ctx, c.get('principal'), token); // 404 before reading a body for someone else's decision
    const { exchange_token } = await readJson(c, exchangeRequest);
    return c.json(exchangeDecision(ctx, c.get('principal'), token, exchange_token));
  };
  const verify = async (c: Context<Env>) => {
    const { consent_token } = await readJson(c, verifyConsentTokenRequest);
    return c.json(verifyConsentToken(ctx, c.get('principal').accountId, consent_token));
  };

  app.use(`${ALIAS}/*`, deprecated(ctx));
  for (const base of [DECISIONS, ALIAS]) {
    app.post(base, requires('write', { publishable: true }), create);
    app.get(`${base}/:token`, requires('read'), read);
    app.post(`${base}/:token/exchange`, requires('read'), exchange);
  }
  app.post('/api/v1/consent_tokens/verify', requires('read'), verify);
  app.post(`${ALIAS}/verify`, requires('read'), verify);
}

const tokenErrors = [400, 404, 422];

/** The decisions operations for the OpenAPI document, the alias marked deprecated. */
export const decisionOperations: Operation[] = [DECISIONS, ALIAS].flatMap((base): Operation[] => {
  const deprecatedAlias = base === ALIAS;
  const note = deprecatedAlias ? ' (deprecated alias of /api/v1/decisions; answers carry Deprecation, Sunset and Link headers)' : '';
  return [
    {
      method: 'post',
      path: base,
      summary: `Create a decision: a consent (subject_ref = flow id) or an approval (subject_ref = escalation id)${note}`,
      tag: 'Decisions',
      auth: ['api_token', 'publishable_key'],
      permission: 'write',
      body: createDecisionRequest,
      response: { status: 201, description: 'The kind-uniform decision session', schema: decisionEnvelope },
      errors: [400, 404, 422],
      deprecated: deprecatedAlias,
    },
    {
      method: 'get',
      path: `${base}/{session_token}`,
      summary: `Read a decision of the caller's account${note}`,
      tag: 'Decisions',
      auth: ['api_token'],
      permission: 'read',
      response: { status: 200, description: 'The decision', schema: decisionEnvelope },
      errors: [404],
      deprecated: deprecatedAlias,
    },
    {
      method: 'post',
      path: `${base}/{session_token}/exchange`,
      summary: `Exchange the exchange_token of svc:complete, once, for the outcome and (for granted consent) the consent token${note}`,
      tag: 'Decisions',
      auth: ['api_token'],
      permission: 'read',
      body: exchangeRequest,
      response: { status: 200, description: 'ConsentExchange', schema: consentExchange },
      errors: tokenErrors,
      deprecated: deprecatedAlias,
    },
    {
      method: 'post',
      path: deprecatedAlias ? `${ALIAS}/verify` : '/api/v1/consent_tokens/verify',
      summary: `Verify a consent token once: valid within 5 minutes of issue, expired after or when verified before${deprecatedAlias ? ' (deprecated alias of /api/v1/consent_tokens/verify)' : ''}`,
      tag: 'Decisions',
      auth: ['api_token'],
      permission: 'read',
      body: verifyConsentTokenRequest,
      response: { status: 200, description: 'ConsentVerification', schema: consentVerification },
      errors: [400, 422],
      deprecated: deprecatedAlias,
    },
  ];
});
