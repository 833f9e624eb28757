// The public discovery surface under `/.well-known/`: the transparency records (`transparency/{application_id}`,
// `transparency/agents/{agent_id}`, `transparency/agents/{agent_id}/manifests/{version}`), the signed platform
// documents (`oap-attestation`, `oap-credentials/{agent_id}`, `oap-revocation-list`) and the unsigned ones
// (`api-catalog`, `did.json`, `ssf-configuration`). No credential is asked for or looked at; every answer may be
// cached briefly and read from any origin. A signed record answers `{record, signature}` (a detached JWS over the
// JCS bytes of `record`, as signed receipts are), so anyone holding only the JWKS checks it offline.
import {
  API_CATALOG_MEDIA_TYPE,
  apiCatalog as apiCatalogSchema,
  didDocument as didDocumentSchema,
  signedAgentRecord,
  signedControllerRecord,
  signedCredentialAttestation,
  signedManifestRecord,
  signedPlatformAttestation,
  signedRevocationList,
  ssfConfiguration as ssfConfigurationSchema,
} from '@svc/schemas';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { route, routes } from '../../infra/http/route.js';
import { findPinnedManifest } from '../agents/manifest.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { notFound } from '../../infra/errors.js';
import { apiCatalog, apiCatalogLink, didDocument, ssfConfiguration } from './discovery.js';
import {
  agentRecord,
  controllerRecord,
  credentialRecord,
  manifestRecord,
  platformAttestation,
  revocationList,
  signRecord,
} from './records.js';

/** Seconds a record may be cached: briefly, since status and revocations change. */
const BRIEF = 60;
/** A pinned manifest version never changes; its record may be kept longer. */
const FROZEN = 3600;

/** Longest id looked up; anything longer names nothing (and is not worth a query). */
const MAX_ID = 200;

function publicHeaders(c: Context<Env>, maxAge: number): void {
  c.header('Cache-Control', `public, max-age=${maxAge}`);
  c.header('Access-Control-Allow-Origin', '*');
}

/** The path parameter `name`, or a 404 when it is empty or too long to be an id. */
function idParam(c: Context<Env>, name: string, what: string): string {
  const value = c.req.param(name) ?? '';
  if (!value || value.length > MAX_ID) throw notFound(`No such ${what}.`);
  return value;
}

/** A manifest version: a positive decimal integer without leading zeros (anything else names no version). */
function versionParam(c: Context<Env>): number {
  const raw = c.req.param('version') ?? '';
  if (!/^[1-9][0-9]{0,8}$/.test(raw)) throw notFound('No such manifest version: versions are 1, 2, 3, ...');
  return Number(raw);
}

const tag = 'Discovery and transparency';
const signed =
  'Signed: {record, signature}, signature a compact JWS with detached payload (RFC 7515 appendix F) over the RFC 8785 bytes of record, its kid in /.well-known/jwks.json.';

const signedJson = async (c: Context<Env>, ctx: ServerContext, record: Parameters<typeof signRecord>[1], maxAge: number) => {
  publicHeaders(c, maxAge);
  return c.json(await signRecord(ctx, record));
};

/** Mounts the `/.well-known` discovery and transparency routes (public: no credential). */
export const transparencyRoutes = routes((app, ctx) => {
  recordRoutes(app, ctx);
  documentRoutes(app, ctx);
});

