// Credentials and presentations (Verify): `POST|GET /api/v1/credentials`, `GET …/{id}`, `POST …/{id}/revoke`
// (API tokens: `write` to issue and revoke, `read` to look), `POST /api/v1/presentations` (`read`: any cell verifies a
// credential of any cell against the issuing cell's published key), and the public discovery of the issuer:
// `/.well-known/openid-credential-issuer` (OpenID4VCI issuer metadata) and `/.well-known/credential-status/{id}`
// (status list tokens).
import {
  CREDENTIAL_FORMAT,
  createCredentialRequest,
  credentialEnvelope,
  credentialIssuerMetadata,
  credentialList,
  credentialListQuery,
  presentationEnvelope,
  verifyPresentationRequest,
  type CredentialIssuerMetadata,
} from '@svc/schemas';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { route, routes } from '../../infra/http/route.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { notFound } from '../../infra/errors.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { findCredentialRow, followWithdrawals, issueCredential, listCredentials, revokeCredential, toCredential } from './store.js';
import { STATUS_LIST_MEDIA_TYPE, STATUS_LIST_PATH, STATUS_LIST_TTL_SECONDS, statusListExists, statusListToken } from './status-list.js';
import { verifyPresentation } from './verify.js';

const BASE = '/api/v1/credentials';
const PRESENTATIONS = '/api/v1/presentations';
const ISSUER_METADATA = '/.well-known/openid-credential-issuer';

/** The credential configuration every cell offers: consent credentials as SD-JWT VCs, ES256, optional holder binding. */
export const CONSENT_CREDENTIAL_CONFIGURATION = 'consent_credential_sd_jwt';

/** The cell's OpenID4VCI issuer metadata. */
export function issuerMetadata(ctx: ServerContext): CredentialIssuerMetadata {
  return {
    credential_issuer: ctx.baseUrl,
    // Issuance is the organisation's (an API token naming a fulfilled consent), not a wallet-initiated OpenID4VCI flow.
    credential_endpoint: `${ctx.baseUrl}${BASE}`,
    jwks_uri: `${ctx.baseUrl}/.well-known/jwks.json`,
    status_list_uri_prefix: `${ctx.baseUrl}${STATUS_LIST_PATH}/`,
    home_country: ctx.country,
    display: [{ name: `svc (${ctx.country})`, locale: 'en' }],
    credential_configurations_supported: {
      [CONSENT_CREDENTIAL_CONFIGURATION]: {
        format: CREDENTIAL_FORMAT,
        vct: 'ConsentCredential',
        cryptographic_binding_methods_supported: ['jwk'],
        credential_signing_alg_values_supported: ['ES256'],
        proof_types_supported: { jwt: { proof_signing_alg_values_supported: ['ES256'] } },
        display: [
          {
            name: 'Consent credential',
            locale: 'en',
            description: 'Attests the purposes a person granted in a consent decision; each purpose is selectively disclosable.',
          },
        ],
        claims: [
          { path: ['purposes'], display: [{ name: 'Granted purposes', locale: 'en' }] },
          { path: ['application_id'], display: [{ name: 'Application', locale: 'en' }] },
          { path: ['consent_transaction_id'], display: [{ name: 'Consent transaction', locale: 'en' }] },
          { path: ['consented_at'], display: [{ name: 'Consented at', locale: 'en' }] },
          { path: ['email'], display: [{ name: 'Email', locale: 'en' }] },
          { path: ['home_country'], display: [{ name: 'Home country', locale: 'en' }] },
        ],
      },
    },
  };
}

const tag = 'Credentials and presentations';

