// `GET /api/v1/flows/{id}/render`: what the consent field shows, with a render proof the capture sends back.
import { flowRender, renderQuery, type FlowRender } from '@svc/schemas';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { Env, ServerContext } from '../../infra/context.js';
import { ApiError, forbidden, notFound } from '../../infra/errors.js';
import { route } from '../../infra/http/route.js';
import { isAllowedOrigin, notAllowedOriginMessage, requestOrigin } from '../../platform/origins.js';
import { getActiveFlowVersion } from '../../platform/flows/store.js';
import { capturabilityProblems } from '../records/attestation.js';
import { noticeDigest } from '../receipts/notice.js';
import { issueRenderProof } from './proof.js';

/**
 * The browser origin of a request: its `Origin`, or for a same-origin request that carries none (browsers leave
 * it out of same-origin GETs) the origin the request was addressed to, as `Sec-Fetch-Site: same-origin` attests.
 */
export function browserOrigin(c: Context): string | undefined {
  const origin = requestOrigin(c);
  if (origin !== undefined) return origin;
  if (c.req.header('sec-fetch-site') === 'same-origin') return new URL(c.req.url).origin;
  return undefined;
}

/** Refuses API tokens: render data and captures belong to pages, which hold publishable keys. */
export const publishableOnly: MiddlewareHandler<Env> = async (c, next) => {
  if (c.get('principal').kind !== 'publishable_key') {
    throw forbidden(
      'This endpoint is called from the page with its publishable key (X-Publishable-Key); servers use the Record API.',
      'publishable_key_required',
    );
  }
  await next();
};

/**
 * Renders a flow for the consent field. Needs a publishable key and a browser origin allowed for its application
 * (403 `origin_required`, `origin_not_allowed`); the flow must be the key's application's and active (404
 * `flow_not_found`, a draft included, as for any flow URL) and capturable (422 `flow_not_capturable`). The flow has
 * one wording: `locale` is a preference, and the answer's `locale` says which wording was served. The route has
 * validated the query.
 */
export async function renderFlow(ctx: ServerContext, c: Context<Env>): Promise<FlowRender> {
  const principal = c.get('principal');
  if (principal.kind !== 'publishable_key') throw forbidden('A publishable key is required.', 'publishable_key_required');
  const origin = browserOrigin(c);
  if (origin === undefined) {
    throw forbidden(
      'The render data is bound to the page origin: call it from the browser (the request carried no Origin).',
      'origin_required',
    );
  }
  // The CORS guard already refused a foreign Origin header; a same-origin request is checked here.
  if (!isAllowedOrigin(ctx, principal.applicationId, origin)) {
    throw forbidden(notAllowedOriginMessage(origin, principal.applicationId), 'origin_not_allowed');
  }
  const version = getActiveFlowVersion(ctx, c.req.param('id') ?? '');
  if (!version || version.application_id !== principal.applicationId) throw new ApiError(404, 'No such flow.', 'flow_not_found');
  const problems = capturabilityProblems(version.config);
  if (problems.length) {
    throw new ApiError(
      422,
      `The flow cannot be rendered as a consent field: ${problems.join('; ')}.`,
      'flow_not_capturable',
      problems.map((message) => ({ path: 'flow', code: 'flow_not_capturable', message })),
    );
  }
  const notice_hash = noticeDigest(version);
  const proof = await issueRenderProof(ctx, {
    application_id: version.application_id,
    flow_id: version.flow_id,
    flow_version: version.version,
    origin,
    notice_hash,
  });
  ctx.metrics.increment('render.proofs_issued_total');
  return {
    flow_id: version.flow_id,
    version: version.version,
    locale: version.config.locale,
    title: version.title,
    description: version.description,
    policy_url: version.config.policy_url ?? null,
    purposes: version.config.purposes.map((p) => ({
      key: p.key,
      label: p.label,
      description: p.description ?? null,
      basis: p.basis,
      mechanism: p.mechanism,
      required: p.required,
    })),
    notice_hash,
    render_proof: proof.token,
    render_proof_expires_at: proof.expires_at,
  };
}

/** Mounts the render endpoint. */
export function renderRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  route(
    app,
    {
      method: 'get',
      path: '/api/v1/flows/{id}/render',
      tag: 'Captures',
      summary: 'What the consent field shows for a capturable flow, with a signed render proof bound to the page origin',
      auth: ['publishable_key'],
      middleware: [publishableOnly],
      query: renderQuery,
      response: { status: 200, description: 'Presentation, notice hash and render proof', schema: flowRender },
      errors: [400, 404, 422],
    },
    async (c) => {
      const body = await renderFlow(ctx, c);
      // Each answer carries a fresh proof bound to this origin: never serve it from a cache.
      c.header('Cache-Control', 'no-store');
      return c.json(body);
    },
  );
}
