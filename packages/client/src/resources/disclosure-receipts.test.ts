// Disclosure receipts through the client against a running reference server: a flow that declares an agent, the
// disclosure recorded and read back, its notice record's receipt, and a refusal naming its field.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, type SvcClient } from '../lib/client.js';
import { SvcPermissionError, SvcValidationError } from '../lib/errors.js';
import { rejection } from '../testing/rejection.test.helper.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';

describe('disclosureReceipts against the reference server', () => {
  let server: TestServer;
  let svc: SvcClient;
  let agentId: string;
  let flowId: string;

  before(async () => {
    server = await startTestServer();
    svc = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
    agentId = (await svc.agentIdentities.create({ display_name: 'Chat assistant' })).id;
    const flow = await svc.flows.create({
      pattern: 'standard',
      title: 'Support chat',
      config: {
        purposes: [{ key: 'support', label: 'Support', basis: 'contract', mechanism: 'notice', required: true }],
        agents: [{ agent_id: agentId }],
      },
    });
    await svc.flows.activate(flow.id);
    flowId = flow.id;
  });
  after(() => server.dispose());

  it("records that a flow disclosed an agent, reads it back, and serves its notice record's receipt", async () => {
    const disclosedAt = new Date().toISOString();
    const receipt = await svc.disclosureReceipts.create({ flow_id: flowId, agent_id: agentId, disclosed_at: disclosedAt });
    assert.match(receipt.record_id, /^nr_/);
    assert.equal(receipt.record_type, 'notice_record');
    assert.deepEqual(await svc.disclosureReceipts.get(receipt.record_id), receipt);
    const canonical = await svc.receipts.get(receipt.record_id);
    assert.equal(canonical.record_type, 'notice_record');
    assert.deepEqual(
      canonical.event.map((e) => e.event_state),
      ['notice shown'],
    );
  });

  it('a future disclosed_at is a validation error naming the field; a token without disclosures:write is refused', async () => {
    const future = await rejection(
      svc.disclosureReceipts.create({ flow_id: flowId, agent_id: agentId, disclosed_at: new Date(Date.now() + 3_600_000).toISOString() }),
      SvcValidationError,
    );
    assert.deepEqual(
      future.errors.map((e) => [e.path, e.code]),
      [['disclosed_at', 'in_the_future']],
    );
    const { token } = await svc.apiTokens.create({ name: 'writer', permissions: ['write'] });
    const writer = createClient({ baseUrl: server.url, apiToken: token });
    await rejection(
      writer.disclosureReceipts.create({ flow_id: flowId, agent_id: agentId, disclosed_at: new Date().toISOString() }),
      SvcPermissionError,
    );
  });
});
