// The service as an OpenID provider: panva's oidc-provider (OpenID Certified), configured for the spec's policy
// (pushed authorization requests required, PKCE S256 only, code / refresh / device / token exchange grants), over
// the server's SQLite storage and signing keys. Issuer = the server's base URL.
import { timingSafeEqual } from 'node:crypto';
import Provider, { errors, interactionPolicy, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { AGENT_TYPES, OAP_PROTOCOL_VERSIONS } from '@svc/schemas';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { hashSecret, newSecret } from '../../infra/ids.js';
import { messagePage } from '../../hosted/pages/render.js';
import { sqliteAdapter } from './adapter.js';
import { clientMetadata, findClient } from './clients.js';
import { firstPartyScopes } from './first-party.js';
import { addressOf, guessLimits, tooManyGuesses, waitText, type Target } from './guessing.js';
import { providerJwks } from './keys.js';
import { OTHER_ORGANISATION, personOfAnotherOrganisation } from './people.js';
import { DEVICE_PATH, deviceCodePage, deviceFormLostPage, deviceLimitedPage, deviceSuccessPage } from './device-pages.js';
import { EXCHANGE_PARAMETERS, exchangeDelegationGrant } from '../../authority/delegations/exchange.js';
import { OAUTH_SCOPES, PROVIDER_JWKS_PATH } from './published.js';

export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code';
/** The grants every client may be allowed. */
export const GRANT_TYPES = ['authorization_code', 'refresh_token', DEVICE_CODE, TOKEN_EXCHANGE] as const;

/** Seconds each artefact lives. */
const TTL = {
  AccessToken: 3600,
  AuthorizationCode: 60,
  DeviceCode: 600,
  Grant: 30 * 24 * 3600,
  IdToken: 3600,
  Interaction: 3600,
  PushedAuthorizationRequest: 60,
  RefreshToken: 30 * 24 * 3600,
  Session: 14 * 24 * 3600,
} as const;

/**
 * The provider's view of a person: `sub` is the person's id, the same person consent records know. A code, refresh
 * token or access token names a person of its client's organisation, or nobody (people.ts).
 */
async function findAccount(ctx: ServerContext, koa: KoaContextWithOIDC, sub: string, token: unknown) {
  const person = stmt<[string], { id: string; email: string }>(ctx.db, 'SELECT id, email FROM persons WHERE id = ?').get(sub);
  if (!person || !person.email.includes('@')) return undefined;
  const client = koa.oidc?.client;
  if (token && client && personOfAnotherOrganisation(ctx, person.id, client.clientId)) return undefined;
  return { accountId: person.id, claims: () => ({ sub: person.id, email: person.email, email_verified: true }) };
}

/**
 * oidc-provider's interaction policy, and one check more on its login prompt: a browser signed in as one
 * organisation's person, at another organisation's client, signs in again as that organisation's person (the
 * interaction page does so at once, by the verified email: interactions.ts).
 */
function interactionsPolicy(ctx: ServerContext) {
  const policy = interactionPolicy.base();
  policy.get('login')!.checks.add(
    new interactionPolicy.Check(OTHER_ORGANISATION, "The signed-in person is another organisation's", (koa) => {
      const { session, client } = koa.oidc;
      const elsewhere = Boolean(session?.accountId && client && personOfAnotherOrganisation(ctx, session.accountId, client.clientId));
      return elsewhere ? interactionPolicy.Check.REQUEST_PROMPT : interactionPolicy.Check.NO_NEED_TO_PROMPT;
    }),
  );
  return policy;
}

/** A secret the provider signs its cookies with, made once per data directory. */
function cookieKey(ctx: ServerContext): string {
  const found = stmt<[string], { value: string }>(ctx.db, 'SELECT value FROM settings WHERE key = ?').get('oauth_cookie_key');
  if (found) return found.value;
  const value = newSecret();
  stmt(ctx.db, 'INSERT INTO settings (key, value) VALUES (?, ?)').run('oauth_cookie_key', value);
  return value;
}

/** What the provider shows for an error it cannot send back to a client: a plain page, never the input echoed raw. */
function renderError(ctx: KoaContextWithOIDC, out: { error?: string; error_description?: string }): void {
  ctx.type = 'html';
  ctx.body = messagePage({
    title: 'Sign-in cannot continue',
    message: String(out.error_description ?? out.error ?? 'The request is not valid.'),
  });
}

/** The algorithms an ID token may be signed with: ES256 (the default) and RS256, on a client's request. */
export const ID_TOKEN_SIGNING_ALGS = ['ES256', 'RS256'] as const;

/**
 * Introspection stays within the caller's organisation: a client learns about a token only when it was issued to
 * itself or, for a confidential client, to another client of the same account; anything else is `active: false`.
 */
function introspectionAllowed(
  ctx: ServerContext,
  caller: { clientId: string; clientAuthMethod?: string | undefined },
  token: { clientId?: string | undefined },
) {
  if (token.clientId === caller.clientId) return true;
  if (caller.clientAuthMethod === 'none' || !token.clientId) return false;
  const ours = findClient(ctx, caller.clientId)?.account_id;
  return ours !== undefined && findClient(ctx, token.clientId)?.account_id === ours;
}

/** The device flow's pages; a wrong user code counts against the address's and the flow's guessing limits. */
function deviceFlow(ctx: ServerContext): NonNullable<Configuration['features']>['deviceFlow'] {
  return {
    enabled: true,
    userCodeInputSource: async (koa, form, _out, err) => {
      if (err?.name === 'NotFoundError') await guessLimits(ctx).missed(deviceCodeTargets(koa));
      deviceCodePage(koa, form, err ? 'That code is not valid or has expired. Check it and try again.' : undefined);
    },
    userCodeConfirmSource: (koa, form, client, _info, userCode) =>
      deviceCodePage(koa, form, undefined, { client: client.clientName ?? client.clientId, userCode }),
    successSource: (koa) => deviceSuccessPage(koa),
  };
}

const deviceCodeTargets = (koa: Pick<KoaContextWithOIDC, 'req'>): Target[] => [
  ['device_user_code', addressOf(koa.req)],
  ['device_user_code_all', 'all'],
];

const ROUTES: Configuration['routes'] = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  pushed_authorization_request: '/oauth/par',
  device_authorization: '/oauth/device_authorization',
  code_verification: DEVICE_PATH,
  userinfo: '/oauth/userinfo',
  revocation: '/oauth/revoke',
  introspection: '/oauth/introspect',
  // Where the provider ends a session when the browser signs in as another person (its logout confirmation).
  end_session: '/oauth/session/end',
  jwks: PROVIDER_JWKS_PATH,
};

