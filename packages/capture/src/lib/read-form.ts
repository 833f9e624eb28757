// Reading the organisation's own form into a capture request: the snippet's path. Kept apart from request.ts so
// that <svc-consent-field>, which renders its own controls, never carries the code that reads a page's controls.
import { noticeText, readPurposes, type PurposeTarget } from './controls.js';
import { CaptureError } from './errors.js';
import { composeRequest, pageUrlOf, subjectOf, type RequestParts } from './request.js';
import { sha256Digest } from './text.js';
import type { CaptureRequest, CaptureSubject } from './types.js';

/** How a form is read: the parts of the options that shape the request. */
export interface ReadOptions {
  flowId: string;
  purposes?: Readonly<Record<string, PurposeTarget>> | undefined;
  locale?: string | undefined;
  subject?: CaptureSubject | undefined;
  commit?: boolean | undefined;
}

/**
 * Reads the form into a capture request. The controls are read synchronously, at the instant of the call, so a
 * change while the notice is being hashed cannot alter the decisions.
 */
export async function readForm(form: HTMLFormElement, options: ReadOptions): Promise<CaptureRequest> {
  const purposes = readPurposes(form, options.purposes);
  if (purposes.length === 0) {
    throw new CaptureError('no_purposes', 'The form has no control marked data-svc-purpose and no purposes mapping.');
  }
  const parts: RequestParts = {
    flowId: options.flowId,
    purposes,
    formId: form.id || form.getAttribute('name') || undefined,
    pageUrl: pageUrlOf(form.ownerDocument.URL),
    locale: options.locale ?? form.closest('[lang]')?.getAttribute('lang') ?? undefined,
    subject: options.subject ?? subjectOf(form),
    commit: options.commit,
  };
  // Web Crypto's `subtle` exists only in secure contexts (https, localhost); elsewhere no hashes are sent.
  if (globalThis.crypto?.subtle) {
    const texts = purposes.map(noticeText);
    const [whole, ...each] = await Promise.all([texts.join('\n'), ...texts].map(sha256Digest));
    parts.digests = { notice_hash: whole!, notice_hashes: Object.fromEntries(purposes.map((p, i) => [p.key, each[i]!])) };
  }
  return composeRequest(parts);
}
