// `POST /api/v1/captures` (publishable key) and `POST /api/v1/decisions/{session_token}/authorize` (API token).
import { authorizedDecisionEnvelope, authorizeRequest, captureRequest, captureResponse } from '@svc/client/schemas';
import type { Hono } from 'hono';
import { requires } from '../../infra/auth.js';
import { limitBody } from '../../infra/body-limit.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { forbidden } from '../../infra/errors.js';
import type { Operation } from '../../infra/operations.js';
import { isAllowedOrigin } from '../../platform/origins.js';
import { readJson } from '../../infra/validate.js';
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

const AUTHORIZE_PATHS = ['/api/v1/decisions/:token/authorize', '/api/v1/consent_sessions/:token/authorize'];

/** Mounts the capture and authorize routes. */
export function captureRoutes(app: Hono<Env>, ctx: ServerContext): void {
  app.post(CAPTURES_PATH, publishableOnly, limitBody(CAPTURE_BODY_LIMIT), async (c) => {
    const principal = c.get('principal');
    if (principal.kind !== 'publishable_key') throw new Error('unreachable: publishableOnly ran');
    const request = await readJson(c, captureRequest);
    // A foreign origin (the CORS guard sent no CORS headers): Errors rule 2 when it commits, else the guard's 403.
    const origin = browserOrigin(c);
    if (origin !== undefined && !isAllowedOrigin(ctx, principal.applicationId, origin)) {
      if (request.commit) throw browserCommitNotAllowed('the request does not come from an allowed origin');
      throw forbidden(`The origin ${origin.slice(0, 200)} is not an allowed origin of this application.`, 'origin_not_allowed');
    }
    const capture = await createCapture(ctx, {
      accountId: principal.accountId,
      applicationId: principal.applicationId,
      origin: browserOrigin(c),
      renderProof: c.req.header(RENDER_PROOF_HEADER),
    }, request);
    return c.json({ capture }, 201);
  });

  // The decisions module mounts no authorize route, so these never shadow (nor are shadowed by) its `:token` routes;
  // the alias gets the decisions module's deprecation headers from its `/api/v1/consent_sessions/*` middleware.
  for (const path of AUTHORIZE_PATHS) {
    app.post(path, requires('write'), async (c) => {
      const request = await readJson(c, authorizeRequest);
      const decision = authorizeCapture(ctx, c.get('principal').accountId, c.req.param('token') ?? '', request);
      return c.json({ decision });
    });
  }
}

/** OpenAPI descriptors of the capture and authorize routes. */
export const captureOperations: Operation[] = [
  {
    method: 'post',
    path: CAPTURES_PATH,
    summary: "Capture consent from the organisation's own form (consent field: send X-Svc-Render-Proof; snippet: without)",
    tag: 'Captures',
    auth: ['publishable_key'],
    body: captureRequest,
    response: { status: 201, description: 'The capture token (commit it within 24 hours) or, for a browser commit, the record id', schema: captureResponse },
    errors: [404, 422],
  },
  ...AUTHORIZE_PATHS.map((path): Operation => {
    const deprecated = path.startsWith('/api/v1/consent_sessions');
    return {
      method: 'post',
      path: path.replace(':token', '{session_token}'),
      summary: `Commit a capture token: bind the person by email, record the consent, queue the receipt email and webhooks${deprecated ? ' (deprecated alias of /api/v1/decisions/{session_token}/authorize)' : ''}`,
      tag: 'Captures',
      auth: ['api_token'],
      permission: 'write',
      body: authorizeRequest,
      response: { status: 200, description: 'The decision the capture became: status fulfilled and record_id', schema: authorizedDecisionEnvelope },
      errors: [404, 422],
      deprecated,
    };
  }),
];
