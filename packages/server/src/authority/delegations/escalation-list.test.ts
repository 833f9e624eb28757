// `GET /api/v1/oap/escalations?created_since=`: the escalations created at or after an instant, oldest first, paged
// within that window (what a console's chart of the last days reads, however many escalations came before).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../testing.js';
import { agentToken, call, check, grant, newAgent, signIn } from './test-support.js';

let server: TestServer;
let token: string;
const made: string[] = [];

const escalate = async () => {
  const res = await check(server, token, { scope: 'payments:write', action: 'write', value: 500, currency: 'EUR' });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  made.push(res.body.authority_check.escalation.id as string);
};
const ids = async (query: string) => {
  const res = await call(server, `/api/v1/oap/escalations?${query}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { ids: (res.body.escalations as { id: string }[]).map((e) => e.id), next: res.body.next_cursor as string | null };
};

let split: number;

before(async () => {
  server = await startTestServer();
  const ada = await signIn(server, 'ada@example.com');
  const agent = await newAgent(server, 'Travel agent');
  const g = await grant(server, ada, agent.id, {
    delegation_type: 'ai_agent',
    delegated_scopes: ['payments:write'],
    bounds: { value: { max_per_transaction: 100, currency: 'EUR' }, escalation: { allowed: true } },
  });
  token = await agentToken(server, g.id, agent);
  for (let i = 0; i < 3; i += 1) await escalate();
  server.advance(2 * 86_400);
  token = await agentToken(server, g.id, agent); // the first one has expired by now
  split = server.context.clock.now() - 86_400_000;
  for (let i = 0; i < 3; i += 1) await escalate();
});
after(() => server.dispose());

describe('GET /api/v1/oap/escalations?created_since=', () => {
  it('answers only the escalations created at or after the instant, oldest first, in any offset', async () => {
    assert.deepEqual((await ids('limit=100')).ids, made);
    const since = new Date(split).toISOString();
    assert.deepEqual((await ids(`created_since=${encodeURIComponent(since)}`)).ids, made.slice(3));
    const offset = new Date(split + 3_600_000).toISOString().replace('Z', '+01:00');
    assert.deepEqual((await ids(`created_since=${encodeURIComponent(offset)}`)).ids, made.slice(3));
    const exact = await call(server, `/api/v1/oap/escalations/${made[3]}`);
    assert.deepEqual((await ids(`created_since=${encodeURIComponent(exact.body.escalation.created_at)}`)).ids, made.slice(3), 'at counts');
    assert.deepEqual((await ids(`created_since=${encodeURIComponent(new Date(server.context.clock.now() + 1000).toISOString())}`)).ids, []);
  });

  it('pages within the window: next_cursor keeps the filter and ends with it', async () => {
    const since = encodeURIComponent(new Date(split).toISOString());
    const seen: string[] = [];
    let query = `created_since=${since}&limit=2`;
    for (let page = 0; page < 5; page += 1) {
      const { ids: got, next } = await ids(query);
      seen.push(...got);
      if (!next) break;
      query = `created_since=${since}&limit=2&cursor=${next}`;
    }
    assert.deepEqual(seen, made.slice(3));
  });

  it('refuses an instant that is not RFC 3339 with an offset: 400 {message, code} naming created_since', async () => {
    for (const bad of ['2024-01-01', 'yesterday', '2024-01-01T00:00:00', '1700000000', '']) {
      const res = await call(server, `/api/v1/oap/escalations?created_since=${encodeURIComponent(bad)}`);
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.code, 'invalid_parameters', bad);
      assert.match(res.body.message, /created_since/, bad);
    }
  });
});
