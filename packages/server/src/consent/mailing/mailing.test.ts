// Mailing-audience connections against stand-ins of Mailchimp's and Brevo's documented APIs: registration with
// API-sourced events off, record events reaching the member's permission through the outbox (retried while the
// provider is down), inbound changes applied only after a confirming read-back and only as withdrawals
// (`mailing_tool`), never a subscribe, never an echo, never a forged call; the API key never shown.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../testing.js';
import { createActiveFlow, createRecord, fetchReceipt, grantAll, recordFlowConfig } from '../records/test-support.js';
import { createEndpoint, delivered, startReceiver, type Receiver } from '../../platform/webhooks/test-support.js';
import { subscriberHash } from './providers.js';
import { mailingWorker } from './routes.js';
import type { MailingConnectionRow } from './store.js';
import { clientOf } from './worker.js';
import { otherAdminToken, startBrevo, startMailchimp, type StandIn } from './test-support.js';

const KEY = 'mc-secret-key-0123456789abcdef-us21';
const PERMISSION = 'perm_email_1';

type Json = Record<string, any>;

async function call(server: TestServer, path: string, init: RequestInit & { json?: unknown } = {}) {
  const res = await server.api(path, init);
  const text = await res.text();
  return { status: res.status, text, body: (text ? JSON.parse(text) : {}) as Json };
}

function hook(url: string, body: string | object) {
  const form = typeof body === 'string';
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
    body: form ? body : JSON.stringify(body),
  });
}

const unsubscribe = (email: string, type = 'unsubscribe') =>
  new URLSearchParams({ type, fired_at: '2026-01-10 10:00:00', 'data[email]': email, 'data[list_id]': 'aud1' }).toString();

const drain = (server: TestServer) => mailingWorker(server.context)!.drain();

function outbox(server: TestServer): Json[] {
  return server.context.db.prepare('SELECT * FROM mailing_outbox ORDER BY seq').all() as Json[];
}

function purposeOf(server: TestServer, recordId: string) {
  return async (key: string) => {
    const { body } = await call(server, `/api/v1/consent_records/${recordId}`);
    return (body.consent_record.purposes as Json[]).find((p) => p.key === key)!.outcome as string;
  };
}

