// Agent identities over HTTP: registration (linked to one of the account's OAuth clients or not), reads, pagination,
// the suspend/resume/revoke state machine with its refusals, activity, account scoping and who may call.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashSecret, newSecret } from '../../infra/ids.js';
import { personAccessToken } from '../../platform/oauth/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';

type Json = Record<string, any>;

let server: TestServer;
const base = '/api/v1/agent_identities';

before(async () => {
  server = await startTestServer();
});
after(() => server.dispose());

async function call(
  path: string,
  init: { method?: string; json?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Json }> {
  const res = await server.api(path, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    ...(init.headers ? { headers: init.headers } : {}),
    ...(init.json === undefined ? {} : { json: init.json }),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

const create = async (json: Json, headers?: Record<string, string>) => call(base, { json, ...(headers ? { headers } : {}) });
const act = (id: string, action: string, headers?: Record<string, string>) =>
  call(`${base}/${id}/${action}`, { method: 'POST', ...(headers ? { headers } : {}) });

async function newToken(permissions: string[]): Promise<string> {
  const res = await call('/api/v1/api_tokens', { json: { api_token: { name: permissions.join('+'), permissions } } });
  assert.equal(res.status, 201);
  return res.body.api_token.token as string;
}

async function newClient(
  applicationId = server.sandbox.application_id,
  headers?: Record<string, string>,
  uri = 'https://agent.example/cb',
): Promise<string> {
  const res = await call(`/api/v1/applications/${applicationId}/oauth_clients`, {
    json: { oauth_client: { name: 'Agent runtime', client_type: 'confidential', redirect_uris: [uri] } },
    ...(headers ? { headers } : {}),
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.oauth_client.client_id as string;
}

async function activity(type: string): Promise<Json[]> {
  const res = await call(`/api/v1/applications/${server.sandbox.application_id}/activity?type=${type}&limit=100`);
  assert.equal(res.status, 200);
  return res.body.activity_events as Json[];
}

const personToken = () => personAccessToken(server);

describe('agent identities', () => {
  it('registers an identity with the defaults, and reads it back', async () => {
    const created = await create({ display_name: '  Travel assistant  ' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const agent = created.body.agent_identity;
    assert.match(agent.id, /^agt_dev_[A-Za-z0-9]{16}$/);
    assert.deepEqual(
      { ...agent, id: undefined, created_at: undefined, updated_at: undefined },
      {
        id: undefined,
        display_name: 'Travel assistant',
        agent_type: 'assistant',
        status: 'active',
        delegation_grant_id: null,
        oauth_application_id: null,
        metadata: {},
        created_at: undefined,
        updated_at: undefined,
        suspended_at: null,
        revoked_at: null,
      },
    );
    assert.equal(agent.created_at, agent.updated_at);
    const read = await call(`${base}/${agent.id}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, { agent_identity: agent });
    const events = await activity('agent_identity.created');
    assert.ok(events.some((e) => e.data.agent_identity_id === agent.id && e.data.api_token_id !== null));
  });

  it("links an identity to one of the account's OAuth clients by client_id, keeping its type and metadata", async () => {
    const clientId = await newClient();
    const metadata = { model: 'gpt-x', version: 3, owners: ['ops'], nested: { a: { b: true } } };
    const created = await create({ display_name: 'Payments bot', agent_type: 'autonomous', metadata, oauth_application_id: clientId });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.agent_identity.oauth_application_id, clientId);
    assert.equal(created.body.agent_identity.agent_type, 'autonomous');
    assert.deepEqual(created.body.agent_identity.metadata, metadata);
  });

  it("takes the region of the linked client's application", async () => {
    const app = await call('/api/v1/applications', { json: { application: { name: 'EU shop', environment: 'production', region: 'eu' } } });
    assert.equal(app.status, 201, JSON.stringify(app.body));
    const clientId = await newClient(app.body.application.id as string);
    const created = await create({ display_name: 'EU agent', oauth_application_id: clientId });
    assert.equal(created.status, 201);
    assert.match(created.body.agent_identity.id, /^agt_eu_/);
  });

  it('drops a __proto__ key from metadata rather than let it become a prototype', async () => {
    const res = await server.api(base, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"display_name":"Proto","metadata":{"__proto__":{"polluted":true},"kept":1}}',
    });
    assert.equal(res.status, 201);
    const { agent_identity: agent } = (await res.json()) as Json;
    assert.deepEqual(agent.metadata, { kept: 1 });
    assert.equal(({} as Json).polluted, undefined);
    assert.deepEqual((await call(`${base}/${agent.id}`)).body.agent_identity.metadata, { kept: 1 });
  });

  it('refuses an oauth_application_id that is not a live OAuth client of the account, naming the field', async () => {
    const deleted = await newClient();
    assert.equal(
      (await server.api(`/api/v1/applications/${server.sandbox.application_id}/oauth_clients/${deleted}`, { method: 'DELETE' })).status,
      204,
    );
    for (const value of ['oc_doesnotexist000000000', server.sandbox.application_id, deleted, 'x']) {
      const res = await create({ display_name: 'A', oauth_application_id: value });
      assert.equal(res.status, 422, value);
      assert.equal(res.body.errors[0].path, 'oauth_application_id');
      assert.match(res.body.message, /oauth_application_id/);
    }
  });

  it('pages through the list with the cursor (no repeats, no gaps) and filters by status', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i += 1)
      made.push((await create({ display_name: `Pager ${i}`, agent_type: 'workflow' })).body.agent_identity.id as string);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await call(`${base}?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200);
      assert.ok(res.body.agent_identities.length <= 2);
      seen.push(...res.body.agent_identities.map((a: Json) => a.id as string));
      cursor = res.body.next_cursor as string | null;
      pages += 1;
    } while (cursor && pages < 50);
    assert.equal(new Set(seen).size, seen.length);
    assert.deepEqual(
      seen.filter((id) => made.includes(id)),
      made,
    );

    await act(made[0]!, 'suspend');
    await act(made[1]!, 'revoke');
    const suspended = await call(`${base}?status=suspended&limit=100`);
    assert.deepEqual(
      suspended.body.agent_identities.map((a: Json) => a.id),
      [made[0]],
    );
    const revoked = await call(`${base}?status=revoked&limit=100`);
    assert.deepEqual(
      revoked.body.agent_identities.map((a: Json) => a.id),
      [made[1]],
    );
    const active = await call(`${base}?status=active&limit=100`);
    assert.ok(active.body.agent_identities.every((a: Json) => a.status === 'active'));
    assert.equal((await call(`${base}?status=paused`)).status, 400);
    assert.equal((await call(`${base}?cursor=bogus`)).status, 400);
  });

  it('suspends, resumes and revokes; repeats are harmless; revoked is final (409 invalid_transition)', async () => {
    const { id } = (await create({ display_name: 'Lifecycle' })).body.agent_identity as Json;
    server.advance(60);
    const suspended = await act(id, 'suspend');
    assert.equal(suspended.status, 200);
    assert.equal(suspended.body.agent_identity.status, 'suspended');
    assert.ok(suspended.body.agent_identity.suspended_at);
    assert.equal(suspended.body.agent_identity.updated_at, suspended.body.agent_identity.suspended_at);

    server.advance(60);
    const again = await act(id, 'suspend');
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, suspended.body, 'a repeated suspend changes nothing');

    const resumed = await act(id, 'resume');
    assert.equal(resumed.status, 200);
    assert.equal(resumed.body.agent_identity.status, 'active');
    assert.equal(resumed.body.agent_identity.suspended_at, null);
    assert.equal((await act(id, 'resume')).status, 200);

    const revoked = await act(id, 'revoke');
    assert.equal(revoked.status, 200);
    assert.equal(revoked.body.agent_identity.status, 'revoked');
    assert.ok(revoked.body.agent_identity.revoked_at);
    assert.deepEqual((await act(id, 'revoke')).body, revoked.body);

    for (const [action, to] of [
      ['resume', 'active'],
      ['suspend', 'suspended'],
    ] as const) {
      const res = await act(id, action);
      assert.equal(res.status, 409, action);
      assert.equal(res.body.code, 'invalid_transition');
      assert.match(res.body.message, new RegExp(`from revoked to ${to}`));
      assert.deepEqual(
        res.body.errors.map((e: Json) => e.path),
        ['status'],
      );
    }
    assert.equal((await call(`${base}/${id}`)).body.agent_identity.status, 'revoked');

    // One activity event per change, none for the repeats or the refusals.
    const changes = (await Promise.all(['suspended', 'resumed', 'revoked'].map((t) => activity(`agent_identity.${t}`))))
      .flat()
      .filter((e) => e.data.agent_identity_id === id)
      .map((e) => `${e.type}:${e.data.from}>${e.data.to}`);
    assert.deepEqual(changes.sort(), [
      'agent_identity.resumed:suspended>active',
      'agent_identity.revoked:active>revoked',
      'agent_identity.suspended:active>suspended',
    ]);
  });

  it('revokes a suspended identity directly', async () => {
    const { id } = (await create({ display_name: 'Paused then gone' })).body.agent_identity as Json;
    await act(id, 'suspend');
    const revoked = await act(id, 'revoke');
    assert.equal(revoked.status, 200);
    assert.equal(revoked.body.agent_identity.status, 'revoked');
  });

  it("hides another account's identities (404) and refuses its OAuth clients (422)", async () => {
    const db = server.context.db;
    const now = new Date().toISOString();
    db.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acct_agents_other', 'Other', ?)").run(now);
    db.prepare(`INSERT INTO applications (id, account_id, name, environment, created_at, updated_at)
                VALUES ('tp_dev_agentsother', 'acct_agents_other', 'Theirs', 'development', ?, ?)`).run(now, now);
    const theirToken = newSecret();
    db.prepare(`INSERT INTO api_tokens (id, account_id, name, permissions, token_hash, created_at)
                VALUES ('api_token_agents_other', 'acct_agents_other', 'Theirs', '["read","write"]', ?, ?)`).run(
      hashSecret(theirToken),
      now,
    );
    const theirs = { authorization: `Bearer ${theirToken}` };

    const theirClient = await newClient('tp_dev_agentsother', theirs);
    const theirAgent = await create({ display_name: 'Their agent', oauth_application_id: theirClient }, theirs);
    assert.equal(theirAgent.status, 201);
    const theirId = theirAgent.body.agent_identity.id as string;

    assert.equal((await call(`${base}/${theirId}`)).status, 404);
    for (const action of ['suspend', 'resume', 'revoke']) assert.equal((await act(theirId, action)).status, 404, action);
    assert.equal((await call(`${base}/${theirId}`, { headers: theirs })).body.agent_identity.status, 'active');
    const ours = await call(`${base}?limit=100`);
    assert.ok(!ours.body.agent_identities.some((a: Json) => a.id === theirId));
    const theirList = await call(`${base}?limit=100`, { headers: theirs });
    assert.deepEqual(
      theirList.body.agent_identities.map((a: Json) => a.id),
      [theirId],
    );

    const borrowed = await create({ display_name: 'Borrowing', oauth_application_id: theirClient });
    assert.equal(borrowed.status, 422);
    assert.equal(borrowed.body.errors[0].path, 'oauth_application_id');
    assert.equal((await call(`${base}/agt_dev_doesnotexist0000`)).status, 404);
  });

  it('lets a read token read but not change; publishable keys and unauthenticated calls are refused', async () => {
    const { id } = (await create({ display_name: 'Guarded' })).body.agent_identity as Json;
    const reader = { authorization: `Bearer ${await newToken(['read'])}` };
    assert.equal((await call(base, { headers: reader })).status, 200);
    assert.equal((await call(`${base}/${id}`, { headers: reader })).status, 200);
    const refused = await create({ display_name: 'Nope' }, reader);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'insufficient_permissions');
    for (const action of ['suspend', 'resume', 'revoke']) assert.equal((await act(id, action, reader)).status, 403, action);

    const writer = { authorization: `Bearer ${await newToken(['write'])}` };
    assert.equal((await create({ display_name: 'By a writer' }, writer)).status, 201);
    assert.equal((await act(id, 'suspend', writer)).status, 200);

    const pk = { 'x-publishable-key': server.sandbox.publishable_key };
    for (const [method, path] of [
      ['GET', base],
      ['POST', base],
      ['GET', `${base}/${id}`],
      ['POST', `${base}/${id}/revoke`],
    ] as const) {
      const res = await fetch(server.url + path, {
        method,
        headers: { ...pk, 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: '{"display_name":"x"}' } : {}),
      });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(((await res.json()) as Json).code, 'publishable_key_not_allowed');
    }
    assert.equal((await fetch(server.url + base)).status, 401);
  });

  it("refuses a person's access token (403 person_token_not_allowed)", async () => {
    const { id } = (await create({ display_name: 'Not for people' })).body.agent_identity as Json;
    const person = { authorization: `Bearer ${await personToken()}` };
    assert.equal((await call('/api/v1/me', { headers: person })).body.kind, 'person');
    for (const [path, json] of [
      [base, undefined],
      [base, { display_name: 'x' }],
      [`${base}/${id}`, undefined],
      [`${base}/${id}/suspend`, {}],
    ] as const) {
      const res = await call(path, { headers: person, ...(json === undefined ? {} : { json }) });
      assert.equal(res.status, 403, path);
      assert.equal(res.body.code, 'person_token_not_allowed');
    }
    assert.equal((await call(`${base}/${id}`)).body.agent_identity.status, 'active');
  });

  it('describes every route in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${server.url}/.well-known/openapi`)).json()) as { paths: Record<string, Record<string, Json>> };
    assert.ok(doc.paths[base]?.get && doc.paths[base]?.post);
    assert.ok(doc.paths[`${base}/{id}`]?.get);
    for (const action of ['suspend', 'resume', 'revoke']) assert.ok(doc.paths[`${base}/{id}/${action}`]?.post?.responses['409'], action);
    const body = doc.paths[base]!.post!.requestBody.content['application/json'].schema as Json;
    assert.deepEqual(body.required, ['display_name']);
  });
});
