// svc.inbox.list against a running reference server: the person's token with inbox:read lists what organisations
// addressed to them, filtered and in both orders, walking the pages; a token without the scope, or an API token, is
// refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, type SvcClient } from '../lib/client.js';
import { SvcPermissionError } from '../lib/errors.js';
import { signInPerson } from '../testing/oauth.test.helper.js';
import { rejection } from '../testing/rejection.test.helper.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';

describe('inbox against the reference server', () => {
  let server: TestServer;
  let org: SvcClient;
  let person: SvcClient;
  const tokens: string[] = [];

  before(async () => {
    server = await startTestServer();
    org = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
    person = createClient({
      baseUrl: server.url,
      accessToken: (await signInPerson(server, 'ada@example.com', 'openid inbox:read')).access_token,
    });
    tokens.push(
      (
        await org.decisions.create({
          kind: 'consent',
          subject_ref: server.sandbox.flow_id!,
          delivery_mode: 'redirect',
          addressee: { email: 'Ada@Example.com' },
        })
      ).session_token,
    );
    await new Promise((r) => setTimeout(r, 5));
    for (const ref of ['expense-1', 'expense-2']) {
      tokens.push(
        (
          await org.decisions.create({
            kind: 'approval',
            subject_ref: ref,
            delivery_mode: 'redirect',
            addressee: { email: 'ada@example.com' },
          })
        ).session_token,
      );
      await new Promise((r) => setTimeout(r, 5));
    }
    await org.decisions.create({
      kind: 'approval',
      subject_ref: 'someone-else',
      delivery_mode: 'redirect',
      addressee: { email: 'bob@example.com' },
    });
  });
  after(() => server.dispose());

  it('lists the decisions addressed to the person, soonest deadline first, across every page', async () => {
    const rows = [];
    for await (const row of person.inbox.list({ limit: 1 })) rows.push(row);
    assert.deepEqual(
      rows.map((r) => r.session_token),
      tokens,
    );
    assert.equal(rows[0]!.kind, 'consent');
    assert.equal(rows[0]!.url, `${server.url}/decisions/${tokens[0]}`);
    assert.equal(rows[1]!.application_name, 'Sandbox application');
  });

  it('filters and sorts as asked', async () => {
    const approvals = await person.inbox.list({ kind: 'approval', sort: 'newest' }).page();
    assert.deepEqual(
      approvals.items.map((r) => r.session_token),
      [tokens[2], tokens[1]],
    );
    assert.equal(approvals.nextCursor, null);
    assert.deepEqual((await person.inbox.list({ trigger: 'value' }).page()).items, []);
    assert.equal((await person.inbox.list({ application_id: server.sandbox.application_id }).page()).items.length, 3);
  });

  it('is refused to a token without inbox:read and to an API token', async () => {
    const narrow = createClient({
      baseUrl: server.url,
      accessToken: (await signInPerson(server, 'ada@example.com', 'openid')).access_token,
    });
    const refused = await rejection(narrow.inbox.list().page(), SvcPermissionError);
    assert.equal(refused.reason, 'insufficient_scope');
    const api = await rejection(org.inbox.list().page(), SvcPermissionError);
    assert.equal(api.reason, 'person_token_required');
  });
});
