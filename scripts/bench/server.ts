// Requests per second of the reference server on loopback, each beside a bare Hono hello-world measured in the
// same run: POST /api/v1/decisions, POST /api/v1/consent_records, POST /api/v1/consent_tokens/verify with fresh
// consent tokens, and the OpenID provider's token endpoint with the refresh grant. The server runs with its default
// request limits (none applies to the sandbox API token); the decision create is also measured on a second server
// with every limit off (`rateLimits: false`), with an API token whose own rate_limit counts each request, and with a
// publishable key sent past its per-address limit (each answered 429, stored nothing).
// Run: tsx --conditions=source scripts/bench/server.ts   (or `pnpm bench server`). BENCH_SECONDS (default 5) and
// BENCH_CONNECTIONS (default 10) bound it; BENCH_ONLY=<words,...> runs only the scenarios whose name holds one of
// them (the hello runs always run). The servers run in a child process so autocannon does not share their event
// loop. BENCH_PROFILE=<dir> writes a CPU profile of the server process there.
// "vs hello" is the share of the bare hello-world's rate (the mean of the first and last hello runs); "vs floor" the
// share of the floor row above it; "target" says whether a figure meets the goal set for it (issue 13). The floor
// row is the same framework with one better-sqlite3 insert transaction of a decision-sized row (WAL,
// synchronous=NORMAL): what no create can beat on this machine.
// "cpu us" is the server process's CPU time per answer, which a busy neighbour on a shared host does not inflate.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// The ES module builds of hono and @hono/node-server, the very instances the server runs on: a second (CommonJS) copy
// would install its own global Response, and whichever server did not install it would answer on node-server's slow
// path (a real Response and a web stream per answer), about three times slower.
import { serve as serveNode } from '@hono/node-server';
import { Hono } from 'hono';
import { announceReady, cpuPerRequest, loadAutocannon, startChild, type LoadResult } from './lib/child-server.js';

/** better-sqlite3 (for the floor) is a dependency of the server package only. */
const fromServer = createRequire(fileURLToPath(new URL('../../packages/server/package.json', import.meta.url)));

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** Consent tokens minted for the verify run: more than 10 connections can verify in the run on this machine. */
const TOKENS = Number(process.env.BENCH_TOKENS ?? 200_000);
/** Goals (issue 13): a share of the hello-world rate, of the floor row above, or requests per second. */
const TARGETS: Record<string, { hello?: number; floor?: number; rate?: number }> = {
  'POST /api/v1/decisions': { floor: 50 },
  'POST /api/v1/consent_records': { rate: 1500 },
  'POST /api/v1/consent_tokens/verify': { hello: 50 },
};
/** BENCH_ONLY: the scenarios to run (by a word of their name); empty runs them all. */
const ONLY = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);

interface Ready {
  hello: string;
  svc: string;
  apiToken: string;
  /** The same server with every request limit off, its own sandbox token and demo flow. */
  unlimited: { svc: string; apiToken: string; flowId: string };
  /** An API token of `svc` with a rate limit of its own, far above the run: the limiter counts every request. */
  limitedToken: string;
  publishableKey: string;
  flowId: string;
  /** A capturable flow (no verification step) for the Record API. */
  recordFlowId: string;
  tokensFile: string;
  /** The sandbox OAuth client and a refresh token of a signed-in person, for the token endpoint run. */
  oauth: { basic: string; refreshToken: string };
}

// ---- child: the servers under test -------------------------------------------------------------------------

/**
 * The bare Hono server: hello world, a POST reading a small JSON body, and two floors, in a database opened as the
 * server opens its own: a create is the same POST plus one insert transaction of a row shaped like a decision (same
 * keys and indexes, the same terms text); a verify is the same POST plus one update transaction clearing one of the
 * same consent token hashes.
 */
