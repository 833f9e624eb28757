// The rest of discovery under /.well-known: api-catalog (RFC 9727), did.json (did:web), oap-attestation and
// ssf-configuration, each served, shaped as its schema says, and consistent with the JWKS.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyTransparencyRecord, type SignedTransparencyRecord } from '@svc/client';
import { API_CATALOG_MEDIA_TYPE, apiCatalog, didDocument, signedPlatformAttestation, ssfConfiguration } from '@svc/schemas';
import { compactVerify, importJWK, type JSONWebKeySet, type JWK } from 'jose';
import { TRUST_SCORE_FUNCTION_VERSION } from '../delegations/trust-score.js';
import { signJcs } from '../../consent/receipts/sign.js';
import { startTestServer, type TestServer } from '../../testing.js';

let server: TestServer;
let jwks: JSONWebKeySet & { keys: JWK[] };

before(async () => {
  server = await startTestServer();
  jwks = (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as typeof jwks;
});
after(() => server.dispose());

const get = (path: string, method = 'GET') => fetch(`${server.url}${path}`, { method });

describe('/.well-known/api-catalog (RFC 9727)', () => {
  it("answers a linkset with the RFC's profile, naming the OpenAPI document as the API's service-desc", async () => {
    const res = await get('/.well-known/api-catalog');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), API_CATALOG_MEDIA_TYPE);
    assert.match(res.headers.get('content-type')!, /^application\/linkset\+json; profile="https:\/\/www\.rfc-editor\.org\/info\/rfc9727"$/);
    const body = await res.json();
    assert.equal(apiCatalog.safeParse(body).success, true);
    const [entry] = (body as { linkset: { anchor: string; 'service-desc': { href: string }[] }[] }).linkset;
    assert.equal(entry!.anchor, `${server.url}/api/v1`);
    const desc = entry!['service-desc'][0]!.href;
    assert.equal(desc, `${server.url}/.well-known/openapi`);
    assert.match(((await (await fetch(desc)).json()) as { openapi: string }).openapi, /^3\.1/);
    assert.equal(res.headers.get('link'), `<${server.url}/.well-known/api-catalog>; rel="api-catalog"`);
  });

  it('answers HEAD with the Link header and no body', async () => {
    const res = await get('/.well-known/api-catalog', 'HEAD');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('link'), `<${server.url}/.well-known/api-catalog>; rel="api-catalog"`);
    assert.equal(res.headers.get('content-type'), API_CATALOG_MEDIA_TYPE);
    assert.equal(await res.text(), '');
  });
});

describe('/.well-known/did.json', () => {
  it('is the did:web document of the service, its verification methods exactly the JWKS keys', async () => {
    const res = await get('/.well-known/did.json');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/did\+json/);
    const doc = didDocument.parse(await res.json());
    const host = new URL(server.url).host;
    assert.equal(doc.id, `did:web:${host.replace(':', '%3A')}`);
    assert.deepEqual(
      doc.verificationMethod.map((m) => m.publicKeyJwk),
      jwks.keys,
    );
    assert.deepEqual(
      doc.verificationMethod.map((m) => m.id),
      jwks.keys.map((k) => `${doc.id}#${k.kid}`),
    );
    for (const m of doc.verificationMethod) assert.equal(m.controller, doc.id);
    assert.deepEqual(
      doc.assertionMethod,
      doc.verificationMethod.map((m) => m.id),
    );
    assert.deepEqual(
      doc.authentication,
      doc.verificationMethod.map((m) => m.id),
    );
    assert.ok(!JSON.stringify(doc).includes('"d"'), 'no private key part');
  });

  it('names a key that verifies what the service signs', async () => {
    const doc = didDocument.parse(await (await get('/.well-known/did.json')).json());
    const value = { hello: 'world' };
    const [header, , signature] = (await signJcs(value, server.context.keys.privateKey, server.context.keys.kid)).split('.');
    const method = doc.verificationMethod.find((m) => m.id.endsWith(`#${server.context.keys.kid}`))!;
    const key = await importJWK(method.publicKeyJwk as JWK, 'ES256');
    await compactVerify(`${header}.${Buffer.from(JSON.stringify(value)).toString('base64url')}.${signature}`, key);
  });
});

