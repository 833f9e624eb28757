// The outbox survives restarts: deliveries pending, in retry and in flight when the server stops (or is killed)
// go out after it starts again on the same data directory, each acknowledged exactly once, with its original id.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { startTestServer } from '../../testing.js';
import { webhookService } from './service.js';
import { createEndpoint, drain, emit, listDeliveries, startReceiver, waitFor, type Receiver } from './test-support.js';

/** Per event id: how many requests arrived and how many were answered 2xx. */
function tally(r: Receiver): Map<string, { requests: number; acknowledged: number }> {
  const out = new Map<string, { requests: number; acknowledged: number }>();
  for (const x of r.received) {
    const id = String(x.headers['x-svc-event-id']);
    const entry = out.get(id) ?? { requests: 0, acknowledged: 0 };
    entry.requests += 1;
    if (x.status !== null && x.status >= 200 && x.status < 300) entry.acknowledged += 1;
    out.set(id, entry);
  }
  return out;
}

describe('webhook deliveries across restarts', () => {
  const dirs: string[] = [];
  const receivers: Receiver[] = [];
  after(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('resumes pending, retrying and interrupted deliveries after a stop: every event acknowledged exactly once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-webhooks-restart-'));
    dirs.push(dataDir);
    const ok = await startReceiver(200);
    const flaky = await startReceiver(500);
    const hang = await startReceiver('hang');
    receivers.push(ok, flaky, hang);

    const first = await startTestServer({ dataDir });
    Object.assign(webhookService(first.context).worker.settings, { readTimeoutMs: 60_000, shutdownGraceMs: 100 });
    const endpoints = {
      ok: await createEndpoint(first, ok.url),
      flaky: await createEndpoint(first, flaky.url),
      hang: await createEndpoint(first, hang.url),
    };

    // Three events go out: acknowledged by `ok`, 500 from `flaky` (now in retry), hanging at `hang` (in flight).
    for (let i = 0; i < 3; i += 1) emit(first, 'consent.granted');
    await waitFor(() => ok.received.length === 3 && flaky.received.length === 3 && hang.received.length === 3, 10_000, 'first attempts');
    await waitFor(
      async () => (await listDeliveries(first, endpoints.flaky.id)).every((d) => d.attempt_count === 1),
      10_000,
      'flaky failures recorded',
    );
    // Two more are committed and the server stops before the worker picks them up.
    emit(first, 'consent.granted');
    emit(first, 'consent.granted');
    const original = first.context.db.prepare('SELECT id FROM webhook_events ORDER BY seq').pluck().all() as string[];
    assert.equal(original.length, 5);
    await first.close();

    const db = new Database(join(dataDir, 'svc.sqlite'), { readonly: true });
    db.prepare('ATTACH DATABASE ? AS control').run(join(dataDir, 'control.sqlite')); // the endpoints are the control plane's
    const state = db
      .prepare(`SELECT w.url, d.status, d.attempt_count, (SELECT group_concat(outcome) FROM webhook_attempts a WHERE a.delivery_id = d.id) AS attempts
                              FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id ORDER BY w.seq, d.seq`)
      .all() as { url: string; status: string; attempt_count: number; attempts: string | null }[];
    db.close();
    const of = (url: string) => state.filter((s) => s.url === url).map((s) => [s.status, s.attempt_count, s.attempts]);
    assert.deepEqual(of(ok.url), [...Array(3).fill(['acknowledged', 1, 'acknowledged']), ...Array(2).fill(['pending', 0, null])]);
    assert.deepEqual(of(flaky.url), [...Array(3).fill(['pending', 1, 'failed']), ...Array(2).fill(['pending', 0, null])]);
    assert.deepEqual(
      of(hang.url),
      [...Array(3).fill(['pending', 0, 'interrupted']), ...Array(2).fill(['pending', 0, null])],
      'cut off at stop, not counted',
    );

    flaky.behave(200);
    hang.behave(200);
    const second = await startTestServer({ dataDir });
    try {
      await drain(second);
      second.advance(30); // the flaky retries are due 30 s after their failure
      await drain(second);

      for (const [name, r] of [
        ['ok', ok],
        ['flaky', flaky],
        ['hang', hang],
      ] as const) {
        const counts = tally(r);
        assert.deepEqual([...counts.keys()].sort(), [...original].sort(), `${name}: every event, with its original id`);
        for (const [id, { acknowledged }] of counts) assert.equal(acknowledged, 1, `${name}: ${id} acknowledged exactly once`);
      }
      assert.ok(
        [...tally(ok).values()].every((c) => c.requests === 1),
        'an acknowledged delivery is never sent again',
      );
      assert.ok([...tally(flaky).values()].every((c) => c.requests <= 2));
      for (const endpoint of Object.values(endpoints)) {
        const deliveries = await listDeliveries(second, endpoint.id);
        assert.equal(deliveries.length, 5);
        assert.ok(
          deliveries.every((d) => d.status === 'acknowledged'),
          JSON.stringify(deliveries.map((d) => d.status)),
        );
      }
      const hung = (await listDeliveries(second, endpoints.hang.id)).filter((d) => d.attempts.length === 2);
      assert.equal(hung.length, 3);
      assert.ok(
        hung.every((d) => d.attempts[0]!.outcome === 'interrupted' && d.attempts[1]!.outcome === 'acknowledged' && d.attempt_count === 1),
      );
    } finally {
      await second.close();
    }
  });

  it('re-delivers an attempt that was in flight when the process was killed (at least once)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-webhooks-crash-'));
    dirs.push(dataDir);
    const hang = await startReceiver('hang');
    receivers.push(hang);
    const fixture = fileURLToPath(new URL('./crash-fixture.ts', import.meta.url));
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', fixture], {
      env: { ...process.env, SVC_DATA_DIR: dataDir, RECEIVER_URL: hang.url, SVC_WEBHOOK_READ_TIMEOUT_MS: '60000' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const ready = await new Promise<{ endpoint_id: string; event_id: string }>((resolve, reject) => {
      let buffer = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        const line = buffer.split('\n').find((l) => l.startsWith('READY '));
        if (line) resolve(JSON.parse(line.slice(6)) as { endpoint_id: string; event_id: string });
      });
      child.once('exit', (code) => reject(new Error(`fixture exited (${code}) before it was ready`)));
    });
    await waitFor(() => hang.received.length === 1, 15_000, 'the attempt to arrive');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    const control = new Database(join(dataDir, 'control.sqlite'), { readonly: true });
    assert.equal(control.prepare('SELECT count(*) FROM webhook_attempt_leases').pluck().get(), 1, 'the killed attempt left its lease');
    control.close();

    hang.behave(200);
    const server = await startTestServer({ dataDir });
    try {
      await drain(server);
      const leases = server.context.db.prepare('SELECT count(*) FROM webhook_attempt_leases').pluck().get();
      assert.equal(leases, 0, "the restart dropped the killed run's lease, and the new attempt's was released");
      assert.deepEqual(
        hang.received.map((x) => [x.headers['x-svc-event-id'], x.status]),
        [
          [ready.event_id, null],
          [ready.event_id, 200],
        ],
      );
      assert.equal(hang.received[0]!.body, hang.received[1]!.body, 'the same body');
      const [delivery] = await listDeliveries(server, ready.endpoint_id);
      assert.equal(delivery!.status, 'acknowledged');
      assert.deepEqual(
        delivery!.attempts.map((a) => a.outcome),
        ['interrupted', 'acknowledged'],
      );
      assert.match(delivery!.attempts[0]!.error_message ?? '', /stopped during the attempt/);
      await drain(server);
      assert.equal(hang.received.length, 2, 'nothing more once acknowledged');
    } finally {
      await server.close();
    }
  });
});
