// The service's own clients' scopes are asked on every person's token, so each cell keeps them in memory; the
// setting is shared by every cell (the control plane's), so a client made or changed through any cell is what every
// cell answers from then on.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestCells, type TestCells, type TestServer } from '../../testing.js';
import { firstPartyClient, firstPartyScopes } from './first-party.js';

let server: TestCells;
let us: TestServer;
let de: TestServer;
before(async () => {
  server = await startTestCells(['US', 'DE']);
  ({ US: us, DE: de } = server.cells as { US: TestServer; DE: TestServer });
});
after(() => server.dispose());

const options = (scopes: string[]) => ({ name: 'Test page', redirectPath: '/test/callback', scopes });

describe('firstPartyScopes', () => {
  it('grants nothing to a client that is not the service’s own', () => {
    assert.equal(firstPartyScopes(us.context, 'oc_not_the_service'), undefined);
  });

  it('sees a client made after it was asked, in the cell that made it and in every other', () => {
    // Both cells have answered (and kept) the scopes before the client exists.
    assert.equal(firstPartyScopes(us.context, 'oc_warm'), undefined);
    assert.equal(firstPartyScopes(de.context, 'oc_warm'), undefined);
    const made = firstPartyClient(us.context, 'made-later', options(['openid', 'records:read']));
    assert.deepEqual(firstPartyScopes(us.context, made.client_id), ['openid', 'records:read']);
    assert.deepEqual(firstPartyScopes(de.context, made.client_id), ['openid', 'records:read']);
  });

  it('sees scopes changed through another cell', () => {
    const made = firstPartyClient(us.context, 'rescoped', options(['openid']));
    assert.deepEqual(firstPartyScopes(us.context, made.client_id), ['openid']);
    const changed = firstPartyClient(de.context, 'rescoped', options(['openid', 'credentials:read']));
    assert.equal(changed.client_id, made.client_id);
    assert.deepEqual(firstPartyScopes(us.context, made.client_id), ['openid', 'credentials:read']);
  });

  it('no longer grants anything to a deleted client once it is made again', () => {
    const old = firstPartyClient(us.context, 'remade', options(['openid']));
    assert.deepEqual(firstPartyScopes(de.context, old.client_id), ['openid']);
    us.context.db.prepare('UPDATE oauth_clients SET deleted_at = ? WHERE id = ?').run(new Date().toISOString(), old.client_id);
    const remade = firstPartyClient(de.context, 'remade', options(['openid']));
    assert.notEqual(remade.client_id, old.client_id);
    for (const cell of [us, de]) {
      assert.equal(firstPartyScopes(cell.context, old.client_id), undefined);
      assert.deepEqual(firstPartyScopes(cell.context, remade.client_id), ['openid']);
    }
  });

  it('answers from memory between writes, and a caller changing its answer changes nothing kept', () => {
    const made = firstPartyClient(us.context, 'kept', options(['openid']));
    assert.deepEqual(firstPartyScopes(us.context, made.client_id), ['openid']);
    // Only firstPartyClient writes the setting; a row changed behind its back is not read on every token.
    const { db } = us.context;
    const stored = db.prepare("SELECT value FROM settings WHERE key = 'first_party_oauth'").pluck().get() as string;
    db.prepare("UPDATE settings SET value = ? WHERE key = 'first_party_oauth'").run(stored.replace('"openid"', '"openid","extra"'));
    try {
      const scopes = firstPartyScopes(us.context, made.client_id);
      assert.deepEqual(scopes, ['openid']);
      scopes?.push('records:write');
      assert.deepEqual(firstPartyScopes(us.context, made.client_id), ['openid']);
    } finally {
      db.prepare("UPDATE settings SET value = ? WHERE key = 'first_party_oauth'").run(stored);
    }
  });
});
