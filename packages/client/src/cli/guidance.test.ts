// What `svc` says when a command line, a file or the service is not what it expected, word for word: the close
// match of a mistyped command or flag, `svc <group> --help`, an import file that is missing, a directory, binary or
// split by another delimiter, a service that does not answer, and the line `escalations wait` prints at once.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { SvcClient } from '../lib/client.js';
import { runSvc } from '../testing/cli.test.helper.js';
import { escalationOf } from '../testing/delegations.test.helper.js';
import { closedPort, startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { commands, duration } from './commands.js';
import type { CliConfig } from './config.js';
import { unreachableHint } from './hints.js';
import { binaryKind, unreadable } from './import-file.js';
import { closest, editDistance } from './suggest.js';

const scratch = mkdtempSync(join(tmpdir(), 'svc-guidance-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Bytes that look like noise, the same on every run (no unseeded randomness in tests). */
const noiseBytes = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 197 + 89) % 251));

describe('svc on a command line it cannot run', () => {
  // Nothing here reaches a service: the command line is refused first.
  const svc = (...argv: string[]) => runSvc(argv, {}, scratch);
  const cases: [string, string[], string][] = [
    [
      'a mistyped group and command',
      ['recrods', 'gte', 'cr_1'],
      'unknown command "recrods gte"; did you mean svc records get? See svc records --help',
    ],
    [
      'a mistyped command of a group',
      ['tokens', 'lst'],
      'unknown command "tokens lst"; did you mean svc tokens list? See svc tokens --help',
    ],
    ['a mistyped group alone', ['tokns'], 'unknown command "tokns"; did you mean svc tokens? See svc tokens --help'],
    [
      'a mistyped one-word command',
      ['stauts', '--email', 'a@example.com'],
      'unknown command "stauts"; did you mean svc status? See svc status --help',
    ],
    ['a group without its command', ['tokens'], 'tokens needs a command (list, create, rotate, delete); see svc tokens --help'],
    [
      'a command the group lacks',
      ['tokens', 'frobnicate'],
      'unknown command "tokens frobnicate"; svc tokens takes list, create, rotate, delete; see svc tokens --help',
    ],
    ['a word close to nothing', ['frobnicate'], 'unknown command "frobnicate"; run svc --help'],
    [
      'a mistyped flag',
      ['tokens', 'list', '--limt', '3'],
      "Unknown option '--limt'; did you mean --limit? usage: svc tokens list [--limit <n>]",
    ],
    [
      'a mistyped global flag',
      ['tokens', 'list', '--jsno'],
      "Unknown option '--jsno'; did you mean --json? usage: svc tokens list [--limit <n>]",
    ],
    ['a flag close to nothing', ['tokens', 'list', '--colour'], "Unknown option '--colour'; usage: svc tokens list [--limit <n>]"],
  ];
  for (const [what, argv, message] of cases) {
    it(`says what was meant for ${what} (exit 2)`, async () => {
      const { code, stdout, stderr } = await svc(...argv);
      assert.equal(stderr, `svc: ${message}\n`);
      assert.equal(code, 2);
      assert.equal(stdout, '');
    });
  }

  it('says it in one JSON line under --json', async () => {
    const { code, stderr } = await svc('tokns', '--json');
    assert.equal(code, 2);
    assert.deepEqual(JSON.parse(stderr), { error: { message: 'unknown command "tokns"; did you mean svc tokens? See svc tokens --help' } });
  });

  it('suggests the flag an import meant', async () => {
    const { code, stderr } = await svc('records', 'import', 'people.csv', '--delimter', ';');
    assert.equal(code, 2);
    assert.match(stderr, /^svc: Unknown option '--delimter'; did you mean --delimiter\? usage: svc records import <file> /);
  });

  it('counts a swap of two letters as one edit, and suggests nothing when two matches are as close', () => {
    assert.equal(editDistance('recrods', 'records'), 1);
    assert.equal(editDistance('', 'abc'), 3);
    assert.equal(closest('rec', ['records', 'receipts']), undefined);
    assert.equal(closest('aple', ['apps', 'ape']), 'ape');
    assert.equal(closest('transfer', ['transfers', 'transfer-register']), 'transfers');
  });
});

