// An endpoint change read before the delivery worker wrote must not undo what the worker wrote meanwhile.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../testing.js';
import { findEndpoint, updateEndpoint } from './store.js';
import { closedPortUrl, createEndpoint } from './test-support.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

describe('updateEndpoint', () => {
  it('keeps the failure count and an automatic disable written after the change was read', async () => {
    const created = await createEndpoint(server, await closedPortUrl());
    const ctx = server.context;
    const appId = server.sandbox.application_id;
    const read = findEndpoint(ctx, appId, created.id)!; // the route's read, before its own awaits
    // Meanwhile the worker counts failures and disables the endpoint.
    ctx.db
      .prepare(
        `UPDATE webhook_endpoints SET consecutive_failures = 7, status = 'disabled', disabled_reason = 'consecutive_failures', disabled_at = ? WHERE id = ?`,
      )
      .run(new Date(ctx.clock.now()).toISOString(), created.id);

    const updated = updateEndpoint(ctx, read, { description: 'renamed' });
    assert.equal(updated.description, 'renamed');
    assert.equal(updated.consecutive_failures, 7, 'the failures counted meanwhile stay');
    assert.equal(updated.status, 'disabled', 'an endpoint the worker disabled is not re-enabled by a stale read');
    assert.equal(updated.disabled_reason, 'consecutive_failures');
  });

  it('re-enables an endpoint the worker disabled after the change was read, when asked to', async () => {
    const created = await createEndpoint(server, await closedPortUrl());
    const ctx = server.context;
    const read = findEndpoint(ctx, server.sandbox.application_id, created.id)!;
    ctx.db
      .prepare(
        `UPDATE webhook_endpoints SET consecutive_failures = 3, status = 'disabled', disabled_reason = 'consecutive_failures', disabled_at = ? WHERE id = ?`,
      )
      .run(new Date(ctx.clock.now()).toISOString(), created.id);

    const updated = updateEndpoint(ctx, read, { status: 'enabled' });
    assert.equal(updated.status, 'enabled');
    assert.equal(updated.consecutive_failures, 0, 'enabling resets the count');
    assert.equal(updated.disabled_reason, null);
  });
});
