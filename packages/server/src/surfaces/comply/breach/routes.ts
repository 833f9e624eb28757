// `/api/v1/breach_scope`: what a leaked credential of the account could have touched in a window, as counts and
// categories (API tokens holding `admin`), and its signed evidence package.
import { breachScopeEnvelope, breachScopeRequest, EVIDENCE_FORMAT_TYPES, evidencePackage } from '@svc/schemas';
import { route, routes } from '../../../infra/http/route.js';
import { signEvidencePackage } from '../evidence/package.js';
import { breachScope } from './scope.js';

const BASE = '/api/v1/breach_scope';
const tag = 'Breach scope';

/** `POST /api/v1/breach_scope`, `POST /api/v1/breach_scope/evidence_package`. */
export const breachScopeRoutes = routes((app, ctx) => {
  route(
    app,
    {
      method: 'post',
      path: BASE,
      summary:
        'Report what a leaked credential (API token, agent token, publishable key) could have touched in a window: counts and categories, the identifier only as a fingerprint',
      tag,
      permission: 'admin',
      body: breachScopeRequest,
      response: { status: 200, description: 'The breach scope, with its coverage and caveats', schema: breachScopeEnvelope },
      errors: [400, 404, 422],
    },
    (c, { body }) => c.json({ breach_scope: breachScope(ctx, c.get('principal').accountId, body) }),
  );

  route(
    app,
    {
      method: 'post',
      path: `${BASE}/evidence_package`,
      summary: 'Draw the breach scope as a signed evidence package (BreachScopeEvidence)',
      tag,
      permission: 'admin',
      body: breachScopeRequest,
      response: {
        status: 201,
        description: `The package: a compact JWS (ES256, typ svc-evidence+jwt, kid in /.well-known/jwks.json), format_type ${EVIDENCE_FORMAT_TYPES.breachScope}`,
        schema: evidencePackage,
      },
      errors: [400, 404, 422],
    },
    async (c, { body }) => {
      const accountId = c.get('principal').accountId;
      const breach_scope = breachScope(ctx, accountId, body);
      return c.json(await signEvidencePackage(ctx, EVIDENCE_FORMAT_TYPES.breachScope, { breach_scope }, { accountId }), 201);
    },
  );
});
