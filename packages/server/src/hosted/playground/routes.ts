// The playground at `/`: a page that shows both elements working against the sandbox, loaded from the script tag
// (`/sdk/v1/svc.js`) exactly as an organisation's page would load them. `<svc-decision>` shows a consent decision
// the server created; `<svc-consent-field>` sits in a sign-up form. Its endpoints act with the sandbox account
// server-side, so the browser never holds an API token. The page runs under a strict policy: its script and its
// styles are served files (`/assets/playground.js`, `/playground/playground.css`), nothing inline.
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { z } from 'zod/mini';
import { sandboxCaptureFlowId, sandboxInformedFlowId } from '../../platform/flows/sandbox.js';
import type { Env, Principal, ServerContext } from '../../infra/context.js';
import { ApiError, forbidden, notFound, unprocessable } from '../../infra/errors.js';
import { newId } from '../../infra/ids.js';
import { readJson } from '../../infra/validate.js';
import { sameOrigin } from '../../consent/decisions/participant.js';
import { limitBody } from '../../infra/body-limit.js';
import { exchangeDecision } from '../../consent/decisions/exchange.js';
import { verifyConsentToken } from '../../consent/decisions/kinds/consent/token.js';
import { createDecision } from '../../consent/decisions/store.js';
import { toWire } from '../../consent/decisions/wire.js';
import { authorizeCapture } from '../../consent/captures/service.js';
import { readReceipt } from '../../consent/records/read.js';
import { PAGE_HEADERS, escapeHtml, jsonForScript } from '../pages/render.js';
import { PLAYGROUND_CSS } from './styles.js';
import { OAUTH_SECTION, playgroundOAuthRoutes } from './oauth.js';
import { mailboxRoutes } from './mailbox.js';

/** The playground's own data, rendered into the page. */
export interface PlaygroundData {
  service_origin: string;
  application_id: string;
  flows: { standard: string | null; informed: string | null; capture: string | null };
}

/** The playground page's policy: only its own origin, for scripts, styles, fetches, frames and forms. */
export const PLAYGROUND_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const HEADERS: Readonly<Record<string, string>> = {
  ...PAGE_HEADERS,
  // The page's own URL carries nothing secret; its same-origin posts keep their Origin header.
  'Referrer-Policy': 'same-origin',
  'Content-Security-Policy': PLAYGROUND_CSP,
  'X-Frame-Options': 'DENY',
};

const createRequest = z.strictObject({
  kind: z.enum(['consent', 'approval']),
  flow: z._default(z.enum(['standard', 'informed']), 'standard'),
  delivery_mode: z._default(z.enum(['embed', 'popup']), 'embed'),
});

const completeRequest = z.strictObject({
  session_token: z.string().check(z.maxLength(100)),
  exchange_token: z.string().check(z.maxLength(100)),
});

const signupForm = z.object({
  email: z.email().check(z.maxLength(320)),
  svc_capture_token: z.string().check(z.minLength(1), z.maxLength(100)),
});

interface SandboxSettings {
  application_id: string;
  flow_id: string | null;
  publishable_key: string;
}

function sandboxOf(ctx: ServerContext): { principal: Principal; settings: SandboxSettings } {
  const stored = ctx.db.prepare("SELECT value FROM settings WHERE key = 'sandbox'").pluck().get() as string | undefined;
  if (!stored) throw notFound('The sandbox is not seeded.');
  const settings = JSON.parse(stored) as SandboxSettings;
  const accountId = ctx.db.prepare('SELECT account_id FROM applications WHERE id = ?').pluck().get(settings.application_id) as string;
  return { principal: { kind: 'api_token', accountId, tokenId: 'playground', permissions: ['read', 'write'] }, settings };
}

/** Form posts to the playground come from its own page only (Fetch Metadata, else the Origin header). */
function sameOriginForm(ctx: ServerContext): MiddlewareHandler<Env> {
  return async (c, next) => {
    const site = c.req.header('sec-fetch-site');
    const origin = c.req.header('origin');
    const ours = new URL(ctx.trustUrl).origin;
    if (site ? site !== 'same-origin' : origin !== ours) throw forbidden('The playground only answers its own page.', 'cross_origin');
    await next();
  };
}

