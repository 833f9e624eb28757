import { serve, type ServerType } from '@hono/node-server';
import type { ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { createApp } from './app.js';
import { timeoutOptions, type ServerTimeouts } from './infra/http/timeouts.js';
import { createTestClock, systemClock, type Clock, type TestClock } from './infra/clock.js';
import type { ServerContext } from './infra/context.js';
import { openDatabase } from './infra/db.js';
import { loadSigningKeys } from './infra/keys.js';
import { DomainEvents } from './infra/events.js';
import { runCloseHooks } from './infra/lifecycle.js';
import { Metrics } from './infra/metrics.js';
import { demoFlowSeeder } from './platform/flows/sandbox.js';
import { ensureSandbox, type Sandbox, type SandboxSeeder } from './platform/account/sandbox.js';
import { oauthSandboxSeeder } from './platform/oauth/sandbox.js';
import { consoleSandboxSeeder } from './console/sandbox.js';
import { Cells } from './infra/cells/directory.js';
import { DEFAULT_COUNTRIES, parseCountries } from './infra/cells/config.js';
import { createRateLimits, rateLimitsFromEnv, type RateLimitOptions } from './infra/limits/policies.js';
import { configureMail, mailOptionsFromEnv, mailSettingsOf, type MailOptions } from './infra/mail/index.js';
import { startMail } from './people/mail/index.js';
import { configureWitnesses, witnessOptionsFromEnv, witnessSettingsOf, type WitnessOptions } from './consent/audit/witnesses.js';

/** Options of {@link startServer}. */
export interface StartServerOptions {
  /** TCP port of the first country's cell (each further cell takes the next port); 0 picks free ones. Default `PORT` or 4010. */
  port?: number;
  /** Interface to listen on. Default `HOST` or `127.0.0.1`. */
  host?: string;
  /** How long a client may take over its headers, its request and between requests; default `infra/http/timeouts.ts`. */
  timeouts?: Partial<ServerTimeouts>;
  /**
   * Where SQLite, keys and `sandbox.json` live (further cells under `cells/<code>/`; the control database, shared by
   * every cell, is `control.sqlite` here). Default `SVC_DATA_DIR` or `.svc`.
   */
  dataDir?: string;
  /** A clock to read instead of the wall clock; pass `true` for a fresh test clock (`SVC_TEST_CLOCK=1`). */
  clock?: Clock | TestClock | boolean;
  /** The home countries, one cell each, first country first. Default `SVC_COUNTRIES` or `US,DE`. */
  countries?: readonly string[];
  /**
   * Request limits (see `infra/limits/policies.ts`): each left out keeps its default; `false` turns them all off.
   * Default from `SVC_RATE_LIMITS` and `SVC_TRUSTED_PROXIES`, else the defaults.
   */
  rateLimits?: RateLimitOptions | false;
  /**
   * Where the server's mail goes (receipts, sign-in codes, approval requests): `{smtpUrl: 'smtp://host:port', from}`.
   * Without `smtpUrl` mail stays in the sandbox mailbox (`/playground/mailbox`). Default `SVC_SMTP_URL`, `SVC_MAIL_FROM`.
   */
  mail?: MailOptions;
  /**
   * The audit trail's external witnesses: `{tsaUrls: ['https://freetsa.org/tsr']}`, RFC 3161 time-stamping
   * authorities (http or https; credentials in a URL become Basic authentication), each anchor sent to every one.
   * None: the local witness (development only). Default `SVC_WITNESS_TSA_URL` (comma-separated).
   */
  witness?: WitnessOptions;
}

/** One country cell of a running server. */
export interface RunningCell {
  country: string;
  /** The cell's base URL (its hosted pages live here too). */
  url: string;
  context: ServerContext;
}

/** A running reference server. */
export interface RunningServer {
  /** Base URL of the first country's cell, e.g. `http://127.0.0.1:4010`. */
  url: string;
  /** The seeded sandbox (also written to `<dataDir>/sandbox.json`). */
  sandbox: Sandbox;
  /** The first cell's context (database, clock, keys), for tests and tools in the same process. */
  context: ServerContext;
  /** Every cell by country code, the first one included. */
  cells: Record<string, RunningCell>;
  /** Stops accepting connections, waits for open ones, and closes the databases. */
  close(): Promise<void>;
}

/** Extra sandbox seeding steps; route modules register theirs here. */
export const sandboxSeeders: SandboxSeeder[] = [];

function isTestClock(clock: unknown): clock is TestClock {
  return typeof clock === 'object' && clock !== null && 'advance' in clock;
}

/** The first country's cell keeps the data directory itself (as before cells existed); the others a folder each. */
const cellDir = (dataDir: string, country: string, first: boolean) => (first ? dataDir : join(dataDir, 'cells', country.toLowerCase()));

function listen(
  app: ReturnType<typeof createApp>,
  port: number,
  host: string,
  serverOptions: ServerOptions,
): Promise<{ server: ServerType; url: string }> {
  return new Promise((resolveServer, reject) => {
    const server: ServerType = serve({ fetch: app.fetch, port, hostname: host, serverOptions }, () => {
      const address = server.address() as AddressInfo;
      const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolveServer({ server, url: `http://${hostForUrl === '0.0.0.0' ? '127.0.0.1' : hostForUrl}:${address.port}` });
    });
    server.once('error', reject);
  });
}

function closeServer(server: ServerType): Promise<void> {
  return new Promise<void>((done) => {
    server.close(() => done());
    // Idle keep-alive sockets would hold close() open.
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  });
}

/**
 * Starts the reference server: one cell per home country, each with its own database, keys and port, sharing the
 * control plane (organisation configuration: one database every cell's connection attaches); seeds the sandbox in
 * the first cell and listens.
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const port = options.port ?? Number(process.env.PORT ?? 4010);
  const host = options.host ?? process.env.HOST ?? '127.0.0.1';
  const dataDir = resolve(options.dataDir ?? process.env.SVC_DATA_DIR ?? '.svc');
  const countries = options.countries
    ? parseCountries(options.countries.join(','))
    : parseCountries(process.env.SVC_COUNTRIES ?? DEFAULT_COUNTRIES.join(','));
  const wantsTestClock = options.clock === true || (options.clock === undefined && process.env.SVC_TEST_CLOCK === '1');
  const clock = wantsTestClock ? createTestClock() : typeof options.clock === 'object' ? options.clock : systemClock;
  const cells = new Cells();
  const rateLimits = createRateLimits(options.rateLimits ?? rateLimitsFromEnv(process.env));
  const mail = mailSettingsOf(options.mail ?? mailOptionsFromEnv(process.env));
  const tsaUrls = witnessSettingsOf(options.witness ?? witnessOptionsFromEnv(process.env));

  const contexts: ServerContext[] = [];
  for (const [index, country] of countries.entries()) {
    const dir = cellDir(dataDir, country, index === 0);
    const db = openDatabase(dir, dataDir);
    contexts.push({
      db,
      clock,
      ...(isTestClock(clock) ? { testClock: clock } : {}),
      keys: await loadSigningKeys(dir),
      metrics: new Metrics(),
      events: new DomainEvents(),
      dataDir: dir,
      controlDataDir: dataDir,
      country,
      cells,
      baseUrl: '',
      trustUrl: '',
      ...(rateLimits ? { rateLimits } : {}),
    });
    configureMail(contexts.at(-1)!, mail);
    configureWitnesses(contexts.at(-1)!, tsaUrls);
  }
  const listening: { server: ServerType; ctx: ServerContext }[] = [];
  try {
    for (const [index, ctx] of contexts.entries()) {
      const { server, url } = await listen(createApp(ctx), port === 0 ? 0 : port + index, host, timeoutOptions(options.timeouts));
      listening.push({ server, ctx });
      ctx.baseUrl = url;
      ctx.trustUrl = url;
      cells.add({ country: ctx.country, base_url: url, trust_url: url, jwks: ctx.keys.jwks, context: ctx });
    }
  } catch (error) {
    await Promise.all(listening.map(({ server }) => closeServer(server)));
    for (const ctx of contexts) ctx.db.close();
    throw error;
  }
  // Once every cell listens (a failed start closes the databases): the receipt listener and the mail worker.
  for (const ctx of contexts) startMail(ctx);
  const first = contexts[0]!;
  const sandbox = ensureSandbox(first, [demoFlowSeeder, oauthSandboxSeeder, consoleSandboxSeeder, ...sandboxSeeders]);

  let closed: Promise<void> | undefined;
  return {
    url: first.baseUrl,
    sandbox,
    context: first,
    cells: Object.fromEntries(contexts.map((ctx) => [ctx.country, { country: ctx.country, url: ctx.baseUrl, context: ctx }])),
    close() {
      // Close hooks (the webhook worker) finish their writes while the databases are still open.
      closed ??= (async () => {
        await Promise.all(contexts.map((ctx) => runCloseHooks(ctx)));
        await Promise.all(listening.map(({ server }) => closeServer(server)));
        for (const ctx of contexts) ctx.db.close();
      })();
      return closed;
    },
  };
}
