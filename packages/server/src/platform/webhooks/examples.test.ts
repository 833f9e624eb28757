// The README's receivers (examples/webhook-receiver-node.ts and examples/webhook-receiver-hono.ts) against a real
// server: each verifies, acts once per event id, and answers a repeated delivery with a 2xx that does nothing.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { register } from 'node:module';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { serve } from '@hono/node-server';
import { signWebhook, type WebhookEvent } from '@svc/client';
import type { WebhookDelivery } from '@svc/schemas';
import { startTestServer, type TestServer } from '../../testing.js';
import { webhookService } from './service.js';
import { closedPortUrl, createEndpoint, drain, emit, listDeliveries } from './test-support.js';

// The examples import `hono` as user code does. Until the workspace root lists hono, resolve it (only for files
// under examples/) from this package, which depends on it.
const serverPackage = new URL('../../../package.json', import.meta.url).href;
register(
  `data:text/javascript,${encodeURIComponent(`
  export async function resolve(specifier, context, next) {
    try { return await next(specifier, context); } catch (err) {
      const hono = specifier === 'hono' || specifier.startsWith('hono/') || specifier === '@hono/node-server';
      if (!hono || !context.parentURL || !context.parentURL.includes('/examples/')) throw err;
      return next(specifier, { ...context, parentURL: ${JSON.stringify(serverPackage)} });
    }
  }
`)}`,
);

const examples = new URL('../../../../../examples/', import.meta.url);

interface Started {
  url: string;
  close(): Promise<void>;
}
type Options = { secrets: string | string[]; onEvent: (event: WebhookEvent) => void; now: () => number };
type Start = (options: Options) => Promise<Started>;

async function startNode(options: Options): Promise<Started> {
  const { createWebhookReceiver } = (await import(new URL('webhook-receiver-node.ts', examples).href)) as {
    createWebhookReceiver: (o: Options) => Server;
  };
  const server = createWebhookReceiver(options);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function startHono(options: Options): Promise<Started> {
  const { createWebhookApp } = (await import(new URL('webhook-receiver-hono.ts', examples).href)) as {
    createWebhookApp: (o: Options) => { fetch: (r: Request) => Response | Promise<Response> };
  };
  const app = createWebhookApp(options);
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function exercise(name: string, start: Start) {
  describe(`${name} receiver example`, () => {
    let server: TestServer;
    let receiver: Started;
    let secret: string;
    let endpointId: string;
    const seen: WebhookEvent[] = [];
    const now = () => server.context.clock.now();
    const post = async (body: string, headers: Record<string, string>) => {
      const res = await fetch(receiver.url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };

    before(async () => {
      server = await startTestServer();
      const endpoint = await createEndpoint(server, await closedPortUrl());
      secret = endpoint.secret;
      endpointId = endpoint.id;
      receiver = await start({
        secrets: secret,
        onEvent: (event) => {
          seen.push(event);
        },
        now,
      });
      const res = await server.api(`/api/v1/applications/${server.sandbox.application_id}/webhook_endpoints/${endpointId}`, {
        method: 'PATCH',
        json: { webhook_endpoint: { url: receiver.url } },
      });
      assert.equal(res.status, 200);
    });
    after(async () => {
      await server.dispose();
      await receiver.close();
    });

    it('acknowledges a delivery from the server and acts on it once', async () => {
      emit(server, 'consent.granted');
      await drain(server);
      assert.deepEqual(
        seen.map((e) => e.type),
        ['consent.granted'],
      );
      const [delivery] = await listDeliveries(server, endpointId);
      assert.equal(delivery!.status, 'acknowledged');
      assert.equal(delivery!.event_id, seen[0]!.id);
    });

    it('answers the same delivery sent again (a retry) with a 2xx that does nothing', async () => {
      const row = server.context.db.prepare('SELECT id, body_enc FROM webhook_events WHERE type = ?').get('consent.granted') as {
        id: string;
        body_enc: string;
      };
      const raw = webhookService(server.context).sealer.open(row.body_enc, row.id);
      for (let i = 0; i < 2; i += 1) {
        const headers = await signWebhook(raw, secret, { timestamp: Math.floor(now() / 1000) });
        const res = await post(raw, { ...headers });
        assert.equal(res.status, 200);
        assert.equal(res.body.duplicate, true);
      }
      assert.equal(seen.length, 1);
    });

    it('processes a new signed delivery once when it arrives twice', async () => {
      const raw = JSON.stringify({
        id: 'evt_examplerevoked01',
        type: 'consent.revoked',
        application_id: server.sandbox.application_id,
        occurred_at: new Date(now()).toISOString(),
        data: {
          record_id: 'rec_1',
          decision_id: null,
          flow_id: 'flw_dev_1',
          flow_version: 1,
          user_id: null,
          subject_ref: { email: 'ada@example.com', external_id: 'crm-42' },
          withdrawn: [{ key: 'newsletter', outcome: 'revoked' }],
          purposes: [{ key: 'newsletter', outcome: 'revoked', basis: 'consent' }],
          event_channel: 'api',
          revoked_at: new Date(now()).toISOString(),
        },
      });
      const headers = { ...(await signWebhook(raw, secret, { timestamp: Math.floor(now() / 1000) })) };
      const first = await post(raw, headers);
      const second = await post(raw, headers);
      assert.deepEqual([first.status, first.body.duplicate, second.status, second.body.duplicate], [200, false, 200, true]);
      assert.deepEqual(
        seen.map((e) => e.id),
        [seen[0]!.id, 'evt_examplerevoked01'],
      );
    });

    it('refuses a forged delivery with a 400 and acknowledges an authentic unknown type', async () => {
      const raw = JSON.stringify({
        id: 'evt_forged000000001',
        type: 'consent.granted',
        application_id: 'x',
        occurred_at: new Date(now()).toISOString(),
        data: {},
      });
      const forged = await post(raw, { ...(await signWebhook(raw, 'whsec_not_the_secret', { timestamp: Math.floor(now() / 1000) })) });
      assert.deepEqual([forged.status, forged.body.error], [400, 'ERR_SVC_WEBHOOK_SIGNATURE']);
      const future = JSON.stringify({
        id: 'evt_future000000001',
        type: 'vouch.created',
        application_id: 'x',
        occurred_at: new Date(now()).toISOString(),
        data: {},
      });
      const unknown = await post(future, { ...(await signWebhook(future, secret, { timestamp: Math.floor(now() / 1000) })) });
      assert.deepEqual([unknown.status, unknown.body.ignored], [200, true]);
      assert.equal(seen.length, 2);
    });

    it("acknowledges the server's test delivery", async () => {
      const res = await server.api(`/api/v1/applications/${server.sandbox.application_id}/webhook_endpoints/${endpointId}/test`, {
        method: 'POST',
      });
      const { delivery } = (await res.json()) as { delivery: WebhookDelivery };
      assert.equal(delivery.status, 'acknowledged');
      assert.equal(seen.at(-1)!.type, 'webhook.test');
    });
  });
}

exercise('Node http', startNode);
exercise('Hono', startHono);
