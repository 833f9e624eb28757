// `svc records import` on small files, run in this process against a reference server: the mapping (by name, by
// --map, by a mapping file), the rows refused before sending, content-derived keys (a fixed row is imported on the
// next run and nothing else twice), --dry-run, --from-row, usage errors and the three kinds of progress output.
// The 20,000-row import, its chunks and Ctrl-C are in import-bulk.test.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { runSvc } from '../testing/cli.test.helper.js';
import { json as answer, loopback, startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { capturedAt } from './import.js';
import { run } from './run.js';

interface Summary {
  created: number;
  existing: number;
  refused: number;
  refused_locally: number;
  chunks: number;
  import_ids: string[];
  dry_run: { accepted: number; existing: number; refused: number; chunks: number } | null;
  report: string;
}

/** The refusal report as `row purpose code` lines (the message is checked where it matters). */
const reportOf = (path: string) =>
  parse(readFileSync(path, 'utf8'), { columns: true }) as { row: string; purpose: string; code: string; message: string }[];

describe('svc records import', () => {
  let server: TestServer;
  let dir: string;
  let env: Record<string, string>;
  let files = 0;
  /** A file in the scratch directory with a fresh name (people are fresh per file too, see `person`). */
  const write = (extension: string, text: string) => {
    const name = `import-${++files}.${extension}`;
    writeFileSync(join(dir, name), text);
    return name;
  };
  const person = (n: number) => `p${n}-f${files + 1}-${process.pid}@example.com`;
  const svc = (...argv: string[]) => runSvc(['records', 'import', ...argv], env, dir);
  const summaryOf = (stdout: string) => JSON.parse(stdout) as Summary;

  before(async () => {
    server = await startTestServer();
    dir = mkdtempSync(join(tmpdir(), 'svc-import-'));
    // The sandbox's sandbox.json: its base URL, API token and capturable flow (newsletter, analytics, service).
    env = { SVC_DATA_DIR: server.dataDir };
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await server.dispose();
  });

  it("reads JSON Lines by the flow's own names, takes an import row as it is, and refuses what it cannot read by line", async () => {
    const file = write(
      'jsonl',
      [
        // A byte order mark, as some editors write.
        '\uFEFF' + JSON.stringify({ email: person(1), captured_at: '2024-03-01', newsletter: true, analytics: 'no', shoe_size: 42 }),
        JSON.stringify({
          subject: { email: person(2) },
          decisions: { newsletter: { decision: 'declined' } },
          captured_at: '2024-03-02T10:00:00Z',
        }),
        '',
        '{"email": "broken',
        JSON.stringify({ email: person(3), captured_at: '2024-03-03', newsletter: 'perhaps' }),
        JSON.stringify({ email: person(4), captured_at: '2024-03-04', newsletter: 1 }),
      ].join('\n'),
    );
    const { code, stdout, stderr } = await svc(file, '--json');
    assert.equal(code, 0, stderr);
    const summary = summaryOf(stdout);
    assert.equal(summary.created, 3);
    assert.equal(summary.refused, 2);
    assert.equal(summary.refused_locally, 2);
    const plan = stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { event?: string; mapping?: string[]; ignored_columns?: string[] })
      .find((e) => e.event === 'plan')!;
    assert.deepEqual(plan.mapping, ['email=email', 'captured_at=captured_at', 'newsletter=newsletter', 'analytics=analytics']);
    assert.deepEqual(plan.ignored_columns, ['shoe_size']);
    const report = reportOf(join(dir, `${file}.refusals.csv`));
    assert.deepEqual(
      report.map((r) => [r.row, r.purpose, r.code]),
      [
        ['4', '', 'unparseable'],
        ['5', 'newsletter', 'unknown_decision_value'],
      ],
    );
    assert.match(report[1]!.message, /"perhaps" \(column newsletter\) is neither granted/);
  });

  it('maps columns with a mapping file: its own decision words, a delimiter, and a column that says a consent was required', async () => {
    const mapping = write(
      'json',
      JSON.stringify({
        email: 'Courriel',
        captured_at: 'Date',
        purposes: { newsletter: { column: 'Lettre', mandatory: 'Obligatoire' }, analytics: 'Mesure' },
        values: { granted: ['oui'], declined: ['non'] },
      }),
    );
    const file = write(
      'csv',
      [
        'Courriel;Date;Lettre;Obligatoire;Mesure',
        `${person(1)};2024-03-01 09:30;oui;non;non`,
        `${person(2)};2024-03-02;OUI;oui;oui`,
        `${person(3)};2024-03-02;non;;oui`,
      ].join('\r\n'),
    );
    const { code, stdout, stderr } = await svc(file, '--mapping', mapping, '--delimiter', ';', '--report', 'mandatory.csv', '--json');
    assert.equal(code, 0, stderr);
    const summary = summaryOf(stdout);
    assert.equal(summary.created, 2);
    assert.equal(summary.report, join(dir, 'mandatory.csv'));
    assert.deepEqual(
      reportOf(summary.report).map((r) => [r.row, r.purpose, r.code]),
      [['3', 'newsletter', 'mandatory']],
    );
  });

  it('imports a row fixed after a first run, and nothing else a second time (each key comes from the row itself)', async () => {
    const rows = [1, 2, 3].map((n) => `${person(n)},2024-03-0${n},${n === 2 ? 'maybe' : 'yes'}`);
    const text = (lines: string[]) => ['Email,Signed up,News', ...lines].join('\n');
    const file = write('csv', text(rows));
    const map = ['--map', 'email=Email,captured_at=Signed up,newsletter=News'];

    const dry = await svc(file, ...map, '--dry-run', '--json');
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual(summaryOf(dry.stdout).dry_run, { accepted: 2, existing: 0, refused: 1, chunks: 1 });
    assert.equal(summaryOf(dry.stdout).created, 0);

    const first = await svc(file, ...map, '--json');
    assert.equal(first.code, 0, first.stderr);
    assert.equal(summaryOf(first.stdout).created, 2, 'the dry run wrote nothing');
    assert.deepEqual(
      reportOf(join(dir, `${file}.refusals.csv`)).map((r) => [r.row, r.code]),
      [['3', 'unknown_decision_value']],
    );

    writeFileSync(join(dir, file), text([rows[0]!, rows[1]!.replace('maybe', 'no'), rows[2]!]));
    const second = await svc(file, ...map, '--json');
    assert.equal(second.code, 0, second.stderr);
    const summary = summaryOf(second.stdout);
    assert.deepEqual([summary.created, summary.existing, summary.refused], [1, 2, 0]);
    assert.deepEqual(reportOf(join(dir, `${file}.refusals.csv`)), [], 'the report of this run has no refusal left');
  });

  it('starts at --from-row, numbering rows as lines of the file', async () => {
    const file = write('csv', ['email,captured_at,newsletter', ...[1, 2, 3, 4].map((n) => `${person(n)},2024-03-01,yes`)].join('\n'));
    const later = await svc(file, '--from-row', '4', '--no-dry-run', '--json');
    assert.equal(later.code, 0, later.stderr);
    assert.deepEqual([summaryOf(later.stdout).created, summaryOf(later.stdout).dry_run], [2, null]);
    const all = await svc(file, '--json');
    assert.deepEqual([summaryOf(all.stdout).created, summaryOf(all.stdout).existing], [2, 2]);
    const beyond = await svc(file, '--from-row', '9');
    assert.equal(beyond.code, 2);
    assert.match(beyond.stderr, /has no rows from row 9 \(its last row is 5\)/);
  });

  it('refuses a mapping that names a column the file lacks or a purpose the flow lacks, before sending anything', async () => {
    const file = write('csv', `Email,When,News\n${person(1)},2024-03-01,yes\n`);
    const cases: [string[], RegExp][] = [
      [['--map', 'email=Email,captured_at=Signup,newsletter=News'], /no column "Signup" in the file; its columns: Email, When, News/],
      [
        ['--map', 'email=Email,captured_at=When,newsleter=News'],
        /the flow has no purpose "newsleter"; its purposes: newsletter, analytics, service/,
      ],
      [['--map', 'email=Email,newsletter=News'], /map captured_at to a column/],
      [['--map', 'email=Email,captured_at=When,newsletter.default_checked=News'], /map the decision of newsletter too/],
      [['--dry-run', '--no-dry-run'], /--dry-run and --no-dry-run contradict each other/],
      [['--chunk-size', '5001'], /--chunk-size is a whole number from 1 to 5,000/],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await svc(file, ...args);
      assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
      assert.match(stderr, message);
    }
    const unknownFormat = await svc(write('xlsx', 'not a CSV'));
    assert.match(unknownFormat.stderr, /cannot tell the format of .*: pass --format csv or --format jsonl/);
    const missing = await svc('nowhere.csv');
    assert.equal(missing.stderr, 'svc: cannot read nowhere.csv: there is no such file\n');
    const quote = await svc(write('csv', `email,captured_at,newsletter\n"${person(1)},2024-03-01,yes\n`));
    assert.equal(quote.code, 2);
    assert.match(quote.stderr, /is not valid CSV at line \d/);
  });

  it('stops before the real run when the dry run accepts no row', async () => {
    const file = write('csv', `email,captured_at,service\n${person(1)},2024-03-01,no\n`);
    const { code, stdout } = await svc(file);
    assert.equal(code, 1);
    assert.match(stdout, /The dry run accepted no row, so nothing was imported/);
    assert.match(stdout, /^created {8}0$/m);
  });

  describe('under an import allowance', () => {
    // The reference server reads SVC_IMPORT_ALLOWANCE at each import (it runs in this process). Its allowance counts
    // the records imports have made, so `left` is set over what a dry run (which writes nothing) reports as used.
    const allowance = async (left: number) => {
      process.env.SVC_IMPORT_ALLOWANCE = '1000000';
      const probe = await svc(write('csv', `email,captured_at,newsletter\n${person(1)},2024-03-01,yes\n`), '--dry-run', '--json');
      const used = 1_000_000 - (JSON.parse(probe.stdout) as { allowance: { remaining: number } }).allowance.remaining;
      process.env.SVC_IMPORT_ALLOWANCE = String(used + left);
    };
    after(() => {
      delete process.env.SVC_IMPORT_ALLOWANCE;
    });
    const fourRows = () =>
      write('csv', ['email,captured_at,newsletter', ...[1, 2, 3, 4].map((n) => `${person(n)},2024-03-01,yes`)].join('\n'));

    it('writes nothing when the dry run shows the file would exceed it', async () => {
      await allowance(3);
      const file = fourRows();
      const { code, stdout } = await svc(file);
      assert.equal(code, 1);
      assert.match(stdout, /The import would create 4 records and the import allowance has 3 left: nothing was imported\./);
      await allowance(4);
      assert.equal(summaryOf((await svc(file, '--json')).stdout).created, 4, 'the first run wrote nothing');
    });

    it('stops at a chunk the service fails, and prints the command that resumes after the chunks it took', async () => {
      await allowance(3);
      const file = fourRows();
      const { code, stdout } = await svc(file, '--no-dry-run', '--chunk-size', '2');
      assert.equal(code, 1);
      assert.match(stdout, /^created {8}2$/m);
      assert.match(
        stdout,
        /The import failed: allowance_exceeded: the import has 2 rows and the allowance has 1 left; nothing was written\. Resume with:\n {2}svc records import \S+ --chunk-size 2 --from-row 4 --no-dry-run$/m,
      );
    });
  });

  it('stops at a chunk the API refuses as a whole, saying how many rows were imported and how to resume', async () => {
    // The service, except that the second import request is answered 400.
    let imports = 0;
    const stub = await loopback(async (req, res) => {
      if (req.method === 'POST' && req.url === '/api/v1/consent_records/imports' && ++imports === 2) {
        answer(res, 400, { message: 'Something is wrong with this chunk.', code: 'bad_request', errors: [] });
        return;
      }
      const forwarded = await fetch(server.url + req.url, {
        method: req.method,
        headers: { authorization: String(req.headers.authorization), 'content-type': 'application/json' },
        ...(req.body && { body: req.body }),
      });
      answer(res, forwarded.status, await forwarded.json());
    });
    try {
      const file = write('csv', ['email,captured_at,newsletter', ...[1, 2, 3, 4].map((n) => `${person(n)},2024-03-01,yes`)].join('\n'));
      const stubEnv = { ...env, SVC_BASE_URL: stub.url, SVC_API_TOKEN: server.sandbox.api_token };
      const { code, stdout, stderr } = await runSvc(['records', 'import', file, '--no-dry-run', '--chunk-size', '2'], stubEnv, dir);
      assert.equal(code, 1);
      assert.equal(stdout, '');
      assert.equal(
        stderr
          .split('\n')
          .filter((l) => l.startsWith('svc:'))
          .slice(-2)
          .join('\n'),
        `svc: 2 rows were imported before this error; the refusals so far are in ${join(dir, `${file}.refusals.csv`)}. ` +
          `Resume with: svc records import ${file} --chunk-size 2 --from-row 4 --no-dry-run\n` +
          'svc: Something is wrong with this chunk. (400 POST /api/v1/consent_records/imports)',
      );
      const resumed = await svc(file, '--chunk-size', '2', '--from-row', '4', '--no-dry-run', '--json');
      assert.equal(summaryOf(resumed.stdout).created, 2);
    } finally {
      await stub.close();
    }
  });

  it('stops on Ctrl-C during the dry run before the next chunk, having written nothing, and says to run the same command again', async () => {
    const file = write('csv', ['email,captured_at,newsletter', ...[1, 2, 3].map((n) => `${person(n)},2024-03-01,yes`)].join('\n'));
    let stdout = '';
    let stderr = '';
    const listeners = process.listenerCount('SIGINT');
    const code = await run(['records', 'import', file, '--chunk-size', '1'], {
      env,
      cwd: dir,
      stdout: (t) => {
        stdout += t;
      },
      // Ctrl-C as the first chunk's answer is reported.
      stderr: (t) => {
        stderr += t;
        if (t.startsWith('dry run: chunk 1,')) process.emit('SIGINT', 'SIGINT');
      },
    });
    assert.equal(code, 130, stderr);
    assert.match(stderr, /^svc: stopping before the next chunk; Ctrl-C again to stop at once$/m);
    assert.equal(stderr.split('\n').filter((l) => / chunk \d/.test(l)).length, 1);
    assert.ok(
      stdout.endsWith(
        `Interrupted during the dry run: nothing was written. Run the same command again:\n  svc records import ${file} --chunk-size 1\n`,
      ),
      stdout,
    );
    assert.equal(process.listenerCount('SIGINT'), listeners, 'the handler is gone once the command ends');
    const again = await svc(file, '--json');
    assert.equal(summaryOf(again.stdout).created, 3);
  });

  describe('progress', () => {
    const fiveRows = () =>
      write('csv', ['email,captured_at,newsletter', ...[1, 2, 3, 4, 5].map((n) => `${person(n)},2024-03-01,yes`)].join('\n'));

    it('writes a line per chunk on stderr, and the summary alone on stdout', async () => {
      const { code, stdout, stderr } = await svc(fiveRows(), '--chunk-size', '2');
      assert.equal(code, 0, stderr);
      const chunks = stderr.split('\n').filter((l) => / chunk \d/.test(l));
      assert.deepEqual(
        chunks.map((l) => l.replace(/; \d.*$/, '')),
        [
          'dry run: chunk 1, rows 2-3: 2 would be accepted, 0 refused',
          'dry run: chunk 2, rows 4-5: 2 would be accepted, 0 refused',
          'dry run: chunk 3, rows 6-6: 1 would be accepted, 0 refused',
          'import: chunk 1, rows 2-3: 2 created, 0 already there, 0 refused',
          'import: chunk 2, rows 4-5: 2 created, 0 already there, 0 refused',
          'import: chunk 3, rows 6-6: 1 created, 0 already there, 0 refused',
        ],
      );
      assert.match(chunks[5]!, /; 5\/5 rows, [\d,]+ rows\/s, 0 s left$/);
      assert.match(stdout, /^created {8}5$/m);
      assert.doesNotMatch(stdout, /chunk/);
    });

    it('writes JSON lines with --json', async () => {
      const { stderr } = await svc(fiveRows(), '--chunk-size', '3', '--no-dry-run', '--json');
      const events = stderr
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.deepEqual(
        events.map((e) => e.event ?? Object.keys(e).join()),
        ['plan', 'start', 'chunk', 'chunk', 'country'],
      );
      const last = events[3]!;
      assert.deepEqual(
        [last.phase, last.chunk, last.first_row, last.last_row, last.created, last.done, last.total],
        ['import', 2, 5, 6, 2, 5, 5],
      );
      assert.match(String(last.import_id), /^imp_/);
      assert.equal(typeof last.rows_per_second, 'number');
    });

    it('draws a bar with rows per second and the time left on a terminal', async () => {
      let drawn = '';
      // What cli-progress needs of a TTY: isTTY, columns and the cursor calls readline makes.
      const terminal = Object.assign(
        new Writable({
          write(chunk, _encoding, done) {
            drawn += String(chunk);
            done();
          },
        }),
        {
          isTTY: true,
          columns: 120,
          cursorTo(_x: number, _y?: number, cb?: () => void) {
            cb?.();
            return true;
          },
          moveCursor(_x: number, _y: number, cb?: () => void) {
            cb?.();
            return true;
          },
          clearLine(_dir: number, cb?: () => void) {
            cb?.();
            return true;
          },
          clearScreenDown(cb?: () => void) {
            cb?.();
            return true;
          },
        },
      );
      let stderr = '';
      let stdout = '';
      const code = await run(['records', 'import', fiveRows(), '--chunk-size', '2'], {
        env,
        cwd: dir,
        stdout: (t) => {
          stdout += t;
        },
        stderr: (t) => {
          stderr += t;
        },
        terminal,
      });
      assert.equal(code, 0, stderr);
      assert.match(drawn, /dry run \[[█░]+\] 5\/5 rows \| [\d,]+ rows\/s \| \d+s left/);
      assert.match(drawn, /import {2}\[[█░]+\] 5\/5 rows \| [\d,]+ rows\/s \| \d+s left/);
      assert.doesNotMatch(stderr, /chunk/, 'no progress lines beside the bar');
      assert.match(stdout, /^created {8}5$/m);
    });
  });

  it('reads captured_at as ISO 8601: a date or a time without zone as UTC, an offset as given', () => {
    assert.equal(capturedAt('2024-03-01'), '2024-03-01T00:00:00Z');
    assert.equal(capturedAt('2024-03-01 09:30'), '2024-03-01T09:30:00Z');
    assert.equal(capturedAt('2024-03-01T09:30:15.250+0200'), '2024-03-01T09:30:15.250+02:00');
    assert.equal(capturedAt('2024-03-01T09:30:15z'), '2024-03-01T09:30:15Z');
    assert.equal(capturedAt('03/01/2024'), undefined);
    assert.equal(capturedAt('2024-13-01'), undefined);
  });
});
