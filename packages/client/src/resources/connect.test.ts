// Connect through the client against the reference server: the account and its users with an API token; a person's
// connection (made, suspended, resumed, disconnected with warnings) with their access token; a device link made on
// one sign-in and claimed on another, the trust pairing revoked; refusals are typed errors with the server's code;
// and across cells, a person's connection read through the other cell follows the 421 to its home.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, type SvcClient } from '../lib/client.js';
import { SvcHttpError, SvcPermissionError, SvcValidationError } from '../lib/errors.js';
import { signInPerson } from '../testing/oauth.test.helper.js';
import { rejection } from '../testing/rejection.test.helper.js';
import { startTestCells, startTestServer, type TestCells, type TestServer } from '../testing/servers.test.helper.js';

describe('connect against the reference server', () => {
  let server: TestServer;
  let svc: SvcClient;
  let laptop: SvcClient;
  let phone: SvcClient;

  before(async () => {
    server = await startTestServer();
    svc = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
    laptop = createClient({ baseUrl: server.url, accessToken: (await signInPerson(server, 'ada@example.com')).access_token });
    phone = createClient({ baseUrl: server.url, accessToken: (await signInPerson(server, 'ada@example.com')).access_token });
  });
  after(() => server.dispose());

  it('reads the account, adds the person as a user and hands them the account', async () => {
    const accounts = [];
    for await (const account of svc.accounts.list({ limit: 1 })) accounts.push(account);
    assert.equal(accounts.length, 1);
    const account = await svc.accounts.get(accounts[0]!.id);
    assert.equal(account.owner_id, account.id);
    const me = await laptop.me();
    assert.equal(me.kind, 'person');
    const personId = me.kind === 'person' ? me.person.id : '';
    const before = account.account_users; // the sandbox's console admin
    const user = await svc.accounts.addUser(account.id, { user_id: personId });
    assert.equal(user.user_id, personId);
    assert.equal(user.role, 'viewer', 'a user reads the console unless made an admin');
    assert.equal((await svc.accounts.updateUser(account.id, user.id, { role: 'admin' })).role, 'admin');
    const owned = await svc.accounts.update(account.id, { name: "Ada's shop", owner_id: personId });
    assert.equal(owned.owner_id, personId);
    assert.equal(owned.name, "Ada's shop");
    const refused = await rejection(svc.accounts.removeUser(account.id, user.id), SvcHttpError);
    assert.equal(refused.status, 409);
    assert.equal(refused.reason, 'owner_cannot_be_removed');
    await svc.accounts.update(account.id, { owner_id: account.id });
    await svc.accounts.removeUser(account.id, user.id);
    assert.deepEqual((await svc.accounts.get(account.id)).account_users, before);
    const denied = await rejection(laptop.accounts.list().page(), SvcPermissionError);
    assert.equal(denied.reason, 'person_token_not_allowed');
  });

  it('connects the person, suspends, resumes and disconnects', async () => {
    const connection = await laptop.connections.create({ application_id: server.sandbox.application_id });
    assert.equal(connection.status, 'active');
    assert.equal(connection.trust_tier, 'connected');
    const listed = await laptop.connections.list().page();
    assert.deepEqual(
      listed.items.map((c) => c.id),
      [connection.id],
    );
    const suspended = await laptop.connections.suspend(connection.id, { reason: 'Travelling' });
    assert.equal(suspended.suspensions[0]?.reason, 'Travelling');
    const illegal = await rejection(laptop.connections.suspend(connection.id, { reason: 'Again' }), SvcHttpError);
    assert.equal(illegal.status, 409);
    assert.equal(illegal.reason, 'illegal_transition');
    assert.equal((await laptop.connections.resume(connection.id)).status, 'active');
    const { connection: cut, warnings } = await laptop.connections.disconnect(connection.id);
    assert.equal(cut.status, 'disconnected');
    assert.ok(warnings.length >= 1);
    assert.equal((await svc.connections.get(connection.id)).status, 'disconnected');
    const byToken = await rejection(svc.connections.create({ application_id: server.sandbox.application_id }), SvcPermissionError);
    assert.equal(byToken.reason, 'person_token_required');
  });

  it('pairs a second device by code; a wrong code is a validation error; the pairing is revoked', async () => {
    const link = await laptop.deviceLinks.create({ device_name: 'Laptop' });
    assert.match(link.code, /^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    const wrong = await rejection(
      phone.deviceLinks.claim({ code: link.code === 'AAAA-AAAA' ? 'BBBB-BBBB' : 'AAAA-AAAA', device_name: 'Phone' }),
      SvcValidationError,
    );
    assert.equal(wrong.reason, 'invalid_code');
    assert.equal((await laptop.deviceLinks.get(link.id)).attempts_remaining, 4);
    const pairing = await phone.deviceLinks.claim({ code: link.code, device_name: 'Phone' });
    assert.equal(pairing.initiator.device_name, 'Laptop');
    assert.equal(pairing.claimant.device_name, 'Phone');
    assert.equal((await laptop.deviceLinks.get(link.id)).status, 'claimed');
    const used = await rejection(phone.deviceLinks.claim({ code: link.code, device_name: 'Phone' }), SvcHttpError);
    assert.equal(used.reason, 'device_link_used');
    assert.deepEqual(
      (await svc.trustPairings.list().page()).items.map((p) => p.id),
      [pairing.id],
    );
    assert.equal((await laptop.trustPairings.revoke(pairing.id)).status, 'revoked');

    const expiring = await laptop.deviceLinks.create();
    server.advance(601);
    const expired = await rejection(phone.deviceLinks.claim({ code: expiring.code, device_name: 'Phone' }), SvcHttpError);
    assert.equal(expired.status, 410);
    assert.equal(expired.reason, 'device_link_expired');
    const cancellable = await laptop.deviceLinks.create();
    assert.equal((await laptop.deviceLinks.cancel(cancellable.id)).status, 'cancelled');
    const statuses = [];
    for await (const l of laptop.deviceLinks.list()) statuses.push(l.status);
    assert.deepEqual(statuses, ['claimed', 'expired', 'cancelled']);
  });
});

describe('connect across country cells through the client', () => {
  let cells: TestCells;

  before(async () => {
    cells = await startTestCells(['US', 'DE']);
  });
  after(() => cells.dispose());

  it("reads a DE person's connection through the US cell by following the 421 to DE", async () => {
    const de = cells.cells.DE!;
    const us = cells.cells.US!;
    const dora = createClient({ baseUrl: de.url, accessToken: (await signInPerson(de, 'dora@example.de')).access_token });
    const connection = await dora.connections.create({ application_id: de.sandbox.application_id });
    assert.match(connection.id, /^con_de_/);
    const org = createClient({ baseUrl: us.url, apiToken: us.sandbox.api_token, countries: { US: us.url, DE: de.url } });
    const read = await org.connections.get(connection.id);
    assert.equal(read.id, connection.id);
    assert.equal(read.user_id, connection.user_id);
  });
});
