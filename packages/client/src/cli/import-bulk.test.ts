// `svc records import` of 20,000 rows, spawned as the real `svc` against a reference server of two country cells
// (US and DE) through a counting proxy: four dry-run chunks and four real ones, the refusals reported by row, nothing
// created by a second run; and Ctrl-C after the first chunk is acknowledged, then the printed command to resume.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { createClient, type SvcClient } from '../lib/client.js';
import { loopback, startTestCells, type Loopback, type TestCells } from '../testing/servers.test.helper.js';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const tsx = import.meta.resolve('tsx');
const ROWS = 20_000;
const IMPORTS = '/api/v1/consent_records/imports';
const MAP =
  'email=Email,external_id=CustomerId,captured_at=SignupDate,country=Country,newsletter=Newsletter,analytics=Analytics,' +
  'service=Service,newsletter.default_checked=Preticked';

interface Summary {
  created: number;
  existing: number;
  refused: number;
  refused_locally: number;
  chunks: number;
  rows_sent: number;
  import_ids: string[];
  dry_run: { accepted: number; existing: number; refused: number; chunks: number } | null;
  report: string;
  interrupted: boolean;
  next_row?: number;
  resume_command?: string;
}

/** One `svc` process: its output so far, a wait for a stderr line, and its end. */
interface Running {
  stdout(): string;
  stderrLine(test: (line: string) => boolean): Promise<string>;
  signal(name: NodeJS.Signals): void;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** The import requests a proxy forwarded: whether each was a dry run, and its rows. */
interface Forwarded {
  dryRun: boolean;
  rows: number;
}

describe('svc records import of 20,000 rows', () => {
  let cells: TestCells;
  let proxy: Loopback;
  let dir: string;
  let svcApi: SvcClient;
  let env: Record<string, string>;
  const forwarded: Forwarded[] = [];
  /** Holds the answer to an import request (by its position among all of them) until the test lets it through. */
  let hold: ((index: number) => Promise<void>) | undefined;

  /** Runs `command` through sh in the scratch directory, with `svc` on the PATH. */
  const sh = (command: string): Running => {
    const child = spawn('sh', ['-c', `exec ${command}`], { cwd: dir, env });
    let stdout = '';
    let stderr = '';
    const waiters: { test: (line: string) => boolean; resolve: (line: string) => void }[] = [];
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
      for (const waiter of [...waiters]) {
        const line = stderr.split('\n').find(waiter.test);
        if (line !== undefined) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    });
    const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    return {
      stdout: () => stdout,
      stderrLine: (test) =>
        new Promise((resolve, reject) => {
          const line = stderr.split('\n').find(test);
          if (line !== undefined) resolve(line);
          else {
            waiters.push({ test, resolve });
            void done.then(() => reject(new Error(`svc ended without that line on stderr:\n${stderr}`)));
          }
        }),
      signal: (name) => child.kill(name),
      done,
    };
  };

  /** Consent records stored in the US cell, through the API (the residency posture's count). */
  const records = async () => (await svcApi.residencyPosture.get()).countries.find((c) => c.country === 'US')!.consent_records;

  /** A CSV of 20,000 people (header on row 1); `bad` replaces the line of some rows. */
  function csv(name: string, prefix: string, bad: Record<number, (cells: string[]) => string> = {}): string {
    const lines = ['Email,CustomerId,SignupDate,Country,Newsletter,Analytics,Service,Preticked'];
    for (let i = 1; i <= ROWS; i++) {
      const cells = [
        `${prefix}-${i}@example.com`,
        `C${i}`,
        `2024-03-${String((i % 28) + 1).padStart(2, '0')}`,
        'US',
        i % 3 ? 'yes' : 'no',
        'yes',
        'yes',
        '',
      ];
      lines.push(bad[i + 1]?.(cells) ?? cells.join(','));
    }
    writeFileSync(join(dir, name), `${lines.join('\n')}\n`);
    return name;
  }
  const set = (index: number, value: string) => (cells: string[]) => cells.map((c, i) => (i === index ? value : c)).join(',');

  before(async () => {
    cells = await startTestCells(['US', 'DE']);
    const us = cells.cells.US!;
    svcApi = createClient({ baseUrl: us.url, apiToken: us.sandbox.api_token });
    // Forwards every request to the US cell, counting the imports (and holding one when a test asks).
    proxy = await loopback(async (req, res) => {
      if (req.method === 'POST' && req.url === IMPORTS) {
        const body = JSON.parse(req.body) as { dry_run?: boolean; records: unknown[] };
        forwarded.push({ dryRun: body.dry_run === true, rows: body.records.length });
        await hold?.(forwarded.length - 1);
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers)
          .filter(([name]) => !['host', 'connection', 'content-length', 'transfer-encoding'].includes(name))
          .map(([name, value]) => [name, String(value)]),
      );
      const answer = await fetch(us.url + req.url, { method: req.method, headers, ...(req.body && { body: req.body }) });
      res.writeHead(
        answer.status,
        Object.fromEntries(
          [...answer.headers].filter(([name]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name)),
        ),
      );
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    dir = mkdtempSync(join(tmpdir(), 'svc-import-bulk-'));
    // `svc` on the PATH, so the command the import prints to resume runs as printed.
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'svc'), `#!/bin/sh\nexec '${process.execPath}' --conditions=source --import '${tsx}' '${main}' "$@"\n`);
    chmodSync(join(bin, 'svc'), 0o755);
    // The proxy is the service; the sandbox.json gives the default flow (the capturable one).
    env = {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      XDG_CONFIG_HOME: join(dir, 'config'),
      SVC_BASE_URL: proxy.url,
      SVC_API_TOKEN: us.sandbox.api_token,
      SVC_DATA_DIR: us.dataDir,
    };
  });
  after(async () => {
    await proxy?.close();
    await cells?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends 4 dry-run chunks then 4 chunks of at most 5,000 rows, reports each refusal by row, and creates nothing on a second run', async () => {
    const file = csv('people.csv', 'bulk', {
      11: set(0, 'not-an-email'), // the service: invalid_row
      21: set(4, 'maybe'), // before sending: unknown_decision_value
      31: set(6, 'no'), // the service: a contract purpose cannot be declined
      41: set(3, 'DE'), // the service: homed in the other cell
      51: (c) => [...c.slice(0, 4), 'yes', c[5], c[6], 'yes'].join(','), // the service: a consent shown ticked
      61: (c) => `${c.join(',')},surplus`, // before sending: one field too many
    });
    const before = await records();
    const started = forwarded.length;

    const first = await sh(`svc records import ${file} --map ${MAP} --json`).done;
    assert.equal(first.code, 0, first.stderr);
    const sent = forwarded.slice(started);
    assert.deepEqual(
      sent.map((f) => f.dryRun),
      [true, true, true, true, false, false, false, false],
    );
    assert.ok(sent.every((f) => f.rows <= 5000));
    assert.equal(
      sent.filter((f) => !f.dryRun).reduce((sum, f) => sum + f.rows, 0),
      ROWS - 2,
      'every row but the two refused before sending',
    );
    const summary = JSON.parse(first.stdout) as Summary;
    assert.deepEqual([summary.created, summary.refused, summary.refused_locally, summary.chunks], [ROWS - 6, 6, 2, 4]);
    assert.equal((await records()) - before, ROWS - 6);

    const report = parse(readFileSync(join(dir, `${file}.refusals.csv`), 'utf8'), { columns: true }) as {
      row: string;
      purpose: string;
      code: string;
      message: string;
    }[];
    assert.deepEqual(
      report.map((r) => [r.row, r.purpose, r.code]),
      [
        ['11', '', 'invalid_row'],
        ['21', 'newsletter', 'unknown_decision_value'],
        ['31', 'service', 'notice_only_purpose'],
        ['41', '', 'wrong_country'],
        ['51', 'newsletter', 'default_checked'],
        ['61', '', 'unparseable'],
      ],
    );
    assert.match(report[0]!.message, /^subject\.email: /);
    assert.match(report[3]!.message, /homed in DE/);

    const again = await sh(`svc records import ${file} --map ${MAP} --json`).done;
    assert.equal(again.code, 0, again.stderr);
    const second = JSON.parse(again.stdout) as Summary;
    assert.deepEqual([second.created, second.existing, second.refused], [0, ROWS - 6, 6]);
    assert.equal((await records()) - before, ROWS - 6, 'the second run created no record');
  });