async function serveHello(file: string, terms: string, tokenHashes: string[]): Promise<string> {
  const Database = fromServer('better-sqlite3') as typeof import('better-sqlite3');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE decisions (id TEXT PRIMARY KEY, session_token TEXT NOT NULL UNIQUE, account_id TEXT NOT NULL, terms TEXT,
    state TEXT, consent_transaction_id TEXT UNIQUE, exchange_token_hash TEXT UNIQUE, created_at TEXT NOT NULL);
    CREATE INDEX decisions_account ON decisions(account_id, created_at);
    CREATE TABLE consent_tokens (token_hash TEXT PRIMARY KEY, flow_id TEXT NOT NULL, expires_at TEXT NOT NULL, verified_at TEXT);`);
  const insert = db.prepare('INSERT INTO decisions (id, session_token, account_id, terms, state, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  const expires = new Date(Date.now() + 5 * 60_000).toISOString();
  const mint = db.prepare('INSERT INTO consent_tokens (token_hash, flow_id, expires_at) VALUES (?, ?, ?)');
  db.transaction(() => tokenHashes.forEach((hash) => mint.run(hash, 'flw_bench', expires)))();
  const clear = db.prepare(
    'UPDATE consent_tokens SET verified_at = ? WHERE token_hash = ? AND verified_at IS NULL RETURNING flow_id, expires_at',
  );

  const hello = new Hono();
  hello.get('/', (c) => c.text('Hello, world'));
  // The same framework reading a small JSON body: what any POST costs before the service does anything.
  hello.post('/', async (c) => c.json({ received: Object.keys(await c.req.json()).length }));
  hello.post('/floor', async (c) => {
    const body = (await c.req.json()) as { state: string };
    const id = `dec_${randomBytes(12).toString('base64url')}`;
    const createdAt = new Date().toISOString();
    insert.run(id, `dts_${randomBytes(32).toString('base64url')}`, 'acct_bench', terms, body.state, createdAt);
    return c.json({ decision: { id, state: body.state, created_at: createdAt } }, 201);
  });
  hello.post('/floor/verify', async (c) => {
    const { consent_token: token } = (await c.req.json()) as { consent_token: string };
    const row = clear.get(new Date().toISOString(), createHash('sha256').update(token).digest('hex'));
    return c.json({ valid: row !== undefined, ...row });
  });
  return new Promise<string>((resolve) => {
    serveNode({ fetch: hello.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(`http://127.0.0.1:${info.port}`));
  });
}

