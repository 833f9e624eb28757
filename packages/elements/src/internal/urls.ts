// The hosted page URLs of one decision, from the trust URL and the session token.

/** The URLs of one decision's hosted pages. */
export interface DecisionUrls {
  /** The origin every message must come from, as browsers write `event.origin`. */
  serviceOrigin: string;
  /** `{trust_url}/decisions/{token}/embed`, the iframe page. */
  embed: string;
  /** `{trust_url}/decisions/{token}`, the full page for popup and redirect. */
  page: string;
}

// Session tokens are `dts_` plus URL-safe base64; anything else could change the path it is put into.
const TOKEN = /^dts_[A-Za-z0-9_-]{1,256}$/;

/** Tells whether `token` looks like a decision session token (`dts_...`). */
export function isSessionToken(token: string): boolean {
  return TOKEN.test(token);
}

/**
 * The decision's URLs, or a sentence saying what is wrong with `trustUrl`, which must be an absolute http(s) URL (a
 * path prefix is kept; query and fragment are dropped). `token` must be a session token (see {@link isSessionToken}):
 * the caller checks it first.
 */
export function decisionUrls(trustUrl: string | undefined, token: string): DecisionUrls | string {
  if (!trustUrl) return 'No trust URL: set the trust-url attribute, or wrap the element in <svc-provider trust-url>.';
  let url: URL | undefined;
  try {
    url = new URL(trustUrl);
  } catch {
    // Not an absolute URL: reported below, with the other schemes.
  }
  if (!url || !/^https?:$/.test(url.protocol)) {
    return `trust-url must be an absolute URL (an http(s) URL such as https://svc.example), got ${JSON.stringify(trustUrl)}.`;
  }
  // Checked by the caller, but never put into a path unchecked.
  if (!TOKEN.test(token)) return 'token must be a decision session token (dts_...).';
  const page = `${url.origin}${url.pathname.replace(/\/+$/, '')}/decisions/${token}`;
  return { serviceOrigin: url.origin, embed: `${page}/embed`, page };
}
