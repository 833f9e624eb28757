// A person signed in on the command line: `svc login` runs the device grant and stores the refresh token,
// `svc logout` revokes it, and every other command may call the API as that person, refreshing the access token
// when it is about to expire. Which credential a command uses is decided here (see `chooseCredential`).
import type { ParseArgsConfig } from 'node:util';
import { SvcNetworkError } from '../lib/errors.js';
import type { AccessTokenProvider, AgentTokenCredential, ApiTokenCredential, AccessTokenProviderCredential } from '../lib/options.js';
import { pollDeviceAuthorization, startDeviceAuthorization } from '../oauth/device.js';
import { SvcOAuthError, SvcOAuthSignedOutError } from '../oauth/errors.js';
import { discover, type ClientCredentials } from '../oauth/issuer.js';
import { fetchUserInfo, refreshTokens, revokeToken, tokenSet } from '../oauth/tokens.js';
import type { Invocation, Output } from './commands.js';
import { CliUsageError, CREDENTIAL_HINT, type CliConfig } from './config.js';
import {
  credentialsPath,
  deleteCredentials,
  readCredentials,
  withCredentialsLock,
  writeCredentials,
  type StoredCredentials,
} from './credentials.js';

/** What a session command gets: the parsed command line, the environment, stderr for prompts, and the configuration on demand (logout needs none). */
export interface SessionInvocation extends Omit<Invocation, 'config'> {
  config(): CliConfig;
  env: Record<string, string | undefined>;
  stderr(text: string): void;
}

/** A command that manages the sign-in itself, so it runs without an API client. */
export interface SessionCommand {
  usage: string;
  summary: string;
  options?: NonNullable<ParseArgsConfig['options']>;
  args?: string[];
  session: true;
  run(invocation: SessionInvocation): Promise<Output>;
}

/** An access token this close to its expiry (ms) is refreshed first. */
const LEEWAY_MS = 60_000;
const DEFAULT_SCOPE = 'openid email offline_access';

const sameIssuer = (a: string, b: string): boolean => {
  const normal = (url: string) => new URL(url).href.replace(/\/+$/, '');
  try {
    return normal(a) === normal(b);
  } catch {
    return false;
  }
};

const who = (stored: StoredCredentials) => stored.email ?? stored.subject ?? 'the signed-in person';
const fresh = (stored: StoredCredentials) => stored.expires_at === undefined || stored.expires_at * 1000 > Date.now() + LEEWAY_MS;
const clientOfStored = (stored: StoredCredentials): ClientCredentials => ({
  clientId: stored.client_id,
  clientSecret: stored.client_secret,
});

/**
 * The access token of the person stored in `file`, refreshed (and the rotated refresh token stored) when it
 * expires within a minute. The refresh runs under the file's lock and re-reads the file first, so processes
 * started together refresh once.
 */
export function storedPersonToken(file: string): AccessTokenProvider {
  return async () => {
    const current = readCredentials(file);
    if (!current) throw new SvcOAuthSignedOutError('Signed out meanwhile: run svc login.');
    if (fresh(current)) return current.access_token;
    return withCredentialsLock(file, async () => {
      const latest = readCredentials(file);
      if (!latest) throw new SvcOAuthSignedOutError('Signed out meanwhile: run svc login.');
      if (fresh(latest)) return latest.access_token;
      if (!latest.refresh_token)
        throw new SvcOAuthSignedOutError(`The sign-in of ${who(latest)} expired (no refresh token was granted): run svc login again.`);
      let response;
      try {
        response = await refreshTokens(await discover(latest.issuer), clientOfStored(latest), latest.refresh_token);
      } catch (err) {
        if (err instanceof SvcOAuthError && err.reason === 'invalid_grant') {
          throw new SvcOAuthSignedOutError(
            `The sign-in of ${who(latest)} has ended (revoked or expired): run svc login again, or svc logout to use the API token.`,
            { status: err.status, reason: err.reason, cause: err },
          );
        }
        throw err;
      }
      const tokens = tokenSet(response);
      writeCredentials(file, {
        ...latest,
        access_token: tokens.accessToken,
        refresh_token: tokens.refreshToken ?? latest.refresh_token,
        expires_at: tokens.expiresAt === undefined ? undefined : Math.floor(tokens.expiresAt / 1000),
        scope: tokens.scope.length ? tokens.scope.join(' ') : latest.scope,
      });
      return tokens.accessToken;
    });
  };
}

