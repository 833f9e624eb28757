import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { createApp } from './app.js';
import { createTestClock, systemClock, type Clock, type TestClock } from './lib/clock.js';
import type { ServerContext } from './lib/context.js';
import { openDatabase } from './lib/db.js';
import { loadSigningKeys } from './lib/keys.js';
import { DomainEvents } from './lib/events.js';
import { runCloseHooks } from './lib/lifecycle.js';
import { Metrics } from './lib/metrics.js';
import { demoFlowSeeder } from './flows/sandbox.js';
import { ensureSandbox, type Sandbox, type SandboxSeeder } from './sandbox.js';
import { oauthSandboxSeeder } from './oauth/sandbox.js';
import { Cells } from './countries/directory.js';

/** Options of {@link startServer}. */
export interface StartServerOptions {
  /** TCP port; 0 picks a free one. Default `PORT` or 4010. */
  port?: number;
  /** Interface to listen on. Default `HOST` or `127.0.0.1`. */
  host?: string;
  /** Where SQLite, keys and `sandbox.json` live. Default `SVC_DATA_DIR` or `.svc`. */
  dataDir?: string;
  /** A clock to read instead of the wall clock; pass `true` for a fresh test clock (`SVC_TEST_CLOCK=1`). */
  clock?: Clock | TestClock | boolean;
}

/** A running reference server. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:4010`. */
  url: string;
  /** The seeded sandbox (also written to `<dataDir>/sandbox.json`). */
  sandbox: Sandbox;
  /** The server's context (database, clock, keys), for tests and tools in the same process. */
  context: ServerContext;
  /** Stops accepting connections, waits for open ones, and closes the database. */
  close(): Promise<void>;
}

/** Extra sandbox seeding steps; route modules register theirs here. */
export const sandboxSeeders: SandboxSeeder[] = [];

function isTestClock(clock: unknown): clock is TestClock {
  return typeof clock === 'object' && clock !== null && 'advance' in clock;
}

/** Starts the reference server: opens storage, loads keys, seeds the sandbox, listens. */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const port = options.port ?? Number(process.env.PORT ?? 4010);
  const host = options.host ?? process.env.HOST ?? '127.0.0.1';
  const dataDir = resolve(options.dataDir ?? process.env.SVC_DATA_DIR ?? '.svc');
  const wantsTestClock = options.clock === true || (options.clock === undefined && process.env.SVC_TEST_CLOCK === '1');
  const clock = wantsTestClock ? createTestClock() : typeof options.clock === 'object' ? options.clock : systemClock;

  const db = openDatabase(dataDir);
  const ctx: ServerContext = {
    db,
    clock,
    ...(isTestClock(clock) ? { testClock: clock } : {}),
    keys: await loadSigningKeys(dataDir),
    metrics: new Metrics(),
    events: new DomainEvents(),
    dataDir,
    country: 'US',
    cells: new Cells(),
    baseUrl: '',
    trustUrl: '',
  };
  const app = createApp(ctx);

  const server: ServerType = await new Promise((resolveServer, reject) => {
    const s = serve({ fetch: app.fetch, port, hostname: host }, () => resolveServer(s));
    s.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  ctx.baseUrl = `http://${hostForUrl === '0.0.0.0' ? '127.0.0.1' : hostForUrl}:${address.port}`;
  ctx.trustUrl = ctx.baseUrl;
  const sandbox = ensureSandbox(ctx, [demoFlowSeeder, oauthSandboxSeeder, ...sandboxSeeders]);

  let closed: Promise<void> | undefined;
  return {
    url: ctx.baseUrl,
    sandbox,
    context: ctx,
    close() {
      // Close hooks (the webhook worker) finish their writes while the database is still open.
      closed ??= runCloseHooks(ctx).then(() => new Promise<void>((done) => {
        server.close(() => {
          db.close();
          done();
        });
        // Idle keep-alive sockets would hold close() open.
        if ('closeIdleConnections' in server) server.closeIdleConnections();
      }));
      return closed;
    },
  };
}
