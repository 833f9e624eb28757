/**
 * The organisation's backend behind every browser example in `examples/site/public/`: it serves the pages, creates
 * decisions with `@svc/client`, exchanges what the page hands back, and commits the capture tokens its forms post.
 * Everything the browser says is a claim; this server asks the service before it believes it.
 *
 * Run against a local sandbox (`pnpm start` in another terminal), then open http://localhost:3000/:
 *   SVC_BASE_URL=http://127.0.0.1:4010 SVC_API_TOKEN=... node --import tsx examples/site/backend.ts
 * Without the variables it reads `.svc/sandbox.json`. The pages are written for the sandbox at
 * http://127.0.0.1:4010 with placeholder keys (`pk_test_REPLACE_ME`, `flw_REPLACE_ME`); this server fills in the
 * real service URL, publishable key and flow id as it serves them, so the examples run as they are.
 * Add http://localhost:3000 to the application's allowed origins first (`svc origins add`, or the API).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createDecisions } from './decisions.js';

/** Options of {@link createExampleBackend}. */
export interface ExampleBackendOptions {
  /** The service, e.g. `http://127.0.0.1:4010`. */
  baseUrl: string;
  /** The application's API token (secret: it stays on this server). */
  apiToken: string;
  /** The application's publishable key (public: it goes into the pages). */
  publishableKey: string;
  /** The consent flow the pages' consent field and snippet capture against. */
  flowId: string;
  /** The flow the decisions ask about (the embeds); defaults to `flowId`. */
  decisionFlowId?: string;
  /** This site's own origin, e.g. `http://localhost:3000` (an allowed origin of the application). */
  origin: string;
  /**
   * Pages this server renders itself, by path (server-side rendering: examples/ssr/server.ts). Each request creates
   * an embedded decision for the visitor, and the page is rendered with its session token.
   */
  pages?: Record<string, (props: PageProps) => string | Promise<string>>;
  /** Scripts served from memory, by path: the bundles that hydrate those pages. */
  scripts?: Record<string, string>;
}

/** What a server-rendered page is rendered with: all of it public, so it can go into the page. */
export interface PageProps {
  /** The service's origin, e.g. `http://127.0.0.1:4010`. */
  service: string;
  /** The application's publishable key. */
  publishableKey: string;
  /** The consent flow the page's consent field captures against. */
  flow: string;
  /** The session token of the decision created for this visitor. */
  decisionToken: string;
}

/** What the backend decided for each request it acted on, for a test (or a log) to read. */
export interface BackendLog {
  signups: { email: string; channel?: string; record_id?: string; error?: string }[];
  exchanges: { session_token: string; purposes_granted?: string[]; error?: string }[];
}

const PUBLIC_DIR = fileURLToPath(new URL('./public/', import.meta.url));
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * The Content-Security-Policy these pages are served with (see docs/csp.md): scripts and frames from the service,
 * API calls to it, nothing inline. With a nonce, only scripts carrying it run (nonce.html).
 */
