// The transparency records over HTTP: each is public, shaped as its schema says, and verifies offline with nothing
// but the JWKS (a changed field does not); pinned manifest versions never change; a grant's authorization receipt
// carries the digest of the pinned version with its scopes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyTransparencyRecord, type AgentTransparencyRecord, type SignedTransparencyRecord } from '@svc/client';
import {
  capabilityManifestEnvelope,
  capabilityManifestList,
  signedAgentRecord,
  signedControllerRecord,
  signedCredentialAttestation,
  signedManifestRecord,
  signedRevocationList,
} from '@svc/schemas';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import canonicalizeModule from 'canonicalize';
import { createHash } from 'node:crypto';
import { call, grant, newAgent, signIn, type Agent, type Json, type Person } from '../delegations/test-support.js';
import { hashSecret, newSecret } from '../../infra/ids.js';
import { startTestServer, type TestServer } from '../../testing.js';

const canonicalize = ((canonicalizeModule as unknown as { default?: unknown }).default ?? canonicalizeModule) as (v: unknown) => string;

let server: TestServer;
let jwks: JSONWebKeySet;
let ada: Person;
let agent: Agent;

const declarations = {
  capabilities: ['pay', 'book_travel'],
  operator_name: 'Example Travel Ltd',
  privacy_policy_url: 'https://travel.example/privacy',
  data_storage: 'EU',
  retention_period: 'P30D',
  // Operator facts outside the manifest stay out of every public record.
  internal_contact: 'ops-oncall@travel.example',
  deployment_secret_hint: 'vault:kv/agents/travel',
};

before(async () => {
  server = await startTestServer();
  jwks = (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as JSONWebKeySet;
  ada = await signIn(server, 'ada@example.com');
  agent = await newAgent(server, 'Travel agent', declarations);
});
after(() => server.dispose());

/** A public GET (no credential at all). */
async function open(path: string, method = 'GET') {
  const res = await fetch(`${server.url}${path}`, { method });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: (text ? JSON.parse(text) : undefined) as Json };
}

/** Verifies with jose alone: the JWKS, the JCS bytes of `record` re-inserted as the payload. */
async function joseVerifies(signed: { record: unknown; signature: string }): Promise<boolean> {
  const [header, , signature] = signed.signature.split('.');
  const payload = Buffer.from(canonicalize(signed.record)).toString('base64url');
  try {
    await compactVerify(`${header}.${payload}.${signature}`, createLocalJWKSet(jwks), { algorithms: ['ES256'] });
    return true;
  } catch {
    return false;
  }
}

const pin = (agentId: string, scopes: string[], token?: string) =>
  call(server, `/api/v1/agent_identities/${agentId}/manifests`, { json: { delegated_scopes: scopes }, ...(token ? { token } : {}) });

describe('the controller record', () => {
  it('is public, cacheable briefly, shaped as its schema, and verifies offline with only the JWKS', async () => {
    const res = await open(`/.well-known/transparency/${server.sandbox.application_id}`);
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('cache-control') ?? '', /^public, max-age=\d+$/);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const parsed = signedControllerRecord.safeParse(res.body);
    assert.equal(parsed.success, true, JSON.stringify(parsed.error?.issues));
    const record = await verifyTransparencyRecord(res.body as SignedTransparencyRecord, jwks, { recordType: 'controller_record' });
    assert.ok(await joseVerifies(res.body as SignedTransparencyRecord));

    // The controller exactly as the application's receipts name it.
    const g = await grant(server, ada, agent.id, { delegation_type: 'ai_agent', delegated_scopes: ['x:read'] });
    const receipt = (await call(server, `/api/v1/authorization_receipts/${g.authorization_record_id}`)).body.authorization_receipt;
    assert.deepEqual(
      record.controller,
      receipt.party_identification.find((p: Json) => p.party_role === 'controller'),
    );
    assert.deepEqual(
      record.processor,
      receipt.party_identification.find((p: Json) => p.party_role === 'processor'),
    );
    assert.equal(record.receipts.schema_version, receipt.schema_version);
    assert.equal(record.receipts.jwks_uri, `${server.url}/.well-known/jwks.json`);
    assert.equal(
      record.withdrawal.authorization_records.url_template.replace('{record_id}', g.authorization_record_id),
      receipt.authority.withdrawal_method,
    );
    assert.equal(record.withdrawal.authorization_records.credential, 'none');
    assert.equal((await fetch(record.receipts.schema_url)).status, 200);
    assert.equal(record.environment, 'development');
    assert.equal(record.region, 'dev');
    assert.ok(record.organization_name.length > 0);
  });

  it('holds no e-mail address, secret or allowed origin', async () => {
    const res = await open(`/.well-known/transparency/${server.sandbox.application_id}`);
    assert.doesNotMatch(res.text, /@/);
    for (const secret of [server.sandbox.api_token, server.sandbox.publishable_key, server.sandbox.oauth_client_secret ?? 'none'])
      assert.ok(!res.text.includes(secret));
    assert.doesNotMatch(res.text, /allowed_origin/);
  });

  it('fails verification once any field is changed', async () => {
    const { body } = await open(`/.well-known/transparency/${server.sandbox.application_id}`);
    const changed = { ...body, record: { ...body.record, organization_name: `${body.record.organization_name} (not really)` } };
    await assert.rejects(verifyTransparencyRecord(changed as SignedTransparencyRecord, jwks), { code: 'ERR_SVC_TRANSPARENCY_SIGNATURE' });
    assert.equal(await joseVerifies(changed as SignedTransparencyRecord), false);
    await assert.rejects(verifyTransparencyRecord(body as SignedTransparencyRecord, jwks, { recordType: 'agent_accountability_record' }), {
      code: 'ERR_SVC_TRANSPARENCY_INVALID',
    });
  });

  it('answers 404 with a message for an unknown application', async () => {
    const res = await open('/.well-known/transparency/tp_dev_nobody');
    assert.equal(res.status, 404);
    assert.equal(typeof res.body.message, 'string');
  });
});

