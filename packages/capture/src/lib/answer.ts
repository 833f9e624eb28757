import { CaptureError } from './errors.js';
import type { FetchLike } from './post.js';

/**
 * The JSON body of a service answer (undefined when empty or not JSON); a non-2xx answer rejects with
 * `http_<status>`, carrying the server's own `message` and body when it sent one.
 */
export function answerBody(response: Response, text: string, service = 'The service'): unknown {
  let body: unknown;
  try {
    body = JSON.parse(text); // an empty text throws too
  } catch {
    // not JSON: no body
  }
  const { ok, status } = response;
  if (!ok) {
    const message = (body as { message?: unknown } | null | undefined)?.message;
    throw new CaptureError(`http_${status}`, (typeof message === 'string' && message) || `${service} answered HTTP ${status}.`, {
      status,
      body,
    });
  }
  return body;
}

/** The longest `Retry-After` of a 429 that {@link askService} waits for before asking once more. */
const MAX_RETRY_AFTER_MS = 10_000;

/** How {@link askService} waits: at most `timeoutMs`, with this `fetch`, until `signal` aborts. */
export interface AskOptions {
  timeoutMs: number;
  fetch?: FetchLike | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Sends one request to `url` (`{base_url}/api/v1/...`), without cookies or cache, and resolves with the answer's JSON
 * body (see {@link answerBody}), or rejects with a {@link CaptureError}: `network`, `timeout` or `http_<status>`; an
 * abort through `signal` rejects with the signal's reason. An error answer naming a `home_country` (a country cell's
 * 421 for a resource homed elsewhere) is re-issued once, within `timeoutMs`, at the base URL that
 * `GET {base_url}/api/v1/countries` lists for that country; when it lists none the error stands. A 429 is asked
 * once more after its `Retry-After` (in seconds, as the service sends it) when that is at most 10 s and ends before
 * `timeoutMs`; otherwise it is the answer (`http_429`). Shared with `<svc-consent-field>`.
 */
export async function askService(url: string, init: RequestInit, options: AskOptions, service = 'The service'): Promise<unknown> {
  const { timeoutMs, signal } = options;
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal!.reason);
  signal?.addEventListener('abort', onAbort);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = Date.now() + timeoutMs;

  const exchange = async (to: string, request: RequestInit, again = 1): Promise<unknown> => {
    let response: Response;
    let text: string;
    try {
      // No cookies: the publishable key (and a render proof) authenticate, never the person's session.
      response = await (options.fetch ?? fetch)(to, { ...request, signal: controller.signal, credentials: 'omit', cache: 'no-store' });
      text = await response.text();
    } catch (cause) {
      if (signal?.aborted) throw signal.reason;
      // After a timeout the deadline below has already rejected the race, so this rejection is never seen.
      throw new CaptureError('network', `${service} could not be reached.`, { cause });
    }
    // A 429 stored nothing, so any request may be asked again, once, after the seconds its `Retry-After` names;
    // a longer wait, or one past the deadline (it would only turn the 429 into a timeout), leaves the 429 the answer.
    const wait = 1000 * +(response.headers.get('retry-after') || NaN);
    if (response.status == 429 && again && wait <= Math.min(MAX_RETRY_AFTER_MS, deadline - Date.now())) {
      await new Promise((resolve, reject) => {
        setTimeout(resolve, wait);
        controller.signal.onabort = () => reject(signal?.reason);
      });
      return exchange(to, request, 0);
    }
    return answerBody(response, text, service);
  };

  // An error answer with a `home_country` (a 421): the resource lives in another country's cell. The request is
  // re-issued there once, at the base URL that `GET /api/v1/countries` of this same service lists for it, never to
  // any other host; that answer, whatever it is, is the answer.
  const base = url.split('/api/v1/')[0]!;
  const follow = async (error: CaptureError): Promise<unknown> => {
    const home = (error?.body as { home_country?: string } | undefined)?.home_country;
    const cell =
      home &&
      (
        (await exchange(`${base}/api/v1/countries`, { headers: init.headers })) as { countries: { country: string; base_url: string }[] }
      ).countries.find((c) => c.country == home);
    if (cell) return exchange(url.replace(base, cell.base_url), init);
    throw error;
  };

  // The timer races the exchange rather than trusting the abort alone: a fetch that ignores its signal must not
  // hold the caller (and the person's form) back either.
  try {
    return await Promise.race([
      exchange(url, init).catch(follow),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(new CaptureError('timeout', `${service} did not answer within ${timeoutMs} ms.`));
        }, timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
