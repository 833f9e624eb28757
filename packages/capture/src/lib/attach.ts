import type { PurposeTarget } from './controls.js';
import { asCaptureError, CaptureError } from './errors.js';
import { emit, emitError } from './events/emit.js';
import { postCapture, type FetchLike } from './post.js';
import { DEFAULT_TIMEOUT_MS, TOKEN_FIELD } from './constants.js';
import { readForm } from './read-form.js';
import { httpUrl } from './request.js';
import { holdSubmissions } from './submit.js';
import type { CaptureResult, CaptureSubject } from './types.js';

/** Options of {@link attachCapture}. */
export interface CaptureOptions {
  /** The flow whose purposes the form asks (`flw_...`). */
  flowId: string;
  /** The application's publishable key (`pk_test_...` or `pk_live_...`), sent as `X-Publishable-Key`. */
  publishableKey: string;
  /** The service's base URL; the capture goes to `${baseUrl}/api/v1/captures`. */
  baseUrl: string | URL;
  /** Milliseconds to wait for the service before submitting without a token; default 4000. */
  timeoutMs?: number | undefined;
  /**
   * Explicit mapping purpose key -> control, radio group or CSS selector inside the form; when given it replaces
   * the `data-svc-purpose` attributes.
   */
  purposes?: Readonly<Record<string, PurposeTarget>> | undefined;
  /** A render proof from the render endpoint, sent as `X-Svc-Render-Proof`. */
  renderProof?: string | undefined;
  /** BCP 47 language of the notice; default the `lang` of the form's closest ancestor that has one. */
  locale?: string | undefined;
  /** Who the capture is about; default the fields marked `data-svc-subject="email"` / `"external_id"`. */
  subject?: CaptureSubject | undefined;
  /** Ask the service to commit the capture from the browser (the application must allow it). */
  commit?: boolean | undefined;
  /** The `fetch` to post with; default the page's own. */
  fetch?: FetchLike | undefined;
}

/** What {@link attachCapture} returns. */
export interface CaptureHandle {
  /** Stops capturing this form's submissions; a capture already under way still completes and submits. */
  detach(): void;
  /**
   * Captures the form's consent now without submitting it: writes the token, fires `svc-capture` or `svc-error`,
   * and resolves with the `capture` object or rejects with a {@link CaptureError}.
   */
  capture(): Promise<CaptureResult>;
}

const attached = new WeakMap<HTMLFormElement, CaptureHandle>();

/** Whether {@link attachCapture} is attached to this form. */
export const isAttached = (form: HTMLFormElement): boolean => attached.has(form);

const missing = (value: unknown) => !value || typeof value !== 'string';

function checkOptions(form: HTMLFormElement, options: CaptureOptions): void {
  const { flowId, publishableKey, baseUrl, timeoutMs } = options ?? {};
  const problem =
    form?.localName !== 'form'
      ? 'attachCapture needs a <form> element'
      : missing(flowId)
        ? 'flowId must be the flow id (flw_...)'
        : missing(publishableKey)
          ? 'publishableKey must be the publishable key (pk_...)'
          : !httpUrl(String(baseUrl))
            ? 'baseUrl must be an absolute http(s) URL'
            : timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)
              ? 'timeoutMs must be a positive number of milliseconds'
              : '';
  if (problem) throw new CaptureError('invalid_options', `${problem}.`);
}

// Writes the token into the hidden input: the form's own if it has one by that name, else one the helper adds
// (only to write a token: clearing one needs no input).
function writeToken(form: HTMLFormElement, token: string): void {
  const existing = form.elements.namedItem(TOKEN_FIELD);
  let input = (existing && 'length' in existing ? existing[0] : existing) as HTMLInputElement | null | undefined;
  if (!input && token) {
    input = form.ownerDocument.createElement('input');
    input.type = 'hidden';
    input.name = TOKEN_FIELD;
    form.append(input);
  }
  if (input) input.value = token;
}

/**
 * Attaches the capture helper to an organisation's own form: on submit it attests the consent controls, posts
 * the capture, writes the capture token into the hidden input `svc_capture_token` and submits the form once;
 * when the service fails or is slow it fires `svc-error` and submits without a token.
 *
 * @example
 * ```ts
 * import { attachCapture } from '@svc/capture';
 *
 * // <form id="signup" action="/signup" method="post">
 * //   <label><input type="checkbox" name="news" data-svc-purpose="newsletter"> Send me the monthly newsletter</label>
 * //   <button>Sign up</button>
 * // </form>
 * const form = document.querySelector<HTMLFormElement>('#signup')!;
 * const capture = attachCapture(form, { flowId: 'flw_dev_...', publishableKey: 'pk_test_...', baseUrl: 'http://127.0.0.1:4010' });
 * form.addEventListener('svc-capture', (event) => console.log('capture token', event.detail.session_token));
 * form.addEventListener('svc-error', (event) => console.warn('submitted without a capture:', event.detail.code));
 * // later: capture.detach();
 * ```
 */
export function attachCapture(form: HTMLFormElement, options: CaptureOptions): CaptureHandle {
  checkOptions(form, options);
  if (attached.has(form)) throw new CaptureError('already_attached', 'The form already has a capture helper attached.');
  const settings = { ...options, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS };
  let inFlight: Promise<CaptureResult> | undefined;
  const run = async (): Promise<CaptureResult> => {
    try {
      const result = await postCapture(await readForm(form, settings), settings);
      writeToken(form, result.session_token);
      emit(form, 'svc-capture', result);
      return result;
    } catch (cause) {
      const error = asCaptureError(cause, 'The capture failed unexpectedly.');
      // A token from an earlier capture would attest decisions the person may since have changed.
      writeToken(form, '');
      emitError(form, error);
      throw error;
    }
  };
  const capture = (): Promise<CaptureResult> =>
    (inFlight ??= run().finally(() => {
      inFlight = undefined;
    }));
  const release = holdSubmissions(form, capture);
  const handle: CaptureHandle = {
    detach() {
      release();
      if (attached.get(form) === handle) attached.delete(form);
    },
    capture,
  };
  attached.set(form, handle);
  return handle;
}