describe('mailing connections: Mailchimp', () => {
  let server: TestServer;
  let mc: StandIn;
  let flowId: string;
  let connection: Json;
  let receiver: Receiver;
  let endpointSecret: string;

  before(async () => {
    server = await startTestServer();
    mc = await startMailchimp('aud1', PERMISSION);
    flowId = await createActiveFlow(server);
    receiver = await startReceiver();
    endpointSecret = (await createEndpoint(server, receiver.url, ['consent.granted', 'consent.revoked', 'consent.purpose_revoked'])).secret;
  });
  after(async () => {
    await server.dispose();
    await mc.close();
    await receiver.close();
  });

  const create = (extra: Json = {}) =>
    call(server, '/api/v1/mailing_connections', {
      method: 'POST',
      json: {
        mailing_connection: {
          provider: 'mailchimp',
          api_key: KEY,
          api_base_url: mc.url,
          list_id: 'aud1',
          flow_id: flowId,
          purpose: 'newsletter',
          marketing_permission_id: PERMISSION,
          ...extra,
        },
      },
    });

  it('connects: verifies the audience, registers the webhook with API-sourced events off, never shows the key', async () => {
    const missing = await create({ list_id: 'nope' });
    assert.equal(missing.status, 422, missing.text);
    assert.match(missing.body.message, /requested resource could not be found/);

    const noDataCentre = await create({ api_key: 'key-without-data-centre', api_base_url: undefined });
    assert.equal(noDataCentre.status, 422, noDataCentre.text);
    assert.match(noDataCentre.body.message, /data centre/);

    const made = await create();
    assert.equal(made.status, 201, made.text);
    connection = made.body.mailing_connection;
    assert.match(connection.id, /^mlc_/);
    assert.equal(connection.status, 'active');
    assert.equal(connection.marketing_permission_id, PERMISSION);
    assert.match(connection.webhook_url, new RegExp(`/hooks/mailing/${connection.id}/mlsec_`));
    const [webhook] = [...mc.webhooks.values()];
    assert.deepEqual(webhook!.sources, { user: true, admin: true, api: false });
    assert.equal(webhook!.url, connection.webhook_url);
    assert.equal((webhook!.events as Json).unsubscribe, true);
    assert.equal((webhook!.events as Json).subscribe, false);
    // The client authenticates with the key (HTTP basic, as Mailchimp's API takes it).
    const auth = mc.requests[0]!.headers.authorization!;
    assert.equal(Buffer.from(auth.slice(6), 'base64').toString(), `user:${KEY}`);

    const read = await call(server, `/api/v1/mailing_connections/${connection.id}`);
    const list = await call(server, '/api/v1/mailing_connections');
    for (const answer of [made, read, list]) assert.ok(!answer.text.includes(KEY) && !answer.text.includes('api_key'), answer.text);
    assert.equal(list.body.mailing_connections.length, 1);
    const stored = server.context.db.prepare('SELECT api_key_enc, webhook_secret_hash FROM mailing_connections').get() as Json;
    assert.ok(!stored.api_key_enc.includes(KEY), 'the key is sealed at rest');
    assert.ok(!connection.webhook_url.includes(stored.webhook_secret_hash));
  });

  it('a granted record reaches the member’s marketing permission', async () => {
    await createRecord(server, { flow_id: flowId, subject: { email: 'Ada@Example.com' }, decisions: grantAll });
    await drain(server);
    const member = mc.members.get('ada@example.com')!;
    assert.equal(member.id, subscriberHash('ada@example.com'));
    assert.deepEqual(member.marketing_permissions, [{ marketing_permission_id: PERMISSION, enabled: true }]);
    const write = mc.requests.find((r) => r.method === 'PUT')!;
    assert.deepEqual(Object.keys(write.body as Json).sort(), ['email_address', 'marketing_permissions', 'status_if_new']);
    assert.equal(outbox(server)[0]!.email_enc, null, 'a sent write drops the address');
  });

  it('an unsubscribe the read-back does not confirm changes nothing', async () => {
    const record = await createRecord(server, { flow_id: flowId, subject: { email: 'bo@example.com' }, decisions: grantAll });
    await drain(server);
    const res = await hook(connection.webhook_url, unsubscribe('bo@example.com'));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'ignored' });
    assert.equal(await purposeOf(server, record.id)('newsletter'), 'granted');
    assert.ok(
      mc.requests.some((r) => r.method === 'GET' && r.path.endsWith(subscriberHash('bo@example.com'))),
      'read back',
    );
  });

  it('a confirmed permission change withdraws the purpose with mailing_tool on the receipt and the webhook', async () => {
    const record = await createRecord(server, { flow_id: flowId, subject: { email: 'cy@example.com' }, decisions: grantAll });
    await drain(server);
    await delivered(server, receiver, endpointSecret);
    // The person turns the permission off in Mailchimp's preference centre.
    mc.members.get('cy@example.com')!.marketing_permissions = [{ marketing_permission_id: PERMISSION, enabled: false }];
    const res = await hook(connection.webhook_url, unsubscribe('cy@example.com', 'profile'));
    assert.deepEqual(await res.json(), { status: 'applied' });
    const outcome = purposeOf(server, record.id);
    assert.equal(await outcome('newsletter'), 'revoked');
    assert.equal(await outcome('research'), 'granted', 'only the connection’s purpose');
    const receipt = (await fetchReceipt(server, record.id)).body.consent_receipt as Json;
    assert.ok(JSON.stringify(receipt).includes('"event_channel":"mailing_tool"'), JSON.stringify(receipt));
    const events = await delivered(server, receiver, endpointSecret);
    const withdrawal = events.find((e) => e.type === 'consent.purpose_revoked') as Json;
    assert.equal(withdrawal.data.event_channel, 'mailing_tool');
    assert.equal(withdrawal.data.purpose, 'newsletter');
    // The withdrawal is written back as the service's own; the provider's echo of it changes nothing more.
    await drain(server);
    const again = await hook(connection.webhook_url, unsubscribe('cy@example.com'));
    assert.deepEqual(await again.json(), { status: 'ignored' });
  });

  it('never applies back a change the service itself made, even if the provider sends it', async () => {
    const first = await createRecord(server, { flow_id: flowId, subject: { email: 'di@example.com' }, decisions: grantAll });
    await drain(server);
    const withdrawn = await call(server, `/api/v1/consent_records/${first.id}/withdraw`, {
      method: 'POST',
      json: { purposes: ['newsletter'] },
    });
    assert.equal(withdrawn.status, 200, withdrawn.text);
    await drain(server); // the service writes the permission off
    mc.down = 'writes'; // the person grants again; that write is still owed when the echo of the earlier one arrives
    const second = await createRecord(server, { flow_id: flowId, subject: { email: 'di@example.com' }, decisions: grantAll });
    await drain(server);
    const res = await hook(connection.webhook_url, unsubscribe('di@example.com', 'profile'));
    assert.deepEqual(await res.json(), { status: 'ignored' });
    assert.equal(await purposeOf(server, second.id)('newsletter'), 'granted');
    mc.down = false;
    server.advance(30);
    await drain(server);
    assert.equal((mc.members.get('di@example.com')!.marketing_permissions as Json[])[0]!.enabled, true);
  });

  it('a withdrawal changes only a member that exists: nobody is added to be told no', async () => {
    const record = await createRecord(server, { flow_id: flowId, subject: { email: 'jo@example.com' }, decisions: grantAll });
    await drain(server);
    mc.members.delete('jo@example.com'); // removed from the audience in Mailchimp meanwhile
    const withdrawn = await call(server, `/api/v1/consent_records/${record.id}/withdraw`, { method: 'POST', json: {} });
    assert.equal(withdrawn.status, 200, withdrawn.text);
    await drain(server);
    assert.equal(mc.members.has('jo@example.com'), false);
    assert.equal(outbox(server).at(-1)!.status, 'sent');
    assert.equal(mc.requests.at(-1)!.method, 'PATCH');
  });

  it('a subscribe or a permission turned on never creates or restores consent', async () => {
    const before = (server.context.db.prepare('SELECT count(*) AS n FROM consent_records').get() as Json).n;
    const res = await hook(connection.webhook_url, unsubscribe('new@example.com', 'subscribe'));
    assert.deepEqual(await res.json(), { status: 'ignored' });
    mc.members.get('cy@example.com')!.marketing_permissions = [{ marketing_permission_id: PERMISSION, enabled: true }];
    const on = await hook(connection.webhook_url, unsubscribe('cy@example.com', 'profile'));
    assert.deepEqual(await on.json(), { status: 'ignored' });
    assert.equal((server.context.db.prepare('SELECT count(*) AS n FROM consent_records').get() as Json).n, before);
    assert.equal(server.context.db.prepare("SELECT id FROM persons WHERE email = 'new@example.com'").get(), undefined);
  });

  it('refuses a forged call: a wrong or missing secret is 404 and reads nothing back', async () => {
    const requests = mc.requests.length;
    const base = connection.webhook_url.slice(0, connection.webhook_url.lastIndexOf('/'));
    for (const url of [`${base}/mlsec_forged`, `${base}/`, `${server.url}/hooks/mailing/mlc_nope/x`]) {
      const res = await hook(url, unsubscribe('ada@example.com'));
      assert.equal(res.status, 404, url);
    }
    assert.equal(mc.requests.length, requests);
    assert.equal((await fetch(connection.webhook_url)).status, 200, 'Mailchimp’s GET check of the URL');
    assert.equal((await fetch(`${base}/mlsec_forged`)).status, 404);
  });

  it('keeps writes while the provider is down and retries them on the outbox schedule', async () => {
    mc.down = true;
    await createRecord(server, { flow_id: flowId, subject: { email: 'ed@example.com' }, decisions: grantAll });
    await drain(server);
    const pending = () => outbox(server).at(-1)!;
    assert.equal(pending().status, 'pending');
    assert.equal(pending().attempt_count, 1);
    assert.match(pending().last_error, /Down for maintenance/);
    assert.equal(pending().last_error, 'Down for maintenance. <member> was not changed.', 'no address kept in the error');
    server.advance(30);
    await drain(server);
    assert.equal(pending().attempt_count, 2);
    mc.down = false;
    server.advance(120);
    await drain(server);
    assert.equal(pending().status, 'sent');
    assert.equal((mc.members.get('ed@example.com')!.marketing_permissions as Json[])[0]!.enabled, true);
  });

  it('another account cannot see or delete the connection', async () => {
    const token = otherAdminToken(server);
    const headers = { authorization: `Bearer ${token}` };
    assert.equal((await call(server, `/api/v1/mailing_connections/${connection.id}`, { headers })).status, 404);
    assert.equal((await call(server, `/api/v1/mailing_connections/${connection.id}`, { method: 'DELETE', headers })).status, 404);
    assert.deepEqual((await call(server, '/api/v1/mailing_connections', { headers })).body.mailing_connections, []);
    assert.equal(mc.webhooks.size, 1);
  });

  it('disconnects: unregisters the webhook; the hook answers 404 after', async () => {
    mc.down = true;
    const unreachable = await call(server, `/api/v1/mailing_connections/${connection.id}`, { method: 'DELETE' });
    assert.equal(unreachable.status, 503, unreachable.text);
    assert.equal((await call(server, `/api/v1/mailing_connections/${connection.id}`)).body.mailing_connection.status, 'active');
    mc.down = false;
    const res = await call(server, `/api/v1/mailing_connections/${connection.id}`, { method: 'DELETE' });
    assert.equal(res.status, 204, res.text);
    assert.equal(mc.webhooks.size, 0);
    assert.equal((await call(server, `/api/v1/mailing_connections/${connection.id}`)).body.mailing_connection.status, 'disconnected');
    assert.equal((await hook(connection.webhook_url, unsubscribe('ada@example.com'))).status, 404);
  });
});

