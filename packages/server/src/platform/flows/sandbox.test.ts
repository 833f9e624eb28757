// The sandbox's demo flows: the capturable one (for the consent field and the snippet) is seeded on first start,
// and a data directory seeded before it existed gains it, once, on its next start.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { capturabilityProblems } from '../../consent/records/attestation.js';
import { openDatabase } from '../../infra/db.js';
import { postRecord } from '../../consent/records/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';
import type { Flow } from '@svc/schemas';
import { CAPTURE_FLOW_SETTING, sandboxCaptureFlowId } from './sandbox.js';

const readSandboxFile = (dataDir: string) => JSON.parse(readFileSync(join(dataDir, 'sandbox.json'), 'utf8')) as Record<string, unknown>;

async function flowsOf(server: TestServer): Promise<Flow[]> {
  const res = await server.api('/api/v1/flows?limit=100');
  assert.equal(res.status, 200);
  return ((await res.json()) as { flows: Flow[] }).flows;
}

describe('the sandbox capture flow', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  it('is seeded on first start, active and capturable, with one purpose of each kind a form asks', async () => {
    const id = server.sandbox.capture_flow_id!;
    assert.match(id, /^flw_dev_/);
    assert.equal(sandboxCaptureFlowId(server.context), id);
    const onDisk = readSandboxFile(server.dataDir);
    assert.equal(onDisk.capture_flow_id, id);
    assert.equal(onDisk.flow_id, server.sandbox.flow_id);
    assert.equal(onDisk.informed_flow_id, server.sandbox.informed_flow_id);
    assert.equal(new Set([id, server.sandbox.flow_id, server.sandbox.informed_flow_id]).size, 3);

    const flow = ((await (await server.api(`/api/v1/flows/${id}`)).json()) as { flow: Flow }).flow;
    assert.equal(flow.status, 'active');
    assert.equal(flow.application_id, server.sandbox.application_id);
    assert.equal(flow.config.consent_duration, 'P1Y');
    assert.deepEqual(
      flow.config.steps.map((s) => s.type),
      ['review'],
    );
    assert.deepEqual(
      flow.config.purposes.map((p) => [p.basis, p.mechanism]),
      [
        ['consent', 'explicit'],
        ['legitimate_interest', 'opt_out'],
        ['contract', 'notice'],
      ],
    );
    assert.deepEqual(capturabilityProblems(flow.config), []);
  });

  it('takes recorded consent, where the standard demo flow (which verifies) is refused', async () => {
    const subject = { email: 'capture@example.com' };
    const taken = await postRecord(server, {
      flow_id: server.sandbox.capture_flow_id,
      subject,
      decisions: { newsletter: { decision: 'granted' } },
    });
    assert.equal(taken.status, 201, JSON.stringify(taken.body));
    const refused = await postRecord(server, {
      flow_id: server.sandbox.flow_id,
      subject,
      decisions: { newsletter: { decision: 'granted' } },
    });
    assert.deepEqual([refused.status, refused.body.code], [422, 'flow_not_capturable']);
  });
});

describe('a data directory seeded before the capture flow existed', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-sandbox-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('gains the capture flow on its next start, once, and keeps everything else', async () => {
    const first = await startTestServer({ dataDir });
    const original = first.sandbox;
    const captureId = original.capture_flow_id!;
    await first.close();

    // Turn the directory into one an older server wrote: no capture flow, no setting, no capture_flow_id.
    const db = openDatabase(dataDir);
    db.transaction(() => {
      db.prepare('DELETE FROM flow_versions WHERE flow_id = ?').run(captureId);
      db.prepare('DELETE FROM flows WHERE id = ?').run(captureId);
      db.prepare('DELETE FROM settings WHERE key = ?').run(CAPTURE_FLOW_SETTING);
      const stored = JSON.parse(db.prepare("SELECT value FROM settings WHERE key = 'sandbox'").pluck().get() as string) as Record<
        string,
        unknown
      >;
      delete stored.capture_flow_id;
      db.prepare("UPDATE settings SET value = ? WHERE key = 'sandbox'").run(JSON.stringify(stored));
    })();
    db.close();
    const { capture_flow_id: _gone, ...olderFile } = readSandboxFile(dataDir);
    writeFileSync(join(dataDir, 'sandbox.json'), JSON.stringify(olderFile, null, 2) + '\n');

    const second = await startTestServer({ dataDir });
    let gained: string;
    try {
      gained = second.sandbox.capture_flow_id!;
      assert.match(gained, /^flw_dev_/);
      assert.notEqual(gained, captureId);
      assert.equal(readSandboxFile(dataDir).capture_flow_id, gained, 'sandbox.json names it');
      assert.equal(second.sandbox.api_token, original.api_token, 'the sandbox token is unchanged');
      assert.equal(second.sandbox.flow_id, original.flow_id);
      assert.equal(second.sandbox.informed_flow_id, original.informed_flow_id);
      const flows = await flowsOf(second);
      assert.equal(flows.filter((f) => f.title === 'Demo: signup form consent').length, 1);
      assert.equal(flows.find((f) => f.id === gained)?.status, 'active');
      const taken = await postRecord(second, {
        flow_id: gained,
        subject: { email: 'late@example.com' },
        decisions: { newsletter: { decision: 'declined' } },
      });
      assert.equal(taken.status, 201, JSON.stringify(taken.body));
    } finally {
      await second.close();
    }

    // Later starts find it and seed nothing more.
    const third = await startTestServer({ dataDir });
    try {
      assert.equal(third.sandbox.capture_flow_id, gained);
      assert.equal(readSandboxFile(dataDir).capture_flow_id, gained);
      assert.equal((await flowsOf(third)).filter((f) => f.title === 'Demo: signup form consent').length, 1, 'not seeded twice');
      assert.equal((await flowsOf(third)).length, 3);
    } finally {
      await third.close();
    }
  });
});
