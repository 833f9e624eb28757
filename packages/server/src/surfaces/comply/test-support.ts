// Test support for the Comply surface: active and pending agreements, a second application with a capturable flow,
// consent records imported in bulk, and another account with its own API token.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { hashSecret } from '../../infra/ids.js';
import { recordFlowConfig } from '../../consent/records/test-support.js';
import type { TestServer } from '../../testing.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Calls the API and answers status and parsed body. */
export async function call(
  server: TestServer,
  path: string,
  init: RequestInit & { json?: unknown; token?: string } = {},
): Promise<{ status: number; body: Json; headers: Headers }> {
  const { token, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (token) headers.set('authorization', `Bearer ${token}`);
  const res = await server.api(path, { ...rest, headers });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : {}, headers: res.headers };
}

/** Asserts a status (and an error code), answering the body. */
export async function expect(
  server: TestServer,
  path: string,
  status: number,
  init: Parameters<typeof call>[2] & { code?: string } = {},
): Promise<Json> {
  const { code, ...rest } = init;
  const res = await call(server, path, rest);
  assert.equal(res.status, status, `${rest.method ?? 'GET'} ${path}: ${JSON.stringify(res.body)}`);
  if (code) assert.equal(res.body.code, code, JSON.stringify(res.body));
  if (status >= 400) assert.ok(typeof res.body.message === 'string' && res.body.message.length > 0, 'an error has a message');
  return res.body;
}

const TEXT = 'Data collaboration terms.\n';

/** An agreement of one party and a quorum of one, pending (nobody signed). */
export async function pendingAgreement(server: TestServer, email = 'signer@example.com'): Promise<Json> {
  const body = await expect(server, '/api/v1/agreements', 201, {
    method: 'POST',
    json: {
      agreement: {
        title: 'Clean room terms',
        document: { text: TEXT, sha256: createHash('sha256').update(TEXT).digest('hex') },
        parties: [{ email, home_country: 'US' }],
        quorum: 1,
      },
    },
  });
  return body.agreement as Json;
}

async function step(server: TestServer, token: string, json: Json): Promise<Json> {
  const res = await fetch(`${server.url}/decisions/${token}/transitions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(server.url).origin },
    body: JSON.stringify(json),
  });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return JSON.parse(text) as Json;
}

/** An agreement whose one party signed: active. Answers its id. */
export async function activeAgreement(server: TestServer): Promise<string> {
  const agreement = await pendingAgreement(server);
  const token = agreement.party_details[0].session_token as string;
  const sent = await step(server, token, { action: 'send_code' });
  await step(server, token, { action: 'verify', code: sent.sandbox_code });
  await step(server, token, { action: 'sign', name: 'Signer' });
  const read = await expect(server, `/api/v1/agreements/${agreement.id}`, 200);
  assert.equal(read.agreement.status, 'active');
  return agreement.id as string;
}

/** A new application of the sandbox account, homed in `country` when given. */
export async function createApplication(server: TestServer, name: string, country?: string): Promise<string> {
  const body = await expect(server, '/api/v1/applications', 201, {
    method: 'POST',
    json: { application: { name, ...(country ? { home_country: country } : {}) } },
  });
  return body.application.id as string;
}

/** An active capturable flow (newsletter and research are the consent purposes) of `applicationId`. */
export async function createCapturableFlow(server: TestServer, applicationId: string, title = 'Signup'): Promise<string> {
  const created = await expect(server, '/api/v1/flows', 201, {
    method: 'POST',
    json: { flow: { pattern: 'standard', title, application_id: applicationId, config: recordFlowConfig } },
  });
  await expect(server, `/api/v1/flows/${created.flow.id}/activate`, 200, { method: 'POST' });
  return created.flow.id as string;
}

/** One row to import: the subject, the consent purposes granted, and when. */
export interface Row {
  email: string;
  granted: ('newsletter' | 'research')[];
  captured_at: string;
}

/** Imports records into a flow (each consent purpose granted or declined, analytics not objected to). */
export async function importRecords(server: TestServer, flowId: string, rows: Row[]): Promise<Json[]> {
  const body = await expect(server, '/api/v1/consent_records/imports', 201, {
    method: 'POST',
    json: {
      flow_id: flowId,
      records: rows.map((r) => ({
        subject: { email: r.email },
        captured_at: r.captured_at,
        decisions: {
          newsletter: { decision: r.granted.includes('newsletter') ? 'granted' : 'declined' },
          research: { decision: r.granted.includes('research') ? 'granted' : 'declined' },
          analytics: { decision: 'granted' },
        },
      })),
    },
  });
  assert.equal(body.import.refused_count, 0, JSON.stringify(body.import.results?.slice(0, 3)));
  return body.import.results as Json[];
}

/** Another account with an application and an admin API token of its own (answers the token). */
export function otherAccount(server: TestServer, suffix = 'other'): { token: string; applicationId: string } {
  const db = server.context.db;
  const now = new Date().toISOString();
  const accountId = `acct_comply_${suffix}`;
  const applicationId = `tp_dev_comply${suffix}`;
  const token = `comply-${suffix}-token-${'x'.repeat(24)}`;
  db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').run(accountId, 'Other', now);
  db.prepare(
    "INSERT INTO applications (id, account_id, name, environment, created_at, updated_at) VALUES (?, ?, 'Other', 'development', ?, ?)",
  ).run(applicationId, accountId, now, now);
  db.prepare('INSERT INTO api_tokens (id, account_id, name, permissions, token_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
    `api_token_comply${suffix}`,
    accountId,
    'other',
    JSON.stringify(['read', 'write', 'admin']),
    hashSecret(token),
    now,
  );
  return { token, applicationId };
}

/** An API token of the sandbox account holding `permissions`. */
export async function tokenWith(server: TestServer, permissions: string[]): Promise<string> {
  const body = await expect(server, '/api/v1/api_tokens', 201, {
    method: 'POST',
    json: { api_token: { name: permissions.join('+'), permissions } },
  });
  return body.api_token.token as string;
}
