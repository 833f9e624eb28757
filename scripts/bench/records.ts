// Consent records on loopback: the time of a 5000-row import (dry run and real), records created per second through
// the Record API, signed receipts per second, and the storage floor of a record (the SQL a record runs, replayed
// alone: lib/record-floor.ts). Run: `pnpm bench records` (or tsx --conditions=source
// scripts/bench/records.ts). BENCH_SECONDS (default 5) and BENCH_CONNECTIONS (default 10) bound the two load runs;
// the server runs in a child process so autocannon does not share its event loop. BENCH_PROFILE=<dir> writes a CPU
// profile of the server process there. "target" says whether a figure meets the goal set for it (issue 13); "cpu us"
// is the server process's CPU time per answer, which a busy neighbour on a shared host does not inflate.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { announceReady, cpuPerRequest, loadAutocannon, startChild, type LoadResult } from './lib/child-server.js';
import { measureRecordFloor, type Floor } from './lib/record-floor.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROWS = 5000;
/** Goals (issue 13): the real import at most this long, records created at least this fast. */
const IMPORT_TARGET_MS = 700;
const RECORDS_TARGET_PER_SECOND = 1500;
/** Records whose statements the storage floor replays. */
const FLOOR_RECORDS = Number(process.env.BENCH_FLOOR_RECORDS ?? 2000);

interface Ready {
  url: string;
  apiToken: string;
  flowId: string;
}

// ---- child: the server under test ----------------------------------------------------------------------------

/** A server with the sandbox and a capturable flow (no verification step, a consent duration), one purpose of each kind. */
async function startBenchServer() {
  const { startServer } = await import('@svc/server');
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-records-'));
  const server = await startServer({ port: 0, dataDir, clock: true });
  const apiToken = server.sandbox.api_token;
  const call = async (path: string, body?: unknown) => {
    const res = await fetch(server.url + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiToken}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, any>;
  };
  // A capturable flow (no verification step, a consent duration) with one purpose of each kind.
  const { flow } = await call('/api/v1/flows', {
    flow: {
      pattern: 'standard',
      title: 'Bench',
      config: {
        locale: 'en',
        policy_url: 'https://bench.example/privacy',
        consent_duration: 'P1Y',
        purposes: [
          { key: 'newsletter', label: 'Newsletter', basis: 'consent', mechanism: 'explicit' },
          { key: 'analytics', label: 'Analytics', basis: 'legitimate_interest', mechanism: 'opt_out' },
          { key: 'service', label: 'Service', basis: 'contract', mechanism: 'notice' },
        ],
        steps: [{ type: 'review' }],
      },
    },
  });
  await call(`/api/v1/flows/${flow.id}/activate`);
  const stop = async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { server, dataDir, apiToken, flowId: flow.id as string, call, stop };
}

/** The body of one load record: a new person each time, two purposes granted. */
function recordBody(flowId: string, n: number) {
  return {
    flow_id: flowId,
    subject: { email: `load-${n}@example.com` },
    decisions: { newsletter: { decision: 'granted' }, analytics: { decision: 'granted' } },
  };
}

async function serve(): Promise<void> {
  const { server, apiToken, flowId, stop } = await startBenchServer();
  announceReady({ url: server.url, apiToken, flowId } satisfies Ready, stop);
}

/** The storage floor of a record (lib/record-floor.ts), announced as this child's READY line. */
async function floor(): Promise<void> {
  const { server, dataDir, flowId, call, stop } = await startBenchServer();
  let n = 0;
  const result = await measureRecordFloor(
    server.context.db,
    dataDir,
    () => call('/api/v1/consent_records', recordBody(flowId, n++)),
    FLOOR_RECORDS,
  );
  announceReady(result, stop);
}

// ---- parent: the load ----------------------------------------------------------------------------------------

function rows(prefix: string) {
  return Array.from({ length: ROWS }, (_, i) => ({
    subject: { email: `${prefix}-${i}@example.com`, external_id: `${prefix}-${i}` },
    decisions: { newsletter: { decision: i % 4 === 0 ? 'declined' : 'granted' }, analytics: { decision: 'granted' } },
    captured_at: new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString(),
    idempotency_key: `${prefix}-${i}`,
  }));
}