describe('svc records import on a file it cannot read as text', () => {
  let server: TestServer;
  let env: Record<string, string>;
  const file = (name: string, content: string | Buffer) => {
    writeFileSync(join(scratch, name), content);
    return name;
  };
  const svc = (...argv: string[]) => runSvc(['records', 'import', ...argv], env, scratch);
  before(async () => {
    server = await startTestServer();
    env = { SVC_DATA_DIR: server.dataDir };
  });
  after(() => server.dispose());

  const refused = async (argv: string[], message: string) => {
    const { code, stdout, stderr } = await svc(...argv);
    assert.equal(stderr, `svc: ${message}\n`);
    assert.equal(code, 2);
    assert.equal(stdout, '');
  };

  it('names a missing file and a directory', async () => {
    await refused(['missing.csv'], 'cannot read missing.csv: there is no such file');
    mkdirSync(join(scratch, 'exports'));
    await refused(['exports'], 'cannot read exports: it is a directory; pass a CSV or JSON Lines file');
  });

  it('words the system errors it knows (permission denied, even where the tests run as root)', () => {
    const denied = Object.assign(new Error("EACCES: permission denied, open 'secret.csv'"), { code: 'EACCES' });
    assert.equal(unreadable('secret.csv', denied).message, 'cannot read secret.csv: permission denied (check its mode, e.g. ls -l)');
    const busy = Object.assign(new Error('EBUSY: resource busy'), { code: 'EBUSY' });
    assert.equal(unreadable('a.csv', busy).message, 'cannot read a.csv: EBUSY: resource busy');
  });

  it('refuses a binary file by what it is, without a stack trace (it crashed with CsvError: Invalid Opening Quote)', async () => {
    const noise = Buffer.concat([Buffer.from('"'), noiseBytes(4096), Buffer.from([0])]);
    await refused(
      [file('noise.csv', noise)],
      'noise.csv is binary (it holds NUL bytes), not a CSV or JSON Lines file: export or save it as CSV (UTF-8) first',
    );
    await refused(
      [file('contacts.csv', Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), noiseBytes(512)]))],
      'contacts.csv is a ZIP archive (an Excel .xlsx workbook is one), not a CSV or JSON Lines file: export or save it as CSV (UTF-8) first',
    );
    await refused(
      [file('unicode.txt', Buffer.from('\uFEFFemail\tcaptured_at\n', 'utf16le'))],
      'unicode.txt is UTF-16 text, not a CSV or JSON Lines file: export or save it as CSV (UTF-8) first',
    );
    const json = await svc(file('noise.jsonl', noise), '--json');
    assert.equal(json.code, 2);
    assert.match((JSON.parse(json.stderr) as { error: { message: string } }).error.message, /^noise\.jsonl is binary/);
    assert.equal(binaryKind(Buffer.from('email,captured_at\r\na@example.com,2024-01-01\n')), undefined);
  });

  it('refuses a text file that is not valid CSV by its line, without a stack trace', async () => {
    const name = file('quotes.csv', 'email,captured_at,newsletter\na@example.com,2024-01-01,"yes"no\n');
    const { code, stderr } = await svc(name);
    assert.equal(code, 2);
    assert.equal(
      stderr,
      `svc: ${join(scratch, name)} is not valid CSV at line 2: Invalid Closing Quote: got "n" at line 2 instead of delimiter, record delimiter, trimable character (if activated) or comment\n`,
    );
  });

  it('says which --delimiter to pass for a header split by semicolons or tabs', async () => {
    const rows = (d: string) => [['Email', 'Date', 'newsletter'].join(d), ['a@example.com', '2024-01-01', 'yes'].join(d)].join('\r\n');
    await refused(
      [file('semicolons.csv', rows(';'))],
      'semicolons.csv looks separated by semicolons, not commas (its header: "Email;Date;newsletter"): pass --delimiter \';\'',
    );
    await refused(
      [file('tabs.csv', rows('\t'))],
      'tabs.csv looks separated by tabs, not commas (its header: "Email\\tDate\\tnewsletter"): pass --delimiter \'\\t\'',
    );
    await refused(
      [file('commas.csv', rows(',')), '--delimiter', ';'],
      'commas.csv looks separated by commas, not semicolons (its header: "Email,Date,newsletter"): pass --delimiter \',\'',
    );
    // With the delimiter it names, the file is read (and refused only for its mapping, which is another matter).
    const right = await svc('semicolons.csv', '--delimiter', ';', '--dry-run');
    assert.equal(
      right.stderr,
      'svc: map captured_at to a column (e.g. --map captured_at=SignupDate): an import needs when each decision was made\n',
    );
  });
});