/** Builds the provider for `ctx` (its base URL must be known: the server listens first). */
export function createProvider(ctx: ServerContext): Provider {
  const configuration: Configuration = {
    // Clients are the applications' registrations (`oauth_clients`); everything else is the provider's own.
    adapter: sqliteAdapter(ctx.db, (id) => clientMetadata(ctx, id)) as unknown as Configuration['adapter'],
    findAccount: (koa, sub, token) => findAccount(ctx, koa, sub, token),
    jwks: { keys: providerJwks(ctx.dataDir) as never },
    cookies: { keys: [cookieKey(ctx)] },
    scopes: [...OAUTH_SCOPES],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: [] },
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    clientDefaults: { id_token_signed_response_alg: 'ES256', grant_types: ['authorization_code'], response_types: ['code'] },
    enabledJWA: {
      idTokenSigningAlgValues: [...ID_TOKEN_SIGNING_ALGS],
      userinfoSigningAlgValues: ['ES256'],
      introspectionSigningAlgValues: ['ES256'],
    },
    pkce: { required: () => true },
    responseTypes: ['code'],
    ttl: TTL,
    conformIdTokenClaims: true,
    // A refresh token only for what asked for offline access, and only to a client allowed the grant.
    issueRefreshToken: async (_, client, code) => client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    loadExistingGrant: (koa) => loadExistingGrant(ctx, koa),
    features: {
      devInteractions: { enabled: false },
      pushedAuthorizationRequests: { enabled: true, requirePushedAuthorizationRequests: true },
      deviceFlow: deviceFlow(ctx),
      // A client revokes only what was issued to it.
      revocation: { enabled: true, allowedPolicy: async (_, client, token) => token.clientId === client.clientId },
      introspection: { enabled: true, allowedPolicy: async (_, client, token) => introspectionAllowed(ctx, client, token) },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: false },
    },
    routes: ROUTES,
    interactions: { policy: interactionsPolicy(ctx), url: (_, interaction) => `/oauth/interaction/${interaction.uid}` },
    discovery: {
      agent_claims_supported: ['agent_id', 'agent_type', 'delegation_grant_id', 'principal_sub', 'bounds'],
      agent_types_supported: [...AGENT_TYPES], // the agent_type an agent identity may have
      delegation_methods_supported: ['token_exchange'],
      oap_jwks_uri: `${ctx.baseUrl}/.well-known/jwks.json`,
      oap_protocol_versions_supported: [...OAP_PROTOCOL_VERSIONS],
    },
    renderError,
  };
  const provider = new Provider(ctx.baseUrl, configuration);
  // The server answers on plain http on loopback; behind a proxy the issuer is what it was told.
  provider.proxy = true;
  provider.use(noCachePragma);
  guardDeviceForm(ctx, provider);
  guardClientSecrets(ctx, provider);

  // Token exchange (RFC 8693): a delegation grant for an agent token, for a target this server serves. Several
  // `audience` and `resource` values may be given (RFC 8693 section 2.1); each must be served.
  provider.registerGrantType(
    TOKEN_EXCHANGE,
    async (koa) => {
      refuseForeignTargets(ctx, koa);
      await exchangeDelegationGrant(ctx, koa);
    },
    EXCHANGE_PARAMETERS,
    ['audience', 'resource'],
  );
  return provider;
}