describe('pinning capability manifests', () => {
  it('pins the next version, frozen with its digest; an identical manifest pins nothing; a new one never changes an old one', async () => {
    const subject = await newAgent(server, 'Pinning agent', declarations);
    const first = await pin(subject.id, ['payments:write', 'bookings:read']);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(capabilityManifestEnvelope.safeParse(first.body).success, true);
    const v1 = first.body.capability_manifest;
    assert.equal(v1.version, 1);
    assert.deepEqual(v1.manifest, {
      agent_type: 'autonomous',
      name: 'Pinning agent',
      delegated_scopes: ['bookings:read', 'payments:write'],
      capabilities: ['book_travel', 'pay'],
      operator_name: 'Example Travel Ltd',
      privacy_policy_url: 'https://travel.example/privacy',
      data_storage: 'EU',
      retention_period: 'P30D',
    });
    assert.equal(v1.digest, `sha256:${createHash('sha256').update(canonicalize(v1.manifest)).digest('hex')}`);

    const again = await pin(subject.id, ['bookings:read', 'payments:write']);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body.capability_manifest, v1);

    const before = await open(`/.well-known/transparency/agents/${subject.id}/manifests/1`);
    server.advance(60);
    const second = await pin(subject.id, ['bookings:read']);
    assert.equal(second.status, 201);
    assert.equal(second.body.capability_manifest.version, 2);
    assert.notEqual(second.body.capability_manifest.digest, v1.digest);
    const afterwards = await open(`/.well-known/transparency/agents/${subject.id}/manifests/1`);
    assert.deepEqual(afterwards.body.record, before.body.record, 'version 1 is what it was');

    const list = await call(server, `/api/v1/agent_identities/${subject.id}/manifests`);
    assert.equal(list.status, 200);
    assert.equal(capabilityManifestList.safeParse(list.body).success, true);
    assert.deepEqual(
      list.body.capability_manifests.map((m: Json) => m.version),
      [1, 2],
    );
    assert.deepEqual(list.body.capability_manifests[0], v1);
    const paged = await call(server, `/api/v1/agent_identities/${subject.id}/manifests?limit=1`);
    assert.deepEqual(
      paged.body.capability_manifests.map((m: Json) => m.version),
      [1],
    );
    const rest = await call(server, `/api/v1/agent_identities/${subject.id}/manifests?limit=1&cursor=${paged.body.next_cursor}`);
    assert.deepEqual(
      rest.body.capability_manifests.map((m: Json) => m.version),
      [2],
    );
    assert.equal(rest.body.next_cursor, null);

    // Not even code that tries can change or remove a pinned version.
    assert.throws(
      () => server.context.db.prepare("UPDATE agent_manifests SET digest = 'sha256:0' WHERE agent_id = ?").run(subject.id),
      /immutable/,
    );
    assert.throws(() => server.context.db.prepare('DELETE FROM agent_manifests WHERE agent_id = ?').run(subject.id), /immutable/);
  });

  it("records the pin as activity, needs write, hides other accounts' agents and refuses a revoked agent", async () => {
    const subject = await newAgent(server, 'Activity agent');
    await pin(subject.id, ['x:read']);
    const activity = await call(
      server,
      `/api/v1/applications/${server.sandbox.application_id}/activity?type=agent_identity.manifest_pinned`,
    );
    assert.ok(activity.body.activity_events.some((e: Json) => e.data.agent_identity_id === subject.id && e.data.version === 1));

    const read = await call(server, '/api/v1/api_tokens', { json: { api_token: { name: 'reader', permissions: ['read'] } } });
    assert.equal((await pin(subject.id, ['x:read'], read.body.api_token.token)).status, 403);
    assert.equal(
      (await call(server, `/api/v1/agent_identities/${subject.id}/manifests`, { token: read.body.api_token.token })).status,
      200,
    );

    assert.equal((await pin('agt_dev_nobody', ['x:read'])).status, 404);
    // Another account's token cannot pin (or list) this account's agent: 404, as if it did not exist.
    const db = server.context.db;
    const now = new Date().toISOString();
    db.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acct_transparency_other', 'Other', ?)").run(now);
    const theirToken = newSecret();
    db.prepare(`INSERT INTO api_tokens (id, account_id, name, permissions, token_hash, created_at)
                VALUES ('api_token_transparency_other', 'acct_transparency_other', 'Theirs', '["read","write"]', ?, ?)`).run(
      hashSecret(theirToken),
      now,
    );
    assert.equal((await pin(subject.id, ['x:read'], theirToken)).status, 404);
    assert.equal((await call(server, `/api/v1/agent_identities/${subject.id}/manifests`, { token: theirToken })).status, 404);
    // ... while its transparency record is public to anyone.
    assert.equal((await open(`/.well-known/transparency/agents/${subject.id}`)).status, 200);

    await call(server, `/api/v1/agent_identities/${subject.id}/revoke`, { json: {} });
    const refused = await pin(subject.id, ['y:read']);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'agent_revoked');
    assert.equal(
      (await open(`/.well-known/transparency/agents/${subject.id}/manifests/1`)).status,
      200,
      'its pinned versions stay published',
    );
  });
});

