// Agent identities through the client against a running reference server: create (linked to an OAuth client of the
// sandbox application), get, the list iterator across pages and by status, and the state machine with its 409.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, type SvcClient } from '../lib/client.js';
import { SvcHttpError, SvcNotFoundError, SvcValidationError, type SvcError } from '../lib/errors.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import type { AgentIdentity } from '@svc/schemas';
import { rejection } from '../testing/rejection.test.helper.js';

describe('agentIdentities against the reference server', () => {
  let server: TestServer;
  let svc: SvcClient;
  let clientId: string;

  before(async () => {
    server = await startTestServer();
    svc = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
    clientId = server.sandbox.oauth_client_id!;
  });
  after(() => server.dispose());

  it("registers an identity linked to one of the account's OAuth clients and reads it back", async () => {
    const agent = await svc.agentIdentities.create({
      display_name: 'Booking agent',
      agent_type: 'autonomous',
      metadata: { model: 'x-1' },
      oauth_application_id: clientId,
    });
    assert.match(agent.id, /^agt_dev_/);
    assert.equal(agent.status, 'active');
    assert.equal(agent.oauth_application_id, clientId);
    assert.equal(agent.delegation_grant_id, null);
    assert.deepEqual(agent.metadata, { model: 'x-1' });
    assert.deepEqual(await svc.agentIdentities.get(agent.id), agent);
  });

  it('refuses an oauth_application_id that is not a client_id of the account as a validation error naming the field', async () => {
    const err = await rejection(
      svc.agentIdentities.create({ display_name: 'Stray', oauth_application_id: server.sandbox.application_id }),
      SvcValidationError,
    );
    assert.equal(err.status, 422);
    assert.deepEqual(
      err.errors.map((e) => e.path),
      ['oauth_application_id'],
    );
  });

  it('iterates every identity across pages and filters by status', async () => {
    const made: AgentIdentity[] = [];
    for (let i = 0; i < 5; i += 1) made.push(await svc.agentIdentities.create({ display_name: `Worker ${i}`, agent_type: 'workflow' }));
    const ids: string[] = [];
    for await (const agent of svc.agentIdentities.list({ limit: 2 })) ids.push(agent.id);
    assert.equal(new Set(ids).size, ids.length);
    assert.deepEqual(
      ids.filter((id) => made.some((m) => m.id === id)),
      made.map((m) => m.id),
    );

    await svc.agentIdentities.suspend(made[2]!.id);
    const suspended: string[] = [];
    for await (const agent of svc.agentIdentities.list({ status: 'suspended' })) suspended.push(agent.id);
    assert.deepEqual(suspended, [made[2]!.id]);
  });

  it('suspends, resumes and revokes; leaving revoked is a 409 invalid_transition', async () => {
    const { id } = await svc.agentIdentities.create({ display_name: 'Short-lived' });
    assert.equal((await svc.agentIdentities.suspend(id)).status, 'suspended');
    assert.equal((await svc.agentIdentities.suspend(id)).status, 'suspended');
    const resumed = await svc.agentIdentities.resume(id);
    assert.equal(resumed.status, 'active');
    assert.equal(resumed.suspended_at, null);
    const revoked = await svc.agentIdentities.revoke(id);
    assert.equal(revoked.status, 'revoked');
    assert.ok(revoked.revoked_at);
    for (const attempt of [() => svc.agentIdentities.resume(id), () => svc.agentIdentities.suspend(id)]) {
      const err: SvcError = await rejection(attempt(), SvcHttpError);
      assert.equal(err.status, 409);
      assert.equal(err.reason, 'invalid_transition');
      assert.match(err.message, /from revoked to/);
    }
    assert.equal((await svc.agentIdentities.get(id)).status, 'revoked');
  });

  it('answers an unknown id with SvcNotFoundError', async () => {
    await rejection(svc.agentIdentities.get('agt_dev_doesnotexist0000'), SvcNotFoundError);
    await rejection(svc.agentIdentities.revoke('agt_dev_doesnotexist0000'), SvcNotFoundError);
  });
});