async function main(): Promise<void> {
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const { ready, cpuMs, stop } = await startChild<Ready>(import.meta.url, profile);
  const autocannon = await loadAutocannon();
  const headers = { authorization: `Bearer ${ready.apiToken}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) => {
    const text = JSON.stringify(body);
    const started = performance.now();
    const res = await fetch(ready.url + path, { method: 'POST', headers, body: text });
    const answer = (await res.json()) as Record<string, any>;
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(answer).slice(0, 300)}`);
    return { ms: performance.now() - started, bytes: text.length, answer };
  };

  console.log(`loopback, Node ${process.version}; load runs: ${CONNECTIONS} connections, ${SECONDS} s\n`);
  const importRows = rows('bench');
  const dry = await post('/api/v1/consent_records/imports', { flow_id: ready.flowId, records: importRows, dry_run: true });
  const real = await post('/api/v1/consent_records/imports', { flow_id: ready.flowId, records: importRows });
  const again = await post('/api/v1/consent_records/imports', { flow_id: ready.flowId, records: importRows });
  const mb = (dry.bytes / 1024 / 1024).toFixed(1);
  console.log(`import of ${ROWS} rows (${mb} MB body), request to answer:`);
  console.log(
    `  dry run                        ${dry.ms.toFixed(0).padStart(7)} ms   (${dry.answer.import.accepted_count} would be accepted, nothing written)`,
  );
  console.log(
    `  real                           ${real.ms.toFixed(0).padStart(7)} ms   (${real.answer.import.accepted_count} records in one transaction, ${(ROWS / (real.ms / 1000)).toFixed(0)} rows/s)   target <= ${IMPORT_TARGET_MS} ms ${real.ms <= IMPORT_TARGET_MS ? 'ok' : 'below'}`,
  );
  console.log(
    `  again, same idempotency keys   ${again.ms.toFixed(0).padStart(7)} ms   (${again.answer.import.results.filter((r: { existing?: boolean }) => r.existing).length} found, none created)\n`,
  );

  let n = 0;
  const records = await cpuPerRequest(cpuMs, () =>
    autocannon({
      url: `${ready.url}/api/v1/consent_records`,
      method: 'POST',
      headers,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        {
          setupRequest: (request: Record<string, unknown>) => ({
            ...request,
            body: JSON.stringify(recordBody(ready.flowId, n++)),
          }),
        },
      ],
    }),
  );
  const ids = (real.answer.import.results as { record_id: string }[]).map((r) => r.record_id);
  let k = 0;
  const signed = await cpuPerRequest(cpuMs, () =>
    autocannon({
      url: `${ready.url}/api/v1/consent_receipts/${ids[0]}?flavor=signed`,
      headers,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        {
          setupRequest: (request: Record<string, unknown>) => ({
            ...request,
            path: `/api/v1/consent_receipts/${ids[k++ % ids.length]}?flavor=signed`,
          }),
        },
      ],
    }),
  );
  const line = (name: string, r: LoadResult & { cpuUs: number }, target: string, note: string) =>
    console.log(
      `${name.padEnd(48)}${r.requests.average.toFixed(0).padStart(8)}${target.padStart(14)}${r.cpuUs.toFixed(0).padStart(9)}${r.latency.p50.toFixed(1).padStart(9)}${r.latency.p99.toFixed(1).padStart(9)}${String(r.non2xx + r.errors + r.timeouts).padStart(9)}  ${note}`,
    );
  console.log(
    `${'scenario'.padEnd(48)}${'req/s'.padStart(8)}${'target'.padStart(14)}${'cpu us'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'non-2xx'.padStart(9)}  note`,
  );
  const recordsTarget = `>= ${RECORDS_TARGET_PER_SECOND} ${records.requests.average >= RECORDS_TARGET_PER_SECOND ? 'ok' : 'below'}`;
  line('POST /api/v1/consent_records', records, recordsTarget, 'records created per second (each with receipt, audit event, domain event)');
  line('GET /api/v1/consent_receipts/{id}?flavor=signed', signed, '', 'signed receipts per second (JCS + ES256 detached JWS)');
  await stop();
  // Alone on the machine once the load runs are over.
  const measured = await startChild<Floor>(import.meta.url, [], '--floor');
  await measured.stop();
  const f = measured.ready;
  console.log(
    `${"storage alone: a record's SQL replayed".padEnd(48)}${(1e6 / f.wallUs).toFixed(0).padStart(8)}${''.padStart(14)}${f.cpuUs.toFixed(0).padStart(9)}${(f.wallUs / 1000).toFixed(1).padStart(9)}${''.padStart(9)}${''.padStart(9)}  the floor: ${f.statements.toFixed(1)} statements per record, one at a time, no HTTP and no service code (${FLOOR_RECORDS} records)`,
  );
}

if (process.argv.includes('--serve')) await serve();
else if (process.argv.includes('--floor')) await floor();
else await main();
