// `svc delegations exchange`: an agent's OAuth client exchanges a delegation grant for an agent token (RFC 8693).
// It runs without an API client, like login: the exchange is authenticated by the agent's OAuth client, and an agent
// runtime may hold no other credential.
import { exchangeDelegationGrant, type ClientAuthMethod } from '../resources/token-exchange.js';
import { CliUsageError } from './config.js';
import type { SessionCommand } from './session.js';

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

const AUTH_METHODS: Record<string, ClientAuthMethod> = { basic: 'client_secret_basic', post: 'client_secret_post' };

/** `svc delegations exchange`. */
export const exchangeCommands: Record<string, SessionCommand> = {
  'delegations exchange': {
    usage: 'delegations exchange <dlg_id> [--client-id <id>] [--client-secret <secret>] [--scope <scopes>] [--auth-method basic|post]',
    summary: "Exchange a grant made to an agent for an agent token, as the agent's OAuth client (use it as SVC_AGENT_TOKEN)",
    options: {
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      scope: { type: 'string' },
      'auth-method': { type: 'string' },
    },
    args: ['dlg_id'],
    session: true,
    async run({ args: [grantId], flags, env, config }) {
      const { baseUrl, oauthClientId, oauthClientSecret } = config();
      // The agent's client: --client-id, else SVC_AGENT_CLIENT_ID, else the sandbox's confidential client.
      const clientId = text(flags['client-id']) ?? text(env.SVC_AGENT_CLIENT_ID) ?? oauthClientId;
      if (!clientId)
        throw new CliUsageError(
          'no OAuth client: pass --client-id <id> (the client the agent identity is linked to) or set SVC_AGENT_CLIENT_ID',
        );
      const clientSecret =
        text(flags['client-secret']) ?? text(env.SVC_AGENT_CLIENT_SECRET) ?? (clientId === oauthClientId ? oauthClientSecret : undefined);
      if (!clientSecret)
        throw new CliUsageError(
          `no secret for ${clientId}: set SVC_AGENT_CLIENT_SECRET (or pass --client-secret, which shows in the process list)`,
        );
      const method = text(flags['auth-method']) ?? 'basic';
      const authMethod = AUTH_METHODS[method];
      if (!authMethod) throw new CliUsageError('--auth-method is basic (client_secret_basic) or post (client_secret_post)');
      const scope = text(flags.scope)
        ?.split(/[\s,]+/)
        .filter(Boolean);
      const answer = await exchangeDelegationGrant({ baseUrl, clientId, clientSecret, delegationGrantId: grantId!, authMethod, scope });
      const expires = new Date(Date.now() + answer.expires_in * 1000).toISOString();
      return {
        json: answer,
        human:
          `Agent token for ${grantId} (expires in ${answer.expires_in} s, at about ${expires}${answer.scope ? `; scopes ${answer.scope}` : ''}):\n` +
          `${answer.access_token}\n\nAct as the agent with SVC_AGENT_TOKEN set to it, e.g. svc authority check ...`,
      };
    },
  },
};
