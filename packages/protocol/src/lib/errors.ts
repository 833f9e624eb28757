/**
 * Stable codes of {@link ProtocolError}; switch on these, never on the message text.
 */
export const ProtocolErrorCode = {
  /** A configured origin is not an absolute http(s) origin (for example `*`, `null` or a relative path). */
  InvalidOrigin: 'invalid_origin',
  /** A message or payload does not match the protocol v2 schemas. */
  InvalidMessage: 'invalid_message',
  /** An option is missing or has the wrong type. */
  InvalidOptions: 'invalid_options',
  /** The host channel cannot post yet because the decision's kind is still unknown. */
  KindUnknown: 'kind_unknown',
  /** The channel or port was disposed and can no longer post. */
  Disposed: 'disposed',
} as const;

/** One of the {@link ProtocolErrorCode} values. */
export type ProtocolErrorCode = (typeof ProtocolErrorCode)[keyof typeof ProtocolErrorCode];

/**
 * The one error class of `@svc/protocol`, thrown only on misuse of the API, never for a message a window sent.
 */
export class ProtocolError extends Error {
  /** The stable machine-readable code of this failure. */
  readonly code: ProtocolErrorCode;

  /** Creates an error with a stable `code`; `options.cause` keeps the underlying failure. */
  constructor(code: ProtocolErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProtocolError';
    this.code = code;
  }
}
