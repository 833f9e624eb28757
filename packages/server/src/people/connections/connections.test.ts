// A person's own connections, device links and trust pairings over the API: whose each token sees (never another
// person's; an organisation's client only that organisation's; the service's own clients every organisation's), who
// may call (no API token, the scopes, no delegate on a device), and that each action is Connect's own: a
// disconnection withdraws the consent as the person's records, a code pairs once, and a replay changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  disconnectResult,
  personConnection,
  personConnectionList,
  personDeviceLinkList,
  personTrustPairing,
  personTrustPairingList,
} from '@svc/schemas';
import { call, grant, type Json, type Person } from '../../authority/delegations/test-support.js';
import { createActiveFlow, createRecord, fetchReceipt, grantAll } from '../../consent/records/test-support.js';
import { firstPartyClient } from '../../platform/oauth/first-party.js';
import { Browser, personAccessToken } from '../../platform/oauth/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { otherOrganisation as anotherOrganisation } from '../test-support.js';

const SCOPES = 'openid email connections:read connections:write';
const ME = '/api/v1/me';

let server: TestServer;
let ada: Person;
let bob: Person;
/** Ada through another organisation's client, and through one of the service's own clients. */
let adaElsewhere: Person;
let adaFirstParty: string;
let other: { token: string; accountId: string; applicationId: string };
const connections = {} as Record<'ada' | 'bob' | 'other', string>;
const links = {} as Record<'ada' | 'bob' | 'other', { id: string; code: string }>;
let adaRecord: string;

/** A second organisation, written straight into storage. */
const otherOrganisation = () => anotherOrganisation(server);

/** A person signed in through the sandbox organisation's client (or `client`) with `scope`. */
async function signIn(email: string, scope = SCOPES, client?: { id: string; secret?: string; redirectUri: string }): Promise<Person> {
  const sandbox = client
    ? { ...server.sandbox, oauth_client_id: client.id, oauth_client_secret: client.secret, oauth_redirect_uri: client.redirectUri }
    : server.sandbox;
  const token = await personAccessToken({ url: server.url, sandbox }, email, scope, new Browser(server.url));
  const me = await call(server, '/api/v1/me', { token });
  assert.equal(me.status, 200, JSON.stringify(me.body));
  return { token, id: me.body.person.id };
}

/** Connects `person` to `applicationId` through Connect's own API (asserts 201 or 200). */
async function connect(person: Person, applicationId: string): Promise<string> {
  const res = await call(server, '/api/v1/connections', { token: person.token, json: { application_id: applicationId } });
  assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
  return res.body.connection.id;
}

