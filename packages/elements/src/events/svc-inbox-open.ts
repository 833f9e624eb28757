// The events of `<svc-inbox>`: `svc-inbox-open` (a row is about to open) and its own `svc-error` (the inbox could not
// be read). A row's decision events (`svc-complete`, `svc-cancel`, ...) are `<svc-decision>`'s, passing through.

/** One row of the inbox, as `GET /api/v1/inbox` answers it. */
export interface InboxRow {
  kind: 'consent' | 'approval' | 'signature_request';
  status: string;
  /** An approval's trigger type when it answers an agent's escalation, else null. */
  trigger: string | null;
  application_id: string;
  application_name: string;
  title: string;
  summary: string | null;
  session_token: string;
  /** The hosted decision page, `{trust_url}/decisions/{session_token}`. */
  url: string;
  deadline_at: string;
  created_at: string;
}

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
