// Webhook delivery on loopback: deliveries per second from a full outbox to one receiver answering 200, and the
// delay from an event's commit (the transaction that records the change and writes the outbox) to its webhook's
// arrival at the receiver. Run: pnpm bench webhooks. BENCH_WEBHOOK_EVENTS (default 3000) sizes the throughput run,
// BENCH_WEBHOOK_SAMPLES (default 300) the latency run; BENCH_SECONDS (default 20) bounds each run.
// The server and the receiver share one process (and one event loop), so the figures are conservative.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '@svc/server';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 3000);
const SAMPLES = Number(process.env.BENCH_WEBHOOK_SAMPLES ?? 300);
const LIMIT_MS = Number(process.env.BENCH_SECONDS ?? 20) * 1000;

const arrivals = new Map<string, number>();
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    arrivals.set(String(req.headers['x-svc-event-id']), performance.now());
    res.writeHead(200).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-webhooks-'));
const server = await startServer({ port: 0, dataDir });
const ctx = server.context;
const applicationId = server.sandbox.application_id;
const created = await fetch(`${server.url}/api/v1/applications/${applicationId}/webhook_endpoints`, {
  method: 'POST',
  headers: { authorization: `Bearer ${server.sandbox.api_token}`, 'content-type': 'application/json' },
  body: JSON.stringify({ webhook_endpoint: { url: receiverUrl, events: ['consent.granted'] } }),
});
if (created.status !== 201) throw new Error(`could not create the endpoint: ${created.status} ${await created.text()}`);

const lastEventId = ctx.db.prepare('SELECT id FROM webhook_events ORDER BY seq DESC LIMIT 1').pluck();
/** Commits one change that emits consent.granted, as the decisions and records code do; returns its event id. */
function commitEvent(i: number): string {
  return ctx.db.transaction(() => {
    ctx.events.emit(ctx, {
      type: 'consent.granted',
      application_id: applicationId,
      occurred_at: new Date(ctx.clock.now()).toISOString(),
      data: {
        decision_id: `dec_bench_${i}`,
        flow_id: server.sandbox.flow_id,
        flow_version: 1,
        consent_token: null,
        subject_ref: { email: `person${i}@example.com`, external_id: null },
        channel: 'hosted',
        purposes: [{ key: 'newsletter', outcome: 'granted', basis: 'consent' }],
      },
    });
    return lastEventId.get() as string;
  })();
}

async function until(done: () => boolean): Promise<boolean> {
  const deadline = performance.now() + LIMIT_MS;
  while (!done()) {
    if (performance.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 2));
  }
  return true;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const acknowledged = ctx.db.prepare(`SELECT count(*) FROM webhook_deliveries WHERE status = 'acknowledged' AND test = 0`).pluck();

try {
  console.log(`loopback, one endpoint answering 200, Node ${process.version}\n`);

  // Warm up the connection pool and the statements.
  for (let i = 0; i < 50; i += 1) commitEvent(i);
  await until(() => arrivals.size >= 50);

  // Latency: one event at a time, each committed after the previous one arrived.
  const delays: number[] = [];
  for (let i = 0; i < SAMPLES; i += 1) {
    const id = commitEvent(1_000_000 + i);
    const committed = performance.now();
    if (!(await until(() => arrivals.has(id)))) break;
    delays.push(arrivals.get(id)! - committed);
  }
  delays.sort((a, b) => a - b);
  await until(() => (acknowledged.get() as number) >= 50 + delays.length); // the last arrival's acknowledgement is recorded

  // Throughput: the outbox filled in batches of 100 events per transaction, then drained by the worker.
  const before = acknowledged.get() as number;
  const started = performance.now();
  for (let i = 0; i < EVENTS; i += 100) {
    ctx.db.transaction(() => {
      for (let j = i; j < Math.min(EVENTS, i + 100); j += 1) commitEvent(2_000_000 + j);
    })();
  }
  const committedAt = performance.now();
  const finished = await until(() => (acknowledged.get() as number) - before >= EVENTS);
  const elapsed = (performance.now() - started) / 1000;
  const delivered = (acknowledged.get() as number) - before;

  const ms = (n: number) => `${n.toFixed(2)} ms`;
  console.log(
    `commit -> arrival (${delays.length} events, one at a time): median ${ms(quantile(delays, 0.5))}, p95 ${ms(quantile(delays, 0.95))}, max ${ms(delays.at(-1) ?? NaN)}`,
  );
  console.log(
    `throughput (${EVENTS} events committed in ${((committedAt - started) / 1000).toFixed(2)} s): ${delivered} deliveries acknowledged in ${elapsed.toFixed(2)} s = ${(delivered / elapsed).toFixed(0)} deliveries/s${finished ? '' : ' (stopped at the time limit)'}`,
  );
  console.log(
    `worker: concurrency ${process.env.SVC_WEBHOOK_CONCURRENCY ?? 32}, keep-alive connections, signed (HMAC-SHA256), bodies sealed at rest (AES-256-GCM)`,
  );
} finally {
  await server.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  receiver.closeAllConnections();
  rmSync(dataDir, { recursive: true, force: true });
}
