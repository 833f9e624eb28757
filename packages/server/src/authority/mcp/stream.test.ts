// The gateway's event streams held against an agent that hoards them: one agent with many tokens gets no more than
// its cap, another agent is not starved by it, and a revoked grant's streams end when it is revoked.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agentToken, call, grant, newAgent, signIn, type Agent, type Json, type Person } from '../delegations/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { MAX_STREAMS_PER_AGENT, STREAM_MAX_MS } from './bounds.js';
import { openStreamCount } from './stream.js';

let server: TestServer;
let ada: Person;

before(async () => {
  server = await startTestServer();
  ada = await signIn(server, 'ada@example.com');
});
after(() => server.dispose());

const readGrant = { delegation_type: 'ai_agent', delegated_scopes: ['bookings:read'], bounds: { actions: ['read'] } };

/** `count` agent tokens of `agent`, from `grants` grants of ada's (the tokens spread over them). */
async function tokensOf(agent: Agent, count: number, grants = 1): Promise<{ grantIds: string[]; tokens: string[] }> {
  const grantIds: string[] = [];
  for (let i = 0; i < grants; i += 1) grantIds.push((await grant(server, ada, agent.id, readGrant)).id as string);
  const tokens: string[] = [];
  for (let i = 0; i < count; i += 1) tokens.push(await agentToken(server, grantIds[i % grants]!, agent));
  return { grantIds, tokens };
}

/** An open stream: its answer, and how its client goes away. */
interface Listening {
  res: Response;
  leave(): void;
}

async function listen(token: string): Promise<Listening> {
  const client = new AbortController();
  const res = await fetch(`${server.url}/mcp/v1/agent`, {
    signal: client.signal,
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
  });
  return { res, leave: () => client.abort() };
}

/** Waits for the server to see a client go (a network round, not the clock): 10 ms at a time, 5 s at most. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !check(); i += 1) await new Promise((r) => setTimeout(r, 10));
  assert.ok(check(), `timed out waiting for ${what}`);
}

describe('event streams per agent', () => {
  it(`refuses an agent its ${MAX_STREAMS_PER_AGENT + 1}th stream, whatever token it uses, and no other agent`, async () => {
    const hoarder = await newAgent(server, 'Hoarding agent');
    const { tokens } = await tokensOf(hoarder, MAX_STREAMS_PER_AGENT + 2, 2);
    const before = openStreamCount(server.context);
    const held: Listening[] = [];
    for (const token of tokens.slice(0, MAX_STREAMS_PER_AGENT)) held.push(await listen(token));
    assert.deepEqual(
      held.map((l) => l.res.status),
      Array(MAX_STREAMS_PER_AGENT).fill(200),
    );

    const refused = await listen(tokens[MAX_STREAMS_PER_AGENT]!);
    assert.equal(refused.res.status, 429);
    const body = (await refused.res.json()) as Json;
    assert.deepEqual(Object.keys(body).sort(), ['code', 'message']);
    assert.equal(body.code, 'too_many_streams');
    assert.match(body.message, new RegExp(`${MAX_STREAMS_PER_AGENT} across all its tokens`));
    assert.equal(refused.res.headers.get('retry-after'), String(STREAM_MAX_MS / 1000), 'when the server ends the oldest');
    assert.equal(openStreamCount(server.context), before + MAX_STREAMS_PER_AGENT, 'the refused GET holds nothing');
    // A token already listening is still told so first.
    assert.equal((await listen(tokens[0]!)).res.status, 409);

    const other = await newAgent(server, 'Another agent');
    const neighbour = await listen((await tokensOf(other, 1)).tokens[0]!);
    assert.equal(neighbour.res.status, 200, 'another agent is not held back');
    neighbour.leave();

    held.shift()!.leave();
    await until(() => openStreamCount(server.context) === before + MAX_STREAMS_PER_AGENT - 1, 'the stream left to end');
    const freed = await listen(tokens[MAX_STREAMS_PER_AGENT + 1]!);
    assert.equal(freed.res.status, 200, 'a closed stream frees its place');
    for (const l of [...held, freed]) l.leave();
    await until(() => openStreamCount(server.context) === before, 'every stream to end');
  });

  it('ends the streams of a revoked grant and of the grants made under it, at once; others stay open', { timeout: 10_000 }, async () => {
    const agent = await newAgent(server, 'Revoked agent');
    const revokedId = (await grant(server, ada, agent.id, { ...readGrant, allow_sub_delegation: true })).id as string;
    const keptId = (await grant(server, ada, agent.id, readGrant)).id as string;
    const tokens = [await agentToken(server, revokedId, agent), await agentToken(server, keptId, agent)];
    const helper = await newAgent(server, 'Helper agent');
    const child = await call(server, '/api/v1/delegations', {
      token: tokens[0],
      json: { delegate_id: helper.id, delegation_grant: { ...readGrant, parent_grant_id: revokedId } },
    });
    assert.equal(child.status, 201, JSON.stringify(child.body));
    tokens.push(await agentToken(server, child.body.delegation_grant.id, helper));
    const before = openStreamCount(server.context);
    const [revoked, kept, underRevoked] = await Promise.all(tokens.map(listen));
    assert.deepEqual(
      [revoked, kept, underRevoked].map((s) => s!.res.status),
      [200, 200, 200],
    );
    const revocation = await call(server, `/api/v1/delegations/${revokedId}/revoke`, { token: ada.token, method: 'POST' });
    assert.equal(revocation.status, 200, JSON.stringify(revocation.body));
    // Both streams end without the clock moving (else they would last their ten minutes, past this test's timeout).
    await Promise.all([revoked!, underRevoked!].map((s) => s.res.body!.pipeTo(new WritableStream())));
    assert.equal(openStreamCount(server.context), before + 1, 'the other grant’s stream stays');
    assert.equal((await listen(tokens[0]!)).res.status, 401, 'and the revoked token opens no other');
    kept!.leave();
    await until(() => openStreamCount(server.context) === before, 'the last stream to end');
  });
});
