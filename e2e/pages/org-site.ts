// An organisation's website for the capture e2e tests: plain HTML pages (this folder) that load the script tag,
// served from their own loopback origin (http://localhost:<port>, an allowed origin of the application), and the
// organisation's small backend: `POST /signup` reads the form, commits `svc_capture_token` through
// `POST /api/v1/decisions/{token}/authorize` with the API token, and remembers what happened.
import { startServer, type RunningServer } from '@svc/server';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sdkCopy } from '../sdk-copy.js';
import { checkout } from './checkout.js';

const here = fileURLToPath(new URL('.', import.meta.url));

/** What the organisation's backend saw for one form post, and what the service answered its commit. */
export interface Submission {
  /** The posted fields (every value of each name). */
  fields: Record<string, string[]>;
  /** The first non-empty `svc_capture_token`, or null when the form came without one. */
  token: string | null;
  /** The answer of `authorize`, when there was a token to commit. */
  authorize?: { status: number; body: AuthorizeAnswer };
}

/** The parts of the authorize answer (and error body) the tests read. */
export interface AuthorizeAnswer {
  decision?: {
    channel: string;
    record_id: string;
    status: string;
    purposes: { key: string; outcome: string }[];
    wording_verdict: string | null;
  };
  message?: string;
  code?: string;
}

/** The service the site talks to: where it is, and the credentials a page and the backend hold. */
export interface SiteService {
  baseUrl: string;
  publishableKey: string;
  apiToken: string;
}

/** A running organisation site. */
export interface OrgSite {
  /** `http://localhost:<port>`. */
  origin: string;
  /** Every form post the backend received, in order. */
  submissions: Submission[];
  /**
   * The URL of a page of this folder with its placeholders filled: `flow` is the flow id, `token` a decision's
   * session token; `csp` serves it under a strict Content-Security-Policy with the script tag copied to the site's
   * own origin.
   */
  page(name: string, options: { flow: string; token?: string; csp?: boolean }): string;
  /** The URL of the checkout page (./checkout.ts) showing the decision `token` in `mode`. */
  checkout(token: string, mode?: 'embed' | 'popup'): string;
  close(): Promise<void>;
}

/** The policy of the `csp` pages: scripts and styles only from the page's own origin, no inline anything. */
export function strictPolicy(service: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src ${service}`,
    `frame-src ${service}`,
    "img-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

async function listen(server: Server, host = '127.0.0.1'): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  return (server.address() as AddressInfo).port;
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

async function readBody(req: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts the organisation's site for `service` and registers its origin as allowed for the application. */
export async function startOrgSite(service: SiteService, applicationId: string): Promise<OrgSite> {
  const submissions: Submission[] = [];
  const serviceOrigin = new URL(service.baseUrl).origin;

  const http = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://site.invalid');
      const csp = url.searchParams.get('csp') === '1';
      const security: Record<string, string> = csp ? { 'content-security-policy': strictPolicy(serviceOrigin) } : {};
      if (req.method === 'GET' && url.pathname.startsWith('/pages/')) {
        const name = url.pathname.slice('/pages/'.length);
        if (!/^[a-z-]+\.html$/.test(name)) return void res.writeHead(404).end();
        const values: Record<string, string> = {
          // Under the strict policy the script must come from the page's own origin: the site's copy of it.
          sdk: csp ? '/assets/sdk/svc.js' : `${service.baseUrl}/sdk/v1/svc.js`,
          flow_id: url.searchParams.get('flow') ?? '',
          token: url.searchParams.get('token') ?? '',
          publishable_key: service.publishableKey,
          base_url: service.baseUrl,
        };
        const html = readFileSync(join(here, name), 'utf8').replace(/\{\{(\w+)\}\}/g, (_, key: string) => escapeHtml(values[key] ?? ''));
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...security });
        return void res.end(html);
      }
      if (req.method === 'GET' && url.pathname === '/checkout') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        return void res.end(checkout(serviceOrigin, url.searchParams.get('token') ?? '', url.searchParams.get('mode') ?? 'embed'));
      }
      const copy =
        req.method === 'GET' && url.pathname.startsWith('/assets/sdk/') ? sdkCopy(url.pathname.slice('/assets/sdk/'.length)) : undefined;
      if (copy) return void res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(copy);
      if (req.method === 'GET' && (url.pathname === '/assets/record.js' || url.pathname === '/assets/site.css')) {
        const type = url.pathname.endsWith('.js') ? 'text/javascript' : 'text/css';
        res.writeHead(200, { 'content-type': `${type}; charset=utf-8` });
        return void res.end(readFileSync(join(here, url.pathname.slice('/assets/'.length))));
      }
      if (req.method === 'POST' && url.pathname === '/signup') {
        const form = new URLSearchParams(await readBody(req));
        const fields: Record<string, string[]> = {};
        for (const [key, value] of form) (fields[key] ??= []).push(value);
        const token = form.getAll('svc_capture_token').find((t) => t !== '') ?? null;
        const submission: Submission = { fields, token };
        if (token) {
          // The organisation's server commits the capture with its API token, binding the person by email.
          const answer = await fetch(`${service.baseUrl}/api/v1/decisions/${encodeURIComponent(token)}/authorize`, {
            method: 'POST',
            headers: { authorization: `Bearer ${service.apiToken}`, 'content-type': 'application/json' },
            body: JSON.stringify({ subject: { email: form.get('email') ?? '' } }),
          }).catch(() => undefined);
          if (answer) submission.authorize = { status: answer.status, body: (await answer.json()) as AuthorizeAnswer };
        }
        submissions.push(submission);
        const outcome = submission.authorize?.body.decision
          ? `recorded ${submission.authorize.body.decision.channel} ${submission.authorize.body.decision.record_id}`
          : token
            ? `not recorded: ${submission.authorize?.body.code ?? 'service unreachable'}`
            : 'no capture token';
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...security });
        return void res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Thanks</title>
<link rel="stylesheet" href="/assets/site.css"></head><body><main><h1>Thanks</h1><p id="outcome">${escapeHtml(outcome)}</p></main></body></html>`);
      }
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    })().catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    });
  });
  const port = await listen(http);
  const origin = `http://localhost:${port}`;
  const registered = await fetch(`${service.baseUrl}/api/v1/applications/${applicationId}/allowed_origins`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.apiToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ allowed_origin: { origin } }),
  });
  if (registered.status !== 200 && registered.status !== 201)
    throw new Error(`allowing ${origin}: ${registered.status} ${await registered.text()}`);
  return {
    origin,
    submissions,
    page: (name, { flow, token, csp }) =>
      `${origin}/pages/${name}?${new URLSearchParams({ flow, ...(token ? { token } : {}), ...(csp ? { csp: '1' } : {}) })}`,
    checkout: (token, mode = 'embed') => `${origin}/checkout?${new URLSearchParams({ token, mode })}`,
    close: () => new Promise((resolve) => http.close(() => resolve())),
  };
}

