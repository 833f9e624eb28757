// Test support: a real server on a free loopback port with its own data directory and a test clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer, type StartServerOptions } from './server.js';

/** A running test server plus small helpers for HTTP calls against it. */
export interface TestServer extends RunningServer {
  dataDir: string;
  /** `fetch` against the server with the sandbox admin token unless `headers.authorization` is given. */
  api(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  /** Moves the test clock forward. */
  advance(seconds: number): void;
  /** Closes the server and removes its data directory. */
  dispose(): Promise<void>;
}

/**
 * Starts a server in a fresh temporary data directory (or `dataDir`) with a test clock: one cell (`US`) unless
 * `countries` names more; the answer is the first cell's. `rateLimits` as `startServer` takes them (default: defaults).
 */
export async function startTestServer(
  options: {
    dataDir?: string;
    countries?: readonly string[];
    rateLimits?: StartServerOptions['rateLimits'];
    mail?: StartServerOptions['mail'];
    /** The audit trail's RFC 3161 authorities (`{tsaUrls}`); default none: the local witness. */
    witness?: StartServerOptions['witness'];
  } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'svc-test-'));
  const server = await startServer({
    port: 0,
    dataDir,
    clock: true,
    countries: options.countries ?? ['US'],
    ...(options.rateLimits === undefined ? {} : { rateLimits: options.rateLimits }),
    ...(options.mail === undefined ? {} : { mail: options.mail }),
    witness: options.witness ?? { tsaUrls: [] },
  });
  return testServer(server, dataDir, !options.dataDir);
}

/** A server of several country cells (default `US` and `DE`), each cell a {@link TestServer} sharing the sandbox. */
export interface TestCells {
  cells: Record<string, TestServer>;
  /** The first cell. */
  first: TestServer;
  dispose(): Promise<void>;
}

/** Starts one server with a cell per country, each callable on its own base URL with the sandbox's API token. */
export async function startTestCells(countries: readonly string[] = ['US', 'DE']): Promise<TestCells> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-test-'));
  const server = await startServer({ port: 0, dataDir, clock: true, countries });
  const cells = Object.fromEntries(
    Object.values(server.cells).map((cell) => [
      cell.country,
      testServer({ ...server, url: cell.url, context: cell.context }, dataDir, false),
    ]),
  );
  return {
    cells,
    first: cells[countries[0]!.toUpperCase()]!,
    async dispose() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function testServer(server: RunningServer, dataDir: string, removeDataDir: boolean): TestServer {
  return {
    ...server,
    dataDir,
    api(path, init = {}) {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (!headers.has('authorization') && !headers.has('x-publishable-key')) {
        headers.set('authorization', `Bearer ${server.sandbox.api_token}`);
      }
      if (json !== undefined) headers.set('content-type', 'application/json');
      return fetch(server.url + path, { ...rest, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) });
    },
    advance(seconds) {
      server.context.testClock?.advance(seconds);
    },
    async dispose() {
      await server.close();
      if (removeDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
