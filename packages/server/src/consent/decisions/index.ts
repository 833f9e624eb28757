// Decisions as one route module: the API (and its deprecated alias), the participant API the hosted page calls, and
// the withdrawal entry of an approval's authorization record. The pages themselves are hosted/'s.
import { authorizationPageRoutes } from '../authorizations/routes.js';
import type { ServerContext } from '../../infra/context.js';
import { routes } from '../../infra/http/route.js';
import { onClose } from '../../infra/lifecycle.js';
import { participantRoutes } from './participant.js';
import { decisionRoutes } from './routes.js';
import { startExpirySweep } from './store.js';

/** Mounts everything decisions need. */
export const decisionsModule = routes((app, ctx) => {
  decisionRoutes(app, ctx);
  participantRoutes(app, ctx);
  authorizationPageRoutes(app, ctx);
  // Kinds whose expiry records something (a signing session's party outcome) are swept at their deadline.
  onClose(ctx, startExpirySweep(ctx));
});
