// The `svc` command line and country cells: it names the country that answered and follows a 421 like the client.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createClient } from '../lib/client.js';
import { json as answer, loopback, startTestCells, type Loopback, type TestCells } from '../testing/servers.test.helper.js';
import { loadConfig } from './config.js';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const tsx = import.meta.resolve('tsx');
const configHome = mkdtempSync(join(tmpdir(), 'svc-config-'));

function svc(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=source', '--import', tsx, main, ...args],
      { env: { PATH: process.env.PATH ?? '', XDG_CONFIG_HOME: configHome, ...env }, cwd: tmpdir() },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('svc and country cells', { concurrency: 4 }, () => {
  let server: TestCells;
  let token: string;
  before(async () => {
    server = await startTestCells(['US', 'DE']);
    // The sandbox application's personal data lives in DE: a decision made for it is homed there.
    const { api_token: apiToken, application_id: applicationId, flow_id: flowId } = server.first.sandbox;
    const de = createClient({ baseUrl: server.cells.DE!.url, apiToken });
    await de.applications.update(applicationId, { home_country: 'DE' });
    token = (await de.decisions.create({ kind: 'consent', subject_ref: flowId!, delivery_mode: 'redirect' })).session_token;
    assert.match(token, /^dts_de_/);
  });
  after(async () => {
    await server.dispose();
    rmSync(configHome, { recursive: true, force: true });
  });

  it('names the country that answered on stderr', async () => {
    const { code, stdout, stderr } = await svc(['me'], { SVC_DATA_DIR: server.first.dataDir });
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^account\s+Sandbox/m);
    assert.equal(stderr, 'country: US\n');
  });

  it("asks again at the home cell from the sandbox's countries, and says so", async () => {
    const { code, stdout, stderr } = await svc(['decisions', 'get', token], { SVC_DATA_DIR: server.first.dataDir });
    assert.equal(code, 0, stderr);
    assert.match(stdout, new RegExp(`^session token\\s+${token}$`, 'm'));
    assert.equal(stderr, 'country: DE (re-issued there: US answered that the resource lives in DE)\n');
  });

  it('creates a decision at the home cell of the application, re-issuing the POST there', async () => {
    const { code, stdout, stderr } = await svc(['decisions', 'create', '--json'], { SVC_DATA_DIR: server.first.dataDir });
    assert.equal(code, 0, stderr);
    assert.match((JSON.parse(stdout) as { session_token: string }).session_token, /^dts_de_/);
    assert.deepEqual(JSON.parse(stderr), { country: 'DE', reissued_from: 'US' });
  });

  it('finds the home cell in the service list with SVC_BASE_URL, and prints the country as JSON under --json', async () => {
    const env = { SVC_BASE_URL: server.cells.US!.url, SVC_API_TOKEN: server.first.sandbox.api_token };
    const { code, stdout, stderr } = await svc(['decisions', 'get', token, '--json'], env);
    assert.equal(code, 0, stderr);
    assert.equal((JSON.parse(stdout) as { session_token: string }).session_token, token);
    assert.deepEqual(JSON.parse(stderr), { country: 'DE', reissued_from: 'US' });
  });

  describe('when the home country cannot be reached', () => {
    let stub: Loopback;
    before(async () => {
      stub = await loopback((req, res) =>
        req.url === '/api/v1/countries'
          ? answer(
              res,
              200,
              { country: 'US', countries: [{ country: 'US', base_url: stub.url, trust_url: stub.url }] },
              { 'svc-country': 'US' },
            )
          : answer(res, 421, { message: 'Served from DE.', code: 'wrong_country', home_country: 'DE' }, { 'svc-country': 'US' }),
      );
    });
    after(() => stub.close());

    it('exits 1 naming the home country, in one JSON line under --json', async () => {
      const env = { SVC_BASE_URL: stub.url, SVC_API_TOKEN: 'tok' };
      const human = await svc(['decisions', 'get', token], env);
      assert.equal(human.code, 1);
      assert.match(
        human.stderr,
        /^svc: GET \/api\/v1\/decisions\/dts_de_\S+ addresses a resource homed in DE, whose base URL is neither in countries nor in GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/countries; the call was not re-issued\. \(421 GET \/api\/v1\/decisions\/dts_de_\S+\); known cells: US at http:\/\/127\.0\.0\.1:\d+; no cell serves DE; to ask a cell, set SVC_BASE_URL to its base URL\n$/,
      );
      const json = await svc(['decisions', 'get', token, '--json'], env);
      assert.equal(json.code, 1);
      const { error } = JSON.parse(json.stderr) as { error: Record<string, unknown> };
      assert.equal(error.code, 'ERR_SVC_WRONG_COUNTRY');
      assert.equal(error.status, 421);
      assert.equal(error.home_country, 'DE');
      assert.equal(error.country, 'US');
      assert.deepEqual(error.known_cells, { US: stub.url });
    });
  });
});

describe('loadConfig: countries', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const sandboxIn = (sandbox: object): string => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-cwd-'));
    dirs.push(cwd);
    mkdirSync(join(cwd, '.svc'));
    writeFileSync(join(cwd, '.svc', 'sandbox.json'), JSON.stringify(sandbox));
    return cwd;
  };
  const sandbox = {
    base_url: 'http://127.0.0.1:4010',
    api_token: 'tok',
    countries: {
      US: { base_url: 'http://127.0.0.1:4010', trust_url: 'x' },
      DE: { base_url: 'http://127.0.0.1:4011', trust_url: 'x' },
      XX: { trust_url: 'x' },
    },
  };

  it("takes the sandbox's cells when the base URL is one of them", () => {
    const cwd = sandboxIn(sandbox);
    const cells = { US: 'http://127.0.0.1:4010', DE: 'http://127.0.0.1:4011' };
    assert.deepEqual(loadConfig({}, cwd).countries, cells);
    assert.deepEqual(loadConfig({ SVC_BASE_URL: 'http://127.0.0.1:4011/' }, cwd).countries, cells);
  });

  it("never sends a token of another service to the sandbox's cells", () => {
    const cwd = sandboxIn(sandbox);
    assert.equal(loadConfig({ SVC_BASE_URL: 'https://api.example.com', SVC_API_TOKEN: 'prod' }, cwd).countries, undefined);
  });

  it('has none for a sandbox from before country cells', () => {
    assert.equal(loadConfig({}, sandboxIn({ base_url: 'http://127.0.0.1:4010', api_token: 'tok' })).countries, undefined);
  });
});
