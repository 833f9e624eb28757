// Presentation verifications per second on loopback: a credential issued by the US cell (SD-JWT VC, one purpose
// disclosed) verified through POST /api/v1/presentations by the DE cell (cross-border: the issuing cell's published
// key, its status list from the cache, one transfer register row per answer) and by the US cell itself (domestic),
// plus the verification alone in-process (no HTTP, no transfer). Run: `pnpm bench credentials`. BENCH_SECONDS
// (default 5) and BENCH_CONNECTIONS (default 10) bound the load runs; the server runs in a child process so autocannon
// does not share its event loop. "cpu us" is the server process's CPU time per answer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { announceReady, cpuPerRequest, loadAutocannon, startChild, type LoadResult } from './lib/child-server.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const IN_PROCESS_MS = 2000;

interface Ready {
  us: string;
  de: string;
  apiToken: string;
  presentation: string;
  inProcess: { perSecond: number; usEach: number };
}

// ---- child: the server under test ----------------------------------------------------------------------------

async function serve(): Promise<void> {
  const { startServer } = await import('@svc/server');
  const { presentCredential } = await import('@svc/client/credentials');
  const { verifyPresentation } = await import('../../packages/server/src/consent/credentials/verify.js');
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-credentials-'));
  const server = await startServer({ port: 0, dataDir, clock: true, countries: ['US', 'DE'] });
  const cells = Object.values(server.cells) as { country: string; url: string; context: Parameters<typeof verifyPresentation>[0] }[];
  const us = cells.find((c) => c.country === 'US')!;
  const de = cells.find((c) => c.country === 'DE')!;
  const apiToken = server.sandbox.api_token;
  const call = async (base: string, path: string, body: unknown, init: { origin?: boolean } = {}) => {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: init.origin
        ? { origin: base, 'content-type': 'application/json' }
        : { authorization: `Bearer ${apiToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, any>;
  };
  // A fulfilled consent in US (the sandbox's demo flow), and a credential of it.
  const { decision } = await call(us.url, '/api/v1/decisions', {
    kind: 'consent',
    subject_ref: server.sandbox.flow_id,
    delivery_mode: 'embed',
    embed_origin: us.url,
  });
  const token = decision.session_token as string;
  const step = (body: unknown) => call(us.url, `/decisions/${token}/transitions`, body, { origin: true });
  await step({ action: 'begin' });
  const { sandbox_code } = await step({ action: 'sign_in', email: 'bench@example.com' });
  await step({ action: 'verify', code: sandbox_code });
  await step({ action: 'agree', granted: ['newsletter'], objected: [] });
  const read = await fetch(`${us.url}/api/v1/decisions/${token}`, { headers: { authorization: `Bearer ${apiToken}` } });
  const { consent_transaction_id } = ((await read.json()) as { decision: { consent_transaction_id: string } }).decision;
  const { credential } = await call(us.url, '/api/v1/credentials', { consent_transaction_id, credential_type: 'ConsentCredential' });
  const presentation = await presentCredential(credential.credential as string, { disclose: ['purposes.newsletter'] });

  // The verification alone, in the verifying cell's process (same-country: no transfer row), status list cached.
  const accountId = (
    us.context.db.prepare('SELECT account_id FROM applications WHERE id = ?').get(server.sandbox.application_id) as { account_id: string }
  ).account_id;
  await verifyPresentation(us.context, accountId, { presentation });
  let n = 0;
  const started = performance.now();
  while (performance.now() - started < IN_PROCESS_MS) {
    await verifyPresentation(us.context, accountId, { presentation });
    n += 1;
  }
  const elapsed = performance.now() - started;
  const ready: Ready = {
    us: us.url,
    de: de.url,
    apiToken,
    presentation,
    inProcess: { perSecond: (n * 1000) / elapsed, usEach: (elapsed * 1000) / n },
  };
  announceReady(ready, async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
}

// ---- parent: the load ----------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const { ready, cpuMs, stop } = await startChild<Ready>(import.meta.url);
  const autocannon = await loadAutocannon();
  const headers = { authorization: `Bearer ${ready.apiToken}`, 'content-type': 'application/json' };
  const body = JSON.stringify({ presentation: ready.presentation });
  const load = (base: string) =>
    cpuPerRequest(cpuMs, () =>
      autocannon({
        url: `${base}/api/v1/presentations`,
        method: 'POST',
        headers,
        body,
        connections: CONNECTIONS,
        duration: SECONDS,
      }),
    );
  console.log(
    `loopback, Node ${process.version}; load runs: ${CONNECTIONS} connections, ${SECONDS} s; presentation ${ready.presentation.length} characters, one of 7 claims disclosed\n`,
  );
  const crossBorder = await load(ready.de);
  const domestic = await load(ready.us);
  const line = (name: string, r: LoadResult & { cpuUs: number }, note: string) =>
    console.log(
      `${name.padEnd(48)}${r.requests.average.toFixed(0).padStart(8)}${r.cpuUs.toFixed(0).padStart(9)}${r.latency.p50.toFixed(1).padStart(9)}${r.latency.p99.toFixed(1).padStart(9)}${String(r.non2xx + r.errors + r.timeouts).padStart(9)}  ${note}`,
    );
  console.log(
    `${'scenario'.padEnd(48)}${'req/s'.padStart(8)}${'cpu us'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'non-2xx'.padStart(9)}  note`,
  );
  line(
    'POST /api/v1/presentations (DE verifies US)',
    crossBorder,
    'presentation verifications per second, cross-border (issuer key from the cell directory, cached status list, a transfer row each)',
  );
  line('POST /api/v1/presentations (US verifies US)', domestic, 'presentation verifications per second, domestic');
  console.log(
    `${'verifyPresentation in-process'.padEnd(48)}${ready.inProcess.perSecond.toFixed(0).padStart(8)}${ready.inProcess.usEach.toFixed(0).padStart(9)}${''.padStart(27)}  verifications per second without HTTP (one at a time; cpu us = wall time each)`,
  );
  await stop();
}

if (process.argv.includes('--serve')) await serve();
else await main();
