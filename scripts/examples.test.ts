// The Node examples the docs show whole run as their header says, against a reference server started here:
// examples/server/verify-receipt.ts as a process (its `Run:` line), and examples/site/decisions.ts, any error
// failing the test. The webhook
// receivers run in packages/server/src/platform/webhooks/examples.test.ts.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createActiveFlow, grantAll } from '../packages/server/src/consent/records/test-support.js';
import { startTestServer, type TestServer } from '../packages/server/src/testing.js';
import { createDecisions } from '../examples/site/decisions.js';

const root = new URL('..', import.meta.url).pathname;
const run = promisify(execFile);

/** `SVC_API_TOKEN=... node --import tsx examples/server/verify-receipt.ts <record_id>`, from the repository root. */
function verifyReceipt(server: TestServer, recordId: string) {
  const env = { ...process.env, SVC_BASE_URL: server.url, SVC_API_TOKEN: server.sandbox.api_token };
  // `source` resolves @svc/client to its TypeScript, so the example runs without a build too.
  const args = ['--conditions=source', '--import', 'tsx', join(root, 'examples/server/verify-receipt.ts'), recordId];
  return run(process.execPath, args, { cwd: root, env, timeout: 60_000 });
}

describe('examples/server/verify-receipt.ts', () => {
  let server: TestServer;
  let recordId: string;

  before(async () => {
    server = await startTestServer();
    const flowId = await createActiveFlow(server);
    const res = await server.api('/api/v1/consent_records', {
      method: 'POST',
      json: { flow_id: flowId, subject: { email: 'reader@example.com' }, decisions: grantAll },
    });
    assert.equal(res.status, 201, await res.clone().text());
    recordId = ((await res.json()) as { consent_record: { id: string } }).consent_record.id;
  });
  after(() => server.dispose());

  it('verifies a record’s signed receipt with the JWKS, as its Run line says', async () => {
    const { stdout, stderr } = await verifyReceipt(server, recordId);
    assert.match(stdout, /^valid receipt /);
    assert.ok(stdout.includes(recordId), stdout);
    assert.equal(stderr, '');
  });

  it('fails loudly on a record that does not exist', async () => {
    await assert.rejects(verifyReceipt(server, 'rec_missing'), (err: { code?: number; stderr?: string }) => {
      assert.notEqual(err.code, 0);
      assert.match(err.stderr ?? '', /receipt: 404/);
      return true;
    });
  });
});

describe('examples/site/decisions.ts', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    // As the quick start says: the site's origin is an allowed origin of the application first.
    const res = await server.api(`/api/v1/applications/${server.sandbox.application_id}/allowed_origins`, {
      method: 'POST',
      json: { allowed_origin: { origin: 'http://localhost:3000' } },
    });
    assert.equal(res.status, 201, await res.clone().text());
  });
  after(() => server.dispose());

  const decisions = () =>
    createDecisions({
      baseUrl: server.url,
      apiToken: server.sandbox.api_token,
      flowId: server.sandbox.flow_id!,
      origin: 'http://localhost:3000',
    });

  it('creates a decision in each mode, and reads an order’s decision back', async () => {
    const svc = decisions();
    for (const mode of ['embed', 'popup', 'redirect'] as const) {
      const { session_token, order } = await svc.startDecision(mode);
      assert.match(session_token, /^dts_/);
      assert.deepEqual(await svc.orderStatus(order), { status: 'pending' });
    }
    assert.equal(await svc.orderStatus('no-such-order'), undefined);
  });

  it('believes no exchange token and no capture token the service did not issue', async () => {
    const svc = decisions();
    const { session_token } = await svc.startDecision('embed');
    await assert.rejects(svc.finishDecision(session_token, 'forged'));
    await assert.rejects(svc.signup({ svc_capture_token: 'forged', email: 'reader@example.com' }));
  });
});
