// The sandbox mailbox at `/playground/mailbox`: without an SMTP server the service keeps the mail it would send
// (receipts, sign-in codes, approval requests) and shows it here, newest first. Each message's text part is shown
// escaped, its links made clickable; the page runs no script. With SMTP configured there is no mailbox: 404.
import type { Hono } from 'hono';
import type { Env, ServerContext } from '../../infra/context.js';
import { notFound } from '../../infra/errors.js';
import { sandboxMail, sendsMail, type SandboxMail } from '../../infra/mail/index.js';
import { PAGE_HEADERS, escapeHtml } from '../pages/render.js';

/** No script, no form, no frame: styles from the server's own files only. */
export const MAILBOX_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

const URL_IN_TEXT = /https?:\/\/[^\s<>"']+/g;

/** `text` escaped, each http(s) URL in it a link (which sends no referrer: a link may be a capability). */
export function linkify(text: string): string {
  let html = '';
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const url = match[0];
    html += escapeHtml(text.slice(last, match.index));
    html += `<a href="${escapeHtml(url)}" rel="noreferrer noopener">${escapeHtml(url)}</a>`;
    last = match.index + url.length;
  }
  return html + escapeHtml(text.slice(last));
}

function messageHtml(mail: SandboxMail): string {
  return `<article class="mail" id="${escapeHtml(mail.id)}">
<h2>${escapeHtml(mail.subject)}</h2>
<dl>
<dt>To</dt><dd>${escapeHtml(mail.to)}</dd>
<dt>Kind</dt><dd>${escapeHtml(mail.kind)}</dd>
<dt>Queued</dt><dd>${escapeHtml(mail.created_at)}</dd>
${Object.entries(mail.headers ?? {})
  .map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${linkify(value)}</dd>`)
  .join('\n')}
</dl>
<pre>${linkify(mail.text)}</pre>
</article>`;
}

function mailboxPage(messages: readonly SandboxMail[]): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox mailbox</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/page.css">
<link rel="stylesheet" href="/playground/playground.css">
</head>
<body class="pg">
<header>
<h1>Sandbox mailbox</h1>
<p>This server has no SMTP server (<code>SVC_SMTP_URL</code>), so the mail it would send is kept here instead, newest first.</p>
<p><a href="/">Back to the playground</a></p>
</header>
<main>
${messages.length ? messages.map(messageHtml).join('\n') : '<p class="empty">No mail yet.</p>'}
</main>
</body>
</html>
`;
}

/** Mounts `GET /playground/mailbox`. */
export function mailboxRoutes(app: Hono<Env>, ctx: ServerContext): void {
  app.get('/playground/mailbox', (c) => {
    if (sendsMail(ctx)) throw notFound('This server sends its mail over SMTP: it keeps no sandbox mailbox.');
    return c.body(mailboxPage(sandboxMail(ctx)), 200, {
      ...PAGE_HEADERS,
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'Content-Security-Policy': MAILBOX_CSP,
      'X-Frame-Options': 'DENY',
    });
  });
}