function page(title: string, body: string, script = false): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/page.css">
<link rel="stylesheet" href="/playground/playground.css">
${script ? '<script src="/sdk/v1/svc.js" defer></script>\n<script type="module" src="/assets/playground.js"></script>\n' : ''}</head>
<body class="pg">
${body}
</body>
</html>
`;
}

const HONEST = `<p class="note"><strong>Browser messages prove nothing.</strong> The events below are what the page was told;
the outcome shown as confirmed is what this server checked with the service, using the sandbox credentials it keeps to itself.</p>`;

function playgroundPage(ctx: ServerContext, data: PlaygroundData, publishableKey: string): string {
  const attr = (value: string | null) => escapeHtml(value ?? '');
  return page(
    'svc playground',
    `<script type="application/json" id="svc-playground-data">${jsonForScript(data)}</script>
<header>
<h1>svc playground</h1>
<p>Both elements of the script tag <code>/sdk/v1/svc.js</code>, working against this server's sandbox. This page never
holds an API token: it asks its own server, which acts with the sandbox credentials.</p>
${HONEST}
</header>
<main>
<section aria-labelledby="decision-heading">
<h2 id="decision-heading">A decision: <code>&lt;svc-decision&gt;</code></h2>
<form id="decision-form" class="controls">
<fieldset>
<legend>Flow</legend>
<label><input type="radio" name="flow" value="standard" checked${data.flows.standard ? '' : ' disabled'}> Standard path</label>
<label><input type="radio" name="flow" value="informed"${data.flows.informed ? '' : ' disabled'}> Informed consent</label>
</fieldset>
<fieldset>
<legend>Shown as</legend>
<label><input type="radio" name="mode" value="embed" checked> Embedded (iframe)</label>
<label><input type="radio" name="mode" value="popup"> Popup</label>
</fieldset>
<button type="submit" class="primary">Create a decision</button>
</form>
<p id="decision-status" role="status"></p>
<div class="grid">
<div class="decision-slot">
<div id="decision-empty" class="empty"><p><strong>No decision yet — create one.</strong></p><p>Choose a flow and how it is shown, then press “Create a decision”: the element appears here.</p></div>
<svc-decision id="decision" trust-url="${attr(data.service_origin)}" hidden></svc-decision>
</div>
<div>
<h3 id="log-heading">Events of the element</h3>
<div role="log" aria-labelledby="log-heading" class="log"><ol id="decision-log"></ol></div>
<div id="decision-result" hidden>
<h3 tabindex="-1">Confirmed by the server</h3>
<dl>
<dt>Outcome</dt><dd id="result-outcome"></dd>
<dt>Status</dt><dd id="result-status"></dd>
<dt>Consent token valid</dt><dd id="result-valid"></dd>
<dt>Record</dt><dd id="result-record"></dd>
</dl>
</div>
</div>
</div>
</section>
<section aria-labelledby="signup-heading">
<h2 id="signup-heading">A sign-up form: <code>&lt;svc-consent-field&gt;</code></h2>
<p>The consent is captured from this form with the sandbox's publishable key; on submit this server commits the
capture token with <code>authorize</code> and shows the record.</p>
${
  data.flows.capture
    ? `<form id="signup" method="post" action="/playground/signup" class="signup">
<label for="signup-email">Email address</label>
<input id="signup-email" name="email" type="email" autocomplete="email" required>
<svc-consent-field name="consent" flow="${attr(data.flows.capture)}" publishable-key="${attr(publishableKey)}" base-url="${attr(data.service_origin)}"></svc-consent-field>
<button type="submit">Sign up</button>
</form>`
    : '<p>The sandbox has no capturable flow.</p>'
}
</section>
${OAUTH_SECTION}
</main>
<noscript><p>The playground needs JavaScript.</p></noscript>`,
    true,
  );
}

function resultPage(c: Context<Env>, status: 200 | 400 | 403 | 404 | 422, title: string, body: string) {
  return c.body(
    page(
      title,
      `<main>