describe("a grant's authorization receipt and the pinned manifest", () => {
  it("carries the digest of the pinned version whose scopes equal the grant's, even after the metadata changed", async () => {
    const subject = await newAgent(server, 'Receipt agent', declarations);
    const scopes = ['payments:write', 'bookings:read'];
    const v1 = (await pin(subject.id, scopes)).body.capability_manifest;
    const receiptOf = async (g: Json) =>
      (await call(server, `/api/v1/authorization_receipts/${g.authorization_record_id}`)).body.authorization_receipt;

    const first = await receiptOf(await grant(server, ada, subject.id, { delegation_type: 'ai_agent', delegated_scopes: scopes }));
    assert.equal(first.extensions.capability_manifest, v1.digest);

    // No route edits an agent's metadata yet; a later PATCH would do what this does.
    server.context.db
      .prepare('UPDATE agent_identities SET metadata = ? WHERE id = ?')
      .run(JSON.stringify({ ...declarations, operator_name: 'Renamed Travel GmbH' }), subject.id);
    const afterChange = await receiptOf(
      await grant(server, ada, subject.id, { delegation_type: 'ai_agent', delegated_scopes: [...scopes].reverse() }),
    );
    assert.equal(afterChange.extensions.capability_manifest, v1.digest, 'the pinned version, not the changed metadata');

    const v2 = (await pin(subject.id, ['bookings:read'])).body.capability_manifest;
    assert.equal(v2.manifest.operator_name, 'Renamed Travel GmbH');
    assert.equal(
      (await receiptOf(await grant(server, ada, subject.id, { delegation_type: 'ai_agent', delegated_scopes: ['bookings:read'] })))
        .extensions.capability_manifest,
      v2.digest,
    );
    assert.equal(
      (await receiptOf(await grant(server, ada, subject.id, { delegation_type: 'ai_agent', delegated_scopes: scopes }))).extensions
        .capability_manifest,
      v1.digest,
    );

    // Scopes no version declares: the latest version's declarations with the grant's scopes.
    const unpinned = await receiptOf(await grant(server, ada, subject.id, { delegation_type: 'ai_agent', delegated_scopes: ['z:read'] }));
    const expected = `sha256:${createHash('sha256')
      .update(canonicalize({ ...v2.manifest, delegated_scopes: ['z:read'] }))
      .digest('hex')}`;
    assert.equal(unpinned.extensions.capability_manifest, expected);

    // And the manifest record a third party fetches recomputes to the receipt's digest.
    const published = await open(`/.well-known/transparency/agents/${subject.id}/manifests/1`);
    const record = await verifyTransparencyRecord(published.body as SignedTransparencyRecord, jwks, {
      recordType: 'capability_manifest_record',
    });
    assert.equal(record.digest, first.extensions.capability_manifest);
  });
});

