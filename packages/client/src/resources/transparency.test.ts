// Transparency through the client and the command line against a running reference server: pin an agent's manifest,
// list the versions, read the three records and verify each offline with the JWKS.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CliUsageError, type CliConfig } from '../cli/config.js';
import type { Invocation } from '../cli/commands.js';
import { transparencyCommands } from '../cli/transparency.js';
import { capabilityManifestDigest, getAgentTransparency, getApplicationTransparency, verifyTransparencyRecord } from '../index.js';
import { connect } from '../lib/connection.js';
import { createClient, type SvcClient } from '../lib/client.js';
import { SvcNotFoundError, SvcValidationError } from '../lib/errors.js';
import type { PinnedCapabilityManifest } from '@svc/schemas';
import { rejection } from '../testing/rejection.test.helper.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';

describe('transparency against the reference server', () => {
  let server: TestServer;
  let svc: SvcClient;
  let agentId: string;

  before(async () => {
    server = await startTestServer();
    svc = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
    const agent = await svc.agentIdentities.create({
      display_name: 'Concierge',
      agent_type: 'assistant',
      oauth_application_id: server.sandbox.oauth_client_id!,
      metadata: { capabilities: ['book'], operator_name: 'Example Ltd', team: 'internal' },
    });
    agentId = agent.id;
  });
  after(() => server.dispose());

  it('pins manifest versions and lists them; records read and verify offline', async () => {
    const v1 = await svc.transparency.pinManifest(agentId, { delegated_scopes: ['rooms:write', 'rooms:read'] });
    assert.equal(v1.version, 1);
    assert.deepEqual(v1.manifest.delegated_scopes, ['rooms:read', 'rooms:write']);
    assert.equal(await capabilityManifestDigest(v1.manifest), v1.digest);
    assert.deepEqual(
      await svc.transparency.pinManifest(agentId, { delegated_scopes: ['rooms:read', 'rooms:write'] }),
      v1,
      'identical: the same version',
    );
    const v2 = await svc.transparency.pinManifest(agentId, { delegated_scopes: ['rooms:read'] });
    assert.equal(v2.version, 2);
    const listed: PinnedCapabilityManifest[] = [];
    for await (const m of svc.transparency.listManifests(agentId, { limit: 1 })) listed.push(m);
    assert.deepEqual(listed, [v1, v2]);

    const jwks = await svc.receipts.jwks();
    const application = await verifyTransparencyRecord(await svc.transparency.getApplication(server.sandbox.application_id), jwks, {
      recordType: 'controller_record',
    });
    assert.equal(application.application_id, server.sandbox.application_id);
    const agent = await verifyTransparencyRecord(await svc.transparency.getAgent(agentId), jwks, {
      recordType: 'agent_accountability_record',
    });
    assert.deepEqual(
      agent.manifests.map((m) => m.digest),
      [v1.digest, v2.digest],
    );
    assert.equal(agent.declared.operator_name, 'Example Ltd');
    const manifest = await verifyTransparencyRecord(await svc.transparency.getManifest(agentId, 1), jwks, {
      recordType: 'capability_manifest_record',
    });
    assert.deepEqual(manifest.manifest, v1.manifest);

    // Public: a publishable key's connection reads them too.
    const browser = connect({ baseUrl: server.url, publishableKey: server.sandbox.publishable_key });
    assert.equal(
      (await getApplicationTransparency(browser, server.sandbox.application_id)).record.application_id,
      server.sandbox.application_id,
    );
    assert.equal((await getAgentTransparency(browser, agentId)).record.agent_id, agentId);
  });

  it('names refusals: an unknown record is not found, a bad pin a validation error', async () => {
    await rejection(svc.transparency.getAgent('agt_dev_nobody'), SvcNotFoundError);
    await rejection(svc.transparency.getManifest(agentId, 99), SvcNotFoundError);
    const err = await rejection(svc.transparency.pinManifest(agentId, { delegated_scopes: [] }), SvcValidationError);
    assert.deepEqual(
      err.errors.map((e) => e.path),
      ['delegated_scopes'],
    );
  });

  describe('svc transparency', () => {
    const run = (name: string, args: string[] = [], flags: Invocation['flags'] = {}) =>
      transparencyCommands[name]!.run(svc, {
        args,
        flags,
        config: { baseUrl: server.url, applicationId: server.sandbox.application_id } as CliConfig,
      });

    it('pins, lists and shows each record with its signature verified', async () => {
      const pinned = await run('transparency pin', [agentId], { scopes: 'desk:read,desk:write' });
      const version = (pinned.json as PinnedCapabilityManifest).version;
      assert.match(pinned.human, /scopes\s+desk:read desk:write/);
      assert.match((await run('transparency manifests', [agentId])).human, /^VERSION\s+DIGEST\s+PINNED\s+SCOPES/);
      assert.match((await run('transparency application')).human, /^signature\s+valid \(ES256, key /);
      const agent = await run('transparency agent', [agentId]);
      assert.match(agent.human, /signature\s+valid/);
      assert.match(agent.human, new RegExp(`v${version}\\s+sha256:[0-9a-f]{64}`));
      assert.doesNotMatch(agent.human, /internal/);
      assert.match((await run('transparency manifest', [agentId, String(version)])).human, /digest check\s+the digest is the SHA-256/);
    });

    it('refuses bad arguments before calling the service', async () => {
      await assert.rejects(run('transparency pin', [agentId]), CliUsageError);
      await assert.rejects(run('transparency manifest', [agentId, 'latest']), CliUsageError);
      await assert.rejects(
        transparencyCommands['transparency application']!.run(svc, { args: [], flags: {}, config: { baseUrl: server.url } as CliConfig }),
        CliUsageError,
      );
    });
  });
});
