// The audit trail's external witness end to end: a real RFC 3161 authority (OpenSSL's `ts -reply` behind an HTTP
// front), a reference server that sends each anchor to it, and `svc audit verify --tsa-ca` checking the tokens
// offline; an anchor the operator rewrites and re-signs with the server's own key no longer verifies.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { anchorSigningInput, type AuditAnchor } from '@svc/schemas';
import { createClient, type SvcClient } from '../lib/client.js';
import { runSvc } from '../testing/cli.test.helper.js';
import { createRecordFlow, freshEmail, grantAll } from '../testing/records.test.helper.js';
import { startTestServer, startTimestampAuthority, type TestServer, type TestTimestampAuthority } from '../testing/servers.test.helper.js';

// The server's signing, loaded at run time as servers.test.helper.ts loads the server (tsx resolves the .ts).
const serverSigning = '../../../server/src/consent/receipts/sign.js';

interface ServerContext {
  db: { prepare(sql: string): { run(...params: unknown[]): unknown } };
  keys: { privateKey: CryptoKey; kid: string };
}

interface AnchorWitnessing {
  anchor_id: string;
  externally_witnessed: boolean;
  witnesses: { witness_id: string; external: boolean; witnessed_at: string }[];
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('svc audit verify with an RFC 3161 authority', () => {
  let tsa: TestTimestampAuthority;
  let server: TestServer;
  let svc: SvcClient;
  let env: Record<string, string>;
  let cwd: string;
  let anchors: AuditAnchor[];

  const verify = (...flags: string[]) => runSvc(['audit', 'verify', '--tsa-ca', tsa.caFile, ...flags], env, cwd);

  /** Advances the test clock fifteen minutes and waits for the next anchor and its time-stamp. */
  async function anchorNow(count: number): Promise<AuditAnchor> {
    server.advance(15 * 60);
    const anchor = await waitFor('an anchor', async () => (await svc.audit.anchors().page()).items[count]);
    await waitFor('its time-stamp', async () =>
      (await svc.audit.anchorReceipts(anchor.id)).some((r) => r.status === 'witnessed') ? true : undefined,
    );
    return anchor;
  }

  before(async () => {
    tsa = await startTimestampAuthority();
    server = await startTestServer({ witness: { tsaUrls: [tsa.url] } });
    svc = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
    env = {
      SVC_BASE_URL: server.url,
      SVC_API_TOKEN: server.sandbox.api_token,
      XDG_CONFIG_HOME: (cwd = mkdtempSync(join(tmpdir(), 'svc-witness-'))),
    };
    const flowId = await createRecordFlow(svc);
    await svc.consentRecords.create({ flow_id: flowId, subject: { email: freshEmail('witness') }, decisions: grantAll });
    const first = await anchorNow(0);
    await svc.consentRecords.create({ flow_id: flowId, subject: { email: freshEmail('witness') }, decisions: grantAll });
    anchors = [first, await anchorNow(1)];
  });
  after(async () => {
    await server?.dispose();
    await tsa?.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('verifies every anchor against the CA file and names the authority and the time, per anchor', async () => {
    const human = await verify('--require-external-witness');
    assert.equal(human.code, 0, human.stderr);
    assert.match(
      human.stdout,
      /^Audit trail verified: \d+ events, 2 anchors \(anchored through event \d+\), 2 witness receipts\.\n2 of 2 anchors witnessed externally:\n/,
    );
    for (const anchor of anchors) {
      assert.match(
        human.stdout,
        new RegExp(`  ${anchor.id} \\(events \\d+-\\d+\\): witnessed externally by ${tsa.url} at \\d{4}-\\d\\d-\\d\\dT`),
      );
    }
    const json = await verify('--json');
    assert.equal(json.code, 0, json.stderr);
    const verdict = JSON.parse(json.stdout) as { ok: boolean; externally_witnessed: number; anchor_witnessing: AnchorWitnessing[] };
    assert.deepEqual(
      verdict.anchor_witnessing.map((a) => [a.anchor_id, a.externally_witnessed, a.witnesses.map((w) => [w.witness_id, w.external])]),
      anchors.map((a) => [a.id, true, [[tsa.url, true]]]),
    );
    assert.equal(verdict.externally_witnessed, 2);
    // Without the CA file the tokens are not checked, and the command says so.
    const unchecked = await runSvc(['audit', 'verify'], env, cwd);
    assert.equal(unchecked.code, 0, unchecked.stderr);
    assert.match(unchecked.stdout, /NOT witnessed \(no verified receipt\); 1 RFC 3161 time-stamp\(s\) not checked \(give --tsa-ca\)/);
  });

  it('exits 1 once an anchor is rewritten and re-signed with the server key after it was time-stamped', async () => {
    const context = (server as unknown as { context: ServerContext }).context;
    const { signJcs } = (await import(serverSigning)) as { signJcs(value: unknown, key: CryptoKey, kid: string): Promise<string> };
    const anchor = anchors[1]!;
    const changed = { ...anchor, created_at: new Date(Date.parse(anchor.created_at!) - 3_600_000).toISOString() };
    changed.signature = await signJcs(anchorSigningInput(changed), context.keys.privateKey, context.keys.kid);
    const update = context.db.prepare('UPDATE audit_anchors SET created_at = ?, signature = ? WHERE id = ?');
    update.run(changed.created_at, changed.signature, anchor.id);
    try {
      // The server's own key vouches for the rewrite: only the authority's token tells.
      assert.equal((await runSvc(['audit', 'verify'], env, cwd)).code, 0);
      const failed = await verify('--json');
      assert.equal(failed.code, 1, failed.stderr);
      const verdict = JSON.parse(failed.stdout) as { ok: boolean; reason: string; anchor_id: string; message: string };
      assert.deepEqual([verdict.ok, verdict.reason, verdict.anchor_id], [false, 'witness_signature_invalid', anchor.id]);
      assert.match(verdict.message, new RegExp(`by ${tsa.url} does not verify: .*imprint_mismatch`));
      const human = await verify();
      assert.equal(human.code, 1);
      assert.match(human.stdout, /^Audit trail does NOT verify: time-stamp receipt \S+ of anchor \S+ by \S+ does not verify/);
    } finally {
      update.run(anchor.created_at, anchor.signature, anchor.id);
    }
    assert.equal((await verify()).code, 0);
  });
});