describe('the agent accountability record', () => {
  it('is public and signed: declared identity (manifest fields only), attested status, credentials and pinned versions', async () => {
    const subject = await newAgent(server, 'Record agent', declarations);
    const v1 = (await pin(subject.id, ['x:read'])).body.capability_manifest;
    const res = await open(`/.well-known/transparency/agents/${subject.id}`);
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('cache-control') ?? '', /^public, max-age=\d+$/);
    assert.equal(signedAgentRecord.safeParse(res.body).success, true, JSON.stringify(signedAgentRecord.safeParse(res.body).error?.issues));
    const record = await verifyTransparencyRecord(res.body as SignedTransparencyRecord, jwks, {
      recordType: 'agent_accountability_record',
    });
    assert.ok(await joseVerifies(res.body as SignedTransparencyRecord));

    assert.deepEqual(record.declared, {
      provenance: 'declared',
      display_name: 'Record agent',
      agent_type: 'autonomous',
      operator_name: 'Example Travel Ltd',
      privacy_policy_url: 'https://travel.example/privacy',
      data_storage: 'EU',
      retention_period: 'P30D',
      capabilities: ['book_travel', 'pay'],
    });
    assert.doesNotMatch(res.text, /ops-oncall|vault:kv/, 'metadata outside the manifest is not published');
    assert.equal(record.attested.status, 'active');
    assert.equal(record.attested.status_changed_at, record.attested.registered_at);
    assert.equal(record.attested.application_id, server.sandbox.application_id);
    assert.deepEqual(record.credential_attestations, [
      {
        credential_type: 'oauth_client',
        client_id: subject.clientId,
        status: 'live',
        application_id: server.sandbox.application_id,
        token_endpoint_auth_method: 'client_secret_basic',
        token_endpoint: `${server.url}/oauth/token/exchange`,
        token_exchange_allowed: true,
      },
    ]);
    assert.ok(!res.text.includes(subject.clientSecret));
    assert.deepEqual(record.manifests, [
      {
        version: 1,
        digest: v1.digest,
        pinned_at: v1.pinned_at,
        url: `${server.url}/.well-known/transparency/agents/${subject.id}/manifests/1`,
      },
    ]);
    assert.equal((await fetch(record.links.credential_attestation)).status, 200);
    assert.equal((await fetch(record.links.controller_record!)).status, 200);
  });

  it('attests each status change with its time', async () => {
    const subject = await newAgent(server, 'Status agent');
    const read = async () =>
      (
        await verifyTransparencyRecord(
          (
            await open(`/.well-known/transparency/agents/${subject.id}`)
          ).body as SignedTransparencyRecord,
          jwks,
          { recordType: 'agent_accountability_record' },
        )
      ).attested;
    server.advance(10);
    await call(server, `/api/v1/agent_identities/${subject.id}/suspend`, { json: {} });
    const suspended = await read();
    assert.equal(suspended.status, 'suspended');
    assert.equal(suspended.status_changed_at, suspended.suspended_at);
    server.advance(10);
    await call(server, `/api/v1/agent_identities/${subject.id}/resume`, { json: {} });
    const resumed = await read();
    assert.equal(resumed.status, 'active');
    assert.ok(Date.parse(resumed.status_changed_at) > Date.parse(suspended.status_changed_at));
    assert.equal(resumed.suspended_at, null);
    server.advance(10);
    await call(server, `/api/v1/agent_identities/${subject.id}/revoke`, { json: {} });
    const revoked = await read();
    assert.equal(revoked.status, 'revoked');
    assert.equal(revoked.status_changed_at, revoked.revoked_at);
  });

  it("is public for any account's agent, fails verification once changed, and 404s an unknown one", async () => {
    const { body } = await open(`/.well-known/transparency/agents/${agent.id}`);
    const record = body.record as AgentTransparencyRecord;
    const changed = {
      ...body,
      record: {
        ...record,
        attested: { ...record.attested, status: 'active' as const, revoked_at: null },
        declared: { ...record.declared, operator_name: 'Someone else' },
      },
    };
    await assert.rejects(verifyTransparencyRecord(changed as SignedTransparencyRecord, jwks), { code: 'ERR_SVC_TRANSPARENCY_SIGNATURE' });
    const unknown = await open('/.well-known/transparency/agents/agt_dev_nobody');
    assert.equal(unknown.status, 404);
    assert.equal(typeof unknown.body.message, 'string');
  });
});

