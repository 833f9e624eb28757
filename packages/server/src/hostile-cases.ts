// Test support: a table-driven suite of malformed or hostile requests, each expecting a 4xx with a `message`.
// Requests go out through node:http, not fetch, so paths reach the server byte for byte (no `..` folding) and
// headers can repeat.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './testing.js';

/** Ids and credentials a case can use through `{{name}}` placeholders in its path, headers and body. */
export interface HostileFixtures {
  /** The sandbox admin API token. */
  admin: string;
  /** An API token holding only `read`. */
  read: string;
  /** An API token holding `read` and `write`. */
  write: string;
  /** The sandbox publishable key. */
  pk: string;
  /** The sandbox application id. */
  app: string;
  /** The sandbox demo flow id (active). */
  flow: string;
  /** A draft flow of the sandbox account. */
  draft: string;
  /** The server's own origin (an allowed origin of the sandbox application). */
  origin: string;
}

/** One row: a raw request and the 4xx it must get. */
export interface HostileCase {
  name: string;
  method?: string;
  /** Raw request target, e.g. `/api/v1/flows/{{flow}}`; sent as is. */
  path: string;
  /**
   * Request headers. `authorization` defaults to `Bearer {{admin}}`; set it to null to send none. An array value
   * sends the header once per entry.
   */
  headers?: Record<string, string | string[] | null>;
  /** Raw body (string or bytes); a non-string `json` is serialised and sent as application/json. */
  body?: string | Uint8Array;
  json?: unknown;
  /** The expected status (or any of several). */
  status: number | number[];
  /** Expected error `code`, when the case pins one. */
  code?: string;
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function fill(value: string, fixtures: Record<string, string>): string {
  return value.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => fixtures[name] ?? whole);
}

/** Sends one raw HTTP request to the server (no normalisation of the target, repeated headers allowed). */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string | string[]>,
  body?: string | Uint8Array,
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    // The server may answer (413) and close before a huge body is fully written; that answer is what counts.
    req.on('error', reject);
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

/** Makes the fixtures on a running test server: tokens of each permission and a draft flow. */
export async function makeFixtures(server: TestServer): Promise<HostileFixtures> {
  const token = async (name: string, permissions: string[]) => {
    const res = await server.api('/api/v1/api_tokens', { method: 'POST', json: { api_token: { name, permissions } } });
    return ((await res.json()) as { api_token: { token: string } }).api_token.token;
  };
  const draft = await server.api('/api/v1/flows', { method: 'POST', json: { flow: { pattern: 'standard', title: 'Draft' } } });
  return {
    admin: server.sandbox.api_token,
    read: await token('hostile read', ['read']),
    write: await token('hostile write', ['read', 'write']),
    pk: server.sandbox.publishable_key,
    app: server.sandbox.application_id,
    flow: server.sandbox.flow_id ?? '',
    draft: ((await draft.json()) as { flow: { id: string } }).flow.id,
    origin: new URL(server.url).origin,
  };
}

/**
 * Registers a `describe` block that starts a test server and runs every case as its own test: the answer must
 * be the expected 4xx (never a 5xx) with a JSON body carrying a `message` string. Modules add their own tables
 * in their own test files with this helper; `extra` makes more placeholders (a person's token, an agent's).
 */
export function describeHostile(
  title: string,
  cases: HostileCase[],
  extra?: (server: TestServer) => Promise<Record<string, string>>,
): void {
  describe(title, () => {
    let server: TestServer;
    let fixtures: Record<string, string>;
    before(async () => {
      // Two cells (the first answers): an id of another cell (`…_de_…`) names a country that is served.
      server = await startTestServer({ countries: ['US', 'DE'] });
      fixtures = { ...(await makeFixtures(server)), ...(await extra?.(server)) };
    });
    after(() => server.dispose());

    for (const row of cases) {
      it(`${row.name} -> ${Array.isArray(row.status) ? row.status.join('|') : row.status}`, async () => {
        const headers: Record<string, string | string[]> = { authorization: 'Bearer {{admin}}' };
        for (const [k, v] of Object.entries(row.headers ?? {})) {
          if (v === null) delete headers[k.toLowerCase()];
          else headers[k.toLowerCase()] = v;
        }
        let body = row.body;
        if (row.json !== undefined) {
          body = JSON.stringify(row.json);
          headers['content-type'] ??= 'application/json';
        }
        const filled = Object.fromEntries(
          Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.map((x) => fill(x, fixtures)) : fill(v, fixtures)]),
        );
        const res = await rawRequest(
          server.url,
          row.method ?? 'GET',
          fill(row.path, fixtures),
          filled,
          typeof body === 'string' ? fill(body, fixtures) : body,
        );
        assert.ok(res.status < 500, `got ${res.status}: ${res.text.slice(0, 200)}`);
        const expected = Array.isArray(row.status) ? row.status : [row.status];
        assert.ok(expected.includes(res.status), `expected ${expected.join('|')}, got ${res.status}: ${res.text.slice(0, 300)}`);
        const parsed = JSON.parse(res.text) as { message?: unknown; code?: unknown };
        assert.equal(typeof parsed.message, 'string', `no message in ${res.text.slice(0, 200)}`);
        assert.ok((parsed.message as string).length > 0);
        if (row.code) assert.equal(parsed.code, row.code);
      });
    }
  });
}
