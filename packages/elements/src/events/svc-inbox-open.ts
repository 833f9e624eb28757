// The events of `<svc-inbox>`: `svc-inbox-open` (a row is about to open) and its own `svc-error` (the inbox could not
// be read). A row's decision events (`svc-complete`, `svc-cancel`, ...) are `<svc-decision>`'s, passing through.
import type { InboxDecision } from '@svc/schemas';

/** One row of the inbox, as `GET /api/v1/inbox` answers it (`InboxDecision` of `@svc/schemas`). */
export type InboxRow = InboxDecision;

/** Detail of `svc-inbox-open`: the row about to open. */
export type SvcInboxOpenDetail = InboxRow;

/** Fired (bubbles, composed, cancelable) when the person opens a row; `preventDefault()` keeps its popup shut. */
export type SvcInboxOpenEvent = CustomEvent<SvcInboxOpenDetail>;

/** Detail of an `svc-error` from `<svc-inbox>` itself. */
export interface InboxErrorDetail {
  /** `unauthorized` (the token was refused), `forbidden` (no `inbox:read`), `network`, `http` or `invalid_configuration`. */
  code: 'unauthorized' | 'forbidden' | 'network' | 'http' | 'invalid_configuration';
  /** Human-readable explanation, for logs rather than people. */
  message: string;
  /** True when trying again cannot help (the person must sign in again, or the token lacks the scope). */
  fatal: boolean;
  /** The way out (`retry`, `sign_in`), or null when there is none. */
  recoverable_via: string | null;
}

/** Fired (bubbles, composed) by `<svc-inbox>` when the inbox could not be read; see {@link InboxErrorDetail}. */
export type SvcInboxErrorEvent = CustomEvent<InboxErrorDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-inbox-open': SvcInboxOpenEvent;
  }
  interface SvcErrorDetailMap {
    inbox: InboxErrorDetail;
  }
}