async function serve(): Promise<void> {
  const { startServer } = await import('@svc/server');

  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const server = await startServer({ port: 0, dataDir, clock: true });
  const { api_token: apiToken, flow_id: flowId } = server.sandbox;

  // One real decision, completed through the participant API, owns the minted tokens.
  const api = (path: string, body: unknown, auth = true) =>
    fetch(server.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${apiToken}` } : {}) },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<Record<string, any>>);
  const { decision } = await api('/api/v1/decisions', { kind: 'consent', subject_ref: flowId, delivery_mode: 'popup' });
  const step = (body: unknown) => api(`/decisions/${decision.session_token}/transitions`, body, false);
  await step({ action: 'begin' });
  const signedIn = await step({ action: 'sign_in', email: 'bench@example.com' });
  await step({ action: 'verify', code: signedIn.sandbox_code });
  const done = await step({ action: 'agree', granted: [], objected: [] });
  await api(`/api/v1/decisions/${decision.session_token}/exchange`, { exchange_token: done.completion.exchange_token });

  // Mint the rest straight into storage, hashed as the server stores them; verification is what is measured.
  const db = server.context.db;
  const row = db
    .prepare('SELECT id, account_id, application_id, flow_id, flow_version, consent_transaction_id, terms FROM decisions WHERE id = ?')
    .get(decision.id) as Record<string, string>;
  const now = new Date(server.context.clock.now());
  const expires = new Date(now.getTime() + 5 * 60_000).toISOString();
  const insert = db.prepare(`INSERT INTO consent_tokens (token_hash, decision_id, account_id, application_id, flow_id, flow_version,
    consent_transaction_id, issued_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const tokens: string[] = [];
  const hashes: string[] = [];
  db.transaction(() => {
    for (let i = 0; i < TOKENS; i += 1) {
      const token = randomBytes(32).toString('base64url');
      const hash = createHash('sha256').update(token).digest('hex');
      tokens.push(token);
      hashes.push(hash);
      insert.run(
        hash,
        row.id,
        row.account_id,
        row.application_id,
        row.flow_id,
        row.flow_version,
        row.consent_transaction_id,
        now.toISOString(),
        expires,
      );
    }
  })();
  const tokensFile = join(dataDir, 'tokens.json');
  writeFileSync(tokensFile, JSON.stringify(tokens));

  // A person signed in through the sandbox client (PAR, PKCE, the hosted pages), for the refresh grant run. A
  // confidential client's refresh token is not rotated, so every request of the run presents the same one.
  const refreshToken = await signInForBench(server.url, server.sandbox);
  const basic = `Basic ${Buffer.from(`${server.sandbox.oauth_client_id}:${server.sandbox.oauth_client_secret}`).toString('base64')}`;

  const recordFlowId = await capturableFlow(api);
  const { api_token: limited } = await api('/api/v1/api_tokens', {
    api_token: { name: 'bench (rate limited)', permissions: ['write'], rate_limit: { requests: 1_000_000, window_seconds: 86_400 } },
  });
  const unlimitedDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const unlimited = await startServer({ port: 0, dataDir: unlimitedDir, clock: true, countries: ['US'], rateLimits: false });
  const helloUrl = await serveHello(join(dataDir, 'floor.sqlite'), row.terms!, hashes);
  const ready: Ready = {
    hello: helloUrl,
    svc: server.url,
    apiToken,
    unlimited: { svc: unlimited.url, apiToken: unlimited.sandbox.api_token, flowId: unlimited.sandbox.flow_id! },
    limitedToken: limited.token as string,
    publishableKey: server.sandbox.publishable_key,
    flowId: flowId!,
    recordFlowId,
    tokensFile,
    oauth: { basic, refreshToken },
  };
  announceReady(ready, async () => {
    await Promise.all([server.close(), unlimited.close()]);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(unlimitedDir, { recursive: true, force: true });
  });
}

/** An active flow the Record API can capture into (no verification step, a consent duration), as records.ts makes. */
async function capturableFlow(api: (path: string, body: unknown) => Promise<Record<string, any>>): Promise<string> {
  const { flow } = await api('/api/v1/flows', {
    flow: {
      pattern: 'standard',
      title: 'Bench',
      config: {
        locale: 'en',
        policy_url: 'https://bench.example/privacy',
        consent_duration: 'P1Y',
        purposes: [
          { key: 'newsletter', label: 'Newsletter', basis: 'consent', mechanism: 'explicit' },
          { key: 'analytics', label: 'Analytics', basis: 'legitimate_interest', mechanism: 'opt_out' },
          { key: 'service', label: 'Service', basis: 'contract', mechanism: 'notice' },
        ],
        steps: [{ type: 'review' }],
      },
    },
  });
  await api(`/api/v1/flows/${flow.id}/activate`, {});
  return flow.id as string;
}

/** Signs a bench person in with the sandbox's OAuth client and answers their refresh token. */
async function signInForBench(
  base: string,
  sandbox: { oauth_client_id?: string | null; oauth_client_secret?: string; oauth_redirect_uri?: string | null },
): Promise<string> {
  const oauth = await import('oauth4webapi');
  const { Browser, discover, insecure } = await import('../../packages/server/src/platform/oauth/test-support.js');
  const as = await discover(base);
  const client = { client_id: sandbox.oauth_client_id! };
  const auth = oauth.ClientSecretBasic(sandbox.oauth_client_secret!);
  const verifier = oauth.generateRandomCodeVerifier();
  const pushed = await oauth.processPushedAuthorizationResponse(
    as,
    client,
    await oauth.pushedAuthorizationRequest(
      as,
      client,
      auth,
      {
        redirect_uri: sandbox.oauth_redirect_uri!,
        response_type: 'code',
        scope: 'openid offline_access',
        prompt: 'consent',
        state: 'bench',
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      },
      insecure,
    ),
  );
  const back = await new Browser(base).authorize(
    `${as.authorization_endpoint}?client_id=${client.client_id}&request_uri=${encodeURIComponent(pushed.request_uri)}`,
    'bench@example.com',
  );
  const params = oauth.validateAuthResponse(as, client, back, 'bench');
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, auth, params, sandbox.oauth_redirect_uri!, verifier, insecure),
  );
  return tokens.refresh_token!;
}

