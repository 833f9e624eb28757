// `svc-error` is shared with the capture helper, and TypeScript accepts a single declaration of an event map
// entry: @svc/capture declares it over the `SvcErrorDetailMap` interface, and this file adds the element's detail.
import type { CaptureErrorDetail } from '@svc/capture';
import type { Kind } from '@svc/protocol';

/** The codes `<svc-decision>` raises itself; the hosted page's own codes pass through unchanged. */
export const DecisionErrorCode = {
  /** The browser blocked the decision window; the element shows a link that opens it instead. */
  PopupBlocked: 'popup_blocked',
  /** The element cannot build the hosted page's URL: a missing or malformed `trust-url`, or an unknown `mode`. */
  InvalidConfiguration: 'invalid_configuration',
  /** No token, or an empty one: set the `token` attribute to the `session_token` that `POST /api/v1/decisions` returned. */
  MissingToken: 'missing_token',
  /** The token is not a decision session token (`dts_...`). */
  InvalidToken: 'invalid_token',
  /** The iframe loaded but the hosted page never said it was ready nor why (a network error, a service too old to say). */
  FrameUnavailable: 'frame_unavailable',
} as const;

/** One of the {@link DecisionErrorCode} values. */
export type DecisionErrorCode = (typeof DecisionErrorCode)[keyof typeof DecisionErrorCode];

/**
 * Detail of an `svc-error` from `<svc-decision>`: the `svc:error` payload (`code`, `message`, `fatal`,
 * `recoverable_via`) plus `kind` once known. Codes are the hosted page's (`decision_not_found`, `origin_not_allowed`,
 * `decision_expired`, `decision_completed`, `network_error`, ...) or the element's own {@link DecisionErrorCode}.
 */
export interface DecisionErrorDetail {
  /** Stable machine-readable code. */
  code: DecisionErrorCode | (string & {});
  /** Human-readable explanation, for logs rather than people. */
  message: string;
  /** True when the decision cannot go on in this element. */
  fatal: boolean;
  /** The way out (`new_decision`: create a new decision; `retry`, `link`, `reload`), or null when there is none. */
  recoverable_via: string | null;
  /** The decision's kind, once the hosted page told it. */
  kind?: Kind;
}

/** Any `svc-error` detail: the element's, or the capture helper's (which has no `fatal`). */
export type SvcErrorDetail = DecisionErrorDetail | CaptureErrorDetail;

/** Fired (bubbles, composed) by `<svc-decision>` when something went wrong; see {@link DecisionErrorDetail}. */
export type SvcDecisionErrorEvent = CustomEvent<DecisionErrorDetail>;

declare global {
  interface SvcErrorDetailMap {
    decision: DecisionErrorDetail;
  }
}
