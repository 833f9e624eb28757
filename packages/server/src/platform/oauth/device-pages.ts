// The device grant's pages (RFC 8628), which oidc-provider asks for: where a person types the code their device
// shows, confirms the connection, and is told to go back to the device. Plain HTML forms with the hosted pages'
// stylesheet (their tokens and buttons) and policy: no script, so nothing to allow.
import type { KoaContextWithOIDC } from 'oidc-provider';
import { escapeHtml, messagePage, PAGE_HEADERS, pageCsp } from '../../hosted/pages/render.js';
import { tooManyGuesses, waitText, type Limited } from './guessing.js';

/** Where a person types the code their device shows (the provider's `code_verification` route). */
export const DEVICE_PATH = '/oauth/device';

/** The `action` and `xsrf` of the form oidc-provider made, to post ours (its own markup carries an inline handler). */
function formParts(form: string): { action: string; xsrf: string } {
  const action = /action="([^"]+)"/.exec(form)?.[1] ?? '';
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(form)?.[1] ?? '';
  return { action, xsrf };
}

function send(koa: Pick<KoaContextWithOIDC, 'set' | 'type' | 'body'>, title: string, html: string): void {
  for (const [name, value] of Object.entries(PAGE_HEADERS)) koa.set(name, value);
  koa.set('Content-Security-Policy', pageCsp([]));
  koa.type = 'html';
  koa.body = messagePage({ title, html });
}

/**
 * The code entry page, or with `confirm` the page that names the application asking and the code, with a button to
 * connect and one to cancel. `problem` says why a code was refused.
 */
export function deviceCodePage(
  koa: KoaContextWithOIDC,
  form: string,
  problem?: string,
  confirm?: { client: string; userCode: string },
): void {
  const { action, xsrf } = formParts(form);
  const hidden = `<input type="hidden" name="xsrf" value="${escapeHtml(xsrf)}">`;
  if (confirm) {
    send(
      koa,
      'Connect a device',
      `<p>${escapeHtml(confirm.client)} asks to act for you on the device showing the code <strong>${escapeHtml(confirm.userCode)}</strong>. Connect only if you started this on your device.</p>
<form method="post" action="${escapeHtml(action)}">${hidden}<input type="hidden" name="user_code" value="${escapeHtml(confirm.userCode)}"><input type="hidden" name="confirm" value="yes">
<div class="actions"><button type="submit" class="primary">Connect</button> <button type="submit" name="abort" value="yes">Cancel</button></div>
</form>`,
    );
    return;
  }
  send(
    koa,
    'Connect a device',
    `${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : '<p>Type the code your device shows.</p>'}
<form method="post" action="${escapeHtml(action)}">${hidden}
<p><label for="user_code">Code</label><br><input id="user_code" name="user_code" type="text" autocomplete="off" autocapitalize="characters" spellcheck="false" required></p>
<div class="actions"><button type="submit" class="primary">Continue</button></div>
</form>`,
  );
}

/**
 * The code form posted without the session it was made in (posted from another site, or its session expired or was
 * forged): nothing can be checked, so the person starts again from a fresh form.
 */
export function deviceFormLostPage(koa: Pick<KoaContextWithOIDC, 'set' | 'type' | 'body' | 'status'>): void {
  koa.status = 400;
  send(
    koa,
    'Connect a device',
    `<p role="alert">This form has expired or was not opened on this page.</p>
<p><a href="${DEVICE_PATH}">Open the form again</a> and type the code your device shows.</p>`,
  );
}

/** Too many wrong codes (from this address, or from everywhere): 429 with `Retry-After`, whatever code was posted. */
export function deviceLimitedPage(koa: Pick<KoaContextWithOIDC, 'set' | 'type' | 'body' | 'status'>, limited: Limited): void {
  koa.status = 429;
  for (const [name, value] of Object.entries(tooManyGuesses('', limited).headers ?? {})) koa.set(name, value);
  send(koa, 'Connect a device', `<p role="alert">Too many wrong codes were entered. Try again ${escapeHtml(waitText(limited))}.</p>`);
}

/** Shown once the device is connected. */
export function deviceSuccessPage(koa: KoaContextWithOIDC): void {
  send(koa, 'Device connected', '<p>You can close this page and go back to your device.</p>');
}
