// Reading the arrival back at `redirect_uri` after redirect mode. The hosted page adds nothing on success and
// `error=access_denied` otherwise, so the URL says which way the person went, and nothing more: anyone can type it.

/** What {@link readRedirectResult} read from the arrival URL. Unverified by construction. */
export interface RedirectResult {
  /**
   * `completed`: no `error` parameter (the page adds none on success). `declined`: `error=access_denied`, which the
   * page sends for everything but a grant, an approval or a signature: declined, denied, countered, cancelled or
   * expired.
   * `failed`: any other `error` value.
   */
  outcome: 'completed' | 'declined' | 'failed';
  /** The `error` query parameter as it arrived, or null. */
  error: string | null;
  /**
   * Always false. A redirect arrival proves nothing: confirm with your server (the decision read through the API,
   * the exchanged consent token, or the webhook) before acting on it.
   */
  verified: false;
}

/**
 * Reads how the person came back from redirect mode, from the URL they arrived at (the current page by default).
 * It proves nothing: the result is a hint for what to show while your server confirms the decision with the
 * service, which alone is authoritative.
 *
 * @example
 * ```ts
 * const arrival = readRedirectResult();
 * if (arrival.outcome === 'completed') showSpinner('Confirming…'); // then ask your server, which asks the service
 * ```
 */
export function readRedirectResult(url?: string | URL): RedirectResult {
  const href = url ?? (globalThis as { location?: Location }).location?.href;
  if (href === undefined) throw new TypeError('readRedirectResult needs a URL where there is no location (server side).');
  return resultOf(href);
}

/** {@link readRedirectResult} of a given URL, by default the page's (the script tag's loader always has one). */
export function resultOf(href: string | URL = location.href): RedirectResult {
  const error = new URL(href).searchParams.get('error');
  const outcome = error === null ? 'completed' : error === 'access_denied' ? 'declined' : 'failed';
  return { outcome, error, verified: false };
}
