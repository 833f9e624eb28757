import { authenticate } from './infra/auth.js';
import { limitBody } from './infra/body-limit.js';
import { idempotency } from './infra/idempotency.js';
import { requestLimits } from './infra/limits/middleware.js';
import type { Env, ServerContext } from './infra/context.js';
import { onError, onNotFound } from './infra/errors.js';
import { decisionsModule } from './consent/decisions/index.js';
import { serveOpenApi } from './infra/http/openapi.js';
import { router, type RouteModule } from './infra/http/route.js';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { allowedOriginRoutes } from './platform/account/allowed-origins.js';
import { apiTokenRoutes } from './platform/account/api-tokens.js';
import { applicationRoutes } from './platform/account/applications.js';
import { corsRoutes, readableRefusal } from './platform/account/cors.js';
import { meRoutes } from './platform/account/me.js';
import { systemRoutes } from './platform/account/system.js';
import { flowRoutes } from './platform/flows/routes.js';
import { hostedRoutes } from './hosted/index.js';
import { sdkRoutes } from './hosted/sdk/index.js';
import { webhookRoutes } from './platform/webhooks/index.js';
import { capturesModule } from './consent/captures/index.js';
import { IMPORTS_PATH, recordsModule } from './consent/records/index.js';
import { oauthClientRoutes, oauthRoutes } from './platform/oauth/index.js';
import { personOfAccessToken } from './platform/oauth/routes.js';
import { resolveAgentToken } from './authority/delegations/tokens.js';
import { agentIdentityRoutes } from './authority/agents/routes.js';
import { delegateOf, delegationRoutes } from './authority/delegations/routes.js';
import { transparencyRoutes } from './authority/transparency/routes.js';
import { mcpRoutes } from './authority/mcp/routes.js';
import { disclosureRoutes } from './authority/disclosures/routes.js';
import { agreementRoutes } from './surfaces/agree/agreements/routes.js';
import { inboxRoutes } from './people/inbox/routes.js';
import { peopleRoutes } from './people/pages/routes.js';
import { withdrawalRoutes } from './people/withdrawal/routes.js';
import { personRecordRoutes } from './people/records/routes.js';
import { personCredentialRoutes } from './people/credentials/routes.js';
import { personDataRequestRoutes } from './people/data-requests/routes.js';
import { personDelegationRoutes } from './people/delegations/routes.js';
import { personAgreementRoutes } from './people/agreements/routes.js';
import { personConnectionRoutes, personDeviceRoutes } from './people/connections/routes.js';
import { personVouchRoutes } from './people/vouches/routes.js';
import { personReceiptRoutes } from './people/receipts/routes.js';
import { personDataOfferRoutes } from './people/data-offers/routes.js';
import { complyRoutes } from './surfaces/comply/evidence/routes.js';
import { countryGate, countryRoutes } from './infra/cells/routes.js';
import { credentialRoutes } from './consent/credentials/routes.js';
import { verifyRoutes } from './surfaces/verify/routes.js';
import { agreeRoutes } from './surfaces/agree/routes.js';
import { complySurfaceRoutes } from './surfaces/comply/routes.js';
import { protectRoutes } from './surfaces/protect/routes.js';
import { connectRoutes } from './surfaces/connect/routes.js';
import { consoleRoutes } from './console/routes.js';
import { consolePrincipal } from './console/tokens.js';
import { consoleAudit } from './console/audit.js';
import { mailingRoutes } from './consent/mailing/routes.js';

