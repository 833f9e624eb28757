// What the Protect tests share: calls with any credential, a signed-in person, a second account, a second application,
// an active agreement (one party signs on the hosted page), and small makers of each resource.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { call, signIn, type Json, type Person } from '../../authority/delegations/test-support.js';
import { hashSecret, newId, newSecret } from '../../infra/ids.js';
import { startTestServer, type TestServer } from '../../testing.js';

export { call, signIn, type Json, type Person };

/** Asserts the status (showing the body when it differs) and answers the body. */
export async function expect(server: TestServer, status: number, path: string, init: Parameters<typeof call>[2] = {}): Promise<Json> {
  const res = await call(server, path, init);
  assert.equal(res.status, status, `${init.method ?? (init.json === undefined ? 'GET' : 'POST')} ${path}: ${JSON.stringify(res.body)}`);
  if (status >= 400) assert.equal(typeof res.body.message, 'string');
  return res.body;
}

/** Asserts a refusal: its status and code. */
export async function refusal(
  server: TestServer,
  status: number,
  code: string,
  path: string,
  init: Parameters<typeof call>[2] = {},
): Promise<Json> {
  const body = await expect(server, status, path, init);
  assert.equal(body.code, code, body.message);
  return body;
}

/** A second account with its own admin API token and application, written straight into storage (no signup API). */
export function otherAccount(server: TestServer): { token: string; applicationId: string } {
  const db = server.context.db;
  const now = new Date().toISOString();
  const accountId = newId('acct_');
  const token = newSecret();
  const applicationId = newId('tp_dev_');
  db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').run(accountId, 'Other', now);
  db.prepare(
    `INSERT INTO applications (id, account_id, name, environment, created_at, updated_at) VALUES (?, ?, 'Other app', 'development', ?, ?)`,
  ).run(applicationId, accountId, now, now);
  db.prepare(
    `INSERT INTO api_tokens (id, account_id, name, permissions, token_hash, created_at) VALUES (?, ?, 'other', '["read","write","admin"]', ?, ?)`,
  ).run(newId('api_token_'), accountId, hashSecret(token), now);
  return { token, applicationId };
}

/** An API token of the sandbox account with these permissions. */
export async function apiToken(server: TestServer, permissions: string[]): Promise<string> {
  const body = await expect(server, 201, '/api/v1/api_tokens', {
    json: { api_token: { name: `protect ${permissions.join(' ')}`, permissions } },
  });
  return body.api_token.token as string;
}

/** What most Protect tests start from: a fresh server, ada and bob signed in, and an API token that may only read. */
export async function startWithPeople(): Promise<{ server: TestServer; ada: Person; bob: Person; reader: string }> {
  const server = await startTestServer();
  const ada = await signIn(server, 'ada@example.com');
  const bob = await signIn(server, 'bob@example.com');
  const reader = await apiToken(server, ['read']);
  return { server, ada, bob, reader };
}

/** A second application of the sandbox account. */
export async function secondApplication(server: TestServer, name = 'Destination app'): Promise<string> {
  const body = await expect(server, 201, '/api/v1/applications', { json: { application: { name } } });
  return body.application.id as string;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function transition(server: TestServer, token: string, request: Json): Promise<Response> {
  return fetch(`${server.url}/decisions/${token}/transitions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(server.url).origin },
    body: JSON.stringify(request),
  });
}

async function step(server: TestServer, token: string, request: Json): Promise<Json> {
  const res = await transition(server, token, request);
  const body = (await res.json()) as Json;
  assert.equal(res.status, 200, JSON.stringify(body));
  return body;
}

/** An agreement of one party (quorum 1); `sign` walks the party's hosted signing page to the signature, making it active. */
export async function agreement(server: TestServer, sign = true): Promise<string> {
  const text = 'Data license terms\n\nThe licensee may read the listed categories.\n';
  const created = await expect(server, 201, '/api/v1/agreements', {
    json: {
      agreement: {
        title: 'Data license',
        document: { text, sha256: sha256(text) },
        parties: [{ email: 'lena@example.com', home_country: 'US' }],
        quorum: 1,
      },
    },
  });
  const { id, party_details } = created.agreement as { id: string; party_details: { session_token: string }[] };
  if (sign) {
    const session = party_details[0]!.session_token;
    const sent = await step(server, session, { action: 'send_code' });
    await step(server, session, { action: 'verify', code: sent.sandbox_code });
    await step(server, session, { action: 'sign', name: 'Lena Example' });
    const read = await expect(server, 200, `/api/v1/agreements/${id}`);
    assert.equal(read.agreement.status, 'active');
  }
  return id;
}

/** Makes a policy as `token` (the sandbox admin token when absent). */
export async function policy(server: TestServer, token: string | undefined, body: Json): Promise<Json> {
  return (await expect(server, 201, '/api/v1/policies', { ...(token ? { token } : {}), json: body })).policy as Json;
}
