// The `svc accounts …`, `svc connections …`, `svc device-links …` and `svc trust-pairings …` commands, run in this
// process (run()) against a reference server: the API token for the account, a person signed in on two "devices"
// (two stored sign-ins) for connections and pairing; usage errors exit 2 before anything is sent, refusals exit 1.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Account, AccountUser, ConnectionDetail, DeviceLink, DisconnectResult, TrustPairing } from '@svc/schemas';
import { runSvc, storeSignIn } from '../testing/cli.test.helper.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { EXIT } from './run.js';

describe('svc connect commands against the reference server', () => {
  let server: TestServer;
  let laptop: string;
  let phone: string;

  async function signedIn(): Promise<string> {
    const home = mkdtempSync(join(tmpdir(), 'svc-connect-'));
    await storeSignIn(server, home, 'ada@example.com');
    return home;
  }

  /** Runs `svc <argv>` as the person signed in under `home` (or with `env`, e.g. an API token). */
  function svc(argv: string[], home: string, env: Record<string, string> = {}) {
    return runSvc(argv, { SVC_BASE_URL: server.url, XDG_CONFIG_HOME: home, ...env }, home);
  }
  const json = async <T>(argv: string[], home: string, env: Record<string, string> = {}): Promise<T> => {
    const result = await svc([...argv, '--json'], home, env);
    assert.equal(result.code, EXIT.ok, result.stderr);
    return JSON.parse(result.stdout) as T;
  };

  before(async () => {
    server = await startTestServer();
    laptop = await signedIn();
    phone = await signedIn();
  });
  after(async () => {
    for (const home of [laptop, phone]) rmSync(home, { recursive: true, force: true });
    await server.dispose();
  });

  it('shows the account and renames it with the API token', async () => {
    const admin = { SVC_API_TOKEN: server.sandbox.api_token };
    const shown = await svc(['accounts', 'show'], laptop, admin);
    assert.equal(shown.code, EXIT.ok, shown.stderr);
    assert.match(shown.stdout, /^account\s+Sandbox \(acct_\w+\)$/m);
    assert.match(shown.stdout, /^owner\s+the organisation itself$/m);
    const [account] = await json<Account[]>(['accounts', 'list'], laptop, admin);
    const renamed = await json<Account>(['accounts', 'update', account!.id, '--name', 'Sandbox Ltd'], laptop, admin);
    assert.equal(renamed.name, 'Sandbox Ltd');
    const usage = await svc(['accounts', 'update', account!.id], laptop, admin);
    assert.equal(usage.code, EXIT.usage);
    assert.match(usage.stderr, /needs --name <name> or --owner <user_id>/);
    const refused = await svc(['accounts', 'list'], laptop);
    assert.equal(refused.code, EXIT.api, "a person's token reads no account");
    assert.match(refused.stderr, /403/);
  });

  it("adds a user in a console role, changes the role, and shows each user's role", async () => {
    const admin = { SVC_API_TOKEN: server.sandbox.api_token };
    const [account] = await json<Account[]>(['accounts', 'list'], laptop, admin);
    const me = await json<{ person: { id: string } }>(['me'], laptop);
    const added = await json<AccountUser>(['accounts', 'add-user', account!.id, me.person.id, '--role', 'admin'], laptop, admin);
    assert.equal(added.role, 'admin');
    const wrong = await svc(['accounts', 'set-role', account!.id, added.id, 'owner'], laptop, admin);
    assert.equal(wrong.code, EXIT.usage);
    assert.match(wrong.stderr, /the role is one of admin, viewer/);
    const lowered = await svc(['accounts', 'set-role', account!.id, added.id, 'viewer'], laptop, admin);
    assert.equal(lowered.code, EXIT.ok, lowered.stderr);
    assert.match(lowered.stdout, /^role\s+viewer$/m);
    const shown = await svc(['accounts', 'show'], laptop, admin);
    assert.match(shown.stdout, new RegExp(`^  ${added.id}  ${me.person.id}  viewer$`, 'm'));
    assert.match(shown.stdout, /^ {2}au_\w+ {2}prs_\w+ {2}admin$/m, "the sandbox's console admin");
    assert.equal((await svc(['accounts', 'remove-user', account!.id, added.id], laptop, admin)).code, EXIT.ok);
  });

  it('connects the signed-in person, suspends, resumes and disconnects, printing what stopped', async () => {
    const made = await json<ConnectionDetail>(['connections', 'create', server.sandbox.application_id], laptop);
    assert.equal(made.status, 'active');
    const listed = await svc(['connections', 'list'], laptop);
    assert.match(listed.stdout, /^ID\s+STATUS\s+APPLICATION\s+PERSON\s+TRUST TIER\s+LAST ACTIVE$/m);
    assert.match(listed.stdout, new RegExp(`^${made.id}\\s+active\\s+Sandbox application`, 'm'));
    const missing = await svc(['connections', 'suspend', made.id], laptop);
    assert.equal(missing.code, EXIT.usage);
    const paused = await svc(['connections', 'suspend', made.id, '--reason', 'Travelling'], laptop);
    assert.equal(paused.code, EXIT.ok, paused.stderr);
    assert.match(paused.stdout, /^Suspensions:\n {2}\S+ by the person: Travelling$/m);
    const twice = await svc(['connections', 'suspend', made.id, '--reason', 'Again', '--json'], laptop);
    assert.equal(twice.code, EXIT.api);
    assert.equal(JSON.parse(twice.stderr.split('\n')[0]!).error.reason, 'illegal_transition');
    assert.equal((await json<ConnectionDetail>(['connections', 'resume', made.id], laptop)).status, 'active');
    const cut = await svc(['connections', 'disconnect', made.id], laptop);
    assert.equal(cut.code, EXIT.ok, cut.stderr);
    assert.match(cut.stdout, /^Warnings:\n {2}- Nothing else depended on this connection/m);
    const shown = await json<ConnectionDetail>(['connections', 'show', made.id], laptop, { SVC_API_TOKEN: server.sandbox.api_token });
    assert.equal(shown.status, 'disconnected');
    const wrong = await svc(['connections', 'list', '--status', 'paused'], laptop);
    assert.equal(wrong.code, EXIT.usage);
    assert.match(wrong.stderr, /--status is one of active, suspended, disconnected/);
  });

  it('pairs the phone with the code the laptop shows, then revokes the pairing', async () => {
    const link = await json<DeviceLink & { code: string }>(['device-links', 'create', '--name', 'Laptop'], laptop);
    const printed = await svc(['device-links', 'show', link.id], laptop);
    assert.match(printed.stdout, /^status\s+pending$/m);
    const human = await svc(['device-links', 'create'], laptop);
    assert.match(human.stdout, /svc device-links claim [A-Z2-9]{4}-[A-Z2-9]{4} --name <device>/);
    const same = await svc(['device-links', 'claim', link.code, '--name', 'Laptop'], laptop);
    assert.equal(same.code, EXIT.api);
    assert.match(same.stderr, /other device/);
    const pairing = await json<TrustPairing>(['device-links', 'claim', link.code, '--name', 'Phone'], phone);
    assert.equal(pairing.initiator.device_name, 'Laptop');
    assert.equal(pairing.claimant.device_name, 'Phone');
    const listed = await svc(['trust-pairings', 'list'], phone);
    assert.match(listed.stdout, new RegExp(`^${pairing.id}\\s+active\\s+prs_\\w+\\s+Laptop \\+ Phone`, 'm'));
    assert.equal((await json<TrustPairing>(['trust-pairings', 'revoke', pairing.id], laptop)).status, 'revoked');
    const links = await json<DeviceLink[]>(['device-links', 'list', '--status', 'claimed'], laptop);
    assert.deepEqual(
      links.map((l) => l.id),
      [link.id],
    );
    const noName = await svc(['device-links', 'claim', 'ABCD-EFGH'], phone);
    assert.equal(noName.code, EXIT.usage);
  });

  it('lists the Connect commands under their group in svc --help and svc connections --help', async () => {
    const help = await svc(['--help'], laptop);
    assert.match(help.stdout, /^ {2}Connect +connections {2}device-links {2}trust-pairings$/m);
    assert.match(help.stdout, /^ {2}Account +.*accounts/m);
    const topic = await svc(['connections', '--help'], laptop);
    assert.match(topic.stdout, /connections disconnect <id>\s+Disconnect for good/);
  });

  it("disconnect as JSON is the API's answer", async () => {
    const made = await json<ConnectionDetail>(['connections', 'create', server.sandbox.application_id], laptop);
    const result = await json<DisconnectResult>(['connections', 'disconnect', made.id], laptop);
    assert.deepEqual(Object.keys(result).sort(), ['connection', 'warnings']);
  });
});
