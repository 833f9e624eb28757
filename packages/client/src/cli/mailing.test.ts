// `svc mailing connect|list|disconnect` against the reference server and a stand-in of Mailchimp's Marketing API:
// the API key comes from a file (never an argument) and is never printed; a missing flag or key file is a usage
// error before anything is sent.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { MailingConnection } from '@svc/schemas';
import { createClient } from '../lib/client.js';
import { runSvc } from '../testing/cli.test.helper.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { EXIT } from './run.js';

interface StandIn {
  url: string;
  webhooks: Map<string, unknown>;
  close(): Promise<void>;
}

const standIns = '../../../server/src/consent/mailing/test-support.js';
const KEY = 'cli-test-key-0123456789abcdef-us21';

describe('svc mailing against the reference server', () => {
  let server: TestServer;
  let mailchimp: StandIn;
  let flowId: string;
  const home = mkdtempSync(join(tmpdir(), 'svc-mailing-'));
  const svc = (argv: string[], env: Record<string, string> = {}) =>
    runSvc(argv, { SVC_BASE_URL: server.url, SVC_API_TOKEN: server.sandbox.api_token, XDG_CONFIG_HOME: home, ...env }, home);

  before(async () => {
    server = await startTestServer();
    const { startMailchimp } = (await import(standIns)) as { startMailchimp(list: string, permission: string): Promise<StandIn> };
    mailchimp = await startMailchimp('aud1', 'perm_email_1');
    const client = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
    const flow = await client.flows.create({
      pattern: 'standard',
      title: 'Newsletter',
      config: {
        locale: 'en',
        policy_url: 'https://example.com/privacy',
        consent_duration: 'P1Y',
        purposes: [{ key: 'newsletter', label: 'Email newsletter', description: 'Monthly news.', basis: 'consent', mechanism: 'explicit' }],
      },
    });
    await client.flows.activate(flow.id);
    flowId = flow.id;
  });
  after(async () => {
    await server.dispose();
    await mailchimp.close();
  });

  it('connects with the key from its file, lists and disconnects, never printing the key', async () => {
    const keyFile = join(home, 'mailchimp.key');
    writeFileSync(keyFile, `${KEY}\n`, { mode: 0o600 });
    const connect = ['mailing', 'connect', '--provider', 'mailchimp', '--list', 'aud1', '--flow', flowId, '--purpose', 'newsletter'];
    const base = ['--permission', 'perm_email_1', '--api-base-url', mailchimp.url];
    const noKey = await svc([...connect, ...base]);
    assert.equal(noKey.code, EXIT.usage);
    assert.match(noKey.stderr, /--api-key-file/);
    const missing = await svc(['mailing', 'connect', '--provider', 'mailchimp', '--api-key-file', keyFile]);
    assert.equal(missing.code, EXIT.usage);
    assert.equal(mailchimp.webhooks.size, 0, 'nothing was sent');

    const made = await svc([...connect, ...base, '--api-key-file', keyFile, '--json']);
    assert.equal(made.code, EXIT.ok, made.stderr);
    const connection = JSON.parse(made.stdout) as MailingConnection;
    assert.match(connection.id, /^mlc_/);
    assert.ok(!made.stdout.includes(KEY));
    assert.equal(mailchimp.webhooks.size, 1);

    const listed = await svc(['mailing', 'list']);
    assert.equal(listed.code, EXIT.ok, listed.stderr);
    assert.match(listed.stdout, new RegExp(`${connection.id}\\s+mailchimp\\s+aud1\\s+newsletter\\s+active`));

    const cut = await svc(['mailing', 'disconnect', connection.id]);
    assert.equal(cut.code, EXIT.ok, cut.stderr);
    assert.equal(mailchimp.webhooks.size, 0);
  });
});
