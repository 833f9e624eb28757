// `svc login` and `svc logout`, spawned as processes against a running reference server: the device grant
// approved on the hosted pages by a person's browser in Node, the credentials file and its modes, commands acting
// as the person (refreshing when the access token expires), the credential precedence, and revocation.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PersonBrowser, registerPublicClient } from '../testing/oauth.test.helper.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import type { StoredCredentials } from './credentials.js';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const tsx = import.meta.resolve('tsx');

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Only what the command line reads: the test's own variables, never the developer's. */
const cleanEnv = (env: Record<string, string>) => ({ PATH: process.env.PATH ?? '', ...env });

function svc(args: string[], env: Record<string, string>): Promise<Result> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=source', '--import', tsx, main, ...args],
      { env: cleanEnv(env), cwd: tmpdir() },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** `svc login …` running: the prompt it prints (once it has), and its end. */
function startLogin(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--conditions=source', '--import', tsx, main, 'login', ...args], {
    env: cleanEnv(env),
    cwd: tmpdir(),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const prompt = new Promise<{ code: string; url: string; complete: string }>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /open (\S+) and enter the code (\S+)\n\(or open (\S+)\)/.exec(stderr);
      if (found) resolve({ url: found[1]!, code: found[2]!, complete: found[3]! });
    });
    child.once('exit', () => reject(new Error(`svc login ended without a prompt: ${stderr}`)));
  });
  const done = new Promise<Result>((resolve) => child.once('exit', (code) => resolve({ code: code ?? 1, stdout, stderr })));
  return { prompt, done };
}

/** `svc login` to its end, the person answering on the hosted pages as `email`. */
async function login(
  server: TestServer,
  env: Record<string, string>,
  email: string,
  args: string[] = [],
  decision: 'allow' | 'deny' = 'allow',
) {
  const running = startLogin(args, env);
  const prompt = await running.prompt;
  await new PersonBrowser(server.url).approveDevice(prompt.complete, prompt.code, email, decision);
  return { prompt, result: await running.done };
}

const stored = (home: string): StoredCredentials =>
  JSON.parse(readFileSync(join(home, 'svc', 'credentials.json'), 'utf8')) as StoredCredentials;