/** The signed records: transparency records of applications, agents and manifests, and the platform's attestations. */
function recordRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  // The most specific path first, so `agents` is never read as an application id.
  route(
    app,
    {
      method: 'get',
      path: '/.well-known/transparency/agents/{agent_id}/manifests/{version}',
      summary: "A pinned version of an agent's capability manifest",
      tag,
      auth: [],
      response: {
        status: 200,
        description: `The manifest frozen at pin time and its digest (sha256 over the RFC 8785 bytes of manifest), which authorization receipts carry as capability_manifest. ${signed}`,
        schema: signedManifestRecord,
      },
      errors: [404],
    },
    async (c) => {
      const agentId = idParam(c, 'agent_id', 'agent identity');
      const version = versionParam(c);
      const pinned = findPinnedManifest(ctx, agentId, version);
      if (!pinned) throw notFound(`No manifest version ${version} is pinned for agent identity ${agentId}.`);
      return signedJson(c, ctx, manifestRecord(ctx, pinned), FROZEN);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: '/.well-known/transparency/agents/{agent_id}',
      summary: 'The accountability record of an agent identity',
      tag,
      auth: [],
      response: {
        status: 200,
        description: `Operator-declared identity, platform-attested status, credential attestations and pinned manifest versions. ${signed}`,
        schema: signedAgentRecord,
      },
      errors: [404],
    },
    async (c) => {
      const record = agentRecord(ctx, idParam(c, 'agent_id', 'agent identity'));
      if (!record) throw notFound('No such agent identity.');
      return signedJson(c, ctx, record, BRIEF);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: '/.well-known/transparency/{application_id}',
      summary: "The controller record of an application's receipts",
      tag,
      auth: [],
      response: {
        status: 200,
        description: `The controller as receipts name it, the receipt schema, where receipts are verified and withdrawn, the organisation, environment and region. ${signed}`,
        schema: signedControllerRecord,
      },
      errors: [404],
    },
    async (c) => {
      const record = controllerRecord(ctx, idParam(c, 'application_id', 'application'));
      if (!record) throw notFound('No such application.');
      return signedJson(c, ctx, record, BRIEF);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: '/.well-known/oap-attestation',
      summary: "The platform's attestation of itself",
      tag,
      auth: [],
      response: {
        status: 200,
        description: `Issuer, did:web, protocol versions, the JWKS, the trust-score function version. ${signed}`,
        schema: signedPlatformAttestation,
      },
    },
    (c) => signedJson(c, ctx, platformAttestation(ctx), BRIEF),
  );

  route(
    app,
    {
      method: 'get',
      path: '/.well-known/oap-credentials/{agent_id}',
      summary: 'The credential attestation of an agent identity',
      tag,
      auth: [],
      response: {
        status: 200,
        description: `How the agent authenticates (its OAuth client at /oauth/token/exchange) and its status. ${signed}`,
        schema: signedCredentialAttestation,
      },
      errors: [404],
    },
    async (c) => {
      const record = credentialRecord(ctx, idParam(c, 'agent_id', 'agent identity'));
      if (!record) throw notFound('No such agent identity.');
      return signedJson(c, ctx, record, BRIEF);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: '/.well-known/oap-revocation-list',
      summary: 'Revoked agent identities and delegation grants, with revocation times',
      tag,
      auth: [],
      response: { status: 200, description: `Ids and times only. ${signed}`, schema: signedRevocationList },
    },
    (c) => signedJson(c, ctx, revocationList(ctx), BRIEF),
  );
}

/** The unsigned discovery documents. */
function documentRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  // RFC 9727: GET answers the linkset; HEAD (which Hono answers from this handler, without the body) the same
  // headers, among them the Link to the catalog with the api-catalog relation.
  route(
    app,
    {
      method: 'get',
      path: '/.well-known/api-catalog',
      summary: 'The API catalog (RFC 9727)',
      tag,
      auth: [],
      response: {
        status: 200,
        description:
          'application/linkset+json with profile="https://www.rfc-editor.org/info/rfc9727": the REST API and its service-desc (the OpenAPI document). HEAD answers the headers only, with Link: <…/.well-known/api-catalog>; rel="api-catalog".',
        schema: apiCatalogSchema,
      },
    },
    (c) => {
      publicHeaders(c, 300);
      c.header('Link', apiCatalogLink(ctx));
      return c.body(JSON.stringify(apiCatalog(ctx)), 200, { 'Content-Type': API_CATALOG_MEDIA_TYPE });
    },
  );

  route(
    app,
    {
      method: 'get',
      path: '/.well-known/did.json',
      summary: "The service's did:web DID document",
      tag,
      auth: [],
      response: {
        status: 200,
        description:
          'application/did+json: the JWKS keys as JsonWebKey2020 verification methods, each an assertion and authentication method.',
        schema: didDocumentSchema,
      },
    },
    (c) => {
      publicHeaders(c, 300);
      return c.body(JSON.stringify(didDocument(ctx)), 200, { 'Content-Type': 'application/did+json' });
    },
  );

  route(
    app,
    {
      method: 'get',
      path: '/.well-known/ssf-configuration',
      summary: 'OpenID Shared Signals Framework transmitter configuration',
      tag,
      auth: [],
      response: {
        status: 200,
        description:
          'SSF 1.0 transmitter metadata; no SET delivery is implemented yet (delivery_methods_supported is empty; svc_not_implemented says what is missing).',
        schema: ssfConfigurationSchema,
      },
    },
    (c) => {
      publicHeaders(c, 300);
      return c.json(ssfConfiguration(ctx));
    },
  );
}
