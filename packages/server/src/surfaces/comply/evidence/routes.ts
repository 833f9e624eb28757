// The Comply surface's evidence: the transfer register, the residency posture and breach scope (each with its signed
// evidence package), `GET /api/v1/evidence_packages` (the packages drawn before, newest first) and
// `GET /api/v1/evidence_packages/{id}`, a package drawn before, as it was answered.
import { evidencePackage, evidencePackageList, listQuery } from '@svc/schemas';
import { route, routes } from '../../../infra/http/route.js';
import { breachScopeRoutes } from '../breach/routes.js';
import { assertHomedHere } from '../../../infra/cells/routing.js';
import { notFound } from '../../../infra/errors.js';
import { residencyRoutes } from '../residency/routes.js';
import { transferRegisterRoutes } from '../transfers/routes.js';
import { DEFAULT_LIMIT } from '../../../infra/pagination.js';
import { findEvidencePackage, listEvidencePackages } from './package.js';

const BASE = '/api/v1/evidence_packages';

const evidencePackageRoutes = routes((app, ctx) => {
  route(
    app,
    {
      method: 'get',
      path: BASE,
      summary:
        'List the evidence packages this cell drew for the account, newest first: id, format type, drawn at, signing kid and payload digest (the package itself at GET …/{id})',
      tag: 'Cross-border',
      permission: 'read',
      query: listQuery,
      response: { status: 200, description: 'A page of evidence package summaries', schema: evidencePackageList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor } }) => c.json(listEvidencePackages(ctx, c.get('principal').accountId, { limit, cursor })),
  );
  route(
    app,
    {
      method: 'get',
      path: `${BASE}/{id}`,
      summary: 'Read an evidence package drawn before, exactly as it was answered (from the cell that drew it: 421 elsewhere)',
      tag: 'Cross-border',
      permission: 'read',
      response: { status: 200, description: 'The evidence package', schema: evidencePackage },
      errors: [404, 421],
    },
    (c) => {
      const id = c.req.param('id')!;
      const found = findEvidencePackage(ctx, c.get('principal').accountId, id);
      if (found) return c.json(found);
      // Packages are kept by the cell that drew them (`evp_<country>_…`); the country gate answers another cell's first.
      assertHomedHere(ctx, id);
      throw notFound('No such evidence package.');
    },
  );
});

/** Transfer register, residency posture, breach scope and evidence packages, mounted together. */
export const complyRoutes = routes((app, ctx) => {
  app.route('/', transferRegisterRoutes(ctx));
  app.route('/', residencyRoutes(ctx));
  app.route('/', breachScopeRoutes(ctx));
  app.route('/', evidencePackageRoutes(ctx));
});
