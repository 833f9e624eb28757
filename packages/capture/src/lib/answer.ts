import { CaptureError } from './errors.js';

/**
 * The JSON body of a service answer (undefined when empty or not JSON); a non-2xx answer rejects with
 * `http_<status>`, carrying the server's own `message` and body when it sent one.
 */
export function answerBody(response: Response, text: string, service = 'The service'): unknown {
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const message = (body as { message?: unknown } | null | undefined)?.message;
    throw new CaptureError(`http_${response.status}`, typeof message === 'string' && message ? message : `${service} answered HTTP ${response.status}.`, {
      status: response.status,
      ...(body === undefined ? {} : { body }),
    });
  }
  return body;
}

/**
 * Submits `form` again as `submitter` did: `requestSubmit` (not `submit`) so validation and the page's own submit
 * listeners run; a submitter that left the form is dropped.
 */
export function requestSubmitAs(form: HTMLFormElement, submitter: HTMLElement | null): void {
  try {
    const owned = submitter?.isConnected && (submitter as HTMLButtonElement).form === form;
    form.requestSubmit(owned ? submitter : null);
  } catch {
    form.requestSubmit();
  }
}
