import type { PurposeReading } from './controls.js';
import { defined } from './errors.js';
import { buildSnapshot } from './snapshot.js';
import type { CaptureRequest, CaptureSubject } from './types.js';

// The service validates the body strictly (no additional properties, formats checked); a field the page cannot
// fill correctly is left out rather than sent malformed, so one odd attribute never costs the person's capture.
// Both patterns are ASCII-only: without the `u` flag, `i` never folds a non-ASCII character onto an ASCII one.
const LOCALE = /^[a-z]{2,3}(-[a-z\d]{2,8}){0,3}$/i;
// The pattern the service's schema checks `subject.email` against (zod's default email pattern).
const EMAIL = /^([\w'+-]+\.)*[\w'+-]*[\w+-]@([a-z\d][a-z\d-]*\.)+[a-z]{2,}$/i;

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
  const { formId, pageUrl, locale, purposes } = parts;
  const email = parts.subject?.email?.trim();
  const externalId = parts.subject?.external_id?.trim();
  const subject = defined<CaptureSubject>({
    email: email && email.length <= 320 && EMAIL.test(email) ? email : undefined,
    external_id: externalId && externalId.length <= 256 ? externalId : undefined,
  });
  const form = formId && formId.length <= 200 ? formId : undefined;
  return defined<CaptureRequest>({
    flow_id: parts.flowId,
    decisions: Object.fromEntries(purposes.flatMap((p) => (p.entry ? [[p.key, p.entry]] : []))),
    form_id: form,
    page_url: pageUrl && pageUrl.length <= 2000 ? pageUrl : undefined,
    locale: locale && LOCALE.test(locale) ? locale : undefined,
    ...parts.digests,
    snapshot: buildSnapshot(purposes, form),
    subject: subject.email || subject.external_id ? subject : undefined,
    commit: parts.commit || undefined,
  });
}

/** The URL when it is an absolute http(s) one, else undefined. */
export function httpUrl(href: string): URL | undefined {
  try {
    const url = new URL(href);
    return /^https?:$/.test(url.protocol) ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The page's URL without query string, fragment or credentials (they may hold personal data); only http(s). */
export function pageUrlOf(href: string): string | undefined {
  const url = httpUrl(href);
  return url && url.origin + url.pathname;
}

/**
 * Who a capture from `form` is about: the values of its fields marked `data-svc-subject="email"` and
 * `"external_id"` (inside the form or associated with it through `form=`). Shared with `<svc-consent-field>`.
 */
export function subjectOf(form: HTMLFormElement): CaptureSubject {
  const marked = [...form.querySelectorAll('[data-svc-subject]'), ...form.elements];
  const value = (kind: string) => {
    const field = marked.find((el) => el.getAttribute('data-svc-subject') === kind) as HTMLInputElement | undefined;
    return typeof field?.value === 'string' ? field.value : undefined;
  };
  return { email: value('email'), external_id: value('external_id') };
}