/**
 * Whether a command acts as an agent: `required` (it means nothing otherwise, e.g. `authority check`) or
 * `preferred` (an agent sees its own, anyone else what they may, e.g. `escalations list`).
 */
export type AgentUse = 'required' | 'preferred';

/**
 * The credential of an API command, first found wins: `SVC_AGENT_TOKEN` for a command an agent runs; then
 * `SVC_API_TOKEN`; the person `svc login` signed in at this base URL; the sandbox's `api_token`. An explicit token
 * beats the sign-in, the sign-in beats the sandbox default.
 */
export function chooseCredential(
  config: CliConfig,
  env: Record<string, string | undefined>,
  agent?: AgentUse,
): ApiTokenCredential | AccessTokenProviderCredential | AgentTokenCredential {
  if (agent && config.agentToken) return { agentToken: config.agentToken };
  if (agent === 'required') {
    throw new CliUsageError(
      'this command acts as an agent: set SVC_AGENT_TOKEN to an agent token (ra_agent_...), e.g. from svc delegations exchange <dlg_id>',
    );
  }
  if (config.apiTokenFrom === 'env') return { apiToken: config.apiToken! };
  const file = credentialsPath(env);
  const stored = readCredentials(file);
  if (stored && sameIssuer(stored.issuer, config.baseUrl)) return { getAccessToken: storedPersonToken(file) };
  if (config.apiToken) return { apiToken: config.apiToken };
  throw new CliUsageError(`no API token: ${CREDENTIAL_HINT}`);
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The OAuth client `svc login` signs in with: `--client-id`, else `SVC_OAUTH_CLIENT_ID`, else the sandbox's
 * (confidential) client. A secret comes from `--client-secret` or `SVC_OAUTH_CLIENT_SECRET`, or is the
 * sandbox's own when the client is the sandbox's.
 */
function loginClient({ flags, env }: SessionInvocation, config: CliConfig): ClientCredentials {
  const clientId = text(flags['client-id']) ?? text(env.SVC_OAUTH_CLIENT_ID) ?? config.oauthClientId;
  if (!clientId) {
    throw new CliUsageError(
      'no OAuth client: pass --client-id <id> (a public client with the device grant) or set SVC_OAUTH_CLIENT_ID, or start the reference server, whose sandbox.json names one',
    );
  }
  const secret =
    text(flags['client-secret']) ??
    text(env.SVC_OAUTH_CLIENT_SECRET) ??
    (clientId === config.oauthClientId ? config.oauthClientSecret : undefined);
  return { clientId, clientSecret: secret };
}

/** The scopes to ask for: `--scope`, always with `openid` (who signed in) and `offline_access` (a refresh token). */
function loginScope(flags: Invocation['flags']): string {
  const asked = (text(flags.scope) ?? DEFAULT_SCOPE).split(/[\s,]+/).filter(Boolean);
  return [...new Set(['openid', ...asked, 'offline_access'])].join(' ');
}

/** `svc login` and `svc logout`. */
export const sessionCommands: Record<string, SessionCommand> = {
  login: {
    usage: 'login [--client-id <id>] [--client-secret <secret>] [--scope <scopes>]',
    summary: 'Sign a person in with the device grant (prints a URL and a code to confirm in a browser) and keep the refresh token',
    options: { 'client-id': { type: 'string' }, 'client-secret': { type: 'string' }, scope: { type: 'string' } },
    session: true,
    async run(invocation) {
      const { env, stderr } = invocation;
      const config = invocation.config();
      const credentials = loginClient(invocation, config);
      const scope = loginScope(invocation.flags);
      const issuer = await discover(config.baseUrl);
      const started = await startDeviceAuthorization(issuer, credentials, scope);
      stderr(
        `To sign in, open ${started.verificationUri} and enter the code ${started.userCode}\n` +
          (started.verificationUriComplete ? `(or open ${started.verificationUriComplete})\n` : '') +
          `Waiting for approval; the code expires in ${Math.round(started.expiresIn / 60)} minutes...\n`,
      );
      const tokens = tokenSet(await pollDeviceAuthorization(issuer, credentials, started));
      const person = await fetchUserInfo(issuer, credentials, tokens.accessToken, tokens.claims?.sub);

      const file = credentialsPath(env);
      let previous: StoredCredentials | undefined;
      try {
        previous = readCredentials(file);
      } catch {
        // An unreadable file is replaced.
      }
      writeCredentials(file, {
        version: 1,
        issuer: issuer.as.issuer,
        client_id: credentials.clientId,
        ...(credentials.clientSecret ? { client_secret: credentials.clientSecret } : {}),
        ...(tokens.refreshToken ? { refresh_token: tokens.refreshToken } : {}),
        access_token: tokens.accessToken,
        ...(tokens.expiresAt === undefined ? {} : { expires_at: Math.floor(tokens.expiresAt / 1000) }),
        scope: tokens.scope.join(' '),
        subject: person.sub,
        ...(typeof person.email === 'string' ? { email: person.email } : {}),
        signed_in_at: new Date().toISOString(),
      });
      // The sign-in this one replaces would otherwise stay valid until it expires.
      if (previous?.refresh_token) {
        await discover(previous.issuer)
          .then((found) => revokeToken(found, clientOfStored(previous), previous.refresh_token!, 'refresh_token'))
          .catch(() => stderr(`svc: could not revoke the previous sign-in at ${previous.issuer}; it ends when it expires\n`));
      }
      const email = typeof person.email === 'string' ? person.email : undefined;
      return {
        json: {
          issuer: issuer.as.issuer,
          client_id: credentials.clientId,
          subject: person.sub,
          email: email ?? null,
          scope: tokens.scope,
          credentials_file: file,
        },
        human:
          `Signed in as ${email ? `${email} (${person.sub})` : person.sub} at ${issuer.as.issuer}.\n` +
          `Stored in ${file}; commands now act as this person (SVC_API_TOKEN still takes precedence). svc logout signs out.`,
      };
    },
  },

  logout: {
    usage: 'logout',
    summary: "Revoke the signed-in person's refresh token at the service and delete the stored credentials",
    session: true,
    async run({ env }) {
      const file = credentialsPath(env);
      let stored: StoredCredentials | undefined;
      try {
        stored = readCredentials(file);
      } catch {
        deleteCredentials(file);
        return { json: { signed_out: true, revoked: false }, human: `Removed the unreadable ${file}.` };
      }
      if (!stored) return { json: { signed_out: false }, human: 'Not signed in.' };
      try {
        const issuer = await discover(stored.issuer);
        // The refresh token first: it is what lasts. Revoking it ends the grant, access tokens included.
        if (stored.refresh_token) await revokeToken(issuer, clientOfStored(stored), stored.refresh_token, 'refresh_token');
        await revokeToken(issuer, clientOfStored(stored), stored.access_token, 'access_token');
      } catch (err) {
        // Unreachable: keep the file, so the revocation can be tried again. Refused (an unknown client): nothing to revoke.
        if (err instanceof SvcNetworkError)
          throw new SvcNetworkError(`${err.message}; still signed in, run svc logout again when ${stored.issuer} is reachable`, {
            cause: err,
          });
        if (!(err instanceof SvcOAuthError)) throw err;
      }
      deleteCredentials(file);
      return {
        json: { signed_out: true, revoked: true, issuer: stored.issuer, subject: stored.subject ?? null, email: stored.email ?? null },
        human: `Signed out ${who(stored)} at ${stored.issuer}: the refresh token is revoked and ${file} deleted.`,
      };
    },
  },
};
