// The unsigned discovery documents: `api-catalog` (RFC 9727), `did.json` (did:web) and `ssf-configuration` (OpenID
// Shared Signals Framework 1.0 transmitter metadata). Each states only what the server really does.
import type { ApiCatalog, DidDocument, SsfConfiguration } from '@svc/schemas';
import type { ServerContext } from '../../infra/context.js';
import { didOf, urls } from './records.js';

/** `Link` of the api-catalog (RFC 9727 section 2: a HEAD request is answered with it). */
export function apiCatalogLink(ctx: ServerContext): string {
  return `<${ctx.baseUrl}/.well-known/api-catalog>; rel="api-catalog"`;
}

/**
 * The API catalog: one linkset entry for the REST API (anchored at `/api/v1`) with its `service-desc`, the OpenAPI
 * 3.1 document. No `service-doc` or `status` link: the server serves no documentation page and no status endpoint
 * (its documentation is the README; `/metrics` is Prometheus text, not an API status).
 */
export function apiCatalog(ctx: ServerContext): ApiCatalog {
  return {
    linkset: [
      {
        anchor: `${ctx.baseUrl}/api/v1`,
        'service-desc': [
          {
            href: `${ctx.baseUrl}/.well-known/openapi`,
            type: 'application/vnd.oai.openapi+json;version=3.1',
            title: 'svc REST API (OpenAPI 3.1)',
          },
        ],
      },
    ],
  };
}

/**
 * The did:web DID document of the service: each key of `/.well-known/jwks.json` as a JsonWebKey2020 verification
 * method (`#<kid>`), usable to verify what the service asserts (receipts, transparency records) and to authenticate
 * it (the same keys sign its ID tokens).
 */
export function didDocument(ctx: ServerContext): DidDocument {
  const did = didOf(ctx);
  const methods = ctx.keys.jwks.keys.map((key) => ({
    id: `${did}#${key.kid ?? ''}`,
    type: 'JsonWebKey2020' as const,
    controller: did,
    publicKeyJwk: { ...key, kty: key.kty ?? 'EC' },
  }));
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
    id: did,
    verificationMethod: methods,
    assertionMethod: methods.map((m) => m.id),
    authentication: methods.map((m) => m.id),
  };
}

/** CAEP event types (OpenID Continuous Access Evaluation Profile 1.0). */
const CAEP = 'https://schemas.openid.net/secevent/caep/event-type';

/**
 * SSF transmitter configuration metadata (OpenID Shared Signals Framework 1.0, section 7.1). The server issues no
 * Security Event Tokens yet, so `delivery_methods_supported` is empty (neither RFC 8935 push nor RFC 8936 poll) and
 * there is no stream management; `events_supported` names the CAEP events whose facts it records, and
 * `svc_event_sources` where each can be observed today.
 */
export function ssfConfiguration(ctx: ServerContext): SsfConfiguration {
  return {
    spec_version: '1_0',
    issuer: ctx.baseUrl,
    jwks_uri: urls.jwks(ctx),
    delivery_methods_supported: [],
    // The only calls a receiver makes today are the REST API's (webhook endpoints), with an API token as a bearer.
    authorization_schemes: [{ spec_urn: 'urn:ietf:rfc:6750' }],
    events_supported: [`${CAEP}/session-revoked`, `${CAEP}/credential-change`],
    svc_event_sources: [
      {
        event_type: `${CAEP}/session-revoked`,
        source: 'delegation.revoked',
        observed_through:
          'the delegation.revoked webhook (HMAC-signed JSON, not a SET) and /.well-known/oap-revocation-list: a revoked delegation grant ends every agent token issued from it',
      },
      {
        event_type: `${CAEP}/credential-change`,
        source: 'agent_identity.revoked',
        observed_through:
          "/.well-known/oap-revocation-list, /.well-known/oap-credentials/{agent_id} and the application's activity (agent_identity.revoked): a revoked agent identity can no longer exchange grants for tokens",
      },
    ],
    svc_not_implemented: [
      'Security Event Tokens (RFC 8417): no SET is issued or signed',
      'SET delivery: neither push (urn:ietf:rfc:8935) nor poll (urn:ietf:rfc:8936)',
      'stream management: configuration_endpoint, status_endpoint, add_subject_endpoint, remove_subject_endpoint, verification_endpoint',
      'default_subjects and critical_subject_members',
    ],
  };
}