// #region policy
export function sitePolicy(service: string, nonce?: string): string {
  return [
    "default-src 'self'",
    nonce ? `script-src 'nonce-${nonce}'` : `script-src 'self' ${service}`,
    "style-src 'self'",
    `connect-src 'self' ${service}`,
    `frame-src ${service}`,
    "img-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; ');
}
// #endregion

async function readJson(req: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if ((req.headers['content-type'] ?? '').startsWith('application/json')) return JSON.parse(text || '{}') as Record<string, string>;
  return Object.fromEntries(new URLSearchParams(text));
}

/** The organisation's backend as a Node `http` server (not listening yet). */
export function createExampleBackend(options: ExampleBackendOptions): Server & { log: BackendLog } {
  const service = new URL(options.baseUrl).origin;
  const log: BackendLog = { signups: [], exchanges: [] };

  const fill = (text: string) => text
    .replaceAll('http://127.0.0.1:4010', service)
    .replaceAll('pk_test_REPLACE_ME', options.publishableKey)
    .replaceAll('flw_REPLACE_ME', options.flowId);

  const send = (res: ServerResponse, status: number, type: string, body: string, nonce?: string) =>
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'content-security-policy': sitePolicy(service, nonce) }).end(body);
  const json = (res: ServerResponse, status: number, body: unknown) => send(res, status, 'application/json', JSON.stringify(body));

  // Creating, exchanging and committing with the service: examples/site/decisions.ts.
  const { startDecision, finishDecision, orderStatus, signup } = createDecisions({
    baseUrl: options.baseUrl,
    apiToken: options.apiToken,
    flowId: options.decisionFlowId ?? options.flowId,
    // Read at each call: a test learns the site's port only once it listens.
    get origin() {
      return options.origin;
    },
  });

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', options.origin);
      if (req.method === 'POST' && url.pathname === '/api/decisions') {
        const { mode = 'embed' } = await readJson(req);
        return json(res, 201, await startDecision(mode as 'embed' | 'popup' | 'redirect'));
      }
      if (req.method === 'POST' && url.pathname === '/api/decisions/exchange') {
        const body = await readJson(req);
        try {
          const result = await finishDecision(body.session_token ?? '', body.exchange_token ?? '');
          log.exchanges.push({ session_token: body.session_token ?? '', ...result });
          return json(res, 200, result);
        } catch (error) {
          log.exchanges.push({ session_token: body.session_token ?? '', error: String(error) });
          return json(res, 400, { error: 'not_verified' });
        }
      }
      if (req.method === 'GET' && url.pathname === '/api/orders/status') {
        // After a redirect: the arrival proves nothing, so read the decision from the service.
        const status = await orderStatus(url.searchParams.get('order') ?? '');
        return status ? json(res, 200, status) : json(res, 404, { error: 'unknown_order' });
      }
      if (req.method === 'POST' && url.pathname === '/signup') {
        const form = await readJson(req);
        try {
          const result = await signup(form);
          log.signups.push({ email: form.email ?? '', ...result });
          return send(res, 200, TYPES['.html']!, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Thanks</title></head>
<body><main><h1>Thanks</h1><p id="outcome">recorded ${result.channel} ${result.record_id}</p></main></body></html>`);
        } catch (error) {
          log.signups.push({ email: form.email ?? '', error: String(error) });
          return send(res, 400, TYPES['.html']!, '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not recorded</title></head><body><main><h1>Not recorded</h1></main></body></html>');
        }
      }
      const page = req.method === 'GET' ? options.pages?.[url.pathname] : undefined;
      if (page) {
        const { session_token } = await startDecision('embed');
        const props = { service, publishableKey: options.publishableKey, flow: options.flowId, decisionToken: session_token };
        return send(res, 200, TYPES['.html']!, await page(props));
      }
      const script = req.method === 'GET' ? options.scripts?.[url.pathname] : undefined;
      if (script !== undefined) return send(res, 200, TYPES['.js']!, script);
      if (req.method === 'GET') {
        const name = url.pathname === '/' ? 'index.html' : url.pathname.slice(1);
        const type = TYPES[extname(name)];
        if (type && /^[a-z0-9-]+\.[a-z]+$/.test(name)) {
          try {
            // A fresh nonce for every response: the page's scripts carry it, and the policy allows only it.
            const text = fill(readFileSync(join(PUBLIC_DIR, name), 'utf8'));
            const nonce = text.includes('NONCE_REPLACE_ME') ? randomBytes(16).toString('base64') : undefined;
            return send(res, 200, type, nonce ? text.replaceAll('NONCE_REPLACE_ME', nonce) : text, nonce);
          } catch {
            // fall through to 404
          }
        }
      }
      return send(res, 404, 'text/plain; charset=utf-8', 'not found');
    })().catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { error: String(error) });
    });
  });
  return Object.assign(server, { log });
}

/**
 * The options for a local sandbox (`pnpm start`): from SVC_* variables, else `.svc/sandbox.json`, for a site on
 * http://localhost:`port`.
 */
export function sandboxOptions(port: number): ExampleBackendOptions {
  const sandbox = (() => {
    try {
      return JSON.parse(readFileSync(join(process.env.SVC_DATA_DIR ?? '.svc', 'sandbox.json'), 'utf8')) as Record<string, string>;
    } catch {
      return {} as Record<string, string>;
    }
  })();
  return {
    baseUrl: process.env.SVC_BASE_URL ?? sandbox.base_url ?? 'http://127.0.0.1:4010',
    apiToken: process.env.SVC_API_TOKEN ?? sandbox.api_token ?? '',
    publishableKey: process.env.SVC_PUBLISHABLE_KEY ?? sandbox.publishable_key ?? '',
    // The consent field and the snippet need a capturable flow (no sign-in step); the embeds use the demo flow.
    flowId: process.env.SVC_FLOW_ID ?? sandbox.capture_flow_id ?? sandbox.flow_id ?? '',
    decisionFlowId: process.env.SVC_DECISION_FLOW_ID ?? sandbox.flow_id ?? '',
    origin: `http://localhost:${port}`,
  };
}

// Started directly: read the sandbox and listen on PORT (3000).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const port = Number(process.env.PORT ?? 3000);
  const server = createExampleBackend(sandboxOptions(port));
  server.listen(port, () => console.log(`Example site on http://localhost:${port}/`));
}
