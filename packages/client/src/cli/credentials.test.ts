// The credentials file (path, modes, atomic replacement, lock) and which credential a command uses.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { CliConfig } from './config.js';
import { CliUsageError } from './config.js';
import {
  credentialsPath,
  deleteCredentials,
  readCredentials,
  withCredentialsLock,
  writeCredentials,
  type StoredCredentials,
} from './credentials.js';
import { chooseCredential } from './session.js';

const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-credentials-'));
  dirs.push(dir);
  return dir;
};
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const signedIn = (issuer: string): StoredCredentials => ({
  version: 1,
  issuer,
  client_id: 'oc_1',
  refresh_token: 'rt_1',
  access_token: 'at_1',
  expires_at: 4_000_000_000,
  scope: 'openid email offline_access',
  subject: 'prs_1',
  email: 'ada@example.com',
  signed_in_at: '2026-11-24T00:00:00.000Z',
});

const config = (over: Partial<CliConfig>): CliConfig => ({
  baseUrl: 'http://127.0.0.1:4010',
  apiToken: undefined,
  apiTokenFrom: undefined,
  agentToken: undefined,
  oauthClientId: undefined,
  oauthClientSecret: undefined,
  applicationId: undefined,
  flowId: undefined,
  captureFlowId: undefined,
  source: 'test',
  ...over,
});

describe('credentials file', () => {
  it('lives in $XDG_CONFIG_HOME/svc when that is absolute, else in ~/.config/svc', () => {
    assert.equal(credentialsPath({ XDG_CONFIG_HOME: '/x/conf', HOME: '/home/ada' }), '/x/conf/svc/credentials.json');
    assert.equal(credentialsPath({ XDG_CONFIG_HOME: 'relative', HOME: '/home/ada' }), '/home/ada/.config/svc/credentials.json');
    assert.equal(credentialsPath({ HOME: '/home/ada' }), '/home/ada/.config/svc/credentials.json');
  });

  it('is written 0600 in a 0700 directory, replaced whole, and deleted', () => {
    const home = fresh();
    const file = credentialsPath({ XDG_CONFIG_HOME: home });
    writeCredentials(file, signedIn('http://127.0.0.1:4010'));
    writeCredentials(file, { ...signedIn('http://127.0.0.1:4010'), access_token: 'at_2' });
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(join(home, 'svc')).mode & 0o777, 0o700);
    assert.deepEqual(readdirSync(join(home, 'svc')), ['credentials.json'], 'no temporary file is left');
    assert.equal(readCredentials(file)?.access_token, 'at_2');
    assert.equal(deleteCredentials(file), true);
    assert.equal(readCredentials(file), undefined);
    assert.equal(deleteCredentials(file), false);
  });

  it('refuses a file that is not one of its own', () => {
    const file = join(fresh(), 'credentials.json');
    writeFileSync(file, '{"token":"x"}');
    assert.throws(
      () => readCredentials(file),
      (err: unknown) => err instanceof CliUsageError && /run svc logout to remove it/.test(err.message),
    );
  });

  it('lets one process at a time refresh, and takes over a stale lock', async () => {
    const file = join(fresh(), 'svc', 'credentials.json');
    const order: string[] = [];
    const slow = (name: string) => async () => {
      order.push(`${name} in`);
      await new Promise((resolve) => setTimeout(resolve, 150));
      order.push(`${name} out`);
    };
    await Promise.all([withCredentialsLock(file, slow('a')), withCredentialsLock(file, slow('b'))]);
    assert.deepEqual(order, ['a in', 'a out', 'b in', 'b out']);
    assert.equal(existsSync(`${file}.lock`), false);

    writeFileSync(`${file}.lock`, '');
    utimesSync(`${file}.lock`, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    assert.equal(await withCredentialsLock(file, async () => 'ran'), 'ran');
  });
});

describe('chooseCredential', () => {
  const home = fresh();
  const env = { XDG_CONFIG_HOME: home };
  writeCredentials(credentialsPath(env), signedIn('http://127.0.0.1:4010/'));

  it('SVC_API_TOKEN first', () => {
    assert.deepEqual(chooseCredential(config({ apiToken: 'tok', apiTokenFrom: 'env' }), env), { apiToken: 'tok' });
  });

  it("then the person signed in at this base URL, before sandbox.json's token", () => {
    const chosen = chooseCredential(config({ apiToken: 'tok', apiTokenFrom: 'sandbox' }), env);
    assert.equal(typeof (chosen as { getAccessToken?: unknown }).getAccessToken, 'function');
  });

  it("then sandbox.json's token, when the sign-in is for another base URL", () => {
    assert.deepEqual(chooseCredential(config({ baseUrl: 'http://127.0.0.1:4011', apiToken: 'tok', apiTokenFrom: 'sandbox' }), env), {
      apiToken: 'tok',
    });
  });

  it('else a usage error naming both ways in', () => {
    assert.throws(
      () => chooseCredential(config({ baseUrl: 'http://127.0.0.1:4011' }), env),
      (err: unknown) => err instanceof CliUsageError && /set SVC_API_TOKEN or run svc login/.test(err.message),
    );
  });

  it('SVC_AGENT_TOKEN for the commands an agent runs, before SVC_API_TOKEN; never for the others', () => {
    const both = config({ apiToken: 'tok', apiTokenFrom: 'env', agentToken: 'ra_agent_abc' });
    assert.deepEqual(chooseCredential(both, env, 'required'), { agentToken: 'ra_agent_abc' });
    assert.deepEqual(chooseCredential(both, env, 'preferred'), { agentToken: 'ra_agent_abc' });
    assert.deepEqual(chooseCredential(both, env), { apiToken: 'tok' });
  });

  it('without SVC_AGENT_TOKEN: the usual credential where an agent is preferred, a usage error where one is required', () => {
    assert.deepEqual(chooseCredential(config({ apiToken: 'tok', apiTokenFrom: 'env' }), env, 'preferred'), { apiToken: 'tok' });
    assert.throws(
      () => chooseCredential(config({ apiToken: 'tok', apiTokenFrom: 'env' }), env, 'required'),
      (err: unknown) => err instanceof CliUsageError && /set SVC_AGENT_TOKEN/.test(err.message),
    );
  });
});
