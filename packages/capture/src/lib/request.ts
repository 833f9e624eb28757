import { noticeText, readPurposes, type PurposeReading, type PurposeTarget } from './controls.js';
import { CaptureError } from './errors.js';
import { buildSnapshot } from './snapshot.js';
import { canHash, sha256Digest } from './text.js';
import type { CaptureRequest, CaptureSubject } from './types.js';

// The service validates the body strictly (no additional properties, formats checked); a field the page cannot
// fill correctly is left out rather than sent malformed, so one odd attribute never costs the person's capture.
const LOCALE = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8}){0,3}$/;
// The pattern the service's schema checks `subject.email` against (zod's default email pattern).
const EMAIL = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/** What the helper knows besides the purposes, to compose a request. */
export interface RequestParts {
  /** The flow whose purposes were asked. */
  flowId: string;
  /** What was read per purpose: its decision entry (none for notice-only), controls and notice texts. */
  purposes: readonly PurposeReading[];
  /** `sha256:<hex>` per purpose key, and of the whole notice; absent where Web Crypto is unavailable. */
  digests?: { notice_hash: string; notice_hashes: Record<string, string> } | undefined;
  /** The form's id (or name). */
  formId?: string | undefined;
  /** The page's URL, already stripped by {@link pageUrlOf}. */
  pageUrl?: string | undefined;
  /** BCP 47 language of the notice; left out unless it is one. */
  locale?: string | undefined;
  /** Who the capture is about; an email that would not validate is left out. */
  subject?: CaptureSubject | undefined;
  /** Ask for a browser commit. */
  commit?: boolean | undefined;
}

/** Composes the Consent capture request from what was read, leaving out what is empty or would not validate. */
export function composeRequest(parts: RequestParts): CaptureRequest {
  const request: CaptureRequest = { flow_id: parts.flowId, decisions: {} };
  for (const purpose of parts.purposes) if (purpose.entry) request.decisions[purpose.key] = purpose.entry;
  const formId = parts.formId && parts.formId.length <= 200 ? parts.formId : undefined;
  if (formId) request.form_id = formId;
  if (parts.pageUrl && parts.pageUrl.length <= 2000) request.page_url = parts.pageUrl;
  if (parts.locale && LOCALE.test(parts.locale)) request.locale = parts.locale;
  if (parts.digests) {
    request.notice_hash = parts.digests.notice_hash;
    request.notice_hashes = parts.digests.notice_hashes;
  }
  request.snapshot = buildSnapshot(parts.purposes, formId);
  const email = parts.subject?.email?.trim();
  const externalId = parts.subject?.external_id?.trim();
  const subject: CaptureSubject = {};
  if (email && email.length <= 320 && EMAIL.test(email)) subject.email = email;
  if (externalId && externalId.length <= 256) subject.external_id = externalId;
  if (subject.email !== undefined || subject.external_id !== undefined) request.subject = subject;
  if (parts.commit) request.commit = true;
  return request;
}

/** The page's URL without query string, fragment or credentials (they may hold personal data); only http(s). */
export function pageUrlOf(href: string): string | undefined {
  try {
    const url = new URL(href);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    url.search = '';
    url.hash = '';
    url.username = '';
    url.password = '';
    return url.href;
  } catch {
    return undefined;
  }
}

function subjectField(form: HTMLFormElement, kind: 'email' | 'external_id'): string | undefined {
  const field = form.querySelector<HTMLInputElement>(`[data-svc-subject="${kind}"]`) ??
    Array.from(form.elements).find((el) => el.getAttribute('data-svc-subject') === kind) as HTMLInputElement | undefined;
  return typeof field?.value === 'string' ? field.value : undefined;
}

/**
 * Who a capture from `form` is about: the values of its fields marked `data-svc-subject="email"` and
 * `"external_id"` (inside the form or associated with it through `form=`). Shared with `<svc-consent-field>`.
 */
export const subjectOf = (form: HTMLFormElement): CaptureSubject => ({
  email: subjectField(form, 'email'),
  external_id: subjectField(form, 'external_id'),
});

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
    throw new CaptureError('no_purposes', 'The form has no control marked with data-svc-purpose and no purposes mapping.');
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
  if (canHash()) {
    const texts = purposes.map(noticeText);
    const [whole, ...each] = await Promise.all([sha256Digest(texts.join('\n')), ...texts.map(sha256Digest)]);
    parts.digests = { notice_hash: whole!, notice_hashes: Object.fromEntries(purposes.map((p, i) => [p.key, each[i]!])) };
  }
  return composeRequest(parts);
}
