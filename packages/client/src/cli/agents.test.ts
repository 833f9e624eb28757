// The `svc agents …` commands, run against a reference server: what each prints for a person and as JSON, and the
// usage errors they raise before calling the service.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, type SvcClient } from '../lib/client.js';
import { SvcHttpError } from '../lib/errors.js';
import type { AgentIdentity } from '@svc/schemas';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { commands, type Invocation } from './commands.js';
import { CliUsageError, type CliConfig } from './config.js';

describe('svc agents', () => {
  let server: TestServer;
  let svc: SvcClient;

  before(async () => {
    server = await startTestServer();
    svc = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
  });
  after(() => server.dispose());

  // The agents commands read nothing of the configuration; the client carries the service and the credential.
  const run = (name: string, args: string[] = [], flags: Invocation['flags'] = {}) =>
    commands[name]!.run(svc, { args, flags, config: { baseUrl: server.url } as CliConfig });

  it('creates, shows, lists, suspends, resumes and revokes', async () => {
    const created = await run('agents create', [], {
      name: 'Concierge',
      type: 'workflow',
      'oauth-client': server.sandbox.oauth_client_id!,
      metadata: '{"model":"x-1"}',
    });
    const agent = created.json as AgentIdentity;
    assert.match(agent.id, /^agt_dev_/);
    assert.equal(agent.agent_type, 'workflow');
    assert.deepEqual(agent.metadata, { model: 'x-1' });
    assert.match(created.human, new RegExp(`oauth client\\s+${server.sandbox.oauth_client_id}`));

    assert.match((await run('agents get', [agent.id])).human, /status\s+active/);
    const listed = await run('agents list', [], { limit: '100' });
    assert.match(listed.human, /^ID\s+STATUS\s+TYPE/);
    assert.ok((listed.json as AgentIdentity[]).some((a) => a.id === agent.id));

    assert.match((await run('agents suspend', [agent.id])).human, /is suspended/);
    assert.deepEqual(
      ((await run('agents list', [], { status: 'suspended' })).json as AgentIdentity[]).map((a) => a.id),
      [agent.id],
    );
    assert.match((await run('agents resume', [agent.id])).human, /is active/);
    assert.match((await run('agents revoke', [agent.id])).human, /is revoked .*cannot be undone/);
    await assert.rejects(
      run('agents resume', [agent.id]),
      (err: unknown) => err instanceof SvcHttpError && err.reason === 'invalid_transition',
    );
  });

  it('refuses bad flags before calling the service', async () => {
    for (const [name, flags] of [
      ['agents create', {}],
      ['agents create', { name: 'A', type: 'overlord' }],
      ['agents create', { name: 'A', metadata: '[1]' }],
      ['agents create', { name: 'A', metadata: '{nope' }],
      ['agents list', { status: 'paused' }],
    ] as const) {
      await assert.rejects(run(name, [], flags), CliUsageError, `${name} ${JSON.stringify(flags)}`);
    }
  });
});