// ---- parent: the load ----------------------------------------------------------------------------------------

type Measured = LoadResult & { cpuUs: number };
type Row = [name: string, result: Measured, note: string];
type Measure = (options: Record<string, unknown>) => Promise<Measured>;

/** The scenarios between the two hello runs, in order (a floor row precedes the service rows it is the floor of). */
function scenarios(ready: Ready, measure: Measure, tokens: string[]): [string, () => Promise<[Measured, string]>][] {
  const auth = { authorization: `Bearer ${ready.apiToken}`, 'content-type': 'application/json' };
  const post = (url: string, headers: Record<string, string>, body: unknown) =>
    measure({ url, method: 'POST', headers, body: JSON.stringify(body) });
  const floorBody = { kind: 'consent', state: 'bench' };
  const decisionBody = { kind: 'consent', subject_ref: ready.flowId, delivery_mode: 'popup', state: 'bench' };
  // Both verify runs take the tokens in the same order, each from its own database, so each sees fresh tokens.
  const verifyRun = async (url: string, headers: Record<string, string>) => {
    let next = 0;
    const result = await measure({
      url,
      method: 'POST',
      headers,
      requests: [
        {
          setupRequest: (request: Record<string, unknown>) => ({
            ...request,
            body: JSON.stringify({ consent_token: tokens[next++ % tokens.length] }),
          }),
        },
      ],
    });
    const note =
      next <= tokens.length
        ? `${next} fresh tokens, each verified once`
        : `${tokens.length} fresh, then ${next - tokens.length} repeats (answered expired)`;
    return [result, note] as const;
  };
  let person = 0;
  return [
    [
      'bare Hono POST / (reads a JSON body)',
      async () => [await post(`${ready.hello}/`, { 'content-type': 'application/json' }, floorBody), 'framework cost of a POST'],
    ],
    [
      'floor: Hono POST + 1 SQLite insert',
      async () => [
        await post(`${ready.hello}/floor`, { 'content-type': 'application/json' }, floorBody),
        'one decision-sized insert transaction',
      ],
    ],
    [
      'POST /api/v1/decisions',
      async () => [
        await post(`${ready.svc}/api/v1/decisions`, auth, {
          kind: 'consent',
          subject_ref: ready.flowId,
          delivery_mode: 'popup',
          state: 'bench',
        }),
        'creates a consent decision (SQLite write)',
      ],
    ],
    [
      'POST /api/v1/decisions, limiter off',
      async () => [
        await post(
          `${ready.unlimited.svc}/api/v1/decisions`,
          { ...auth, authorization: `Bearer ${ready.unlimited.apiToken}` },
          {
            kind: 'consent',
            subject_ref: ready.unlimited.flowId,
            delivery_mode: 'popup',
            state: 'bench',
          },
        ),
        'the same on a server with rateLimits: false',
      ],
    ],
    [
      'POST /api/v1/decisions, token limit',
      async () => [
        await post(`${ready.svc}/api/v1/decisions`, { ...auth, authorization: `Bearer ${ready.limitedToken}` }, decisionBody),
        'an API token with its own limit: each request counted, RateLimit headers',
      ],
    ],
    [
      'POST /api/v1/decisions, 429 (pk limit)',
      async () => [
        await post(
          `${ready.svc}/api/v1/decisions`,
          { 'x-publishable-key': ready.publishableKey, 'content-type': 'application/json' },
          decisionBody,
        ),
        'past its per-address limit: refused before anything is stored',
      ],
    ],
    [
      'POST /api/v1/consent_records',
      async () => [
        await measure({
          url: `${ready.svc}/api/v1/consent_records`,
          method: 'POST',
          headers: auth,
          requests: [
            {
              setupRequest: (request: Record<string, unknown>) => ({
                ...request,
                body: JSON.stringify({
                  flow_id: ready.recordFlowId,
                  subject: { email: `load-${person++}@example.com` },
                  decisions: { newsletter: { decision: 'granted' }, analytics: { decision: 'granted' } },
                }),
              }),
            },
          ],
        }),
        'records a consent (receipt, audit event, domain event)',
      ],
    ],
    [
      'floor: Hono POST + 1 SQLite update',
      async () => {
        const [result, note] = await verifyRun(`${ready.hello}/floor/verify`, { 'content-type': 'application/json' });
        return [result, `one token cleared: ${note}`];
      },
    ],
    [
      'POST /api/v1/consent_tokens/verify',
      async () => {
        const [result, note] = await verifyRun(`${ready.svc}/api/v1/consent_tokens/verify`, auth);
        return [result, `${note} (valid)`];
      },
    ],
    [
      'POST /oauth/token (refresh grant)',
      async () => [
        await measure({
          url: `${ready.svc}/oauth/token`,
          method: 'POST',
          headers: { authorization: ready.oauth.basic, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: ready.oauth.refreshToken }).toString(),
        }),
        'a new access token from the same refresh token',
      ],
    ],
  ];
}

