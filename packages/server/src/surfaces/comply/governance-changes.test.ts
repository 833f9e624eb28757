// `GET /api/v1/governance/changes?sort=newest`: the change log newest first, paged newest to oldest, so a console shows
// the latest changes however long the log; `sort=oldest` (the default) as before.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../testing.js';
import { expect } from './test-support.js';

let server: TestServer;
const ids = (page: Awaited<ReturnType<typeof expect>>) => (page.governance_changes as { id: string }[]).map((c) => c.id);

before(async () => {
  server = await startTestServer();
  for (let days = 20; days <= 25; days += 1) {
    await expect(server, '/api/v1/governance', 200, { method: 'PATCH', json: { governance: { dsar_due_days: days } } });
  }
});
after(() => server.dispose());

describe('GET /api/v1/governance/changes?sort=', () => {
  it('answers newest first with sort=newest, and pages from the newest to the oldest', async () => {
    const oldest = ids(await expect(server, '/api/v1/governance/changes?limit=100', 200));
    assert.equal(oldest.length, 6);
    assert.deepEqual(ids(await expect(server, '/api/v1/governance/changes?sort=oldest', 200)), oldest);
    const newest = await expect(server, '/api/v1/governance/changes?sort=newest', 200);
    assert.deepEqual(ids(newest), [...oldest].reverse());
    assert.deepEqual(newest.governance_changes[0].changes, { dsar_due_days: { from: 24, to: 25 } });

    const seen: string[] = [];
    let query = 'sort=newest&limit=4';
    for (let page = 0; page < 4; page += 1) {
      const body = await expect(server, `/api/v1/governance/changes?${query}`, 200);
      seen.push(...ids(body));
      if (!body.next_cursor) break;
      query = `sort=newest&limit=4&cursor=${body.next_cursor}`;
    }
    assert.deepEqual(seen, [...oldest].reverse());
  });

  it('refuses another sort: 400 {message, code} naming sort', async () => {
    for (const bad of ['latest', 'NEWEST', '']) {
      const body = await expect(server, `/api/v1/governance/changes?sort=${bad}`, 400, { code: 'invalid_parameters' });
      assert.match(body.message, /sort/, bad);
    }
  });
});