describe('svc when the service does not answer', () => {
  let port: number;
  before(async () => {
    port = await closedPort();
  });

  it('names the URL it tried and where it came from, and says to run pnpm start', async () => {
    const { code, stderr } = await runSvc(['me'], { SVC_BASE_URL: `http://127.0.0.1:${port}`, SVC_API_TOKEN: 'x' }, scratch);
    assert.equal(code, 1);
    assert.equal(
      stderr,
      `svc: GET /api/v1/me got no response: fetch failed (ECONNREFUSED); nothing answered at http://127.0.0.1:${port} (SVC_BASE_URL): ` +
        'start the reference server with pnpm start (in the svc-sdk checkout), or set SVC_BASE_URL to a running service\n',
    );
  });

  it('names the sandbox.json a stopped reference server left, and the URL under --json', async () => {
    const dataDir = join(scratch, 'stale');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'sandbox.json'), JSON.stringify({ base_url: `http://localhost:${port}`, api_token: 'x' }));
    const human = await runSvc(['tokens', 'list'], { SVC_DATA_DIR: dataDir }, scratch);
    assert.equal(human.code, 1);
    assert.match(
      human.stderr,
      new RegExp(
        `; nothing answered at http://localhost:${port} \\(base_url of ${join(dataDir, 'sandbox.json').replaceAll('/', '\\/')}\\): start the reference server with pnpm start`,
      ),
    );
    const json = await runSvc(['tokens', 'list', '--json'], { SVC_DATA_DIR: dataDir }, scratch);
    const { error } = JSON.parse(json.stderr) as { error: { code: string; base_url: string } };
    assert.equal(error.code, 'ERR_SVC_NETWORK');
    assert.equal(error.base_url, `http://localhost:${port}`);
  });

  it('says to check the URL of a service elsewhere', () => {
    assert.equal(
      unreachableHint('https://api.example.com/api/v1/me', { baseUrl: 'https://api.example.com', from: 'SVC_BASE_URL' }),
      '; nothing answered at https://api.example.com (SVC_BASE_URL): check that URL, or set SVC_BASE_URL to a running service',
    );
  });
});

describe('svc escalations wait', () => {
  const config = { baseUrl: 'http://127.0.0.1:1' } as CliConfig;
  /** Runs the command with a stand-in client, keeping stderr as written and what it held when the wait began. */
  async function wait(flags: Record<string, string | boolean>) {
    let stderr = '';
    let whenWaiting: string | undefined;
    const svc = {
      escalations: {
        waitFor: async () => {
          whenWaiting = stderr;
          return escalationOf({ status: 'approved' });
        },
      },
    } as unknown as SvcClient;
    const io = { env: {}, cwd: scratch, stdout: () => {}, stderr: (text: string) => void (stderr += text) };
    await commands['escalations wait']!.run(svc, { args: ['esc_Ab12'], flags, config }, io);
    return { stderr, whenWaiting };
  }

  it('says at once, on stderr, what it waits for and for how long', async () => {
    const line = 'Waiting for escalation esc_Ab12 to be decided (timeout 5m; Ctrl-C to stop)...\n';
    assert.deepEqual(await wait({ timeout: '300' }), { stderr: line, whenWaiting: line });
    assert.equal((await wait({})).stderr, 'Waiting for escalation esc_Ab12 to be decided (no timeout; Ctrl-C to stop)...\n');
    assert.deepEqual(JSON.parse((await wait({ timeout: '90', json: true })).stderr), {
      event: 'waiting',
      escalation_id: 'esc_Ab12',
      timeout_seconds: 90,
    });
    assert.deepEqual(
      [0.5, 20, 90, 300, 3600, 3725].map((s) => duration(s * 1000)),
      ['0.5s', '20s', '1m30s', '5m', '1h', '1h2m5s'],
    );
  });
});