/** Route modules in mounting order. Add a module with one line here. */
const modules: RouteModule[] = [
  corsRoutes, // first: its middleware must run before every other module's handlers
  countryRoutes, // then a browser's request for another country's resource is answered 421 (readable under CORS)
  systemRoutes,
  meRoutes,
  apiTokenRoutes,
  applicationRoutes,
  allowedOriginRoutes,
  flowRoutes,
  decisionsModule, // decisions API + consent_sessions alias, participant API, an authorization's withdrawal page
  hostedRoutes, // the hosted decision pages and the playground at /
  sdkRoutes, // the script-tag SDK: /sdk/v1/svc.js (IIFE), /sdk/v1/svc.mjs (ESM) and their source maps
  webhookRoutes, // webhook endpoints, deliveries; registers the outbox writer and starts the delivery worker
  capturesModule, // render endpoint, captures, authorize (capture tokens), form platform connections and /hooks/forms
  recordsModule, // consent records, imports, consent status, receipts, audit trail and anchoring, witness
  oauthClientRoutes, // an application's OAuth clients
  oauthRoutes, // the OpenID provider (/oauth/*, discovery) and its sign-in and consent pages
  agentIdentityRoutes, // the software agents an account operates: register, suspend, resume, revoke
  delegationRoutes, // delegation grants, authority checks, escalations, trust scores; agent tokens and delegates
  transparencyRoutes, // public /.well-known discovery: transparency records, oap-*, api-catalog, did.json, ssf-configuration
  mcpRoutes, // the model-context gateway (/mcp/v1/agent, agent tokens only), its resource metadata and configuration
  disclosureRoutes, // disclosure receipts: notice records that a flow disclosed an agent
  agreementRoutes, // agreements: documents to sign, parties (each a signing session), quorum, receipts of signatures
  inboxRoutes, // the Trust Inbox: GET /api/v1/inbox, the hosted page /inbox (signed in through the provider), /oap/escalations -> /inbox
  peopleRoutes, // the people's pages (/decisions: the person's consent records), signed in through the provider at /session/*
  withdrawalRoutes, // credential-free withdrawal: /withdraw/{token} (a receipt's withdrawal_method) and /manage/{token} (a receipt email's link)
  personRecordRoutes, // a person's own consent records: GET /api/v1/me/consent_records, one record, its withdrawal (person_records)
  personCredentialRoutes, // a person's own credentials: GET /api/v1/me/credentials, present one selectively, GET /api/v1/me/presentations
  personDataRequestRoutes, // a person's own data requests: GET/POST /api/v1/me/data_requests, one request, its export
  personDelegationRoutes, // the delegation grants a person made: GET /api/v1/me/delegations, one grant, suspend / resume / revoke
  personAgreementRoutes, // a person's agreements (sign, decline; multi_party=true) and collaborations (sign, leave): /api/v1/me/agreements, /api/v1/me/collaborations
  personConnectionRoutes, // a person's own connections: GET /api/v1/me/connections, one, disconnect
  personDeviceRoutes, // a person's own device links (claim a code, cancel) and trust pairings (unpair): /api/v1/me/device_links, /api/v1/me/trust_pairings
  personVouchRoutes, // a person's own trust scores and vouches: GET /api/v1/me/trust_scores, GET|POST /api/v1/me/vouches, revoke one
  personReceiptRoutes, // a person's receipts: GET /api/v1/me/authorization_receipts (in their name), GET /api/v1/me/disclosure_receipts (agents disclosed to them)
  personDataOfferRoutes, // a person's data deals: GET /api/v1/me/data_offers (accept / decline), GET /api/v1/me/data_licenses (revoke)
  complyRoutes, // Comply: transfer register, residency posture, breach scope, their signed evidence packages, GET /api/v1/evidence_packages/{id}
  credentialRoutes, // credentials (SD-JWT VC) of fulfilled consents, their status lists, presentations verified against the issuing cell's key
  verifyRoutes, // Verify: trust scores of persons and agents (the reputation bound's function), vouches
  agreeRoutes, // Agree: multi-party agreements (quorum of two or more), a party's quorum vote, collaborations and memberships
  complySurfaceRoutes, // Comply: modules, governance and its change log, clean rooms and their queries, meeting consents
  protectRoutes, // Protect: policy templates, policies, data requests (DSAR), data licenses, data offers (the data deal), portability transfers
  connectRoutes, // Connect: accounts and their users, connections (a person and an application), device links and trust pairings
  consoleRoutes, // the organisation's console: /applications, /agent_identities, … for account users (403 for anyone else), POST /console/access_token
  mailingRoutes, // mailing-audience connections (Mailchimp, Brevo): /api/v1/mailing_connections, their outbox and /hooks/mailing
];

/** Default limit for request bodies; routes that take more (imports) set their own. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Builds the Hono app for one server context. */
export function createApp(ctx: ServerContext): OpenAPIHono<Env> {
  const app = router();
  app.onError(onError);
  app.notFound(onNotFound);
  const limits = requestLimits(ctx); // undefined when the server's rate limits are off
  if (limits) app.use('*', limits.anonymous);
  app.use('*', countryGate(ctx));
  const defaultLimit = limitBody(DEFAULT_BODY_LIMIT);
  // The import sets its own, larger limit on its route; every other route keeps the default.
  app.use('/api/*', (c, next) => (c.req.method === 'POST' && c.req.path === IMPORTS_PATH ? next() : defaultLimit(c, next)));
  // The credentials the product's parts resolve: a person's access token, an agent token, a delegate.
  const authenticated = authenticate(ctx, {
    accessTokens: (token) => personOfAccessToken(ctx, token),
    agentTokens: (token) => resolveAgentToken(ctx, token),
    delegates: (person, grantId) => delegateOf(ctx, person, grantId),
    consoleTokens: (token) => consolePrincipal(ctx, token),
  });
  const auth = limits ? limits.guard(authenticated) : authenticated;
  app.use('/api/v1/*', async (c, next) => {
    if (c.req.method === 'OPTIONS') return next(); // preflights carry no credentials
    try {
      return await auth(c, next);
    } catch (error) {
      throw readableRefusal(ctx, c, error);
    }
  });
  if (limits) app.use('/api/v1/*', limits.principal); // before idempotency: a refused request keeps no key
  app.use('/api/v1/*', idempotency(ctx));
  app.use('/api/v1/*', consoleAudit(ctx)); // a change made in the console lands on the audit trail with its account user
  for (const mount of modules) app.route('/', mount(ctx));
  serveOpenApi(app, ctx);
  return app;
}