describe('mailing connections: Brevo', () => {
  let server: TestServer;
  let brevo: StandIn;
  let flowId: string;

  before(async () => {
    server = await startTestServer();
    brevo = await startBrevo(7);
    flowId = await createActiveFlow(server);
  });
  after(async () => {
    await server.dispose();
    await brevo.close();
  });

  it('registers an unsubscribe-only marketing webhook, writes list membership, withdraws on a confirmed unsubscribe', async () => {
    const made = await call(server, '/api/v1/mailing_connections', {
      method: 'POST',
      json: {
        mailing_connection: {
          provider: 'brevo',
          api_key: 'xkeysib-secret',
          api_base_url: brevo.url,
          list_id: '7',
          flow_id: flowId,
          purpose: 'newsletter',
        },
      },
    });
    assert.equal(made.status, 201, made.text);
    assert.ok(!made.text.includes('xkeysib-secret'));
    const url = made.body.mailing_connection.webhook_url as string;
    assert.deepEqual([...brevo.webhooks.values()][0], {
      url,
      type: 'marketing',
      events: ['unsubscribed'],
      description: 'svc consent withdrawals',
    });
    assert.equal(brevo.requests[0]!.headers['api-key'], 'xkeysib-secret');

    const record = await createRecord(server, { flow_id: flowId, subject: { email: 'fay@example.com' }, decisions: grantAll });
    await drain(server);
    assert.deepEqual(brevo.members.get('fay@example.com')!.listIds, [7]);

    const event = { event: 'unsubscribed', email: 'fay@example.com', list_id: [7] };
    assert.deepEqual(await (await hook(url, event)).json(), { status: 'ignored' }, 'still on the list');
    brevo.members.get('fay@example.com')!.emailBlacklisted = true;
    assert.deepEqual(await (await hook(url, event)).json(), { status: 'applied' });
    assert.equal(await purposeOf(server, record.id)('newsletter'), 'revoked');
    await drain(server);
    assert.deepEqual(brevo.members.get('fay@example.com')!.listIds, [], 'the withdrawal is written back');
  });

  it('refuses a list the provider does not know, a purpose the flow does not ask consent for, and for production an api_base_url that is not public https', async () => {
    const connect = (extra: Json, flow = flowId) =>
      call(server, '/api/v1/mailing_connections', {
        method: 'POST',
        json: {
          mailing_connection: {
            provider: 'brevo',
            api_key: 'xkeysib-secret',
            api_base_url: brevo.url,
            list_id: '7',
            flow_id: flow,
            purpose: 'newsletter',
            ...extra,
          },
        },
      });
    const unknownList = await connect({ list_id: '99' });
    assert.equal(unknownList.status, 422, unknownList.text);
    assert.match(unknownList.body.message, /Contact does not exist|not found/i);
    assert.equal((await connect({ purpose: 'analytics' })).body.code, 'unknown_purpose');
    assert.equal((await connect({ purpose: 'nope' })).body.code, 'unknown_purpose');
    assert.equal((await connect({ flow_id: 'flw_nope' })).status, 404);

    const app = await call(server, '/api/v1/applications', {
      method: 'POST',
      json: { application: { name: 'Prod', environment: 'production' } },
    });
    assert.equal(app.status, 201, app.text);
    const flow = await call(server, '/api/v1/flows', {
      method: 'POST',
      json: {
        flow: {
          pattern: 'standard',
          title: 'Prod',
          description: 'Prod.',
          config: recordFlowConfig,
          application_id: app.body.application.id,
        },
      },
    });
    assert.equal((await call(server, `/api/v1/flows/${flow.body.flow.id}/activate`, { method: 'POST' })).status, 200);
    const webhooks = brevo.webhooks.size;
    const plain = await connect({}, flow.body.flow.id);
    assert.equal(plain.body.code, 'insecure_api_base_url', plain.text);
    // Only the provider's own API: a host the organisation names could resolve to a private address at call time.
    for (const url of [
      'https://127.0.0.1:9/v3',
      'https://10.0.0.8/v3',
      'https://[::1]/v3',
      'https://169.254.169.254/v3',
      'https://mail.example.com/v3',
      'https://api.brevo.com.example.com/v3',
      'https://api.brevo.com:8443/v3',
      'https://user:pass@api.brevo.com/v3',
      'https://us21.api.mailchimp.com/3.0',
    ]) {
      const refused = await connect({ api_base_url: url }, flow.body.flow.id);
      assert.equal(refused.status, 422, url);
      assert.equal(refused.body.code, 'non_provider_api_base_url', url);
      assert.match(refused.body.message, /https:\/\/api\.brevo\.com\/v3/);
    }
    assert.equal(brevo.webhooks.size, webhooks, 'nothing registered');
    // A production connection stored before that rule is refused at each use, before any call.
    const requests = brevo.requests.length;
    const stored = {
      provider: 'brevo',
      application_id: app.body.application.id,
      api_base_url: 'https://mail.example.com/v3',
    } as MailingConnectionRow;
    await assert.rejects(clientOf(server.context, stored), /provider's own API/);
    assert.equal(brevo.requests.length, requests);
  });

  it('writes the permission off when a granted term ends, unless a newer record grants it', async () => {
    await createRecord(server, { flow_id: flowId, subject: { email: 'gus@example.com' }, decisions: grantAll });
    await createRecord(server, { flow_id: flowId, subject: { email: 'hal@example.com' }, decisions: grantAll });
    await drain(server);
    assert.deepEqual(brevo.members.get('gus@example.com')!.listIds, [7]);
    server.advance(200 * 24 * 3600);
    await createRecord(server, { flow_id: flowId, subject: { email: 'hal@example.com' }, decisions: grantAll }); // renewed
    await drain(server);
    server.advance(200 * 24 * 3600); // past the first records' one-year term
    await drain(server);
    assert.deepEqual(brevo.members.get('gus@example.com')!.listIds, [], 'the term ended');
    assert.deepEqual(brevo.members.get('hal@example.com')!.listIds, [7], 'the newer record still grants');
    const writes = () => server.context.db.prepare('SELECT count(*) FROM mailing_outbox').pluck().get() as number;
    const count = writes();
    server.advance(120);
    await drain(server);
    assert.equal(writes(), count, 'an ended term is written once');
  });
});

describe('mailing connections: a restart loses nothing', () => {
  it('delivers after a restart the writes a stopped server still owed', async () => {
    const mc = await startMailchimp('aud1', PERMISSION);
    let server = await startTestServer();
    const dataDir = server.dataDir;
    try {
      const flowId = await createActiveFlow(server);
      const made = await call(server, '/api/v1/mailing_connections', {
        method: 'POST',
        json: {
          mailing_connection: {
            provider: 'mailchimp',
            api_key: KEY,
            api_base_url: mc.url,
            list_id: 'aud1',
            flow_id: flowId,
            purpose: 'newsletter',
          },
        },
      });
      assert.equal(made.status, 201, made.text);
      mc.down = true;
      await createRecord(server, { flow_id: flowId, subject: { email: 'ivy@example.com' }, decisions: grantAll });
      await drain(server);
      await server.close();
      mc.down = false;
      server = await startTestServer({ dataDir });
      server.advance(30);
      await drain(server);
      assert.equal(mc.members.get('ivy@example.com')!.status, 'subscribed');
    } finally {
      await server.dispose();
      await mc.close();
    }
  });
});
