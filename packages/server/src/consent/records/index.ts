// Consent records, receipts and the audit trail as one route module: the Record API, imports, consent status,
// receipts in three flavors, the published receipt schema, the audit trail's API and the witness description. It
// also starts the anchoring timer and fails imports an earlier process left unfinished.
import { startAnchoring } from '../audit/anchor.js';
import { auditRoutes } from '../audit/routes.js';
import type { ServerContext } from '../../infra/context.js';
import { routes } from '../../infra/http/route.js';
import { onClose } from '../../infra/lifecycle.js';
import { receiptRoutes } from '../receipts/routes.js';
import { recoverInterruptedImports } from './imports.js';
import { recordRoutes } from './routes.js';

export { IMPORTS_PATH } from './routes.js';

const started = new WeakSet<ServerContext>();

/** Mounts everything records need, and (once per server) starts anchoring and recovers interrupted imports. */
export const recordsModule = routes((app, ctx) => {
  recordRoutes(app, ctx);
  receiptRoutes(app, ctx);
  auditRoutes(app, ctx);
  if (started.has(ctx)) return;
  started.add(ctx);
  recoverInterruptedImports(ctx);
  onClose(ctx, startAnchoring(ctx));
});
