// `svc-error` of <svc-consent-field>. The event name is shared with the capture helper and <svc-decision>, and
// TypeScript accepts one declaration of an event map entry, so this file adds its detail to `SvcErrorDetailMap`.
import type { CaptureErrorCode } from '@svc/capture';

/** The codes `<svc-consent-field>` raises besides the capture helper's (`network`, `timeout`, `http_<status>`, ...). */
export const ConsentFieldErrorCode = {
  /** `flow`, the publishable key or the base URL is missing or malformed. */
  InvalidConfiguration: 'invalid_configuration',
  /** Another `<svc-consent-field>` for the same flow comes first in the same form; this one renders nothing. */
  DuplicateField: 'duplicate_field',
  /** The page's origin is not an allowed origin of the key's application; the message names the command that allows it. */
  OriginNotAllowed: 'origin_not_allowed',
  /** The form was submitted while the field showed no purposes (still loading, or loading failed). */
  NotRendered: 'not_rendered',
  /** The field (and its recording mark) was not visible at submit, so nothing was captured. */
  MarkHidden: 'mark_hidden',
  /** The render proof expired and the flow's wording changed since the person saw it, so nothing was captured. */
  WordingChanged: 'wording_changed',
} as const;

/** One of the {@link ConsentFieldErrorCode} values, or a capture helper code. */
export type ConsentFieldErrorCode = (typeof ConsentFieldErrorCode)[keyof typeof ConsentFieldErrorCode] | CaptureErrorCode;

/** Detail of an `svc-error` from `<svc-consent-field>`; the form still submits, without this field's token. */
export interface ConsentFieldErrorDetail {
  /** Stable machine-readable code. */
  code: ConsentFieldErrorCode;
  /** Human-readable explanation, for logs rather than people. */
  message: string;
  /** What the field was doing: checking its configuration, loading the purposes, or capturing on submit. */
  phase: 'setup' | 'render' | 'capture';
  /** The field's flow id. */
  flow: string;
  /** HTTP status, for an `http_<status>` error. */
  status?: number;
  /** The service's error body (`{message, code?, errors?}`), when it sent one. */
  body?: unknown;
}

/** Fired (bubbles, composed) by `<svc-consent-field>` when it cannot render or capture; see {@link ConsentFieldErrorDetail}. */
export type SvcConsentFieldErrorEvent = CustomEvent<ConsentFieldErrorDetail>;

/** A failed consent field operation, with a stable `code`; `capture()` rejects with it. */
export class ConsentFieldError extends Error {
  /** The stable machine-readable code. */
  readonly code: ConsentFieldErrorCode;
  /** What the field was doing. */
  readonly phase: ConsentFieldErrorDetail['phase'];
  /** HTTP status, for an `http_<status>` error. */
  readonly status: number | undefined;
  /** The service's error body, when it sent one. */
  readonly body: unknown;

  /** Creates an error with a stable `code`; `options.cause` keeps the underlying failure. */
  constructor(
    code: ConsentFieldErrorCode,
    message: string,
    phase: ConsentFieldErrorDetail['phase'],
    options: { cause?: unknown; status?: number | undefined; body?: unknown } = {},
  ) {
    // Error reads only `cause` from its options, and only when the key is present.
    super(message, options);
    this.name = 'ConsentFieldError';
    this.code = code;
    this.phase = phase;
    this.status = options.status;
    this.body = options.body;
  }

  /** The `svc-error` detail for this error, on the field of `flow`. */
  toDetail(flow: string): ConsentFieldErrorDetail {
    const { code, message, phase, status, body } = this;
    return { code, message, phase, flow, ...(status !== undefined && { status }), ...(body !== undefined && { body }) };
  }
}

declare global {
  interface SvcErrorDetailMap {
    consentField: ConsentFieldErrorDetail;
  }
}
