import {
  authorizedDecisionEnvelope,
  captureResponse,
  flowRender,
  type AuthorizedDecision,
  type AuthorizeRequest,
  type CaptureRequest,
  type CaptureResult,
  type FlowRender,
} from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';

/** Options of {@link renderFlow}. */
export interface RenderOptions extends CallOptions {
  /** The locale the page would like; the flow's own wording is served, and the answer's `locale` says which. */
  locale?: string | undefined;
}

/** Options of {@link createCapture}. */
export interface CaptureOptions extends WriteOptions {
  /** The `render_proof` of {@link renderFlow}, sent as `X-Svc-Render-Proof`: the capture is then `embedded_field`. */
  renderProof?: string | undefined;
}

/**
 * Fetches what the consent field shows for a capturable flow, with a render proof bound to the page origin
 * (`GET /api/v1/flows/{id}/render`). Publishable key only, from an allowed origin.
 */
export function renderFlow(connection: SvcConnection<'publishable_key'>, flowId: string, options: RenderOptions = {}): Promise<FlowRender> {
  const { locale, ...callOptions } = options;
  return connection.request(
    { method: 'GET', path: `/api/v1/flows/${encodeURIComponent(flowId)}/render`, query: { locale }, schema: flowRender },
    callOptions,
  );
}

/**
 * Posts a consent capture (`POST /api/v1/captures`) and returns the capture: its `session_token` (the capture
 * token, to commit from the server within 24 hours) or, for a browser commit, `committed` and `record_id`.
 * Publishable key only.
 */
export function createCapture(
  connection: SvcConnection<'publishable_key'>,
  request: CaptureRequest,
  options: CaptureOptions = {},
): Promise<CaptureResult> {
  const { renderProof, ...writeOptions } = options;
  return connection
    .request(
      {
        method: 'POST',
        path: '/api/v1/captures',
        body: request,
        ...(renderProof !== undefined ? { headers: { 'x-svc-render-proof': renderProof } } : {}),
        schema: captureResponse,
      },
      writeOptions,
    )
    .then((body) => body.capture);
}

/**
 * Commits a capture token (`POST /api/v1/decisions/{session_token}/authorize`): binds the person by email, makes
 * the consent record, queues the receipt email unless suppressed and fires the webhooks. Server-side only. The
 * answer is the spec's ConsentAuthorized beside the record: `status`, a single-use `consent_token` (verify it within
 * 5 minutes with `consentTokens.verify`) and its `consent_token_expires_at`. The `consent.granted` webhook carries the
 * same token: whichever copy is verified first counts.
 */
export function authorizeCapture(
  connection: SvcConnection<'bearer'>,
  sessionToken: string,
  request: AuthorizeRequest,
  options?: WriteOptions,
): Promise<AuthorizedDecision> {
  return connection
    .request(
      {
        method: 'POST',
        path: `/api/v1/decisions/${encodeURIComponent(sessionToken)}/authorize`,
        body: request,
        schema: authorizedDecisionEnvelope,
      },
      options,
    )
    .then((body) => body.decision);
}

/** Render data for the consent field, as a publishable key sees flows. */
export interface PublishableFlowsResource {
  /** Fetches the presentation and a render proof; see {@link renderFlow}. */
  render(flowId: string, options?: RenderOptions): Promise<FlowRender>;
}

/** Captures, as a publishable key posts them. */
export interface CapturesResource {
  /** Posts a capture; see {@link createCapture}. */
  create(request: CaptureRequest, options?: CaptureOptions): Promise<CaptureResult>;
}

/** Binds {@link renderFlow} to a publishable connection. */
export function publishableFlowsResource(connection: SvcConnection<'publishable_key'>): PublishableFlowsResource {
  return { render: (flowId, options) => renderFlow(connection, flowId, options) };
}

/** Binds {@link createCapture} to a publishable connection. */
export function capturesResource(connection: SvcConnection<'publishable_key'>): CapturesResource {
  return { create: (request, options) => createCapture(connection, request, options) };
}