/** The credential and presentation routes, and the issuer's public discovery. */
export const credentialRoutes = routes((app, ctx) => {
  followWithdrawals(ctx);
  route(
    app,
    {
      method: 'post',
      path: BASE,
      summary:
        "Issue a verifiable credential (SD-JWT VC, dc+sd-jwt, ES256 with the cell's key) of a fulfilled consent decision of this cell, named by its consent_transaction_id; each granted purpose, the application, the transaction and the email are selectively disclosable. 421 wrong_country when the transaction is homed in another cell; 422 consent_transaction_not_found, not_a_consent, consent_not_fulfilled",
      tag,
      permission: 'write',
      body: createCredentialRequest,
      response: {
        status: 201,
        description: 'The credential; credential.credential is the SD-JWT the holder keeps',
        schema: credentialEnvelope,
      },
      errors: [421, 422],
    },
    async (c, { body }) => {
      const credential = await issueCredential(ctx, c.get('principal').accountId, body);
      c.header('Location', `${BASE}/${credential.id}`);
      return c.json({ credential }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: BASE,
      summary: "List the account's credentials of this cell, oldest first (filters: status, consent_transaction_id)",
      tag,
      permission: 'read',
      query: credentialListQuery,
      response: { status: 200, description: 'A page of credentials', schema: credentialList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor, status, consent_transaction_id } }) =>
      c.json(listCredentials(ctx, c.get('principal').accountId, { limit, cursor, status, consent_transaction_id })),
  );

  route(
    app,
    {
      method: 'get',
      path: `${BASE}/{id}`,
      summary: 'Read a credential (421 wrong_country when homed in another cell)',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The credential', schema: credentialEnvelope },
      errors: [404, 421],
    },
    (c) => {
      const row = findCredentialRow(ctx, c.get('principal').accountId, c.req.param('id')!);
      if (!row) throw notFound('No such credential.');
      return c.json({ credential: toCredential(ctx, row) });
    },
  );

  route(
    app,
    {
      method: 'post',
      path: `${BASE}/{id}/revoke`,
      summary: `Revoke a credential: its bit is set in its status list at once; verifiers see it when their cached copy expires (ttl ${STATUS_LIST_TTL_SECONDS} s). Revoking again answers it unchanged`,
      tag,
      permission: 'write',
      response: { status: 200, description: 'The credential, revoked', schema: credentialEnvelope },
      errors: [404, 421],
    },
    (c) => {
      const row = findCredentialRow(ctx, c.get('principal').accountId, c.req.param('id')!);
      if (!row) throw notFound('No such credential.');
      return c.json({ credential: toCredential(ctx, revokeCredential(ctx, row)) });
    },
  );

  route(
    app,
    {
      method: 'post',
      path: PRESENTATIONS,
      summary:
        "Verify a presented credential from any cell against the issuing country's published key, without a callback: signature, disclosures, key binding (bound credentials; nonce required), times, and the status bit from the issuer's status list (cached until its ttl). A cross-border presentation is recorded in the transfer register. 422 malformed_presentation, unsupported_format, unsupported_algorithm, unknown_issuer, invalid_signature, disclosure_not_referenced, duplicate_disclosure, credential_expired, nonce_required, key_binding_required, invalid_key_binding, invalid_status_reference; 502 status_list_invalid; 503 status_list_unavailable",
      tag,
      permission: 'read',
      body: verifyPresentationRequest,
      response: {
        status: 200,
        description: 'What the presentation proves: valid, revoked, the disclosed claims and how many stayed hidden',
        schema: presentationEnvelope,
      },
      errors: [422, 502, 503],
    },
    async (c, { body }) => c.json({ presentation: await verifyPresentation(ctx, c.get('principal').accountId, body) }),
  );

  discoveryRoutes(app, ctx);
});

/** The issuer's public discovery: its metadata and its status lists. */
function discoveryRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  route(
    app,
    {
      method: 'get',
      path: ISSUER_METADATA,
      summary: "The cell's OpenID4VCI credential issuer metadata (credential_issuer = the cell's base URL)",
      tag,
      auth: [],
      response: { status: 200, description: 'Issuer metadata with credential_configurations_supported', schema: credentialIssuerMetadata },
    },
    (c) => {
      c.header('Cache-Control', 'public, max-age=300');
      c.header('Access-Control-Allow-Origin', '*');
      return c.json(issuerMetadata(ctx));
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${STATUS_LIST_PATH}/{id}`,
      summary: `A status list token (IETF OAuth Token Status List): a JWT, typ statuslist+jwt, ES256 with the cell's key (kid in /.well-known/jwks.json), media type ${STATUS_LIST_MEDIA_TYPE}; status_list {bits: 1, lst}, ttl ${STATUS_LIST_TTL_SECONDS}`,
      tag,
      auth: [],
      response: { status: 200, description: `The status list token, a compact JWT (${STATUS_LIST_MEDIA_TYPE}, not JSON)` },
      errors: [404],
    },
    async (c) => {
      const id = c.req.param('id')!;
      const token = id.length <= 64 && statusListExists(ctx, id) ? await statusListToken(ctx, id) : undefined;
      if (!token) throw notFound('No such status list.');
      // Verifiers may keep it for its ttl; after a revocation the next fetch has the new bit.
      c.header('Cache-Control', `public, max-age=${STATUS_LIST_TTL_SECONDS}`);
      c.header('Access-Control-Allow-Origin', '*');
      return c.body(token.jwt, 200, { 'Content-Type': STATUS_LIST_MEDIA_TYPE });
    },
  );
}
