// An application's consent activity through the client, against a running reference server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient } from '../lib/client.js';
import { connect } from '../lib/connection.js';
import { SvcBadRequestError, SvcNotFoundError } from '../lib/errors.js';
import { createRecordFlow, freshEmail, grantAll } from '../testing/records.test.helper.js';
import { rejection } from '../testing/rejection.test.helper.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { getConsentActivity } from './consent-activity.js';

describe('getConsentActivity', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  it("reads today's grants and withdrawals per purpose; refuses days out of range and an unknown application", async () => {
    const svc = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
    const flowId = await createRecordFlow(svc);
    const record = await svc.consentRecords.create({ flow_id: flowId, subject: { email: freshEmail() }, decisions: grantAll });
    await svc.consentRecords.withdraw(record.id, { purposes: ['newsletter'] });
    const connection = connect({ baseUrl: server.url, apiToken: server.sandbox.api_token });
    const activity = await getConsentActivity(connection, server.sandbox.application_id, { days: 7 });
    assert.equal(activity.application_id, server.sandbox.application_id);
    const newsletter = activity.days.filter((d) => d.purpose === 'newsletter');
    assert.deepEqual(
      newsletter.map(({ granted, denied, withdrawn }) => ({ granted, denied, withdrawn })),
      [{ granted: 1, denied: 0, withdrawn: 1 }],
    );
    assert.equal(newsletter[0]!.date, activity.to);
    await rejection(getConsentActivity(connection, server.sandbox.application_id, { days: 0 }), SvcBadRequestError);
    await rejection(getConsentActivity(connection, 'tp_dev_nosuch'), SvcNotFoundError);
  });
});