describe('a manifest version record', () => {
  it('is signed, its digest recomputes from its manifest, and a changed manifest fails', async () => {
    const subject = await newAgent(server, 'Manifest agent', declarations);
    const v1 = (await pin(subject.id, ['x:read', 'x:write'])).body.capability_manifest;
    const res = await open(`/.well-known/transparency/agents/${subject.id}/manifests/1`);
    assert.equal(res.status, 200);
    assert.equal(signedManifestRecord.safeParse(res.body).success, true);
    const record = await verifyTransparencyRecord(res.body as SignedTransparencyRecord, jwks, { recordType: 'capability_manifest_record' });
    assert.deepEqual(record.manifest, v1.manifest);
    assert.equal(record.digest, v1.digest);
    assert.equal(record.pinned_at, v1.pinned_at);
    const changed = { ...res.body, record: { ...res.body.record, manifest: { ...res.body.record.manifest, capabilities: ['anything'] } } };
    await assert.rejects(verifyTransparencyRecord(changed as SignedTransparencyRecord, jwks), { code: 'ERR_SVC_TRANSPARENCY_SIGNATURE' });
    for (const path of ['manifests/2', 'manifests/0', 'manifests/01', 'manifests/abc']) {
      assert.equal((await open(`/.well-known/transparency/agents/${subject.id}/${path}`)).status, 404, path);
    }
  });
});

describe('signed discovery records', () => {
  it("oap-credentials/{agent_id} attests the agent's OAuth client, signed; 404 when unknown", async () => {
    const res = await open(`/.well-known/oap-credentials/${agent.id}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(signedCredentialAttestation.safeParse(res.body).success, true);
    const record = await verifyTransparencyRecord(res.body as SignedTransparencyRecord, jwks, { recordType: 'oap_credential_attestation' });
    const agentRecord = await verifyTransparencyRecord(
      (await open(`/.well-known/transparency/agents/${agent.id}`)).body as SignedTransparencyRecord,
      jwks,
      { recordType: 'agent_accountability_record' },
    );
    assert.deepEqual(record.credentials, agentRecord.credential_attestations);
    assert.equal(record.subject, agent.id);
    const changed = { ...res.body, record: { ...res.body.record, status: 'revoked' } };
    await assert.rejects(verifyTransparencyRecord(changed as SignedTransparencyRecord, jwks), { code: 'ERR_SVC_TRANSPARENCY_SIGNATURE' });
    assert.equal((await open('/.well-known/oap-credentials/agt_dev_nobody')).status, 404);
  });

  it('oap-revocation-list names revoked agents and grants with their times, ids only', async () => {
    const victim = await newAgent(server, 'Revoked agent');
    const g = await grant(server, ada, agent.id, { delegation_type: 'ai_agent', delegated_scopes: ['r:read'] });
    server.advance(5);
    await call(server, `/api/v1/delegations/${g.id}/revoke`, { token: ada.token, json: {} });
    await call(server, `/api/v1/agent_identities/${victim.id}/revoke`, { json: {} });
    const res = await open('/.well-known/oap-revocation-list');
    assert.equal(res.status, 200);
    assert.equal(signedRevocationList.safeParse(res.body).success, true);
    const record = await verifyTransparencyRecord(res.body as SignedTransparencyRecord, jwks, { recordType: 'oap_revocation_list' });
    const agentRow = record.agent_identities.find((a) => a.id === victim.id);
    const grantRow = record.delegation_grants.find((d) => d.id === g.id);
    assert.ok(agentRow && grantRow);
    assert.equal(
      grantRow.revoked_at,
      (await call(server, `/api/v1/delegations/${g.id}`, { token: ada.token })).body.delegation_grant.revoked_at,
    );
    assert.ok(!record.agent_identities.some((a) => a.id === agent.id), 'an active agent is not listed');
    assert.ok(!res.text.includes(ada.id) && !res.text.includes('@'), 'no principal, no e-mail');
    const changed = {
      ...res.body,
      record: { ...res.body.record, delegation_grants: res.body.record.delegation_grants.filter((d: Json) => d.id !== g.id) },
    };
    await assert.rejects(verifyTransparencyRecord(changed as SignedTransparencyRecord, jwks), { code: 'ERR_SVC_TRANSPARENCY_SIGNATURE' });
  });
});
