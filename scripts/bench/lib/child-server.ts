// The harness the load benchmarks share: the server under test runs in a child process (so the load generator does
// not share its event loop), announces itself with one `READY <json>` line, and stops when the parent closes stdin.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

/** What autocannon reports of one run (the fields the benchmarks print). */
export interface LoadResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** autocannon, typed for the fields above. */
export type Autocannon = (options: Record<string, unknown>) => Promise<LoadResult>;

/** Loads autocannon (a CommonJS package without types of its own here). */
export async function loadAutocannon(): Promise<Autocannon> {
  return ((await import('autocannon')) as unknown as { default: Autocannon }).default;
}

/** In the child: tells the parent what it needs, then runs `stop` and exits once the parent closes stdin. */
export function announceReady(ready: unknown, stop: () => Promise<void>): void {
  process.stdout.write(`READY ${JSON.stringify(ready)}\n`);
  process.stdin.resume();
  process.stdin.on('end', async () => {
    await stop();
    process.exit(0);
  });
}

/** In the parent: starts `moduleUrl` with `mode` (default `--serve`) in a child process and waits for its `READY` line. */
export async function startChild<T>(
  moduleUrl: string,
  nodeArgs: string[] = [],
  mode = '--serve',
): Promise<{ ready: T; cpuMs(): number; stop(): Promise<void> }> {
  const child: ChildProcessByStdio<Writable, Readable, null> = spawn(
    process.execPath,
    [...nodeArgs, '--conditions=source', '--import', 'tsx', fileURLToPath(moduleUrl), mode],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const ready = await new Promise<T>((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const line = buffer.split('\n').find((l) => l.startsWith('READY '));
      if (line) resolve(JSON.parse(line.slice(6)) as T);
    });
    child.once('exit', (code) => reject(new Error(`server process exited (${code}) before it was ready`)));
  });
  return {
    ready,
    cpuMs: () => processCpuMs(child.pid!),
    async stop() {
      child.stdin.end();
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/**
 * CPU time a process has used (user + system, ms), from /proc; NaN where there is none. Unlike requests per second
 * it does not count the time a busy neighbour on a shared host takes from the machine.
 */
function processCpuMs(pid: number): number {
  try {
    // Fields 14 and 15 (utime, stime) in clock ticks (100 per second on Linux); the name in field 2 may hold spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** Server CPU per answered request over one load run, in microseconds (NaN without /proc). */
export async function cpuPerRequest(cpuMs: () => number, run: () => Promise<LoadResult>): Promise<LoadResult & { cpuUs: number }> {
  const before = cpuMs();
  const result = await run();
  return { ...result, cpuUs: ((cpuMs() - before) * 1000) / result.requests.total };
}