/**
 * The grant a person made to a client before (oidc-provider's default); the service's own clients (the Trust
 * Inbox's) are granted their scopes at once: nobody is asked to consent to the service itself.
 */
async function loadExistingGrant(ctx: ServerContext, koa: KoaContextWithOIDC) {
  const { client, session, result, provider: op } = koa.oidc;
  const grantId = result?.consent?.grantId || (client && session?.grantIdFor(client.clientId));
  if (grantId) return op.Grant.find(grantId);
  const scopes = client && session?.accountId ? firstPartyScopes(ctx, client.clientId) : undefined;
  if (!client || !session?.accountId || !scopes) return undefined;
  const grant = new op.Grant({ clientId: client.clientId, accountId: session.accountId });
  grant.addOIDCScope(scopes.join(' '));
  await grant.save();
  return grant;
}

/** RFC 6749 section 5.1: an answer that must not be cached says so to HTTP/1.0 caches too. */
async function noCachePragma(koa: KoaContextWithOIDC, next: () => Promise<unknown>) {
  await next();
  if (/\bno-store\b/.test(koa.response.get('Cache-Control'))) koa.set('Pragma', 'no-cache');
}

/**
 * The device code form: past a guessing limit (per client address, or of every address together) every post is the
 * 429 page, the right code too, until the window ends. A form posted without a session the provider stored: its
 * re-rendered form would need a session it cannot save (oidc-provider then fails with a 500), so the person is sent
 * back to a fresh form instead.
 */
function guardDeviceForm(ctx: ServerContext, provider: Provider): void {
  provider.use(async (koa, next) => {
    if (koa.method !== 'POST' || koa.path !== DEVICE_PATH) return next();
    const limited = await guessLimits(ctx).limited(deviceCodeTargets(koa));
    if (limited) return deviceLimitedPage(koa, limited);
    if (!(await provider.Session.get(koa)).exp) return deviceFormLostPage(koa);
    await next();
  });
}

/** A client over its authentication limit: 429 with the OAuth error body and `Retry-After`. */
class TooManyAttempts extends errors.OIDCProviderError {
  constructor(description: string) {
    super(429, 'temporarily_unavailable');
    this.error_description = description;
  }
}

/**
 * Client secrets are stored as SHA-256 hashes (shown once, at create and rotation): what a client presents is hashed
 * and compared with the stored hash, in constant time. A wrong secret counts against the client's guessing limits
 * (from this address, and from every address); past either, every attempt is the 429, the right secret too.
 */
function guardClientSecrets(ctx: ServerContext, provider: Provider): void {
  provider.Client.prototype.compareClientSecret = async function compareClientSecret(
    this: { clientId: string; clientSecret?: string },
    actual: string,
  ) {
    const koa = Provider.ctx;
    const targets: Target[] = [
      ['client_secret', `${this.clientId} ${koa ? addressOf(koa.req) : 'unknown'}`],
      ['client_secret_all', this.clientId],
    ];
    const limited = await guessLimits(ctx).limited(targets);
    if (limited) {
      for (const [name, value] of Object.entries(tooManyGuesses('', limited).headers ?? {})) koa?.set(name, value);
      throw new TooManyAttempts(`Too many failed authentications of this client: try again ${waitText(limited)}.`);
    }
    const stored = Buffer.from(this.clientSecret ?? '', 'hex');
    const presented = Buffer.from(hashSecret(actual), 'hex');
    const matches = stored.length === presented.length && timingSafeEqual(stored, presented);
    if (!matches) await guessLimits(ctx).missed(targets);
    return matches;
  };
}

/**
 * RFC 8693 section 2.2.2: a `resource` or `audience` the token would not serve is `invalid_target`. An agent token
 * is for this server alone (its REST API and MCP gateway): a target is a URL on the issuer's origin, without a
 * fragment or credentials (RFC 8707 section 2).
 */
function refuseForeignTargets(ctx: ServerContext, koa: KoaContextWithOIDC): void {
  const params = koa.oidc.params as Record<string, unknown>;
  const origin = new URL(ctx.baseUrl).origin;
  for (const name of ['resource', 'audience']) {
    for (const value of [params[name] ?? []].flat()) {
      let url: URL | undefined;
      try {
        url = typeof value === 'string' ? new URL(value) : undefined;
      } catch {
        url = undefined;
      }
      if (url?.origin === origin && !String(value).includes('#') && !url.username && !url.password) continue;
      throw new errors.InvalidTarget(`${name} ${String(value).slice(0, 100)} is not served here: an agent token is for ${origin}`);
    }
  }
}
