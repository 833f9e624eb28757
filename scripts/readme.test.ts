// The README's newcomer path, as a newcomer types it: `pnpm start` serves the reference server and its playground,
// and `pnpm svc me` talks to it from the same clone. (The install step is what CI's own run does.)
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

const root = new URL('..', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'svc-readme-'));
// Free ports and a scratch data directory, so the test never meets a developer's own server.
const env = { ...process.env, PORT: '0', SVC_DATA_DIR: dataDir };

let server: ReturnType<typeof spawn>;
let url = '';
let output = '';

before(async () => {
  // `pnpm start` would build a stale tree first; inside the test run that would rebuild what other tests are reading.
  const check = spawnSync('node', ['scripts/build.mjs', '--check'], { cwd: root, encoding: 'utf8' });
  assert.equal(check.status, 0, check.stdout);
  server = spawn('pnpm', ['start'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`pnpm start printed no URL in time:\n${output}`)), 300_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /svc reference server on (http:\/\/\S+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    };
    server.stdout!.on('data', read);
    server.stderr!.on('data', read);
    server.once('exit', (code) => reject(new Error(`pnpm start exited (${code}):\n${output}`)));
  });
});

after(() => {
  if (server.pid) process.kill(-server.pid, 'SIGTERM'); // pnpm and the server it started
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the README's first commands", () => {
  it('pnpm start serves the playground and says first that the OpenID library warns on Node 20', async () => {
    const page = await fetch(`${url}/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    if (Number(process.versions.node.split('.')[0]) < 22) {
      assert.ok(output.indexOf('expected, and harmless') < output.indexOf('oidc-provider WARNING'), output);
    }
  });

  it('pnpm svc me answers from the same clone, with the sandbox the server wrote', () => {
    const run = spawnSync('pnpm', ['--silent', 'svc', 'me', '--json'], { cwd: root, env, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const me = JSON.parse(run.stdout) as Record<string, unknown>;
    assert.ok(JSON.stringify(me).includes('acct_'), run.stdout);
  });
});
