// Mailing connections through the client against the reference server and a stand-in of Mailchimp's Marketing API:
// connect an audience to a flow's purpose (its API key never comes back), list and read it, refuse an unknown
// audience as a typed validation error, and disconnect (the webhook removed at the provider).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, type SvcClient } from '../lib/client.js';
import { SvcNotFoundError, SvcValidationError } from '../lib/errors.js';
import { rejection } from '../testing/rejection.test.helper.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';

interface StandIn {
  url: string;
  webhooks: Map<string, Record<string, unknown>>;
  close(): Promise<void>;
}

// The stand-in lives with the server's tests; loaded at run time like the reference server itself.
const standIns = '../../../server/src/consent/mailing/test-support.js';
const KEY = 'client-test-key-0123456789abcdef-us21';

const config = {
  locale: 'en',
  policy_url: 'https://example.com/privacy',
  consent_duration: 'P1Y',
  purposes: [
    {
      key: 'newsletter',
      label: 'Email newsletter',
      description: 'Monthly news.',
      basis: 'consent' as const,
      mechanism: 'explicit' as const,
    },
  ],
};

describe('mailing connections through the client', () => {
  let server: TestServer;
  let mailchimp: StandIn;
  let svc: SvcClient;
  let flowId: string;

  before(async () => {
    server = await startTestServer();
    const { startMailchimp } = (await import(standIns)) as { startMailchimp(list: string, permission: string): Promise<StandIn> };
    mailchimp = await startMailchimp('aud1', 'perm_email_1');
    svc = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
    const flow = await svc.flows.create({ pattern: 'standard', title: 'Newsletter', config });
    await svc.flows.activate(flow.id);
    flowId = flow.id;
  });
  after(async () => {
    await server.dispose();
    await mailchimp.close();
  });

  const request = (list_id = 'aud1') => ({
    provider: 'mailchimp' as const,
    api_key: KEY,
    api_base_url: mailchimp.url,
    list_id,
    flow_id: flowId,
    purpose: 'newsletter',
    marketing_permission_id: 'perm_email_1',
  });

  it('connects, lists, reads and disconnects an audience; the key never comes back', async () => {
    const made = await svc.mailingConnections.create(request());
    assert.match(made.id, /^mlc_/);
    assert.equal(made.status, 'active');
    assert.equal(mailchimp.webhooks.size, 1, 'the service registered its webhook at the provider');
    const listed = await svc.mailingConnections.list().page();
    assert.deepEqual(
      listed.items.map((c) => c.id),
      [made.id],
    );
    const read = await svc.mailingConnections.get(made.id);
    assert.equal(read.list_id, 'aud1');
    assert.ok(!JSON.stringify([made, listed.items, read]).includes(KEY));
    await svc.mailingConnections.delete(made.id);
    assert.equal(mailchimp.webhooks.size, 0, 'the webhook is removed at the provider');
    assert.equal((await svc.mailingConnections.get(made.id)).status, 'disconnected');
  });

  it('refuses an audience the provider does not know as a validation error, and an unknown connection as not found', async () => {
    const refused = await rejection(svc.mailingConnections.create(request('nope')), SvcValidationError);
    assert.equal(refused.status, 422);
    await rejection(svc.mailingConnections.get('mlc_nosuchconnection00000'), SvcNotFoundError);
  });
});
