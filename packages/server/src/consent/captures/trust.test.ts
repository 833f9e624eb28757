// A page of another origin holding the organisation's publishable key tries to commit a capture: Errors rule 2 names
// the answer (422 browser_commit_not_allowed), it records nothing, and the page cannot read it (no CORS headers).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../testing.js';
import {
  captureRequest,
  createActiveFlow,
  createCommitApplication,
  expectError,
  originOf,
  recordCount,
  validDecisions,
} from './test-support.js';

describe('a committing capture from an origin that is not allowed', () => {
  let server: TestServer;
  let committing: { key: string; flow: string };

  before(async () => {
    server = await startTestServer();
    const { key, flow } = await createCommitApplication(server);
    committing = { key, flow };
  });
  after(() => server.dispose());

  const body = (flowId: string, extra: Record<string, unknown> = {}) => ({
    flow_id: flowId,
    decisions: validDecisions,
    subject: { email: 'mallory@example.com' },
    ...extra,
  });

  it('is 422 browser_commit_not_allowed naming commit, records nothing and carries no CORS headers', async () => {
    const before = recordCount(server);
    const res = await captureRequest(server, body(committing.flow, { commit: true }), {
      key: committing.key,
      origin: 'https://evil.example',
    });
    assert.equal(res.headers.get('access-control-allow-origin'), null);
    const json = await expectError(res, 422, 'browser_commit_not_allowed');
    assert.deepEqual(
      json.errors?.map((e) => [e.path, e.code]),
      [['commit', 'browser_commit_not_allowed']],
    );
    assert.match(json.message, /allowed origin/);
    assert.equal(recordCount(server), before);
  });

  it('is the same 422 for an application that never enabled browser commit', async () => {
    const flowId = await createActiveFlow(server);
    const res = await captureRequest(server, body(flowId, { commit: true }), { origin: 'https://evil.example' });
    await expectError(res, 422, 'browser_commit_not_allowed');
  });

  it('a capture that does not commit, from that origin, stays the 403 origin_not_allowed', async () => {
    const res = await captureRequest(server, body(committing.flow), { key: committing.key, origin: 'https://evil.example' });
    assert.equal(res.headers.get('access-control-allow-origin'), null);
    await expectError(res, 403, 'origin_not_allowed');
  });

  it('commits from the allowed origin', async () => {
    const res = await captureRequest(server, body(committing.flow, { commit: true }), { key: committing.key });
    assert.equal(res.status, 201, await res.clone().text());
    assert.equal(res.headers.get('access-control-allow-origin'), originOf(server));
  });
});
