// Test support for webhooks: real HTTP receivers on loopback, a closed port, and helpers to emit domain events the
// way the decisions and records code does (inside a transaction) and to read deliveries back.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, type WebhookEvent } from '@svc/client';
import type { WebhookDelivery, WebhookEndpoint } from '@svc/schemas';
import type { DomainEvent } from '../../infra/events.js';
import type { TestServer } from '../../testing.js';
import { webhookService } from './service.js';

/** One request a receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** Status the receiver answered, or null when it hung. */
  status: number | null;
}

/** How a receiver answers: a status, `hang` (never answers), or a function deciding per request. */
export type Behaviour = number | 'hang' | ((request: Received, index: number) => number | 'hang');

/** A real HTTP server on 127.0.0.1 that records what it receives. */
export interface Receiver {
  url: string;
  received: Received[];
  /** TCP connections accepted so far (a refused delivery never opens one). */
  connections(): number;
  /** Changes how later requests are answered. */
  behave(behaviour: Behaviour): void;
  close(): Promise<void>;
}

/** Starts a receiver answering per `behaviour`. */
export async function startReceiver(behaviour: Behaviour = 200, path = '/hook'): Promise<Receiver> {
  let current = behaviour;
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status: null };
      const index = received.push(entry) - 1;
      const answer = typeof current === 'function' ? current(entry, index) : current;
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      entry.status = answer;
      res.writeHead(answer, { 'content-type': 'application/json' }).end(JSON.stringify({ answered: answer }));
    });
  });
  let connections = 0;
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    connections: () => connections,
    behave(next) {
      current = next;
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** A loopback URL nothing listens on. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hook`;
}

/** A consent.granted `data` as the decisions code fills it. */
export function grantedData(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    decision_id: 'dec_test',
    flow_id: 'flw_dev_test',
    flow_version: 1,
    consent_token: 'consent-token-value',
    consent_transaction_id: 'ctxn_test',
    subject_ref: { email: 'ada@example.com', external_id: null },
    channel: 'hosted',
    purposes: [{ key: 'newsletter', outcome: 'granted', basis: 'consent' }],
    ...overrides,
  };
}

/** Emits a domain event inside a transaction, as emitters do; returns nothing (the outbox writer runs inside). */
export function emit(
  server: TestServer,
  type: string,
  data: Record<string, unknown> = grantedData(),
  applicationId = server.sandbox.application_id,
): void {
  const ctx = server.context;
  const event: DomainEvent = { type, application_id: applicationId, occurred_at: new Date(ctx.clock.now()).toISOString(), data };
  ctx.db.transaction(() => ctx.events.emit(ctx, event))();
}

/** Creates an endpoint on the sandbox application through the API; returns it with its secret. */
export async function createEndpoint(
  server: TestServer,
  url: string,
  events: string[] = ['*'],
  applicationId = server.sandbox.application_id,
): Promise<WebhookEndpoint & { secret: string }> {
  const res = await server.api(`/api/v1/applications/${applicationId}/webhook_endpoints`, {
    method: 'POST',
    json: { webhook_endpoint: { url, events } },
  });
  if (res.status !== 201) throw new Error(`create endpoint: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { webhook_endpoint: WebhookEndpoint & { secret: string } }).webhook_endpoint;
}

/** Reads an endpoint through the API. */
export async function readEndpoint(
  server: TestServer,
  id: string,
  applicationId = server.sandbox.application_id,
): Promise<WebhookEndpoint> {
  const res = await server.api(`/api/v1/applications/${applicationId}/webhook_endpoints/${id}`);
  return ((await res.json()) as { webhook_endpoint: WebhookEndpoint }).webhook_endpoint;
}

/** Every delivery of an endpoint, newest first, through the API. */
export async function listDeliveries(
  server: TestServer,
  endpointId: string,
  applicationId = server.sandbox.application_id,
): Promise<WebhookDelivery[]> {
  const res = await server.api(`/api/v1/applications/${applicationId}/webhook_endpoints/${endpointId}/deliveries?limit=100`);
  if (res.status !== 200) throw new Error(`list deliveries: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { deliveries: WebhookDelivery[] }).deliveries;
}

/** Lets the worker attempt everything due now and waits until nothing is in flight. */
export function drain(server: TestServer): Promise<void> {
  return webhookService(server.context).worker.drain();
}

/** Drains the outbox, then verifies and returns every delivery `receiver` got since the last call (and forgets them). */
export async function delivered(server: TestServer, receiver: Receiver, secret: string): Promise<WebhookEvent[]> {
  await drain(server);
  const events: WebhookEvent[] = [];
  for (const request of receiver.received) {
    events.push(await verifyWebhook(request.body, request.headers, secret, { now: server.context.clock.now() }));
  }
  receiver.received.length = 0;
  return events;
}

/** Advances the test clock, then drains. */
export async function advanceAndDrain(server: TestServer, seconds: number): Promise<void> {
  server.advance(seconds);
  await drain(server);
}

/** Polls `check` until it returns true (or throws after `timeoutMs`). */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
