import { CaptureError } from './errors.js';

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
    throw new CaptureError(`http_${status}`, (typeof message === 'string' && message) || `${service} answered HTTP ${status}.`, { status, body });
  }
  return body;
}

/**
 * Submits `form` again as `submitter` did: `requestSubmit` (not `submit`) so validation and the page's own submit
 * listeners run; a submitter that left the form is dropped.
 */
export function requestSubmitAs(form: HTMLFormElement, submitter: HTMLElement | null): void {
  try {
    form.requestSubmit(submitter?.isConnected && (submitter as HTMLButtonElement).form === form ? submitter : null);
  } catch {
    form.requestSubmit();
  }
}
