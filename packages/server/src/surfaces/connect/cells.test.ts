// Connect across country cells: a person's connections, device links and trust pairings live in their home cell
// (another cell answers 421 naming it); accounts and their users are control plane, so a user added at the person's
// home cell is seen from every cell.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, type Json } from '../../authority/delegations/test-support.js';
import { personAccessToken } from '../../platform/oauth/test-support.js';
import { startTestCells, type TestCells, type TestServer } from '../../testing.js';

describe('connect across country cells', () => {
  let cells: TestCells;
  let us: TestServer;
  let de: TestServer;
  let dora: { token: string; id: string; account: string };

  before(async () => {
    cells = await startTestCells(['US', 'DE']);
    us = cells.cells.US!;
    de = cells.cells.DE!;
    const token = await personAccessToken(de, 'dora@example.de');
    const me = await call(de, '/api/v1/me', { token });
    assert.equal(me.status, 200, JSON.stringify(me.body));
    dora = { token, id: me.body.person.id as string, account: me.body.account.id as string };
  });
  after(() => cells.dispose());

  it("homes a DE person's connection in DE: US answers 421 with home_country and nothing of it", async () => {
    assert.match(dora.id, /^prs_de_/);
    const made = await call(de, '/api/v1/connections', { token: dora.token, json: { application_id: de.sandbox.application_id } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.connection.id as string;
    assert.match(id, /^con_de_/);
    for (const [method, path, json] of [
      ['GET', `/api/v1/connections/${id}`, undefined],
      ['POST', `/api/v1/connections/${id}/suspend`, { reason: 'x' }],
      ['POST', `/api/v1/connections/${id}/disconnect`, undefined],
    ] as const) {
      const res = await call(us, path, { method, ...(json ? { json } : {}) });
      assert.equal(res.status, 421, `${method} ${path}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(Object.keys(res.body).sort(), ['code', 'home_country', 'message']);
      assert.equal(res.body.home_country, 'DE');
    }
    // Each cell lists what it holds.
    assert.ok((await call(de, '/api/v1/connections')).body.connections.some((c: Json) => c.id === id));
    assert.ok(!(await call(us, '/api/v1/connections')).body.connections.some((c: Json) => c.id === id));
  });

  it("homes device links and trust pairings in the person's cell", async () => {
    const made = await call(de, '/api/v1/device_links', { token: dora.token, json: { device_name: 'Laptop' } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.match(made.body.device_link.id, /^dlk_de_/);
    const read = await call(us, `/api/v1/device_links/${made.body.device_link.id}`);
    assert.equal(read.status, 421);
    assert.equal(read.body.home_country, 'DE');
    const phone = await personAccessToken(de, 'dora@example.de');
    const claimed = await call(de, '/api/v1/device_links/claim', {
      token: phone,
      json: { code: made.body.device_link.code, device_name: 'Phone' },
    });
    assert.equal(claimed.status, 201, JSON.stringify(claimed.body));
    assert.match(claimed.body.trust_pairing.id, /^pair_de_/);
    assert.equal((await call(us, `/api/v1/trust_pairings/${claimed.body.trust_pairing.id}`)).status, 421);
    assert.equal((await call(de, `/api/v1/trust_pairings/${claimed.body.trust_pairing.id}`)).status, 200);
  });

  it('adds a person as an account user at their home cell only; every cell then sees the user (control plane)', async () => {
    const path = `/api/v1/accounts/${dora.account}/account_users`;
    const usersOf = async (cell: typeof us) =>
      (await call(cell, `/api/v1/accounts/${dora.account}`)).body.account.account_users.map((u: Json) => u.user_id);
    const before = await usersOf(us); // the sandbox's console admin
    const elsewhere = await call(us, path, { json: { user_id: dora.id } });
    assert.equal(elsewhere.status, 421, JSON.stringify(elsewhere.body));
    assert.equal(elsewhere.body.home_country, 'DE');
    const added = await call(de, path, { json: { user_id: dora.id } });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const fromUs = await call(us, `/api/v1/accounts/${dora.account}`);
    assert.equal(fromUs.status, 200);
    assert.deepEqual(
      fromUs.body.account.account_users.map((u: Json) => u.user_id),
      [...before, dora.id],
    );
    // An owner set through one cell is the owner in every cell; removing a user holds everywhere too.
    const owned = await call(us, `/api/v1/accounts/${dora.account}`, { method: 'PATCH', json: { account: { owner_id: dora.id } } });
    assert.equal(owned.status, 200, JSON.stringify(owned.body));
    assert.equal((await call(de, `/api/v1/accounts/${dora.account}`)).body.account.owner_id, dora.id);
    await call(de, `/api/v1/accounts/${dora.account}`, { method: 'PATCH', json: { account: { owner_id: dora.account } } });
    const removed = await us.api(`${path}/${added.body.account_user.id}`, { method: 'DELETE' });
    assert.equal(removed.status, 204);
    assert.deepEqual(await usersOf(de), before);
  });
});
