// The `svc` command line, spawned as a process against a running reference server.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createClient, type SvcClient } from '../lib/client.js';
import { createRecordFlow, freshEmail } from '../testing/records.test.helper.js';
import { closedPort, json as answer, loopback, startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { verifyReceipt } from '../verify/receipt.js';
import { verifyWebhook } from '../verify/webhook.js';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
// Resolved here so the command line also runs from directories that have no node_modules of their own.
const tsx = import.meta.resolve('tsx');

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

// An empty config directory: a developer's own `svc login` must not leak into the test either.
const configHome = mkdtempSync(join(tmpdir(), 'svc-config-'));

function svc(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<Result> {
  // Only what the command line reads: a developer's own SVC_* variables must not leak into the test.
  const env = { PATH: process.env.PATH ?? '', XDG_CONFIG_HOME: configHome, ...options.env };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=source', '--import', tsx, main, ...args],
      { env, cwd: options.cwd ?? tmpdir() },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
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
    rmSync(configHome, { recursive: true, force: true });
    await server.dispose();
  });

  it('prints help grouped by product surface and exits 0', async () => {
    const { code, stdout } = await svc(['--help']);
    assert.equal(code, 0);
    assert.match(stdout, /^Usage: svc <command>/);
    assert.match(stdout, /^ {2}Consent +flows {2}decisions {2}verify {2}records/m);
    assert.match(stdout, /^ {2}Delegate +agents {2}delegations/m);
    // The overview names groups and words only: every line stays short enough to read.
    const overview = stdout.slice(0, stdout.indexOf('Options:'));
    assert.ok(
      overview.split('\n').every((line) => line.length <= 120),
      overview,
    );
  });

  it("prints one group's commands with their options on svc <group> --help", async () => {
    const { code, stdout } = await svc(['decisions', '--help']);
    assert.equal(code, 0);
    assert.match(stdout, /^Usage: svc decisions <command>/);
    assert.match(stdout, /decisions create \[--flow <id>\]/);
    assert.match(stdout, /decisions exchange <session_token> <exchange_token>/);
    assert.doesNotMatch(stdout, /records create/);
    const unknown = await svc(['frobnicate', '--help']);
    assert.equal(unknown.code, 0);
    assert.match(unknown.stdout, /^Usage: svc <command>/);
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
    assert.equal(human.stderr, 'svc: The bearer token is not valid: not an API token, nor a current access token. (401 GET /api/v1/me)\n');

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
    assert.equal(
      stderr,
      `svc: GET /api/v1/me got no response: fetch failed (ECONNREFUSED); nothing answered at http://127.0.0.1:${port} (SVC_BASE_URL): ` +
        'start the reference server with pnpm start (in the svc-sdk checkout), or set SVC_BASE_URL to a running service\n',
    );
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

  // ---- records, receipts, status, webhooks, audit ------------------------------------------------------------

  let client: SvcClient | undefined;
  let flow: Promise<string> | undefined;
  /** A capturable flow of the test's own, made once through the client. */
  const recordFlow = () =>
    (flow ??= createRecordFlow((client ??= createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token })), 'CLI signup'));
  /** `svc records create` for a fresh person, as JSON. */
  async function createRecord(
    extra: string[] = [],
  ): Promise<{ id: string; status: string; channel: string; purposes: { key: string; outcome: string }[] }> {
    const email = freshEmail('cli');
    const created = await svc(
      [
        'records',
        'create',
        '--flow',
        await recordFlow(),
        '--email',
        email,
        '--grant',
        'newsletter,research',
        '--decline',
        'analytics',
        ...extra,
        '--json',
      ],
      { env },
    );
    assert.equal(created.code, 0, created.stderr);
    return JSON.parse(created.stdout) as Awaited<ReturnType<typeof createRecord>>;
  }
  const outcomes = (record: { purposes: { key: string; outcome: string }[] }) =>
    Object.fromEntries(record.purposes.map((p) => [p.key, p.outcome]));

  it('creates a record (idempotently with --idempotency-key), reads it and withdraws a purpose', async () => {
    const key = `cli-${process.pid}-${Date.now()}`;
    const args = [
      'records',
      'create',
      '--flow',
      await recordFlow(),
      '--email',
      freshEmail('cli'),
      '--external-id',
      'crm-cli',
      '--grant',
      'newsletter,research',
      '--decline',
      'analytics',
      '--idempotency-key',
      key,
      '--json',
    ];
    const first = await svc(args, { env });
    assert.equal(first.code, 0, first.stderr);
    const record = JSON.parse(first.stdout) as Awaited<ReturnType<typeof createRecord>>;
    assert.equal(record.status, 'fulfilled');
    assert.equal(record.channel, 'controller_attested');
    assert.deepEqual(outcomes(record), { newsletter: 'granted', research: 'granted', analytics: 'objected', service: 'noticed' });
    const repeated = await svc(args, { env });
    assert.equal(repeated.code, 0, repeated.stderr);
    assert.equal((JSON.parse(repeated.stdout) as { id: string }).id, record.id, 'the same key gives back the same record');

    const again = await svc(
      [
        'records',
        'create',
        '--flow',
        await recordFlow(),
        '--email',
        'other@example.com',
        '--grant',
        'newsletter',
        '--idempotency-key',
        key,
        '--json',
      ],
      { env },
    );
    assert.equal(again.code, 1, 'the key names a record with other content');
    assert.equal((JSON.parse(again.stderr) as { error: { reason: string } }).error.reason, 'idempotency_key_reused');

    const read = await svc(['records', 'get', record.id], { env });
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, new RegExp(`^id\\s+${record.id}$`, 'm'));
    assert.match(read.stdout, /^subject\s+cli-\S+@example\.com \(crm-cli\)$/m);

    const withdrawn = await svc(['records', 'withdraw', record.id, '--purposes', 'research', '--channel', 'mailing_tool', '--json'], {
      env,
    });
    assert.equal(withdrawn.code, 0, withdrawn.stderr);
    assert.equal(outcomes(JSON.parse(withdrawn.stdout) as typeof record).research, 'revoked');
  });

  it('refuses records create without purposes, and a purpose both granted and declined', async () => {
    const none = await svc(['records', 'create', '--flow', 'flw_x', '--email', 'a@example.com'], { env });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /needs --grant <keys> and\/or --decline <keys>/);
    const both = await svc(['records', 'create', '--flow', 'flw_x', '--email', 'a@example.com', '--grant', 'a', '--decline', 'a'], { env });
    assert.equal(both.code, 2);
    assert.match(both.stderr, /either granted or declined, not both: a/);
  });

  it('prints a receipt in each flavor, verifying the signed one', async () => {
    const record = await createRecord();
    const signed = await svc(['receipts', 'get', record.id, '--flavor', 'signed', '--json'], { env });
    assert.equal(signed.code, 0, signed.stderr);
    const envelope = JSON.parse(signed.stdout) as { receipt: { record_id: string }; signature: string };
    assert.equal(envelope.receipt.record_id, record.id);
    const jwks = await (await fetch(`${server.url}/.well-known/jwks.json`)).json();
    await verifyReceipt(envelope, jwks as never);

    const human = await svc(['receipts', 'get', record.id, '--flavor', 'signed'], { env });
    assert.match(human.stdout, /^signature\s+valid \(ES256, key \S+\)$/m);
    assert.match(human.stdout, /^\s+\S+\s+consent given$/m);

    const canonical = await svc(['receipts', 'get', record.id, '--json'], { env });
    assert.equal((JSON.parse(canonical.stdout) as { schema_version: string }).schema_version, 'svc-cr/2.13');
    const dpv = await svc(['receipts', 'get', record.id, '--flavor', 'dpv', '--json'], { env });
    assert.equal((JSON.parse(dpv.stdout) as { '@type': string })['@type'], 'dpv:ConsentRecord');
    const wrong = await svc(['receipts', 'get', record.id, '--flavor', 'pdf'], { env });
    assert.equal(wrong.code, 2);
  });

  it("shows a person's consent status by email or external id", async () => {
    const email = freshEmail('cli-status');
    const created = await svc(
      [
        'records',
        'create',
        '--flow',
        await recordFlow(),
        '--email',
        email,
        '--external-id',
        `ext-${email}`,
        '--grant',
        'newsletter',
        '--decline',
        'research,analytics',
        '--json',
      ],
      { env },
    );
    assert.equal(created.code, 0, created.stderr);
    const status = await svc(['status', '--email', email, '--json'], { env: { ...env, SVC_DATA_DIR: server.dataDir } });
    assert.equal(status.code, 0, status.stderr);
    const body = JSON.parse(status.stdout) as { overall_status: string; application_id: string };
    assert.equal(body.overall_status, 'partial');
    assert.equal(body.application_id, server.sandbox.application_id);

    const human = await svc(['status', '--external-id', `ext-${email}`, '--app', server.sandbox.application_id], { env });
    assert.match(human.stdout, /^overall\s+partial$/m);
    assert.match(human.stdout, /^newsletter\s+granted\s/m);

    const both = await svc(['status', '--email', email, '--external-id', 'x'], { env });
    assert.equal(both.code, 2);
    assert.match(both.stderr, /exactly one of --email, --external-id, --person-id/);
    const nobody = await svc(['status', '--email', 'nobody@example.com', '--app', server.sandbox.application_id], { env });
    assert.equal(nobody.code, 1);
  });

  it('creates a webhook endpoint, tests it (a signed delivery), rotates it, lists its deliveries and deletes it', async () => {
    const receiver = await loopback((_req, res) => answer(res, 200, { ok: true }));
    const app = ['--app', server.sandbox.application_id];
    try {
      // Approval events only: the cases beside this one make consent records, whose events would land here too.
      const created = await svc(
        ['webhooks', 'create', '--url', `${receiver.url}/cli`, '--events', 'approval.granted,approval.denied', ...app, '--json'],
        { env },
      );
      assert.equal(created.code, 0, created.stderr);
      const endpoint = JSON.parse(created.stdout) as { id: string; secret: string; events: string[] };
      assert.match(endpoint.secret, /^whsec_/);
      assert.deepEqual(endpoint.events, ['approval.granted', 'approval.denied']);

      const listed = await svc(['webhooks', 'list', ...app, '--json'], { env });
      const endpoints = JSON.parse(listed.stdout) as { id: string; secret?: string }[];
      assert.ok(endpoints.some((e) => e.id === endpoint.id && e.secret === undefined));

      const tested = await svc(['webhooks', 'test', endpoint.id, ...app, '--json'], { env });
      assert.equal(tested.code, 0, tested.stderr);
      assert.equal((JSON.parse(tested.stdout) as { status: string }).status, 'acknowledged');
      const delivered = receiver.requests.at(-1)!;
      assert.equal((await verifyWebhook(delivered.body, delivered.headers, endpoint.secret)).type, 'webhook.test');

      const rotated = await svc(['webhooks', 'rotate', endpoint.id, ...app], { env });
      assert.equal(rotated.code, 0, rotated.stderr);
      const secret = /New signing secret \(shown once\):\n(whsec_\S+)\n$/.exec(rotated.stdout)?.[1];
      assert.ok(secret && secret !== endpoint.secret, rotated.stdout);
      await svc(['webhooks', 'test', endpoint.id, ...app], { env });
      const afterRotation = receiver.requests.at(-1)!;
      await verifyWebhook(afterRotation.body, afterRotation.headers, secret);

      const deliveries = await svc(['webhooks', 'deliveries', endpoint.id, ...app, '--json'], { env });
      const list = JSON.parse(deliveries.stdout) as { event_type: string; test: boolean }[];
      assert.equal(list.length, 2);
      assert.ok(list.every((d) => d.event_type === 'webhook.test' && d.test));
      const table = await svc(['webhooks', 'deliveries', endpoint.id, ...app, '--status', 'acknowledged', '--limit', '1'], { env });
      assert.match(table.stdout, /^ID\s+EVENT\s+STATUS\s+ATTEMPTS\s+TEST\s+CREATED\n\S+\s+webhook\.test\s+acknowledged\s+1\s+yes\s+\S+\n$/);

      assert.equal((await svc(['webhooks', 'delete', endpoint.id, ...app], { env })).stdout, `Deleted ${endpoint.id}.\n`);
      assert.equal((await svc(['webhooks', 'test', endpoint.id, ...app], { env })).code, 1);
    } finally {
      await receiver.close();
    }
  });

  it('lists audit events and anchors and verifies the trail, exiting 1 when a stored row was changed', async () => {
    await createRecord();
    const app = ['--app', server.sandbox.application_id];
    const events = await svc(['audit', 'events', ...app, '--json'], { env });
    assert.equal(events.code, 0, events.stderr);
    const list = JSON.parse(events.stdout) as { sequence: number; type: string }[];
    assert.ok(list.length >= 1 && list.every((e, i) => e.sequence === i + 1));
    const anchors = await svc(['audit', 'anchors', ...app, '--json'], { env });
    assert.ok(Array.isArray(JSON.parse(anchors.stdout)));

    const verified = await svc(['audit', 'verify', ...app], { env });
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stdout, /^Audit trail verified: \d+ events, \d+ anchors \(.+\), \d+ witness receipts\.\n/);
    // The local witness is not external: requiring an external one fails; a CA file that is not one is refused.
    const external = await svc(['audit', 'verify', ...app, '--require-external-witness', '--json'], { env });
    assert.equal(external.code, JSON.parse(anchors.stdout).length ? 1 : 0, external.stderr);
    const missing = await svc(['audit', 'verify', ...app, '--tsa-ca', join(empty, 'none.pem')], { env });
    assert.deepEqual([missing.code, missing.stderr.includes(`--tsa-ca: cannot read ${join(empty, 'none.pem')}`)], [2, true]);
    const notCa = join(empty, 'not-a-ca.pem');
    writeFileSync(notCa, 'hello\n');
    const refused = await svc(['audit', 'verify', ...app, '--tsa-ca', notCa], { env });
    assert.deepEqual([refused.code, refused.stderr.includes(`--tsa-ca: ${notCa} is not a CA certificate file`)], [2, true], refused.stderr);

    const db = (
      server as unknown as {
        context: { db: { prepare(sql: string): { run(...p: unknown[]): unknown; pluck(): { get(...p: unknown[]): unknown } } } };
      }
    ).context.db;
    const original = db
      .prepare('SELECT data FROM audit_events WHERE application_id = ? AND sequence = 1')
      .pluck()
      .get(server.sandbox.application_id) as string;
    db.prepare('UPDATE audit_events SET data = ? WHERE application_id = ? AND sequence = 1').run(
      original.replace('{', '{"forged":true,'),
      server.sandbox.application_id,
    );
    try {
      const failed = await svc(['audit', 'verify', ...app, '--json'], { env });
      assert.equal(failed.code, 1);
      assert.deepEqual(
        (({ ok, sequence, reason }) => ({ ok, sequence, reason }))(
          JSON.parse(failed.stdout) as { ok: boolean; sequence: number; reason: string },
        ),
        { ok: false, sequence: 1, reason: 'hash_mismatch' },
      );
    } finally {
      db.prepare('UPDATE audit_events SET data = ? WHERE application_id = ? AND sequence = 1').run(original, server.sandbox.application_id);
    }
  });
});
