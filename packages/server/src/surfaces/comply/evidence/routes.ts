// The Comply surface's evidence: the transfer register, the residency posture and breach scope (each with its signed
// evidence package), and `GET /api/v1/evidence_packages/{id}`, a package drawn before, as it was answered.
import { evidencePackage } from '@svc/schemas';
import { route, routes } from '../../../infra/http/route.js';
import { breachScopeRoutes } from '../breach/routes.js';
import { assertHomedHere } from '../../../infra/cells/routing.js';
import { notFound } from '../../../infra/errors.js';
import { residencyRoutes } from '../residency/routes.js';
import { transferRegisterRoutes } from '../transfers/routes.js';
import { findEvidencePackage } from './package.js';

const BASE = '/api/v1/evidence_packages';

const evidencePackageRoutes = routes((app, ctx) => {
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