/** The capturable flow the pages ask: one purpose of each kind, no verification step, a consent duration. */
export const captureFlowConfig = {
  locale: 'en',
  policy_url: 'https://example.com/privacy',
  consent_duration: 'P1Y',
  purposes: [
    {
      key: 'newsletter',
      label: 'Email newsletter',
      description: 'A monthly email about new features and offers.',
      basis: 'consent',
      mechanism: 'explicit',
      required: false,
    },
    {
      key: 'analytics',
      label: 'Product analytics',
      description: 'Measuring how the product is used so we can improve it. You may object.',
      basis: 'legitimate_interest',
      mechanism: 'opt_out',
      required: false,
    },
    {
      key: 'service',
      label: 'Providing the service',
      description: 'Processing your account data to provide what you signed up for.',
      basis: 'contract',
      mechanism: 'notice',
      required: true,
    },
  ],
  steps: [],
};

/** The same flow worded in Arabic, for the right-to-left page. */
export const arabicFlowConfig = {
  ...captureFlowConfig,
  locale: 'ar',
  purposes: [
    {
      key: 'newsletter',
      label: 'النشرة البريدية',
      description: 'رسالة شهرية عن الميزات والعروض الجديدة.',
      basis: 'consent',
      mechanism: 'explicit',
      required: false,
    },
    {
      key: 'analytics',
      label: 'تحليلات المنتج',
      description: 'قياس استخدام المنتج لتحسينه. يمكنك الاعتراض.',
      basis: 'legitimate_interest',
      mechanism: 'opt_out',
      required: false,
    },
  ],
};

/** Creates and activates a capturable flow through the API (by default {@link captureFlowConfig}); returns its id. */
export async function createCaptureFlow(
  baseUrl: string,
  apiToken: string,
  title = 'Northwind newsletter',
  config: object = captureFlowConfig,
): Promise<string> {
  const call = async (path: string, body: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { flow?: { id: string }; message?: string };
    if (!res.ok) throw new Error(`${path}: ${res.status} ${json.message}`);
    return json;
  };
  const created = await call('/api/v1/flows', {
    flow: { pattern: 'standard', title, description: 'Choose what Northwind may do with your email address.', config },
  });
  await call(`/api/v1/flows/${created.flow!.id}/activate`, {});
  return created.flow!.id;
}

/** A reference server of the test's own (temporary data), for tests that stop the service. */
export async function startOwnService(): Promise<RunningServer & { stop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-e2e-own-'));
  const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, clock: true });
  let stopped = false;
  return {
    ...server,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
