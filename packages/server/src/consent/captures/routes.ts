// `POST /api/v1/captures` (publishable key) and `POST /api/v1/decisions/{session_token}/authorize` (API token).
import { authorizedDecisionEnvelope, authorizeRequest, captureRequest, captureResponse } from '@svc/schemas';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { limitBody } from '../../infra/body-limit.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { forbidden } from '../../infra/errors.js';
import { route } from '../../infra/http/route.js';
import { isAllowedOrigin, notAllowedOriginMessage } from '../../platform/origins.js';
import { RENDER_PROOF_HEADER } from '../render/proof.js';
import { browserOrigin, publishableOnly } from '../render/routes.js';
import { authorizeCapture, browserCommitNotAllowed, createCapture } from './service.js';

/** Where pages post captures; the CORS guard leaves a foreign origin's capture to this route to answer. */
export const CAPTURES_PATH = '/api/v1/captures';

/**
 * A capture is small: at most 50 decisions and digests and a 16 KB snapshot (which JSON escaping can grow to
 * about 96 KB). Anything larger is refused before it is read.
 */
export const CAPTURE_BODY_LIMIT = 192 * 1024;

const AUTHORIZE_PATHS = ['/api/v1/decisions/{session_token}/authorize', '/api/v1/consent_sessions/{session_token}/authorize'];
const tag = 'Captures';

/** Mounts the capture and authorize routes. */
export function captureRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  route(
    app,
    {
      method: 'post',
      path: CAPTURES_PATH,
      tag,
      summary: "Capture consent from the organisation's own form (consent field: send X-Svc-Render-Proof; snippet: without)",
      auth: ['publishable_key'],
      middleware: [publishableOnly, limitBody(CAPTURE_BODY_LIMIT)],
      body: captureRequest,
      response: {
        status: 201,
        description: 'The capture token (commit it within 24 hours) or, for a browser commit, the record id',
        schema: captureResponse,
      },
      errors: [404, 422],
    },
    async (c, { body: request }) => {
      const principal = c.get('principal');
      if (principal.kind !== 'publishable_key') throw new Error('unreachable: publishableOnly ran');
      // A foreign origin (the CORS guard sent no CORS headers): Errors rule 2 when it commits, else the guard's 403.
      const origin = browserOrigin(c);
      if (origin !== undefined && !isAllowedOrigin(ctx, principal.applicationId, origin)) {
        if (request.commit) throw browserCommitNotAllowed('the request does not come from an allowed origin');
        throw forbidden(notAllowedOriginMessage(origin, principal.applicationId), 'origin_not_allowed');
      }
      const capture = await createCapture(
        ctx,
        {
          accountId: principal.accountId,
          applicationId: principal.applicationId,
          origin: browserOrigin(c),
          renderProof: c.req.header(RENDER_PROOF_HEADER),
        },
        request,
      );
      return c.json({ capture }, 201);
    },
  );

  // The decisions module mounts no authorize route, so these never shadow (nor are shadowed by) its `{session_token}`
  // routes; the alias gets the decisions module's deprecation headers from its `/api/v1/consent_sessions/*` middleware.
  for (const path of AUTHORIZE_PATHS) {
    const deprecated = path.startsWith('/api/v1/consent_sessions');
    route(
      app,
      {
        method: 'post',
        path,
        tag,
        deprecated,
        summary: `Commit a capture token: bind the person by email, record the consent, queue the receipt email and webhooks${deprecated ? ' (deprecated alias of /api/v1/decisions/{session_token}/authorize)' : ''}`,
        permission: 'write',
        body: authorizeRequest,
        response: {
          status: 200,
          description: 'The decision the capture became: status fulfilled and record_id',
          schema: authorizedDecisionEnvelope,
        },
        errors: [404, 422],
      },
      (c, { body }) => {
        const decision = authorizeCapture(ctx, c.get('principal').accountId, c.req.param('session_token') ?? '', body);
        return c.json({ decision });
      },
    );
  }
}
