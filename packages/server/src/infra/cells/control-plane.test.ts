// The organisation configuration is one store that every cell reads and writes: what one cell changes, every cell
// sees at once, and no cell can bring back what another removed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestCells, type TestCells, type TestServer } from '../../testing.js';
import { createActiveFlow, importRows } from '../../consent/records/test-support.js';
import { createEndpoint, readEndpoint } from '../../platform/webhooks/test-support.js';
import { IMPORT_ALLOWANCE_SETTING } from '../../consent/records/imports.js';
import { LAST_USED_RESOLUTION_MS } from '../auth.js';
import { firstPartyClient } from '../../platform/oauth/first-party.js';

let server: TestCells;
let us: TestServer;
let de: TestServer;
before(async () => {
  server = await startTestCells(['US', 'DE']);
  ({ US: us, DE: de } = server.cells as { US: TestServer; DE: TestServer });
});
after(() => server.dispose());

async function makeToken(cell: TestServer, name: string): Promise<{ id: string; token: string }> {
  const res = await cell.api('/api/v1/api_tokens', { method: 'POST', json: { api_token: { name, permissions: ['read', 'write'] } } });
  assert.equal(res.status, 201);
  return ((await res.json()) as { api_token: { id: string; token: string } }).api_token;
}

const me = (cell: TestServer, token: string) => cell.api('/api/v1/me', { headers: { authorization: `Bearer ${token}` } });
const statuses = (token: string) => Promise.all([us, de].map(async (cell) => (await me(cell, token)).status));

describe('one control plane for every cell', () => {
  it('refuses a token revoked through one cell in every cell at once, while another cell was using it', async () => {
    const token = await makeToken(us, 'used in DE');
    assert.equal((await me(de, token.token)).status, 200, 'DE uses the token');
    assert.equal((await us.api(`/api/v1/api_tokens/${token.id}`, { method: 'DELETE' })).status, 204, 'US revokes it');
    assert.deepEqual(await statuses(token.token), [401, 401], "DE's next request is refused, and US's");
    // Past the last-use resolution, a use would be written again: a refused token writes nothing, in either cell.
    us.advance(LAST_USED_RESOLUTION_MS / 1000 + 1);
    assert.deepEqual(await statuses(token.token), [401, 401]);
  });

  it('never brings a revoked token back through a use whose last_used_at write lands in another cell meanwhile', async () => {
    const token = await makeToken(de, 'touched in DE');
    us.advance(LAST_USED_RESOLUTION_MS / 1000 + 1);
    // A request in DE has authenticated the token and records its use (the statement authentication runs) ...
    de.context.db
      .prepare('UPDATE api_tokens SET last_used_at = ? WHERE id = ?')
      .run(new Date(de.context.clock.now()).toISOString(), token.id);
    // ... when US revokes it.
    assert.equal((await us.api(`/api/v1/api_tokens/${token.id}`, { method: 'DELETE' })).status, 204);
    de.context.db
      .prepare('UPDATE api_tokens SET last_used_at = ? WHERE id = ?')
      .run(new Date(de.context.clock.now()).toISOString(), token.id);
    assert.deepEqual(await statuses(token.token), [401, 401]);
    for (const cell of [us, de]) {
      const row = cell.context.db.prepare('SELECT revoked_at, last_used_at FROM api_tokens WHERE id = ?').get(token.id) as {
        revoked_at: string | null;
        last_used_at: string | null;
      };
      assert.ok(row.revoked_at, `revoked in ${cell.context.country}`);
      assert.ok(row.last_used_at, `the use is kept in ${cell.context.country}`);
    }
  });

  it('shows a setting changed in one cell to every cell at once', async () => {
    const flowId = await createActiveFlow(us);
    us.context.db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)').run(IMPORT_ALLOWANCE_SETTING, '7');
    try {
      const res = await de.api('/api/v1/consent_records/imports', {
        method: 'POST',
        json: { flow_id: flowId, dry_run: true, records: importRows(1, 'cp') },
      });
      const body = (await res.json()) as { import: { allowance: { state: string; remaining: number | null } } };
      assert.equal(res.status, 200, JSON.stringify(body)); // a dry run stores nothing
      assert.deepEqual(body.import.allowance, { meter: 'consent_records', state: 'available', remaining: 7 });
    } finally {
      us.context.db.prepare('DELETE FROM settings WHERE key = ?').run(IMPORT_ALLOWANCE_SETTING);
    }
  });

  it("keeps one first-party client (a shared setting) whose redirect URIs are every cell's", () => {
    const options = { name: 'Trust Inbox', redirectPath: '/inbox/callback', scopes: ['openid'] };
    const fromUs = firstPartyClient(us.context, 'inbox', options);
    const fromDe = firstPartyClient(de.context, 'inbox', options);
    assert.equal(fromDe.client_id, fromUs.client_id);
    assert.equal(firstPartyClient(us.context, 'inbox', options).client_id, fromUs.client_id);
    const uris = JSON.parse(
      us.context.db.prepare('SELECT redirect_uris FROM oauth_clients WHERE id = ?').pluck().get(fromUs.client_id) as string,
    ) as string[];
    assert.deepEqual(uris.sort(), [`${us.url}/inbox/callback`, `${de.url}/inbox/callback`].sort());
  });

  it("counts an endpoint's failures from every cell: no increment is lost", async () => {
    const endpoint = await createEndpoint(us, 'https://hooks.example/failing');
    // The statement each cell's webhook worker runs after a failed delivery, run by both cells.
    for (const cell of [us, de]) {
      cell.context.db.prepare('UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1 WHERE id = ?').run(endpoint.id);
    }
    assert.equal((await readEndpoint(us, endpoint.id)).consecutive_failures, 2);
    assert.equal((await readEndpoint(de, endpoint.id)).consecutive_failures, 2);
  });
});
