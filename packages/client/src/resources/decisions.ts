import {
  consentExchange,
  decisionEnvelope,
  type AuthorizedDecision,
  type AuthorizeRequest,
  type ConsentExchange,
  type CreateDecisionRequest,
  type Decision,
  type ExchangeRequest,
} from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import { authorizeCapture } from './captures.js';

const path = (sessionToken: string, action = '') => `/api/v1/decisions/${encodeURIComponent(sessionToken)}${action}`;

/**
 * Creates a decision session (`POST /api/v1/decisions`) and returns it; render its `session_token` with
 * `<svc-decision>`. Allowed with a publishable key.
 */
export function createDecision(connection: SvcConnection, request: CreateDecisionRequest, options?: WriteOptions): Promise<Decision> {
  return connection
    .request({ method: 'POST', path: '/api/v1/decisions', body: request, schema: decisionEnvelope }, options)
    .then((body) => body.decision);
}

/** Reads a decision by its session token (`GET /api/v1/decisions/{session_token}`). */
export function getDecision(connection: SvcConnection<'bearer'>, sessionToken: string, options?: CallOptions): Promise<Decision> {
  return connection.request({ method: 'GET', path: path(sessionToken), schema: decisionEnvelope }, options).then((body) => body.decision);
}

/**
 * Exchanges the `exchange_token` a page received in `svc:complete` for the decision's verified claims (and, for
 * a granted consent, its consent token). Server-side only: the page hands the token to its server.
 */
export function exchangeDecision(
  connection: SvcConnection<'bearer'>,
  sessionToken: string,
  exchangeToken: string,
  options?: WriteOptions,
): Promise<ConsentExchange> {
  return connection.request(
    {
      method: 'POST',
      path: path(sessionToken, '/exchange'),
      body: { exchange_token: exchangeToken } satisfies ExchangeRequest,
      schema: consentExchange,
    },
    options,
  );
}

/** Decision sessions as a bearer credential sees them. */
export interface DecisionsResource {
  /** Creates a decision session; see {@link createDecision}. */
  create(request: CreateDecisionRequest, options?: WriteOptions): Promise<Decision>;
  /** Reads a decision by its session token; see {@link getDecision}. */
  get(sessionToken: string, options?: CallOptions): Promise<Decision>;
  /** Exchanges a completed decision's `exchange_token` for its claims; see {@link exchangeDecision}. */
  exchange(sessionToken: string, exchangeToken: string, options?: WriteOptions): Promise<ConsentExchange>;
  /** Commits a capture token (the `svc_capture_token` a form posted); see {@link authorizeCapture}. */
  authorize(sessionToken: string, request: AuthorizeRequest, options?: WriteOptions): Promise<AuthorizedDecision>;
}

/** Decision sessions as a publishable key sees them: it may only create them. */
export type PublishableDecisionsResource = Pick<DecisionsResource, 'create'>;

/** Binds the decision functions to a bearer connection. */
export function decisionsResource(connection: SvcConnection<'bearer'>): DecisionsResource {
  return {
    create: (request, options) => createDecision(connection, request, options),
    get: (sessionToken, options) => getDecision(connection, sessionToken, options),
    exchange: (sessionToken, exchangeToken, options) => exchangeDecision(connection, sessionToken, exchangeToken, options),
    authorize: (sessionToken, request, options) => authorizeCapture(connection, sessionToken, request, options),
  };
}
