// What a decision shows its participant and what the participant answers: its status and progress, each kind's part
// of the page, the participant actions and the participant API's answer. The decision core owns these shapes; the
// hosted page (hosted/pages/page-data.ts) renders and sends them. Types only: the page's browser code imports them too.

/** The participant-visible status of a decision (the API's `status` values). */
export type PageStatus =
  | 'pending'
  | 'authenticating'
  | 'verifying'
  | 'reviewing'
  | 'informed'
  | 'evidenced'
  | 'fulfilled'
  | 'declined'
  | 'approved'
  | 'denied'
  | 'countered'
  | 'signed'
  | 'cancelled'
  | 'expired'
  | 'revoked';

/** One screen of a consent decision's hosted page; the answer of a comprehension check never reaches the page. */
export type Screen =
  | { type: 'intro' }
  | { type: 'sign_in'; title?: string | undefined }
  | { type: 'verify'; title?: string | undefined }
  | { type: 'review'; title?: string | undefined }
  | { type: 'disclosure'; title: string; body: string }
  | { type: 'comprehension_check'; question: string; choices: string[] }
  | { type: 'confirm' };

/** A purpose as the page shows it. */
export interface PagePurpose {
  key: string;
  label: string;
  description?: string | undefined;
  basis: 'consent' | 'legitimate_interest' | 'contract' | 'legal_obligation';
  mechanism: 'explicit' | 'informed' | 'opt_out' | 'notice';
  required: boolean;
}

/** Where the decision stands, as the participant API reports it after each step. */
export interface PageProgress {
  status: PageStatus;
  /** Zero-based screen index; terminal statuses sit on the last index. */
  step_index: number;
  /** Screens including the final one (consent); 1 for approvals. */
  total_steps: number;
  outcome: string | null;
  subject_email: string | null;
  completed_at: string | null;
}

/** A consent decision's part of the page: the frozen terms and the screens to walk. */
export interface ConsentPagePart {
  flow_id: string;
  flow_version: number;
  title: string;
  description: string | null;
  policy_url: string | null;
  purposes: PagePurpose[];
  screens: Screen[];
}

/** An approval's part of the page: what is asked. */
export interface ApprovalPagePart {
  escalation_id: string;
  scope: string | null;
  state: string | null;
  meeting_id: string | null;
  /** An agent's escalation this approval answers: who asks, for what, and which bound it went beyond. */
  agent: null | {
    name: string;
    description: string;
    action: string;
    amount: string | null;
    jurisdiction: string | null;
    reason: string;
  };
}

/** A signing session's part of the page: the document to sign, the party, and where the agreement stands. */
export interface SignaturePagePart {
  agreement_id: string;
  title: string;
  /** The document's text, shown as text (never as markup). */
  document_text: string;
  /** The SHA-256 of the document's UTF-8 bytes, lower-case hex: what the signature signs. */
  document_sha256: string;
  party: { id: string; email: string; name: string | null; home_country: string };
  /** How many signatures make the agreement active, how many it has, and how many parties it names. */
  quorum: number;
  signed_count: number;
  party_count: number;
}

/** Each kind's part of the page, under the kind's name; a page carries its own kind's part and null for the others. */
export interface PageParts {
  consent: ConsentPagePart;
  approval: ApprovalPagePart;
  signature_request: SignaturePagePart;
}

/** What `POST /decisions/{token}/transitions` answers. */
export interface TransitionResult {
  progress: PageProgress;
  /** The state change this step made; null when it made none (a code re-sent). */
  transition: null | { from: PageStatus; to: PageStatus; step_index: number; total_steps: number };
  /** Present once the decision completes with an outcome: what `svc:complete` carries. */
  completion?: { outcome: string; exchange_token: string; completed_at: string };
  /** The reference server sends no email: the sign-in code is shown on the page instead. */
  sandbox_code?: string;
}

/** A consent decision's participant actions. */
export type ConsentAction =
  | { action: 'begin' }
  | { action: 'sign_in'; email: string }
  | { action: 'send_code'; email?: string }
  | { action: 'verify'; code: string }
  | { action: 'acknowledge' }
  | { action: 'answer'; answer: number }
  | { action: 'agree'; granted: string[]; objected: string[] }
  | { action: 'decline'; comment?: string };

/** An approval's participant actions. */
export type ApprovalAction = { action: 'approve' } | { action: 'deny' } | { action: 'counter'; proposal: string };

/**
 * A signing session's participant actions: the sign-in code (sent to the party's own email; shown on the page in the
 * sandbox) and its check, then `sign` with the typed name, `decline` (optional comment) or `counter`.
 */
export type SignatureAction =
  | { action: 'send_code'; email?: string }
  | { action: 'verify'; code: string }
  | { action: 'sign'; name: string; comment?: string }
  | { action: 'decline'; comment?: string }
  | { action: 'counter'; proposal: string };

/** A participant action, the body of `POST /decisions/{token}/transitions`; `cancel` is every kind's that allows it. */
export type TransitionAction =
  | ConsentAction
  | ApprovalAction
  | SignatureAction
  | { action: 'cancel'; cancelled_by: 'user' | 'host'; reason?: string };

/** A participant action with the screen it was taken on, so a double click cannot skip a screen. */
export type TransitionRequest = TransitionAction & { step_index?: number };
