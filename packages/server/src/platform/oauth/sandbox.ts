// The sandbox's OAuth client: confidential, allowed every grant the provider offers, redirecting to the
// playground's callback page on the server's own origin. `sandbox.json` gets its id, secret and redirect URI.
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { findApplication } from '../application-store.js';
import type { SandboxSeeded, SandboxSeeder } from '../account/sandbox.js';
import { createClient, findClient } from './clients.js';

/** The playground's OAuth callback page. */
export const PLAYGROUND_CALLBACK = '/playground/oauth/callback';

const callback = (ctx: ServerContext) => `${ctx.baseUrl}${PLAYGROUND_CALLBACK}`;

function seed(ctx: ServerContext, { applicationId }: SandboxSeeded) {
  const client = createClient(ctx, findApplication(ctx, applicationId)!, {
    name: 'Sandbox playground',
    client_type: 'confidential',
    redirect_uris: [callback(ctx)],
  });
  return { oauth_client_id: client.client_id, oauth_client_secret: client.client_secret!, oauth_redirect_uri: callback(ctx) };
}

/**
 * Seeds the client on first start; on later starts follows the server's URL (the port may differ) and makes the
 * client again if it was deleted. The secret lives only in `sandbox.json` (the database keeps its hash).
 */
export const oauthSandboxSeeder: SandboxSeeder = Object.assign(seed, {
  ensure(ctx: ServerContext, seeded: SandboxSeeded, current: { oauth_client_id?: string | null }) {
    const known = current.oauth_client_id ? findClient(ctx, current.oauth_client_id) : undefined;
    if (!known) return seed(ctx, seeded);
    stmt(ctx.db, 'UPDATE oauth_clients SET redirect_uris = ? WHERE id = ?').run(JSON.stringify([callback(ctx)]), known.id);
    return { oauth_redirect_uri: callback(ctx) };
  },
});
