import { askService } from './answer.js';
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

const SERVICE = 'The capture service';

/**
 * Posts the capture to `${baseUrl}/api/v1/captures` with the publishable key and resolves with the `capture`
 * object, or rejects with a {@link CaptureError}: `network`, `timeout`, `http_<status>` or `invalid_response`.
 */
export async function postCapture(request: CaptureRequest, options: PostOptions): Promise<CaptureResult> {
  const { renderProof } = options;
  const answer = await askService(
    `${String(options.baseUrl).replace(/\/+$/, '')}/api/v1/captures`,
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-publishable-key': options.publishableKey,
        ...(renderProof && { 'x-svc-render-proof': renderProof }),
      },
      body: JSON.stringify(request),
    },
    options,
    SERVICE,
  );
  const capture = (answer as { capture?: Partial<CaptureResult> } | undefined)?.capture;
  if (
    !(
      typeof capture?.session_token === 'string' &&
      capture.session_token &&
      typeof capture.attestation_id === 'string' &&
      typeof capture.committed === 'boolean'
    )
  ) {
    throw new CaptureError('invalid_response', `${SERVICE} answered without a capture.`);
  }
  return capture as CaptureResult;
}
