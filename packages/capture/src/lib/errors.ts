/** Stable codes of {@link CaptureError}; switch on these, never on the message text. */
export const CaptureErrorCode = {
  /** The capture service could not be reached (offline, DNS, CORS refusal, connection reset). */
  Network: 'network',
  /** The capture service did not answer within `timeoutMs`. */
  Timeout: 'timeout',
  /** The service answered 2xx with a body that is not a `{capture}` envelope. */
  InvalidResponse: 'invalid_response',
  /** A control marked with a purpose cannot carry a decision, or a purpose's controls do not fit together. */
  InvalidControl: 'invalid_control',
  /** The form carries no purpose at all, so there is nothing to capture. */
  NoPurposes: 'no_purposes',
  /** An option is missing or malformed (flow id, publishable key, base URL, timeout). */
  InvalidOptions: 'invalid_options',
  /** The form already has a capture helper attached. */
  AlreadyAttached: 'already_attached',
  /** Something failed that none of the other codes describes; `cause` holds it. */
  Unexpected: 'unexpected',
} as const;

/** An HTTP error status the service answered, as `http_<status>` (for example `http_422`). */
export type HttpErrorCode = `http_${number}`;

/** One of the {@link CaptureErrorCode} values, or `http_<status>`. */
export type CaptureErrorCode = (typeof CaptureErrorCode)[keyof typeof CaptureErrorCode] | HttpErrorCode;

/** What an `svc-error` event from the capture helper carries. */
export interface CaptureErrorDetail {
  /** Stable machine-readable code, e.g. `network`, `timeout` or `http_422`. */
  code: CaptureErrorCode;
  /** Human-readable explanation (the server's `message` for an HTTP error). */
  message: string;
  /** HTTP status, for an `http_<status>` error. */
  status?: number;
  /** The server's error body (`{message, code?, errors?}`), when it sent one. */
  body?: unknown;
}

/** Drops the keys whose value is undefined (so a JSON body or event detail holds only what is known). */
export function defined<T extends object>(object: T): T {
  for (const key in object) if (object[key] === undefined) delete object[key];
  return object;
}

/** The one error class of `@svc/capture`: a failed capture or a misuse of the API, with a stable `code`. */
export class CaptureError extends Error {
  /** The stable machine-readable code of this failure. */
  readonly code: CaptureErrorCode;
  /** HTTP status of the service's answer, for an `http_<status>` error. */
  readonly status: number | undefined;
  /** The service's error body, when it sent one. */
  readonly body: unknown;

  /** Creates an error with a stable `code`; `options.cause` keeps the underlying failure. */
  constructor(code: CaptureErrorCode, message: string, options: { cause?: unknown; status?: number; body?: unknown } = {}) {
    // Error reads only `cause` from its options, and only when the key is present.
    super(message, options);
    this.name = 'CaptureError';
    this.code = code;
    this.status = options.status;
    this.body = options.body;
  }

  /** The plain `{code, message, status?, body?}` object an `svc-error` event carries. */
  toDetail(): CaptureErrorDetail {
    const { code, message, status, body } = this;
    return defined({ code, message, status, body });
  }
}

/** `cause` itself when it is a {@link CaptureError}, else an `unexpected` one that keeps it as its cause. */
export const asCaptureError = (cause: unknown, message: string): CaptureError =>
  cause instanceof CaptureError ? cause : new CaptureError('unexpected', message, { cause });
