// Test support for the client's suites (excluded from the published files by the `*.test.*` pattern).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';

/** The sandbox a reference test server seeds. */
export interface TestSandbox {
  base_url: string;
  application_id: string;
  publishable_key: string;
  api_token: string;
  flow_id: string | null;
  informed_flow_id?: string | null;
  /** The sandbox's confidential OAuth client, its secret and redirect URI. */
  oauth_client_id?: string | null;
  oauth_client_secret?: string;
  oauth_redirect_uri?: string | null;
  /** Every country cell by ISO code. */
  countries?: Record<string, { base_url: string; trust_url: string }>;
}

/** The part of the reference server's `startTestServer()` result the client tests use. */
export interface TestServer {
  url: string;
  sandbox: TestSandbox;
  dataDir: string;
  api(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  advance(seconds: number): void;
  dispose(): Promise<void>;
}

// The server depends on this package (it validates with its schemas), so the client's compilation cannot
// include the server's sources; the reference server is loaded at run time instead (tsx resolves the .ts).
const serverTesting = '../../../server/src/testing.js';

/** Options of the reference server's `startTestServer`: `witness.tsaUrls` names the audit trail's RFC 3161 authorities. */
export interface TestServerOptions {
  witness?: { tsaUrls: string[] };
}

/** Starts a real reference server on a free loopback port with a fresh data directory and a test clock. */
export async function startTestServer(options?: TestServerOptions): Promise<TestServer> {
  const module = (await import(serverTesting)) as { startTestServer(options?: TestServerOptions): Promise<TestServer> };
  return module.startTestServer(options);
}

/** The reference server's test RFC 3161 authority (`consent/audit/tsa-test-support.ts`): the part the client's tests use. */
export interface TestTimestampAuthority {
  /** Where to POST time-stamp requests. */
  url: string;
  /** The CA certificate's path (PEM) and text. */
  caFile: string;
  caPem: string;
  /** The authority's signer certificate, PEM. */
  tsaPem: string;
  /** A base64 DER TimeStampToken over SHA-256(`data`) (a string as UTF-8). */
  stamp(data: string | Uint8Array): Promise<string>;
  /** `token` (base64 DER) with its TSTInfo re-signed by a web server's certificate of the same CA (not for time-stamping). */
  resignedByWebServer(token: string): Promise<string>;
  close(): Promise<void>;
}

const tsaSupport = '../../../server/src/consent/audit/tsa-test-support.js';

/** How to make one: its CA's common name, and its keys' algorithm (RSA 2048, the default, or ECDSA P-256). */
export interface TestTimestampAuthorityOptions {
  name?: string;
  key?: 'rsa' | 'ec';
}

/** Starts an OpenSSL CA and time-stamping authority behind an HTTP front on a free loopback port. */
export async function startTimestampAuthority(options?: TestTimestampAuthorityOptions): Promise<TestTimestampAuthority> {
  const module = (await import(tsaSupport)) as {
    startTimestampAuthority(options?: TestTimestampAuthorityOptions): Promise<TestTimestampAuthority>;
  };
  return module.startTimestampAuthority(options);
}

/** A reference server of several country cells, each a {@link TestServer} on its own URL sharing the sandbox. */
export interface TestCells {
  cells: Record<string, TestServer>;
  first: TestServer;
  dispose(): Promise<void>;
}

/** Starts a reference server with a cell per country (default US and DE). */
export async function startTestCells(countries: readonly string[] = ['US', 'DE']): Promise<TestCells> {
  const module = (await import(serverTesting)) as { startTestCells(countries: readonly string[]): Promise<TestCells> };
  return module.startTestCells(countries);
}

/** A request a loopback server received. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A small `node:http` server on 127.0.0.1 that records each request and answers with `handler`. */
export interface Loopback {
  url: string;
  requests: Received[];
  close(): Promise<void>;
}

/** Starts a loopback server; `handler` gets each request (body read) and its attempt number from 1. */
export async function loopback(handler: (req: Received, res: ServerResponse, attempt: number) => void | Promise<void>): Promise<Loopback> {
  const requests: Received[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
    requests.push(received);
    await handler(received, res, requests.length);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers with a JSON body. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A loopback port that refuses connections: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