<h1>${escapeHtml(title)}</h1>
${body}
<p><a href="/">Back to the playground</a></p>
</main>`,
    ),
    status,
    HEADERS,
  );
}

/** Mounts `GET /` and the playground's endpoints under `/playground/`. */
export function playgroundRoutes(app: Hono<Env>, ctx: ServerContext): void {
  // The receipts of the records this playground committed (and only those) may be read without a token.
  const committed = new Set<string>();
  playgroundOAuthRoutes(app, ctx, { sameOriginForm: sameOriginForm(ctx), result: resultPage });
  mailboxRoutes(app, ctx);

  app.get('/', (c) => {
    const { settings } = sandboxOf(ctx);
    const data: PlaygroundData = {
      service_origin: new URL(ctx.trustUrl).origin,
      application_id: settings.application_id,
      flows: { standard: settings.flow_id, informed: sandboxInformedFlowId(ctx) ?? null, capture: sandboxCaptureFlowId(ctx) ?? null },
    };
    return c.body(playgroundPage(ctx, data, settings.publishable_key), 200, HEADERS);
  });

  app.get('/playground/playground.css', (c) =>
    c.body(PLAYGROUND_CSS, 200, {
      'Content-Type': 'text/css; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
    }),
  );

  app.post('/playground/decisions', limitBody(16 * 1024), sameOrigin(ctx), async (c) => {
    const request = await readJson(c, createRequest);
    const { principal, settings } = sandboxOf(ctx);
    const serviceOrigin = new URL(ctx.trustUrl).origin;
    const flowId = request.flow === 'informed' ? sandboxInformedFlowId(ctx) : settings.flow_id;
    if (request.kind === 'consent' && !flowId) throw unprocessable('The sandbox has no such demo flow.', 'flow_not_found');
    const row = createDecision(
      ctx,
      principal,
      request.kind === 'consent'
        ? { kind: 'consent', subject_ref: flowId!, delivery_mode: request.delivery_mode, embed_origin: serviceOrigin, state: 'playground' }
        : {
            kind: 'approval',
            subject_ref: newId('esc_'),
            delivery_mode: request.delivery_mode,
            embed_origin: serviceOrigin,
            scope: 'payments:write',
            state: 'Pay invoice INV-1042: 240.00 EUR to ACME Ltd',
          },
    );
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

  // The sign-up form posts here (form-encoded, as a plain form would): the capture token the consent field put in
  // `svc_capture_token` is committed with the sandbox API token, and the page shows the record it became.
  app.post('/playground/signup', limitBody(16 * 1024), sameOriginForm(ctx), async (c) => {
    const form = await c.req.parseBody().catch(() => ({}));
    const parsed = signupForm.safeParse(form);
    if (!parsed.success) {
      const token = (form as Record<string, unknown>).svc_capture_token;
      return resultPage(
        c,
        400,
        'Nothing was recorded',
        `<p role="alert">${escapeHtml(
          token
            ? 'The email address is missing or not valid.'
            : 'The form arrived without a capture token: the consent field could not reach the service, so no consent was captured.',
        )}</p>`,
      );
    }
    const { principal } = sandboxOf(ctx);
    try {
      const decision = authorizeCapture(ctx, principal.accountId, parsed.data.svc_capture_token, {
        subject: { email: parsed.data.email },
        suppress_receipt: true,
      });
      committed.add(decision.record_id);
      const receipt = `/playground/receipts/${encodeURIComponent(decision.record_id)}`;
      return resultPage(
        c,
        200,
        'Recorded',
        `<p>This server committed the capture token with <code>authorize</code>; the
service recorded the consent.</p>
<dl>
<dt>Record</dt><dd id="record-id">${escapeHtml(decision.record_id)}</dd>
<dt>Channel</dt><dd>${escapeHtml(decision.channel)}</dd>
<dt>Purposes</dt><dd><ul>${decision.purposes.map((p) => `<li>${escapeHtml(p.key)}: ${escapeHtml(p.outcome)}</li>`).join('')}</ul></dd>
<dt>Receipt</dt><dd><a id="receipt-link" href="${escapeHtml(receipt)}">${escapeHtml(receipt)}</a></dd>
</dl>`,
      );
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return resultPage(c, error.status === 404 ? 404 : 422, 'Nothing was recorded', `<p role="alert">${escapeHtml(error.message)}</p>`);
    }
  });

  app.get('/playground/receipts/:id', (c) => {
    const id = c.req.param('id');
    if (!committed.has(id)) throw notFound('The playground shows only the receipts of records it committed.');
    const receipt = readReceipt(ctx, sandboxOf(ctx).principal.accountId, id);
    if (!receipt) throw notFound('No such consent record.');
    return c.json({ consent_receipt: receipt }, 200, { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  });
}
