// `GET /api/v1/applications/{id}/consent_activity`: the counts per purpose per UTC day, right across withdrawals and
// days, only over the window asked, and only for the account's own applications with an API token.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ConsentActivity } from '@svc/schemas';
import { otherAccount } from '../../surfaces/comply/test-support.js';
import { personAccessToken } from '../../platform/oauth/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { createActiveFlow, createRecord, grantAll } from './test-support.js';

const DAY = 86_400;

describe('consent activity', () => {
  let server: TestServer;
  let flowId: string;
  let n = 0;
  const fresh = () => `activity${++n}@example.com`;
  const path = (days?: number, app = server.sandbox.application_id) =>
    `/api/v1/applications/${app}/consent_activity${days === undefined ? '' : `?days=${days}`}`;
  const today = () => new Date(server.context.clock.now()).toISOString().slice(0, 10);
  const read = async (days?: number): Promise<ConsentActivity> => {
    const res = await server.api(path(days));
    assert.equal(res.status, 200, await res.clone().text());
    return ((await res.json()) as { consent_activity: ConsentActivity }).consent_activity;
  };
  const counts = (activity: ConsentActivity, purpose: string) =>
    activity.days
      .filter((d) => d.purpose === purpose)
      .map(({ date, granted, denied, withdrawn }) => ({ date, granted, denied, withdrawn }));
  const withdraw = async (id: string, purposes?: string[]) => {
    const res = await server.api(`/api/v1/consent_records/${id}/withdraw`, { method: 'POST', json: purposes ? { purposes } : {} });
    assert.equal(res.status, 200, await res.clone().text());
  };

  before(async () => {
    server = await startTestServer();
    flowId = await createActiveFlow(server);
  });
  after(() => server.dispose());

  it('counts grants, refusals and withdrawals per purpose per day, a withdrawal on the day it was made', async () => {
    const first = today();
    assert.deepEqual((await read()).days, [], 'nothing yet');
    const a = await createRecord(server, { flow_id: flowId, subject: { email: fresh() }, decisions: grantAll });
    await createRecord(server, { flow_id: flowId, subject: { email: fresh() }, decisions: grantAll });
    const declined = { ...grantAll, newsletter: { decision: 'declined' } };
    await createRecord(server, { flow_id: flowId, subject: { email: fresh() }, decisions: declined });
    await withdraw(a.id, ['newsletter']);

    let activity = await read();
    assert.equal(activity.application_id, server.sandbox.application_id);
    assert.equal(activity.to, first);
    assert.equal(Date.parse(activity.to) - Date.parse(activity.from), 29 * DAY * 1000, '30 days, both ends included');
    assert.deepEqual(counts(activity, 'newsletter'), [{ date: first, granted: 2, denied: 1, withdrawn: 1 }]);
    assert.deepEqual(counts(activity, 'research'), [{ date: first, granted: 3, denied: 0, withdrawn: 0 }]);
    assert.deepEqual(counts(activity, 'service'), [], 'a notice is neither given nor refused');

    server.advance(DAY);
    const second = today();
    await withdraw(a.id); // the rest of a's purposes: research revoked, analytics objected to
    activity = await read();
    assert.deepEqual(counts(activity, 'newsletter'), [{ date: first, granted: 2, denied: 1, withdrawn: 1 }], 'withdrawn once only');
    assert.deepEqual(counts(activity, 'research'), [
      { date: first, granted: 3, denied: 0, withdrawn: 0 },
      { date: second, granted: 0, denied: 0, withdrawn: 1 },
    ]);
    assert.deepEqual(counts(activity, 'analytics'), [{ date: second, granted: 0, denied: 0, withdrawn: 1 }]);

    const lastDay = await read(1);
    assert.equal(lastDay.from, second);
    assert.deepEqual(
      lastDay.days.map((d) => d.date),
      lastDay.days.map(() => second),
      'days=1 is today only',
    );
    server.advance(30 * DAY);
    assert.deepEqual((await read()).days, [], 'thirty days on, nothing is in the window');
  });

  it('refuses days out of range', async () => {
    for (const days of ['0', '91', 'x', '1.5']) {
      const res = await server.api(`${path()}?days=${days}`);
      assert.equal(res.status, 400, `days=${days}`);
      assert.ok(((await res.json()) as { message: string }).message);
    }
  });

  it("answers 404 for another account's application, and for an application of its own to the other account", async () => {
    const other = otherAccount(server, 'activity');
    const theirs = await server.api(path(), { headers: { authorization: `Bearer ${other.token}` } });
    assert.equal(theirs.status, 404);
    const ours = await server.api(path(undefined, other.applicationId));
    assert.equal(ours.status, 404);
    const unknown = await server.api(path(undefined, 'tp_dev_nosuch'));
    assert.equal(unknown.status, 404);
  });

  it("refuses the publishable key and a person's access token", async () => {
    const publishable = await server.api(path(), { headers: { authorization: '', 'x-publishable-key': server.sandbox.publishable_key } });
    assert.ok([401, 403].includes(publishable.status), `publishable key: ${publishable.status}`);
    const person = await personAccessToken(server, 'activity-person@example.com', 'openid');
    const asPerson = await server.api(path(), { headers: { authorization: `Bearer ${person}` } });
    assert.ok([401, 403].includes(asPerson.status), `access token: ${asPerson.status}`);
  });

  it('a read-only API token reads it', async () => {
    const made = await server.api('/api/v1/api_tokens', { method: 'POST', json: { api_token: { name: 'viewer', permissions: ['read'] } } });
    const { api_token } = (await made.json()) as { api_token: { token: string } };
    const res = await server.api(path(), { headers: { authorization: `Bearer ${api_token.token}` } });
    assert.equal(res.status, 200);
  });
});
