// Whether a form post comes from the service's own page: a credential-free page (a capability URL, a sign-in
// button) must not act for a cross-site form that a browser would send without asking.
import type { Context } from 'hono';

/** The same origin as `origin`: Fetch Metadata when the browser sends it, else the Origin header. */
export function sameOrigin(c: Context, origin: string): boolean {
  const site = c.req.header('sec-fetch-site');
  return site ? site === 'same-origin' : c.req.header('origin') === origin;
}
