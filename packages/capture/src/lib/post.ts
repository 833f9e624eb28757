import { answerBody } from './answer.js';
import { CaptureError } from './errors.js';
import type { CaptureRequest, CaptureResult } from './types.js';

/** A `fetch` the helper can be given instead of the page's own (tests, instrumented clients). */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** Where and how a capture is posted. */
export interface PostOptions {
  /** The application's publishable key, sent as `X-Publishable-Key`. */
  publishableKey: string;
  /** The service's base URL; the capture goes to `${baseUrl}/api/v1/captures`. */
  baseUrl: string | URL;
  /** Milliseconds to wait for the service before rejecting with `timeout`. */
  timeoutMs: number;
  /** A render proof from the render endpoint, sent as `X-Svc-Render-Proof`. */
  renderProof?: string | undefined;
  /** The `fetch` to post with; default the page's own. */
  fetch?: FetchLike | undefined;
}

function isCapture(value: unknown): value is CaptureResult {
  const c = value as Partial<CaptureResult> | null | undefined;
  return typeof c?.session_token === 'string' && c.session_token !== '' && typeof c.attestation_id === 'string' &&
    typeof c.committed === 'boolean';
}

/**
 * Posts the capture to `${baseUrl}/api/v1/captures` with the publishable key and resolves with the `capture`
 * object, or rejects with a {@link CaptureError}: `network`, `timeout`, `http_<status>` or `invalid_response`.
 */
export async function postCapture(request: CaptureRequest, options: PostOptions): Promise<CaptureResult> {
  const url = `${String(options.baseUrl).replace(/\/+$/, '')}/api/v1/captures`;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-publishable-key': options.publishableKey };
  if (options.renderProof) headers['x-svc-render-proof'] = options.renderProof;
  const controller = new AbortController();
  const timedOut = () => new CaptureError('timeout', `The capture service did not answer within ${options.timeoutMs} ms.`);
  const doFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));

  const exchange = async (): Promise<CaptureResult> => {
    let response: Response;
    let text: string;
    try {
      // No cookies: the publishable key (and a render proof) authenticate a capture, never the person's session.
      response = await doFetch(url, {
        method: 'POST', headers, body: JSON.stringify(request), signal: controller.signal, credentials: 'omit', cache: 'no-store',
      });
      text = await response.text();
    } catch (cause) {
      if (controller.signal.aborted) throw timedOut();
      throw new CaptureError('network', 'The capture service could not be reached.', { cause });
    }
    const body = answerBody(response, text, 'The capture service');
    const capture = (body as { capture?: unknown } | undefined)?.capture;
    if (!isCapture(capture)) throw new CaptureError('invalid_response', 'The capture service answered without a capture.');
    return capture;
  };

  // The timer races the exchange rather than trusting the abort alone: a fetch that ignores its signal must not
  // hold the person's form back either.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(timedOut());
    }, options.timeoutMs);
  });
  try {
    return await Promise.race([exchange(), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