  it('stops after the chunk in flight on Ctrl-C, prints the command to resume, and that command imports every row exactly once', async () => {
    const file = csv('resume.csv', 'resume', { 100: set(5, 'sometimes') });
    const good = ROWS - 1;
    const before = await records();
    const started = forwarded.length;
    // The second real chunk waits at the proxy until svc has said it is stopping: Ctrl-C lands while it is in flight.
    let arrived!: () => void;
    const secondChunk = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    hold = async (index) => {
      if (forwarded.slice(started, index + 1).filter((f) => !f.dryRun).length === 2) {
        arrived();
        await released;
      }
    };

    const running = sh(`svc records import ${file} --map ${MAP} --json`);
    await secondChunk;
    running.signal('SIGINT');
    const stopping = JSON.parse(await running.stderrLine((l) => l.includes('"event":"stopping"'))) as {
      first_row: number;
      last_row: number;
    };
    assert.deepEqual(
      [stopping.first_row, stopping.last_row],
      [5003, 10002],
      'the chunk in flight: rows 5,003 to 10,002 (row 100 was refused before sending)',
    );
    release();
    const stopped = await running.done;
    hold = undefined;
    assert.equal(stopped.code, 130, stopped.stderr);
    const interrupted = JSON.parse(stopped.stdout) as Summary;
    assert.deepEqual([interrupted.interrupted, interrupted.rows_sent, interrupted.next_row], [true, 10_000, 10_003]);
    assert.deepEqual(
      forwarded.slice(started).map((f) => f.dryRun),
      [true, true, true, true, false, false],
      'no chunk after the one in flight',
    );
    assert.equal((await records()) - before, 10_000);
    assert.equal(interrupted.resume_command, `svc records import ${file} --map ${MAP} --from-row 10003 --no-dry-run --json`);

    const resumed = await sh(interrupted.resume_command!).done;
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.deepEqual(
      forwarded.slice(started).map((f) => f.dryRun),
      [true, true, true, true, false, false, false, false],
    );
    assert.equal((JSON.parse(resumed.stdout) as Summary).created, ROWS + 1 - 10_002, 'rows 10,003 to 20,001');
    assert.equal((await records()) - before, good);

    // Every good row has its record, found by its key, and there are no more records than good rows: each exactly once.
    const check = await sh(`svc records import ${file} --map ${MAP} --dry-run --json`).done;
    const dryRun = (JSON.parse(check.stdout) as Summary).dry_run!;
    assert.deepEqual([dryRun.accepted, dryRun.existing, dryRun.refused], [good, good, 1]);
  });
});
