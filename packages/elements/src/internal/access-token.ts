// Where the person-facing elements (<svc-inbox>, <svc-records>) get the person's access token: a property, a
// function asked before every request, or (records) a same-origin URL that turns the page's signed-in session
// into a short-lived token.

/** Gives the person's access token (the OAuth helper's `accessToken()`), asked before every request. */
export type AccessTokenProvider = () => string | undefined | Promise<string | undefined>;

/** The token URL answered something other than a token; `status` is its HTTP status (0: not reached, or misnamed). */
export class TokenUrlError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * A token from a same-origin URL (`POST`, the page's cookies, `{access_token, expires_in}`), kept until shortly
 * before it expires (a tenth of its life, at most a minute) and shared by concurrent requests. Another origin is
 * refused: the page's session must never be sent, or a token taken, across origins.
 */
export class TokenFromUrl {
  #url = '';
  #token: string | undefined;
  #until = 0;
  #pending: Promise<string> | undefined;

  async get(url: string, ask: typeof fetch): Promise<string> {
    const target = new URL(url, document.baseURI);
    if (target.origin !== location.origin) throw new TokenUrlError(`token-url must be on this page's origin (${location.origin}).`, 0);
    if (target.href !== this.#url) this.forget();
    this.#url = target.href;
    if (this.#token && Date.now() < this.#until) return this.#token;
    this.#pending ??= this.#ask(target.href, ask).finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /** Drops the kept token (the service refused it): the next request asks the URL again. */
  forget(): void {
    this.#token = undefined;
    this.#until = 0;
  }

  async #ask(url: string, ask: typeof fetch): Promise<string> {
    const answer = await ask(url, { method: 'POST', credentials: 'same-origin', headers: { accept: 'application/json' } });
    let body: { access_token?: unknown; expires_in?: unknown; message?: string } = {};
    try {
      body = await answer.json();
    } catch {
      // Not JSON: judged below.
    }
    if (!answer.ok || typeof body.access_token !== 'string' || !body.access_token) {
      throw new TokenUrlError(body.message ?? `The token URL answered ${answer.status}.`, answer.ok ? 502 : answer.status);
    }
    const life = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 0;
    this.#token = body.access_token;
    this.#until = Date.now() + 1000 * (life - Math.min(60, life / 10));
    return body.access_token;
  }
}
