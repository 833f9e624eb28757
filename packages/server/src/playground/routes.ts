// The playground at `/`: a page that shows a decision working against the sandbox. Its two endpoints act with the
// sandbox account server-side, so the browser never holds an API token. Same-origin JSON only.
import type { Hono } from 'hono';
import { z } from 'zod/mini';
import { sandboxInformedFlowId } from '../flows/sandbox.js';
import type { Env, Principal, ServerContext } from '../lib/context.js';
import { notFound, unprocessable } from '../lib/errors.js';
import { newId } from '../lib/ids.js';
import { readJson } from '../lib/validate.js';
import { sameOrigin } from '../decisions/participant.js';
import { limitBody } from '../lib/body-limit.js';
import { createDecision, exchangeDecision, toWire, verifyConsentToken } from '../decisions/store.js';
import { PAGE_HEADERS, escapeHtml, jsonForScript } from '../pages/render.js';

/** The playground's own data, rendered into the page. */
export interface PlaygroundData {
  service_origin: string;
  application_id: string;
  flows: { standard: string | null; informed: string | null };
}

const createRequest = z.strictObject({
  kind: z.enum(['consent', 'approval']),
  flow: z._default(z.enum(['standard', 'informed']), 'standard'),
  delivery_mode: z._default(z.enum(['embed', 'popup']), 'embed'),
});

const completeRequest = z.strictObject({
  session_token: z.string().check(z.maxLength(100)),
  exchange_token: z.string().check(z.maxLength(100)),
});

interface SandboxSettings {
  application_id: string;
  flow_id: string | null;
}

function sandboxOf(ctx: ServerContext): { principal: Principal; settings: SandboxSettings } {
  const stored = ctx.db.prepare("SELECT value FROM settings WHERE key = 'sandbox'").pluck().get() as string | undefined;
  if (!stored) throw notFound('The sandbox is not seeded.');
  const settings = JSON.parse(stored) as SandboxSettings;
  const accountId = ctx.db.prepare('SELECT account_id FROM applications WHERE id = ?').pluck().get(settings.application_id) as string;
  return { principal: { kind: 'api_token', accountId, tokenId: 'playground', permissions: ['read', 'write'] }, settings };
}

/** Mounts `GET /` and the playground's endpoints under `/playground/`. */
export function playgroundRoutes(app: Hono<Env>, ctx: ServerContext): void {
  app.get('/', (c) => {
    const { settings } = sandboxOf(ctx);
    const data: PlaygroundData = {
      service_origin: new URL(ctx.trustUrl).origin,
      application_id: settings.application_id,
      flows: { standard: settings.flow_id, informed: sandboxInformedFlowId(ctx) ?? null },
    };
    const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc playground</title>
<link rel="stylesheet" href="/assets/page.css">
<script type="application/json" id="svc-playground-data">${jsonForScript(data)}</script>
<script type="module" src="/assets/playground.js"></script>
</head>
<body class="playground">
<svc-playground></svc-playground>
<noscript><p class="noscript">${escapeHtml('The playground needs JavaScript.')}</p></noscript>
</body>
</html>
`;
    return c.body(html, 200, {
      ...PAGE_HEADERS,
      'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
      'X-Frame-Options': 'DENY',
    });
  });

  app.post('/playground/decisions', limitBody(16 * 1024), sameOrigin(ctx), async (c) => {
    const request = await readJson(c, createRequest);
    const { principal, settings } = sandboxOf(ctx);
    const serviceOrigin = new URL(ctx.trustUrl).origin;
    const flowId = request.flow === 'informed' ? sandboxInformedFlowId(ctx) : settings.flow_id;
    if (request.kind === 'consent' && !flowId) throw unprocessable('The sandbox has no such demo flow.', 'flow_not_found');
    const row = createDecision(ctx, principal, request.kind === 'consent'
      ? { kind: 'consent', subject_ref: flowId!, delivery_mode: request.delivery_mode, embed_origin: serviceOrigin, state: 'playground' }
      : {
          kind: 'approval',
          subject_ref: newId('esc_'),
          delivery_mode: request.delivery_mode,
          embed_origin: serviceOrigin,
          scope: 'payments:write',
          state: 'Pay invoice INV-1042: 240.00 EUR to ACME Ltd',
        });
    return c.json({ decision: toWire(ctx, row) }, 201);
  });

  app.post('/playground/complete', limitBody(16 * 1024), sameOrigin(ctx), async (c) => {
    const { session_token, exchange_token } = await readJson(c, completeRequest);
    const { principal } = sandboxOf(ctx);
    const exchange = exchangeDecision(ctx, principal, session_token, exchange_token);
    const verification = exchange.access_token ? verifyConsentToken(ctx, principal.accountId, exchange.access_token) : null;
    // The playground shows that the token worked; it never shows the token itself.
    const { access_token: _token, ...shown } = exchange;
    return c.json({ exchange: { ...shown, ...(exchange.access_token ? { access_token: '(hidden)' } : {}) }, verification });
  });
}