/** Prints the table: each figure beside the hello-world rate, the floor row above it, and its goal. */
function print(rows: Row[]): void {
  const hello = (rows[0]![1].requests.average + rows[rows.length - 1]![1].requests.average) / 2;
  const pad = (s: string, n: number) => s.padEnd(n);
  const num = (n: number, d = 0) => n.toFixed(d).padStart(9);
  console.log(
    `${pad('scenario', 40)}${'req/s'.padStart(9)}${'vs hello'.padStart(10)}${'vs floor'.padStart(10)}${'target'.padStart(20)}${'cpu us'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'non-2xx'.padStart(9)}  note`,
  );
  let floor: Measured | undefined;
  for (const [name, r, note] of rows) {
    if (name.startsWith('floor:')) floor = r;
    const share = (r.requests.average / hello) * 100;
    const ofFloor = floor && name in TARGETS ? (r.requests.average / floor.requests.average) * 100 : undefined;
    const target = targetOf(TARGETS[name], r.requests.average, share, ofFloor);
    console.log(
      `${pad(name, 40)}${num(r.requests.average)}${`${share.toFixed(0)}%`.padStart(10)}${(ofFloor === undefined ? '' : `${ofFloor.toFixed(0)}%`).padStart(10)}${target.padStart(20)}${num(r.cpuUs)}${num(r.latency.p50, 1)}${num(r.latency.p99, 1)}${num(r.non2xx + r.errors + r.timeouts)}  ${note}`,
    );
  }
}

function targetOf(goal: (typeof TARGETS)[string] | undefined, rate: number, ofHello: number, ofFloor: number | undefined): string {
  const verdict = (ok: boolean) => (ok ? 'ok' : 'below');
  if (goal?.hello !== undefined) return `>= ${goal.hello}% hello ${verdict(ofHello >= goal.hello)}`;
  if (goal?.floor !== undefined) return `>= ${goal.floor}% floor ${ofFloor === undefined ? '?' : verdict(ofFloor >= goal.floor)}`;
  if (goal?.rate !== undefined) return `>= ${goal.rate}/s ${verdict(rate >= goal.rate)}`;
  return '';
}

async function main(): Promise<void> {
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const { ready, cpuMs, stop } = await startChild<Ready>(import.meta.url, profile);
  const autocannon = await loadAutocannon();
  const measure: Measure = (options) => cpuPerRequest(cpuMs, () => autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options }));
  const tokens = JSON.parse(readFileSync(ready.tokensFile, 'utf8')) as string[];

  console.log(`loopback, ${CONNECTIONS} connections, ${SECONDS} s per run, Node ${process.version}\n`);
  const rows: Row[] = [['bare Hono hello world (GET /)', await measure({ url: `${ready.hello}/` }), '']];
  for (const [name, run] of scenarios(ready, measure, tokens)) {
    if (ONLY.length === 0 || ONLY.some((word) => name.includes(word))) rows.push([name, ...(await run())]);
  }
  rows.push(['bare Hono hello world (GET /), again', await measure({ url: `${ready.hello}/` }), '']);
  print(rows);
  await stop();
}

if (process.argv.includes('--serve')) await serve();
else await main();