/** A refresh grant straight at the token endpoint, as a public client: the error, or undefined when it worked. */
async function refreshError(server: TestServer, clientId: string, refreshToken: string): Promise<string | undefined> {
  const res = await fetch(`${server.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken }),
  });
  return res.ok ? undefined : ((await res.json()) as { error: string }).error;
}

// Each login waits at least one polling interval (5 s, the server's pace): the cases run side by side.
describe('svc login and svc logout', { concurrency: 4 }, () => {
  let server: TestServer;
  let publicClient: string;
  const homes: string[] = [];
  /** A fresh XDG_CONFIG_HOME. */
  const home = () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-home-'));
    homes.push(dir);
    return dir;
  };

  before(async () => {
    server = await startTestServer();
    publicClient = await registerPublicClient(server, ['http://localhost:5173/callback'], 'svc command line');
  });
  after(async () => {
    for (const dir of homes) rmSync(dir, { recursive: true, force: true });
    await server.dispose();
  });

  it('signs in with a public client by the device grant; commands act as the person, refreshing; logout revokes and deletes', async () => {
    const config = home();
    const env = { SVC_BASE_URL: server.url, XDG_CONFIG_HOME: config };
    const { prompt, result } = await login(server, env, 'Ada@Example.com', ['--client-id', publicClient]);
    assert.equal(prompt.url, `${server.url}/oauth/device`);
    assert.match(prompt.code, /^[A-Z]{4}-[A-Z]{4}$/);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Signed in as ada@example\.com \(prs_\w+\) at http:\/\/127\.0\.0\.1:\d+\.\n/);

    const file = join(config, 'svc', 'credentials.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(join(config, 'svc')).mode & 0o777, 0o700);
    const first = stored(config);
    assert.equal(first.issuer, server.url);
    assert.equal(first.client_id, publicClient);
    assert.equal(first.client_secret, undefined);
    assert.equal(first.email, 'ada@example.com');
    assert.deepEqual(first.scope.split(' ').sort(), ['email', 'offline_access', 'openid']);
    assert.ok(first.refresh_token);

    const me = await svc(['me', '--json'], env);
    assert.equal(me.code, 0, me.stderr);
    const who = JSON.parse(me.stdout) as { kind: string; person: { email: string }; client: { client_id: string } };
    assert.equal(who.kind, 'person');
    assert.equal(who.person.email, 'ada@example.com');
    assert.equal(who.client.client_id, publicClient);

    // An access token about to expire is refreshed first; the rotated refresh token is stored.
    writeFileSync(file, JSON.stringify({ ...first, expires_at: Math.floor(Date.now() / 1000) + 30 }));
    const human = await svc(['me'], env);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^person\s+ada@example\.com \(prs_\w+\)$/m);
    const second = stored(config);
    assert.notEqual(second.access_token, first.access_token);
    assert.notEqual(second.refresh_token, first.refresh_token);
    assert.ok(second.expires_at! > Date.now() / 1000 + 3000);
    assert.equal(statSync(file).mode & 0o777, 0o600, 'rewritten with the same mode');

    const out = await svc(['logout'], env);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout, `Signed out ada@example.com at ${server.url}: the refresh token is revoked and ${file} deleted.\n`);
    assert.equal(existsSync(file), false);
    assert.equal(await refreshError(server, publicClient, second.refresh_token!), 'invalid_grant');
    assert.equal((await fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${second.access_token}` } })).status, 401);

    const again = await svc(['logout'], env);
    assert.deepEqual([again.code, again.stdout], [0, 'Not signed in.\n']);
    const none = await svc(['me'], env);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^svc: no API token: set SVC_API_TOKEN or run svc login/);
  });

  it("signs in with the sandbox's confidential client; the sign-in beats sandbox.json's token, SVC_API_TOKEN beats the sign-in", async () => {
    const config = home();
    const env = { SVC_DATA_DIR: server.dataDir, XDG_CONFIG_HOME: config };
    const { result } = await login(server, env, 'grace@example.com', ['--json']);
    assert.equal(result.code, 0, result.stderr);
    const out = JSON.parse(result.stdout) as { client_id: string; email: string; credentials_file: string };
    assert.equal(out.client_id, server.sandbox.oauth_client_id);
    assert.equal(out.email, 'grace@example.com');
    assert.equal(stored(config).client_secret, server.sandbox.oauth_client_secret, 'a confidential client needs its secret to refresh');

    const person = JSON.parse((await svc(['me', '--json'], env)).stdout) as { kind: string };
    assert.equal(person.kind, 'person');
    const token = JSON.parse((await svc(['me', '--json'], { ...env, SVC_API_TOKEN: server.sandbox.api_token })).stdout) as { kind: string };
    assert.equal(token.kind, 'api_token');
    // A person may not use an organisation's endpoint: the sign-in says so rather than falling back.
    const flows = await svc(['flows', 'list'], env);
    assert.equal(flows.code, 1);
    assert.match(flows.stderr, /\(403 GET \/api\/v1\/flows/);

    // Signing out needs no base URL: the stored sign-in names its service.
    assert.equal((await svc(['logout'], { XDG_CONFIG_HOME: config })).code, 0);
    assert.equal((JSON.parse((await svc(['me', '--json'], env)).stdout) as { kind: string }).kind, 'api_token');
  });

  it('exits 1 when the person denies, and stores nothing', async () => {
    const config = home();
    const { result } = await login(
      server,
      { SVC_BASE_URL: server.url, XDG_CONFIG_HOME: config },
      'linus@example.com',
      ['--client-id', publicClient],
      'deny',
    );
    assert.equal(result.code, 1);
    assert.match(result.stderr, /svc: the device token request failed: access_denied/);
    assert.equal(existsSync(join(config, 'svc', 'credentials.json')), false);
  });

  it('says that a stored sign-in has ended, and exits 2 for login without any client', async () => {
    const config = home();
    const env = { SVC_BASE_URL: server.url, XDG_CONFIG_HOME: config };
    const { result } = await login(server, env, 'edsger@example.com', ['--client-id', publicClient]);
    assert.equal(result.code, 0, result.stderr);
    const file = join(config, 'svc', 'credentials.json');
    const signedIn = stored(config);
    // Its refresh token used elsewhere (the rotated one is not stored here, and reuse ends the grant), and the
    // access token due for a refresh.
    assert.equal(await refreshError(server, publicClient, signedIn.refresh_token!), undefined);
    writeFileSync(file, JSON.stringify({ ...signedIn, expires_at: 0 }), { mode: 0o600 });
    const ended = await svc(['me'], env);
    assert.equal(ended.code, 1);
    assert.match(ended.stderr, /^svc: The sign-in of edsger@example\.com has ended \(revoked or expired\): run svc login again/);

    const noClient = await svc(['login'], { SVC_BASE_URL: server.url, XDG_CONFIG_HOME: home() });
    assert.equal(noClient.code, 2);
    assert.match(noClient.stderr, /^svc: no OAuth client: pass --client-id/);
  });
});
