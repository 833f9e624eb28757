// The `svc` command line, spawned as a process against a running reference server.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { closedPort, startTestServer, type TestServer } from '../testing/servers.test.helper.js';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
// Resolved here so the command line also runs from directories that have no node_modules of their own.
const tsx = import.meta.resolve('tsx');

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function svc(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<Result> {
  // Only what the command line reads: a developer's own SVC_* variables must not leak into the test.
  const env = { PATH: process.env.PATH ?? '', ...options.env };
  return new Promise((resolve) => {
    execFile(process.execPath, ['--conditions=source', '--import', tsx, main, ...args], { env, cwd: options.cwd ?? tmpdir() }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

// Each case spawns a process; they share one server and touch disjoint data, so they run side by side.
describe('svc command line', { concurrency: 4 }, () => {
  let server: TestServer;
  let env: Record<string, string>;
  let empty: string;

  before(async () => {
    server = await startTestServer();
    env = { SVC_BASE_URL: server.url, SVC_API_TOKEN: server.sandbox.api_token };
    empty = mkdtempSync(join(tmpdir(), 'svc-cli-'));
  });
  after(async () => {
    rmSync(empty, { recursive: true, force: true });
    await server.dispose();
  });

  it('prints help and exits 0', async () => {
    const { code, stdout } = await svc(['--help']);
    assert.equal(code, 0);
    assert.match(stdout, /^Usage: svc <command>/);
    assert.match(stdout, /decisions create/);
  });

  it('prints the identity as JSON from SVC_BASE_URL and SVC_API_TOKEN', async () => {
    const { code, stdout, stderr } = await svc(['me', '--json'], { env });
    assert.equal(code, 0, stderr);
    const me = JSON.parse(stdout) as { kind: string; api_token: { name: string } };
    assert.equal(me.kind, 'api_token');
    assert.equal(me.api_token.name, 'Sandbox admin');
  });

  it('reads sandbox.json from SVC_DATA_DIR and prints for people', async () => {
    const { code, stdout } = await svc(['me'], { env: { SVC_DATA_DIR: server.dataDir } });
    assert.equal(code, 0);
    assert.match(stdout, /^account\s+Sandbox \(acct_\w+\)$/m);
    assert.match(stdout, /^permissions\s+read, write, admin$/m);
  });

  it('reads .svc/sandbox.json in the current directory', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-cwd-'));
    try {
      mkdirSync(join(cwd, '.svc'));
      cpSync(join(server.dataDir, 'sandbox.json'), join(cwd, '.svc', 'sandbox.json'));
      const { code, stdout } = await svc(['flows', 'list'], { cwd });
      assert.equal(code, 0);
      assert.match(stdout, /^ID\s+STATUS\s+VERSION\s+TITLE$/m);
      assert.ok(stdout.includes(server.sandbox.flow_id!));
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('creates, lists and deletes an API token', async () => {
    const created = await svc(['tokens', 'create', '--name', 'ci', '--permissions', 'read,write', '--json'], { env });
    assert.equal(created.code, 0, created.stderr);
    const token = JSON.parse(created.stdout) as { id: string; token: string; permissions: string[] };
    assert.deepEqual(token.permissions, ['read', 'write']);

    const listed = await svc(['tokens', 'list'], { env });
    assert.match(listed.stdout, new RegExp(`^${token.id}\\s+ci\\s+read,write\\b`, 'm'));

    const human = await svc(['tokens', 'create', '--name', 'shown'], { env });
    assert.match(human.stdout, /Token \(shown once, store it now\):\n\S{40,}\n$/);

    assert.equal((await svc(['tokens', 'delete', token.id], { env })).stdout, `Revoked ${token.id}.\n`);
  });

  it('creates a decision on the sandbox flow and reads it back', async () => {
    const created = await svc(['decisions', 'create', '--json'], { env: { SVC_DATA_DIR: server.dataDir } });
    assert.equal(created.code, 0, created.stderr);
    const decision = JSON.parse(created.stdout) as { session_token: string; flow_id: string; delivery_mode: string };
    assert.equal(decision.flow_id, server.sandbox.flow_id);
    assert.equal(decision.delivery_mode, 'redirect');

    const read = await svc(['decisions', 'get', decision.session_token], { env });
    assert.equal(read.code, 0);
    assert.match(read.stdout, /^status\s+pending$/m);
    assert.match(read.stdout, new RegExp(`^session token\\s+${decision.session_token}$`, 'm'));
  });

  it('verifies a consent token', async () => {
    const { code, stdout } = await svc(['verify', 'never-issued', '--json'], { env });
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(stdout), { valid: false, status: 'invalid', expires_at: null });
  });

  it('exits 1 with one line on stderr when the API refuses', async () => {
    const { code, stdout, stderr } = await svc(['decisions', 'create', '--mode', 'embed', '--embed-origin', 'https://elsewhere.example'], {
      env: { SVC_DATA_DIR: server.dataDir },
    });
    assert.equal(code, 1);
    assert.equal(stdout, '');
    assert.match(stderr, /^svc: .+ \(422 POST \/api\/v1\/decisions\)\n$/);
  });

  it('exits 1 for a rejected credential, with a JSON error line under --json', async () => {
    const human = await svc(['me'], { env: { ...env, SVC_API_TOKEN: 'wrong' } });
    assert.equal(human.code, 1);
    assert.equal(human.stderr, 'svc: The API token is not valid. (401 GET /api/v1/me)\n');

    const json = await svc(['me', '--json'], { env: { ...env, SVC_API_TOKEN: 'wrong' } });
    assert.equal(json.code, 1);
    const { error } = JSON.parse(json.stderr) as { error: { code: string; status: number } };
    assert.equal(error.code, 'ERR_SVC_AUTHENTICATION');
    assert.equal(error.status, 401);
  });

  it('exits 1 when the service cannot be reached', async () => {
    const port = await closedPort();
    const { code, stderr } = await svc(['me'], { env: { SVC_BASE_URL: `http://127.0.0.1:${port}`, SVC_API_TOKEN: 'x' } });
    assert.equal(code, 1);
    assert.match(stderr, /^svc: GET \/api\/v1\/me got no response: fetch failed \(ECONNREFUSED\)\n$/);
  });

  const usage: [string, string[], RegExp][] = [
    ['an unknown command', ['frobnicate'], /^svc: unknown command "frobnicate"; run svc --help\n$/],
    ['a missing flag', ['tokens', 'create'], /^svc: tokens create needs --name <name>\n$/],
    ['an unknown flag', ['tokens', 'list', '--colour'], /^svc: Unknown option '--colour'; usage: svc tokens list/],
    ['a missing argument', ['decisions', 'get'], /^svc: usage: svc decisions get <session_token>\n$/],
    ['bad permissions', ['tokens', 'create', '--name', 'x', '--permissions', 'root'], /--permissions takes a comma-separated list/],
  ];
  for (const [what, args, message] of usage) {
    it(`exits 2 for ${what}`, async () => {
      const { code, stderr } = await svc(args, { env });
      assert.equal(code, 2);
      assert.match(stderr, message);
    });
  }

  it('exits 2 with a hint when there is no configuration', async () => {
    const { code, stderr } = await svc(['me'], { cwd: empty });
    assert.equal(code, 2);
    assert.match(stderr, /^svc: no base URL: set SVC_BASE_URL and SVC_API_TOKEN, or start the reference server/);
  });
});
