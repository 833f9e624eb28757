// The hosted page's data, rendered by the server into the page as JSON and read by the page's browser code. What a
// decision shows and takes (its status, progress, each kind's part, the participant actions) is the decision core's
// (consent/decisions/participant-types.ts); the page adds how it is shown. Types only: nothing here runs, so the page
// bundle and the server can both import it.
import type { PageParts, PageProgress } from '../../consent/decisions/participant-types.js';

export type {
  PageStatus,
  Screen,
  PagePurpose,
  PageProgress,
  ConsentPagePart,
  ApprovalPagePart,
  SignaturePagePart,
  PageParts,
  TransitionResult,
  ConsentAction,
  ApprovalAction,
  SignatureAction,
  TransitionAction,
  TransitionRequest,
} from '../../consent/decisions/participant-types.js';

type KindParts = { [K in keyof PageParts]: PageParts[K] | null };

/** Everything the hosted page needs, rendered by the server into `<script type="application/json" id="svc-decision-data">`. */
export interface PageData extends PageProgress, KindParts {
  session_token: string;
  kind: keyof PageParts;
  /** How this page is shown: `embed` (iframe), `popup`, or `redirect` (a top-level page that navigates back). */
  mode: 'embed' | 'popup' | 'redirect';
  deadline_at: string;
  /** The server clock when the page was rendered, so the page's deadline clock follows the server's (test) clock. */
  server_now: string;
  locale: string;
  branding: { name: string };
  /** The exact origin messages are posted to; null when no allowed origin applies (messages are dropped and counted). */
  target_origin: string | null;
  /** Where redirect mode lands on success (no parameters added); null when the decision has none. */
  redirect_uri: string | null;
  /** Where redirect mode lands on decline or cancel (`?error=access_denied`). */
  redirect_uri_denied: string | null;
  /** Base path of the participant API, `/decisions/{session_token}`. */
  api: string;
  /** Opened from the inbox: the same-origin inbox path "Back to inbox" leads to once answered; null otherwise. */
  return_to?: string | null;
  /**
   * The person the decision is addressed to, who alone may answer it; null when anyone holding the link may.
   * `proven`: this browser showed it is them (their signed-in session, or the page's code); `signed_in_as`: someone
   * else signed in here.
   */
  addressee: null | { email: string; proven: boolean; signed_in_as: string | null };
}
