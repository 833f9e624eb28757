// Which origin a hosted page may post its messages to. Never `*`: only an origin registered for the application.
import type { ServerContext } from '../../infra/context.js';
import { allowedOrigins } from './applications.js';
import type { DecisionRow } from './row.js';

/**
 * The exact target origin of the page's messages, or null when none applies (the page then drops and counts):
 *
 * - the decision's `embed_origin`, while it is still an allowed origin of the application (an iframe's parent or a
 *   popup's opener is the page that created the decision, on that origin);
 * - for a popup without `embed_origin`: the origin of the page that opened it, taken from the `Referer` of the
 *   page request (browsers send the opener's origin cross-origin by default), if it is an allowed origin.
 */
export function targetOriginOf(
  ctx: ServerContext,
  row: DecisionRow,
  mode: 'embed' | 'popup' | 'redirect',
  referer?: string,
): string | null {
  if (mode === 'redirect') return null;
  const origins = allowedOrigins(ctx, row.application_id);
  if (row.embed_origin) return origins.includes(row.embed_origin) ? row.embed_origin : null;
  if (mode === 'popup' && referer) {
    try {
      const origin = new URL(referer).origin;
      if (origins.includes(origin)) return origin;
    } catch {
      // Not a URL: no target.
    }
  }
  return null;
}
