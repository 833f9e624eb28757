// The evidence packages drawn before, through the client against a reference server: newest first, each a summary
// whose id reads back the package as drawn.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connect } from '../lib/connection.js';
import { createClient } from '../lib/client.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { listEvidencePackages } from './evidence-packages.js';

describe('listEvidencePackages against the reference server', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  it('lists the packages drawn, newest first, paging through every one', async () => {
    const options = { baseUrl: server.url, apiToken: server.sandbox.api_token };
    const svc = createClient(options);
    const first = await svc.transferRegister.evidencePackage();
    const second = await svc.residencyPosture.evidencePackage();
    const connection = connect(options);
    const page = await listEvidencePackages(connection, { limit: 1 }).page();
    assert.deepEqual(
      page.items.map((p) => [p.id, p.format_type]),
      [[second.evidence_package_id, 'svc.residency_posture.v1']],
    );
    const all = [];
    for await (const summary of listEvidencePackages(connection, { limit: 1 })) all.push(summary.id);
    assert.deepEqual(all, [second.evidence_package_id, first.evidence_package_id]);
  });
});