describe('/.well-known/oap-attestation', () => {
  it("is the platform's signed attestation of itself: issuer, did, protocol versions, the JWKS, the trust-score function", async () => {
    const res = await get('/.well-known/oap-attestation');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('cache-control') ?? '', /^public, max-age=\d+$/);
    const body = await res.json();
    assert.equal(
      signedPlatformAttestation.safeParse(body).success,
      true,
      JSON.stringify(signedPlatformAttestation.safeParse(body).error?.issues),
    );
    const record = await verifyTransparencyRecord(body as SignedTransparencyRecord, jwks, { recordType: 'oap_platform_attestation' });
    assert.equal(record.issuer, server.url);
    assert.equal(record.subject, server.url);
    assert.deepEqual(record.jwks, jwks);
    assert.equal(record.jwks_uri, `${server.url}/.well-known/jwks.json`);
    assert.equal(record.trust_score.function_version, TRUST_SCORE_FUNCTION_VERSION);
    assert.deepEqual(record.trust_score.factors, [
      'actions_allowed',
      'actions_denied',
      'escalations_denied',
      'grants_revoked',
      'vouches_received',
      'vouches_revoked',
    ]);
    const did = didDocument.parse(await (await get('/.well-known/did.json')).json());
    assert.equal(record.did, did.id);
    const openid = (await (await get('/.well-known/openid-configuration')).json()) as Record<string, unknown>;
    assert.deepEqual(record.oap_protocol_versions_supported, openid.oap_protocol_versions_supported);
    assert.deepEqual(record.delegation_methods_supported, openid.delegation_methods_supported);
    assert.deepEqual(record.agent_types_supported, openid.agent_types_supported);
    assert.equal(record.issuer, openid.issuer);

    const changed = {
      ...(body as SignedTransparencyRecord),
      record: { ...record, trust_score: { ...record.trust_score, function_version: 'svc-trust-score/0' } },
    };
    await assert.rejects(verifyTransparencyRecord(changed as SignedTransparencyRecord, jwks), { code: 'ERR_SVC_TRANSPARENCY_SIGNATURE' });
  });
});

describe('/.well-known/ssf-configuration', () => {
  it('is SSF 1.0 transmitter metadata that claims no delivery it does not make', async () => {
    const res = await get('/.well-known/ssf-configuration');
    assert.equal(res.status, 200);
    const body = ssfConfiguration.parse(await res.json());
    assert.equal(body.spec_version, '1_0');
    assert.equal(body.issuer, server.url);
    assert.equal(body.jwks_uri, `${server.url}/.well-known/jwks.json`);
    assert.deepEqual(body.delivery_methods_supported, [], 'no SET is pushed or polled yet');
    assert.equal((body as Record<string, unknown>).configuration_endpoint, undefined, 'no stream management');
    assert.deepEqual(body.events_supported, [
      'https://schemas.openid.net/secevent/caep/event-type/session-revoked',
      'https://schemas.openid.net/secevent/caep/event-type/credential-change',
    ]);
    assert.deepEqual(
      body.svc_event_sources.map((s) => s.event_type),
      body.events_supported,
    );
    assert.ok(body.svc_not_implemented.some((line) => /8935/.test(line)));
  });
});

describe('the OpenAPI document', () => {
  it('describes every public discovery route without a credential', async () => {
    const doc = (await (await get('/.well-known/openapi')).json()) as { paths: Record<string, { get?: { security: unknown[] } }> };
    for (const path of [
      '/.well-known/transparency/{application_id}',
      '/.well-known/transparency/agents/{agent_id}',
      '/.well-known/transparency/agents/{agent_id}/manifests/{version}',
      '/.well-known/oap-attestation',
      '/.well-known/oap-credentials/{agent_id}',
      '/.well-known/oap-revocation-list',
      '/.well-known/api-catalog',
      '/.well-known/did.json',
      '/.well-known/ssf-configuration',
    ]) {
      assert.deepEqual(doc.paths[path]?.get?.security, [], path);
    }
    assert.ok(doc.paths['/api/v1/agent_identities/{id}/manifests']?.get);
  });
});