/** A device link made on `person`'s first device through Connect's own API: its id and code. */
async function makeLink(person: Person, device_name: string): Promise<{ id: string; code: string }> {
  const res = await call(server, '/api/v1/device_links', { token: person.token, json: { device_name } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { id: res.body.device_link.id, code: res.body.device_link.code };
}

const get = async <T>(token: string, path: string, schema: { parse: (v: unknown) => T }): Promise<T> => {
  const res = await call(server, `${ME}${path}`, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return schema.parse(res.body);
};
const post = (token: string, path: string, json: unknown = {}, headers: Record<string, string> = {}) =>
  call(server, `${ME}${path}`, { token, json, headers });
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

before(async () => {
  server = await startTestServer();
  other = otherOrganisation();
  ada = await signIn('ada@example.com');
  bob = await signIn('bob@example.com');
  const asOther = { authorization: `Bearer ${other.token}` };
  const client = await call(server, `/api/v1/applications/${other.applicationId}/oauth_clients`, {
    headers: asOther,
    json: { oauth_client: { name: 'Other shop app', client_type: 'confidential', redirect_uris: ['https://shop.example/cb'] } },
  });
  assert.equal(client.status, 201, JSON.stringify(client.body));
  const { client_id, client_secret } = client.body.oauth_client;
  adaElsewhere = await signIn('ADA@example.com', SCOPES, { id: client_id, secret: client_secret, redirectUri: 'https://shop.example/cb' });
  const own = firstPartyClient(server.context, 'connections_test', {
    name: 'Your connections',
    redirectPath: '/connections/callback',
    scopes: ['openid', 'email', 'connections:read', 'connections:write'],
  });
  adaFirstParty = (await signIn('ada@example.com', SCOPES, { id: own.client_id, redirectUri: `${server.url}/connections/callback` })).token;

  // Ada's consent to the sandbox application connects her (and governs the connection); she also connects herself.
  adaRecord = (
    await createRecord(server, { flow_id: await createActiveFlow(server), subject: { email: 'ada@example.com' }, decisions: grantAll })
  ).id;
  connections.ada = await connect(ada, server.sandbox.application_id);
  connections.bob = await connect(bob, server.sandbox.application_id);
  server.advance(60);
  connections.other = await connect(adaElsewhere, other.applicationId);
  links.ada = await makeLink(ada, 'Ada phone');
  links.bob = await makeLink(bob, 'Bob phone');
  server.advance(1);
  links.other = await makeLink(adaElsewhere, 'Ada tablet');
});
after(() => server.dispose());

describe('whose connections, device links and pairings a token sees', () => {
  it("never shows person A another person's, nor B A's", async () => {
    assert.deepEqual(ids((await get(ada.token, '/connections', personConnectionList)).connections), [connections.ada]);
    assert.deepEqual(ids((await get(bob.token, '/connections', personConnectionList)).connections), [connections.bob]);
    assert.deepEqual(ids((await get(ada.token, '/device_links', personDeviceLinkList)).device_links), [links.ada.id]);
    for (const path of [`/connections/${connections.bob}`, `/device_links/${links.bob.id}`, '/connections/con_nothing']) {
      const res = await call(server, `${ME}${path}`, { token: ada.token });
      assert.equal(res.status, 404, path);
    }
    const theirs = await post(ada.token, `/connections/${connections.bob}/disconnect`);
    assert.deepEqual([theirs.status, theirs.body.message], [404, 'No such connection.']);
    const claim = await post(ada.token, `/device_links/${links.bob.id}/claim`, { code: links.bob.code, device_name: 'Laptop' });
    assert.deepEqual([claim.status, claim.body.message], [404, 'No such device link.'], "Bob's code does not pair Ada's device");
    assert.equal((await post(ada.token, `/device_links/${links.bob.id}/cancel`)).status, 404);
    const bobs = await call(server, `/api/v1/connections/${connections.bob}`);
    assert.equal(bobs.body.connection.status, 'active', "Bob's connection is untouched");
    assert.equal((await call(server, `${ME}/device_links/${links.bob.id}`, { token: bob.token })).body.device_link.status, 'pending');
  });

  it("an organisation's client sees only that organisation's; the service's own clients every organisation's", async () => {
    assert.deepEqual(ids((await get(adaElsewhere.token, '/connections', personConnectionList)).connections), [connections.other]);
    assert.equal((await call(server, `${ME}/connections/${connections.ada}`, { token: adaElsewhere.token })).status, 404);
    assert.equal((await post(adaElsewhere.token, `/connections/${connections.ada}/disconnect`)).status, 404);
    assert.equal((await post(adaElsewhere.token, `/device_links/${links.ada.id}/cancel`)).status, 404);
    const all = await get(adaFirstParty, '/connections', personConnectionList);
    assert.deepEqual(ids(all.connections), [connections.other, connections.ada], 'most recently connected first');
    assert.deepEqual(all.connections[0]!.organisation, { id: other.accountId, name: 'Other organisation' });
    assert.equal(all.connections[0]!.application_name, 'Other shop');
    const mine = personConnection.parse(all.connections[1]);
    assert.equal(mine.trust_tier, 'consented');
    assert.deepEqual(
      mine.active_policies.map((p) => p.id),
      [adaRecord],
    );
    const linked = await get(adaFirstParty, '/device_links', personDeviceLinkList);
    assert.deepEqual(ids(linked.device_links), [links.other.id, links.ada.id]);
    assert.ok(
      linked.device_links.every((l) => l.code === undefined && l.status === 'pending'),
      'never a code',
    );
    const walked: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 5; page += 1) {
      const one: { connections: { id: string }[]; next_cursor: string | null } = await get(
        adaFirstParty,
        `/connections?limit=1${cursor ? `&cursor=${cursor}` : ''}`,
        personConnectionList,
      );
      walked.push(...ids(one.connections));
      cursor = one.next_cursor;
      if (!cursor) break;
    }
    assert.deepEqual(walked, ids(all.connections));
    assert.equal((await call(server, `${ME}/connections?colour=red`, { token: ada.token })).status, 400);
  });
});

describe('who may call', () => {
  const paths = () =>
    [
      ['GET', '/connections'],
      ['GET', `/connections/${connections.ada}`],
      ['POST', `/connections/${connections.ada}/disconnect`],
      ['GET', '/device_links'],
      ['POST', `/device_links/${links.ada.id}/claim`],
      ['POST', `/device_links/${links.ada.id}/cancel`],
      ['GET', '/trust_pairings'],
    ] as const;

  it("refuses an API token, the organisation's and another organisation's (person_token_required)", async () => {
    for (const token of [undefined, other.token]) {
      for (const [method, path] of paths()) {
        const res = await call(server, `${ME}${path}`, {
          method,
          ...(token ? { token } : {}),
          ...(method === 'POST' ? { json: { code: links.ada.code, device_name: 'Laptop' } } : {}),
        });
        assert.deepEqual([res.status, res.body.code], [403, 'person_token_required'], `${method} ${path}`);
      }
    }
    assert.equal((await call(server, `${ME}/connections`, { token: 'not-a-token' })).status, 401);
  });

  it('refuses a token without the scope (insufficient_scope, with its challenge); reading is not writing', async () => {
    const narrow = await signIn('ada@example.com', 'openid email');
    const refused = await call(server, `${ME}/connections`, { token: narrow.token });
    assert.deepEqual([refused.status, refused.body.code], [403, 'insufficient_scope']);
    assert.equal(refused.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="connections:read"');
    const readOnly = await signIn('ada@example.com', 'openid connections:read');
    assert.equal((await call(server, `${ME}/trust_pairings`, { token: readOnly.token })).status, 200);
    for (const [method, path] of paths().filter(([m]) => m === 'POST')) {
      const res = await post(readOnly.token, path, { code: links.ada.code, device_name: 'Laptop' });
      assert.deepEqual([res.status, res.body.code], [403, 'insufficient_scope'], `${method} ${path}`);
      assert.equal(res.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="connections:write"');
    }
    assert.equal((await call(server, `/api/v1/connections/${connections.ada}`)).body.connection.status, 'active');
  });

  it('admits a delegate to read and disconnect only when delegated, and never to pair or unpair a device', async () => {
    const reader = await grant(server, ada, bob.id, { delegation_type: 'guardian', delegated_scopes: ['connections:read'] });
    const asDelegate = { 'x-delegation-grant-id': reader.id as string };
    const read = await call(server, `${ME}/connections`, { token: bob.token, headers: asDelegate });
    assert.deepEqual(ids(personConnectionList.parse(read.body).connections), [connections.ada]);
    const disconnect = await post(bob.token, `/connections/${connections.ada}/disconnect`, {}, asDelegate);
    assert.deepEqual([disconnect.status, disconnect.body.code], [403, 'bound_exceeded']);
    const writer = await grant(server, ada, bob.id, { delegation_type: 'guardian', delegated_scopes: ['connections:write'] });
    const claim = await post(
      bob.token,
      `/device_links/${links.ada.id}/claim`,
      { code: links.ada.code, device_name: 'Bob laptop' },
      {
        'x-delegation-grant-id': writer.id as string,
      },
    );
    assert.deepEqual([claim.status, claim.body.code], [403, 'delegate_not_allowed']);
    await call(server, `/api/v1/delegations/${reader.id}/revoke`, { method: 'POST' });
    await call(server, `/api/v1/delegations/${writer.id}/revoke`, { method: 'POST' });
  });
});

describe('linking a device and unpairing it', () => {
  let pairingId: string;

  it("claims a device link with the code the other device shows: Connect's own claim, its refusals and its single use", async () => {
    const path = `/device_links/${links.ada.id}/claim`;
    const same = await post(ada.token, path, { code: links.ada.code, device_name: 'Ada phone' });
    assert.deepEqual([same.status, same.body.code], [409, 'same_device'], 'the sign-in that made the link cannot claim it');
    const wrong = await post(adaFirstParty, path, { code: 'AAAA-AAAA', device_name: 'Laptop' });
    assert.deepEqual([wrong.status, wrong.body.code], [422, 'invalid_code']);
    assert.equal((await call(server, `${ME}/device_links/${links.ada.id}`, { token: ada.token })).body.device_link.attempts_remaining, 4);
    assert.equal(
      (await call(server, `${ME}/device_links/${links.other.id}`, { token: adaFirstParty })).body.device_link.attempts_remaining,
      5,
      "a wrong code counts only against the named link's organisation",
    );
    const made = await post(adaFirstParty, path, { code: links.ada.code.toLowerCase(), device_name: 'Laptop' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const pairing = personTrustPairing.parse(made.body.trust_pairing);
    pairingId = pairing.id;
    assert.equal(pairing.status, 'active');
    assert.deepEqual([pairing.initiator.device_name, pairing.claimant.device_name], ['Ada phone', 'Laptop']);
    assert.equal(pairing.device_link_id, links.ada.id);
    assert.equal(pairing.organisation.id, (await call(server, '/api/v1/accounts')).body.accounts[0].id);
    const replay = await post(adaFirstParty, path, { code: links.ada.code, device_name: 'Laptop' });
    assert.deepEqual([replay.status, replay.body.code], [409, 'device_link_used'], 'a code pairs once');
    const pairings = await get(adaFirstParty, '/trust_pairings', personTrustPairingList);
    assert.deepEqual(ids(pairings.trust_pairings), [pairingId], 'one pairing, not two');
    const org = await call(server, `/api/v1/trust_pairings/${pairingId}`);
    assert.equal(org.body.trust_pairing.status, 'active', 'the organisation sees the pairing its person made');
  });

  it("cancels a pending link once (a replay answers it as it is); another organisation's client cannot", async () => {
    const link = await makeLink(ada, 'Old phone');
    assert.equal((await post(adaElsewhere.token, `/device_links/${link.id}/cancel`)).status, 404);
    const cancelled = await post(ada.token, `/device_links/${link.id}/cancel`);
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.device_link.status, 'cancelled');
    const again = await post(ada.token, `/device_links/${link.id}/cancel`);
    assert.deepEqual([again.status, again.body.device_link.status], [200, 'cancelled']);
    const claimed = await post(ada.token, `/device_links/${links.ada.id}/cancel`);
    assert.deepEqual([claimed.status, claimed.body.code], [409, 'illegal_transition']);
    const claim = await post(adaFirstParty, `/device_links/${link.id}/claim`, { code: link.code, device_name: 'Laptop' });
    assert.deepEqual([claim.status, claim.body.code], [410, 'device_link_cancelled']);
  });

  it("unpairs: another person's or organisation's token is 404; the person's revokes once, a replay changes nothing", async () => {
    const path = `/trust_pairings/${pairingId}/revoke`;
    assert.equal((await post(bob.token, path)).status, 404);
    assert.equal((await post(adaElsewhere.token, path)).status, 404);
    assert.equal((await call(server, `${ME}/trust_pairings/${pairingId}`, { token: bob.token })).status, 404);
    const revoked = await post(adaFirstParty, path);
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    assert.equal(revoked.body.trust_pairing.status, 'revoked');
    const again = await post(adaFirstParty, path);
    assert.deepEqual([again.status, again.body.trust_pairing.revoked_at], [200, revoked.body.trust_pairing.revoked_at]);
    assert.equal((await call(server, `/api/v1/trust_pairings/${pairingId}`)).body.trust_pairing.status, 'revoked');
  });
});

describe('disconnecting', () => {
  it('disconnects as the person: the consent is withdrawn on their records channel, warnings say so; a replay changes nothing', async () => {
    const before = ((await fetchReceipt(server, adaRecord)).body.consent_receipt as Json).event.length as number;
    const res = await post(adaFirstParty, `/connections/${connections.ada}/disconnect`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const result = disconnectResult.parse(res.body);
    assert.equal(result.connection.status, 'disconnected');
    assert.ok(result.connection.disconnected_at);
    assert.ok(
      result.warnings.some((w) => w.includes(adaRecord) && /withdrawn/.test(w)),
      JSON.stringify(result.warnings),
    );
    const events = (await fetchReceipt(server, adaRecord)).body.consent_receipt as Json;
    assert.ok(events.event.length > before);
    assert.equal(events.event.at(-1).event_channel, 'person_records');
    const org = await call(server, `/api/v1/connections/${connections.ada}`);
    assert.equal(org.body.connection.status, 'disconnected');

    const replay = await post(adaFirstParty, `/connections/${connections.ada}/disconnect`);
    assert.equal(replay.status, 200, JSON.stringify(replay.body));
    assert.deepEqual(disconnectResult.parse(replay.body), { connection: result.connection, warnings: [] });
    assert.equal(
      ((await fetchReceipt(server, adaRecord)).body.consent_receipt as Json).event.length,
      events.event.length,
      'no second withdrawal',
    );
    const read = await get(ada.token, `/connections/${connections.ada}`, { parse: (v) => personConnection.parse((v as Json).connection) });
    assert.deepEqual([read.status, read.trust_tier, read.active_policies], ['disconnected', null, []]);
  });
});
