// Server-rendered HTML shells of the hosted pages: the page's public data as a JSON data block (never inline
// executable script), a stylesheet and one module script, all from the server's own origin.
import { BUTTON_CSS, tokensCss } from './tokens.js';

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** JSON safe inside `<script type="application/json">`: nothing in it can close the element or start a comment. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The Content-Security-Policy of a hosted page: scripts, styles and connections only from the server itself, no
 * inline script or style (Lit's `static styles` are constructable stylesheets, which `style-src` does not govern),
 * and `frame-ancestors` set to `ancestors` (the application's allowed origins for a frame page; `'none'` otherwise).
 * `formTargets` are further places the page's forms may end up at after redirects.
 */
// #region page-csp
export function pageCsp(ancestors: readonly string[], formTargets: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    // A form's redirects are checked too: a sign-in page's forms end at the client's redirect URI.
    `form-action 'self'${formTargets.map((t) => ` ${t}`).join('')}`,
    "base-uri 'none'",
    `frame-ancestors ${ancestors.length ? ancestors.join(' ') : "'none'"}`,
  ].join('; ');
}
// #endregion

/** Security headers of every hosted page besides the CSP. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'X-Content-Type-Options': 'nosniff',
  // The URL carries the session token: no link on the page may pass it on.
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

/** A whole hosted page: `lang`, title, the data block, one stylesheet and one module script. */
export function pageShell(options: {
  lang: string;
  title: string;
  bodyClass: string;
  dataId: string;
  data: unknown;
  script: string;
  element: string;
  noscript: string;
}): string {
  return `<!doctype html>
<html lang="${escapeHtml(options.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(options.title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/page.css">
<script type="application/json" id="${escapeHtml(options.dataId)}">${jsonForScript(options.data)}</script>
<script type="module" src="${escapeHtml(options.script)}"></script>
</head>
<body class="${escapeHtml(options.bodyClass)}">
<${options.element}></${options.element}>
<noscript><p class="noscript">${escapeHtml(options.noscript)}</p></noscript>
</body>
</html>
`;
}

/**
 * A plain, script-free page: a heading and a sentence (errors such as an unknown decision), or a heading and
 * markup the caller escaped (the device grant's forms).
 */
export function messagePage(
  options: { title: string; message: string; lang?: string } | { title: string; html: string; lang?: string },
): string {
  return `<!doctype html>
<html lang="${escapeHtml(options.lang ?? 'en')}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(options.title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/page.css">
</head>
<body class="message">
<main>
<h1>${escapeHtml(options.title)}</h1>
${'html' in options ? options.html : `<p>${escapeHtml(options.message)}</p>`}
</main>
</body>
</html>
`;
}

/** Where a frame message page reads what to post: the messages and the one origin they may go to. */
export interface FrameMessages {
  /** The exact origin of the window that loaded the page (its `Referer`), never `*`. */
  target_origin: string;
  /** `embed` posts to the parent window, `popup` to the opener. */
  mode: 'embed' | 'popup';
  /** Whole protocol v2 messages, built and checked on the server (`createMessage` of @svc/protocol). */
  messages: unknown[];
}

/**
 * A message page (see {@link messagePage}) that also tells the embedding or opening page why, at once: its one
 * script posts each of `post.messages` to `window.parent` (embed) or `window.opener` (popup) with the exact
 * `post.target_origin` as target origin, never `*`, so a window of any other origin receives nothing.
 */
export function frameMessagePage(options: { title: string; message: string }, post: FrameMessages): string {
  // `async`: run as soon as it arrives, without waiting for the stylesheet, so the host hears at once.
  const head = `<script type="application/json" id="svc-frame-messages">${jsonForScript(post)}</script>
<script type="module" async src="/assets/frame-messages.js"></script>
</head>`;
  return messagePage(options).replace('</head>', head);
}

/**
 * `/assets/frame-messages.js`, the script of {@link frameMessagePage}: small enough to write by hand, and the same
 * bytes for every page (the page's own data says what to post). A page that is neither framed nor opened posts
 * nothing.
 */
export const FRAME_MESSAGES_JS = `const d = JSON.parse(document.getElementById('svc-frame-messages').textContent);
const to = d.mode === 'popup' ? window.opener : window.parent === window ? null : window.parent;
if (to && typeof d.target_origin === 'string' && d.target_origin !== '*') for (const m of d.messages) to.postMessage(m, d.target_origin);
`;

/**
 * The document-level stylesheet (`/assets/page.css`): the shared tokens and buttons, and what the shadow roots cannot
 * style. Script-free pages (messages, the device grant's forms, the inbox) are styled by it alone.
 */
export const PAGE_CSS = `${tokensCss(':root')}:root { color-scheme: light dark; font-family: var(--svc-font-family); line-height: 1.5; }
body { margin: 0; background: Canvas; color: CanvasText; }
body.mode-full, body.message, body.playground { min-height: 100vh; display: flex; justify-content: center; align-items: flex-start; }
body.mode-full > *, body.message > main { width: min(40rem, 100%); margin: 2rem 1rem; }
body.message > main { padding: 1.25rem; border: 1px solid var(--svc-border); border-radius: var(--svc-radius); }
body.message h1 { font-size: 1.35rem; line-height: 1.25; margin: 0 0 1rem; }
body.message p { margin: 0 0 0.75rem; }
body.message [role=alert] { color: var(--svc-danger); font-weight: 500; }
body.message label { font-weight: 500; }
body.message .actions, .actions { display: flex; flex-wrap: wrap; gap: var(--svc-space-2); margin-top: var(--svc-space-3); }
input[type='email'], input[type='text'], select, textarea {
  font: inherit; padding: 0.55rem 0.65rem; border: 1px solid var(--svc-border); border-radius: 0.4rem; background: Canvas; color: CanvasText;
}
body.playground > * { width: min(72rem, 100%); margin: 1.5rem 1rem; }
.noscript { padding: 1rem; }
${BUTTON_CSS}`;
