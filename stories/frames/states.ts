// The decision stories' states: for each, the page data the service would render into its hosted decision page
// (`PageData`, the server's own type) and, for the story-local participant API (participant-api.ts), the state each
// participant action leads to. `.storybook/statics.ts` writes the real page for every state at
// `{storybook}/svc/decisions/{token}[/embed]`; the token names the state, so
// `<svc-decision token="dts_story_consent_step_2" trust-url="{storybook}/svc">` loads it.
import type {
  ApprovalPagePart,
  ConsentPagePart,
  PageData,
  PageParts,
  PageProgress,
  PageStatus,
  SignaturePagePart,
  TransitionAction,
} from '../../packages/server/src/hosted/pages/page-data.ts';

export type FrameStateName =
  | 'loading'
  | 'consent_step_1'
  | 'consent_step_2'
  | 'consent_step_3'
  | 'consent_declined'
  | 'consent_cancelled'
  | 'informed_step_1'
  | 'informed_step_2'
  | 'informed_step_3'
  | 'informed_step_4'
  | 'informed_granted'
  | 'informed_declined'
  | 'informed_cancelled'
  | 'approval'
  | 'approval_approved'
  | 'approval_denied'
  | 'approval_countered'
  | 'approval_cancelled'
  | 'signature'
  | 'signature_code'
  | 'signature_sign'
  | 'signature_signed'
  | 'signature_declined'
  | 'signature_countered'
  | 'deadline_warning'
  | 'expired'
  | 'completed'
  | 'error'
  | 'popup';

/** One state: the page's data, and what the story-local participant API does from it. */
export interface FrameState {
  /** What the service renders; `mode` and `target_origin` are the page's own (see statics.ts, participant-api.ts). */
  data: PageData;
  /** The state each participant action leads to (the API refuses any other with `invalid_transition`). */
  next?: Partial<Record<TransitionAction['action'], FrameStateName>>;
  /** The comprehension check's right choice: the page never learns it, the participant API checks it. */
  answer?: number;
  /** The participant API fails every step with this error (the service is down). */
  failure?: { status: number; code: string; message: string };
  /** The page's script never gets to define `<svc-decision-page>`: the page never says it is ready. */
  quiet?: boolean;
}

/** The session token that opens `state`. */
export const tokenOf = (state: FrameStateName): string => `dts_story_${state}`;

/** The code the participant API "sends" (the sandbox shows it on the page, as the reference server's does). */
export const SANDBOX_CODE = '246810';

/** When the pages were rendered; the participant API moves it to when the page opens, deadlines with it. */
const RENDERED_AT = '2027-03-01T09:00:00.000Z';

const BRAND = 'Northwind Clinic';

const CONSENT: ConsentPagePart = {
  flow_id: 'flw_story_reminders',
  flow_version: 3,
  title: 'Appointment reminders',
  description: `${BRAND} would like to send you appointment reminders and a monthly newsletter.`,
  policy_url: null,
  purposes: [
    { key: 'reminders', label: 'Appointment reminders by email', basis: 'consent', mechanism: 'explicit', required: true },
    { key: 'newsletter', label: 'A monthly newsletter', basis: 'consent', mechanism: 'explicit', required: false },
    {
      key: 'delivery_checks',
      label: 'Checking that reminders arrive',
      description: 'We count delivered and opened reminders, nothing else.',
      basis: 'legitimate_interest',
      mechanism: 'opt_out',
      required: false,
    },
  ],
  screens: [
    { type: 'intro' },
    {
      type: 'disclosure',
      title: 'What you agree to',
      body: 'Reminders come by email two days and two hours before each appointment. The newsletter comes once a month. You can withdraw your consent at any time.',
    },
    { type: 'confirm' },
  ],
};

const INFORMED: ConsentPagePart = {
  flow_id: 'flw_story_study',
  flow_version: 1,
  title: 'Reminder service study',
  description: 'The study follows how well a new reminder service works. Taking part takes 10 minutes a month for a year.',
  policy_url: null,
  purposes: [{ key: 'study', label: 'Taking part in the reminder service study', basis: 'consent', mechanism: 'informed', required: true }],
  screens: [
    { type: 'intro' },
    {
      type: 'disclosure',
      title: 'Before you decide',
      body: 'You answer a short questionnaire each month. Your answers are kept apart from your medical record. You can leave the study at any time, without giving a reason.',
    },
    {
      type: 'comprehension_check',
      question: 'Can you leave the study?',
      choices: ['Yes, at any time', 'Only before the study starts', 'No'],
    },
    { type: 'confirm' },
  ],
};

const APPROVAL: ApprovalPagePart = {
  escalation_id: 'esc_story_flight',
  scope: null,
  state: null,
  meeting_id: null,
  agent: {
    name: 'Trip booker',
    description: 'Pay the flight to Paris',
    action: 'payments.create',
    amount: '240 EUR',
    jurisdiction: 'FR',
    reason: "Value 240 EUR is above the grant's value bound of 100 EUR per transaction.",
  },
};

const SIGNATURE: SignaturePagePart = {
  agreement_id: 'agr_story_supply',
  title: 'Reminder devices supply agreement',
  document_text:
    'Supply agreement for appointment reminder devices, 2027.\n\n1. Acme Supplies Ltd delivers 400 reminder devices to Northwind Clinic by 31 January 2027.\n2. Northwind Clinic pays EUR 12,000 within 30 days of delivery.\n3. Either party may end this agreement with 60 days notice in writing.',
  // The SHA-256 of document_text (statics.ts checks it).
  document_sha256: 'd5d0eec7dbf782b363582d6723deb98992f01fe686b5a25824bc9c17a61bfd3e',
  party: { id: 'pty_story_acme', email: 'sam.taylor@acme.example', name: 'Sam Taylor', home_country: 'US' },
  quorum: 2,
  signed_count: 1,
  party_count: 2,
};

const PARTS: PageParts = { consent: CONSENT, approval: APPROVAL, signature_request: SIGNATURE };

/** The page data of a decision of `kind` (its part, or `part`) in `progress`, due `deadlineSeconds` after rendering. */
function page<K extends keyof PageParts>(
  kind: K,
  progress: Partial<PageProgress> & Pick<PageProgress, 'status' | 'total_steps'>,
  options: { part?: PageParts[K]; deadlineSeconds?: number } = {},
): PageData {
  return {
    session_token: '',
    kind,
    mode: 'embed',
    deadline_at: new Date(Date.parse(RENDERED_AT) + (options.deadlineSeconds ?? 3600) * 1000).toISOString(),
    server_now: RENDERED_AT,
    locale: 'en',
    branding: { name: BRAND },
    target_origin: null,
    redirect_uri: null,
    redirect_uri_denied: null,
    api: '',
    return_to: null,
    addressee: kind === 'signature_request' ? { email: SIGNATURE.party.email, proven: false, signed_in_as: null } : null,
    step_index: 0,
    outcome: null,
    subject_email: null,
    completed_at: null,
    ...progress,
    consent: null,
    approval: null,
    signature_request: null,
    [kind]: options.part ?? PARTS[kind],
  };
}

const ENDED = { completed_at: RENDERED_AT };
const CONSENT_STEPS = CONSENT.screens.length + 1;
const INFORMED_STEPS = INFORMED.screens.length + 1;
const SIGNATURE_STEPS = 4;

/** The multi-screen consent at screen `index`: intro, what you agree to, the choices. */
const consentAt = (index: number, status: PageStatus, deadlineSeconds?: number): FrameState => ({
  data: page('consent', { status, step_index: index, total_steps: CONSENT_STEPS }, deadlineSeconds ? { deadlineSeconds } : {}),
  next: {
    ...(index === 0 ? { begin: 'consent_step_2' } : index === 1 ? { acknowledge: 'consent_step_3' } : { agree: 'completed' }),
    decline: 'consent_declined',
    cancel: 'consent_cancelled',
  },
});

const consentEnded = (status: PageStatus, outcome: string | null): FrameState => ({
  data: page('consent', { status, step_index: CONSENT_STEPS - 1, total_steps: CONSENT_STEPS, outcome, ...ENDED }),
});

const informed = (index: number, status: PageStatus, next: FrameState['next']): FrameState => ({
  data: page('consent', { status, step_index: index, total_steps: INFORMED_STEPS }, { part: INFORMED }),
  next: { ...next, decline: 'informed_declined', cancel: 'informed_cancelled' },
});

const informedEnded = (status: PageStatus, outcome: string | null): FrameState => ({
  data: page('consent', { status, step_index: INFORMED_STEPS - 1, total_steps: INFORMED_STEPS, outcome, ...ENDED }, { part: INFORMED }),
});

const approvalIn = (status: PageStatus, outcome: string | null = null): FrameState => ({
  data: page('approval', { status, total_steps: 1, outcome, ...(outcome || status === 'cancelled' ? ENDED : {}) }),
  ...(status === 'pending'
    ? { next: { approve: 'approval_approved', deny: 'approval_denied', counter: 'approval_countered', cancel: 'approval_cancelled' } }
    : {}),
});

/** The signing session: the document, the code sent to the party, the typed name; then its outcomes. */
const signatureAt = (index: number, status: PageStatus, next?: FrameState['next']): FrameState => {
  const email = index > 0 ? SIGNATURE.party.email : null;
  const proven = index === 2;
  const data = page('signature_request', { status, step_index: index, total_steps: SIGNATURE_STEPS, subject_email: email });
  return { data: { ...data, addressee: { email: SIGNATURE.party.email, proven, signed_in_as: null } }, ...(next ? { next } : {}) };
};

const signatureEnded = (status: PageStatus): FrameState => {
  const state = signatureAt(SIGNATURE_STEPS - 1, status);
  return { data: { ...state.data, outcome: status, ...ENDED } };
};

const STATES: Record<FrameStateName, FrameState> = {
  loading: { ...consentAt(0, 'pending'), quiet: true },
  consent_step_1: consentAt(0, 'pending'),
  consent_step_2: consentAt(1, 'informed'),
  consent_step_3: consentAt(2, 'reviewing'),
  consent_declined: consentEnded('declined', 'declined'),
  consent_cancelled: consentEnded('cancelled', null),
  informed_step_1: informed(0, 'pending', { begin: 'informed_step_2' }),
  informed_step_2: informed(1, 'informed', { acknowledge: 'informed_step_3' }),
  informed_step_3: { ...informed(2, 'informed', { answer: 'informed_step_4' }), answer: 0 },
  informed_step_4: informed(3, 'evidenced', { agree: 'informed_granted' }),
  informed_granted: informedEnded('fulfilled', 'granted'),
  informed_declined: informedEnded('declined', 'declined'),
  informed_cancelled: informedEnded('cancelled', null),
  approval: approvalIn('pending'),
  approval_approved: approvalIn('approved', 'approved'),
  approval_denied: approvalIn('denied', 'denied'),
  approval_countered: approvalIn('countered', 'countered'),
  approval_cancelled: approvalIn('cancelled'),
  signature: signatureAt(0, 'pending', { send_code: 'signature_code' }),
  signature_code: signatureAt(1, 'verifying', { send_code: 'signature_code', verify: 'signature_sign' }),
  signature_sign: signatureAt(2, 'reviewing', { sign: 'signature_signed', decline: 'signature_declined', counter: 'signature_countered' }),
  signature_signed: signatureEnded('signed'),
  signature_declined: signatureEnded('declined'),
  signature_countered: signatureEnded('countered'),
  deadline_warning: consentAt(2, 'reviewing', 33),
  expired: consentAt(2, 'reviewing', 3),
  completed: consentEnded('fulfilled', 'granted'),
  error: {
    ...consentAt(0, 'pending'),
    failure: { status: 503, code: 'service_unavailable', message: 'The service is not available right now. Try again in a minute.' },
  },
  popup: consentAt(0, 'pending'),
};

/** Every state with its own token and participant API path (`/svc/decisions/{token}`, under the story statics). */
export const FRAME_STATES = Object.fromEntries(
  Object.entries(STATES).map(([name, state]) => {
    const token = tokenOf(name as FrameStateName);
    return [name, { ...state, data: { ...state.data, session_token: token, api: `/svc/decisions/${token}` } }];
  }),
) as Record<FrameStateName, FrameState>;

/** The state a session token opens, if any. */
export function stateOfToken(token: string): FrameStateName | undefined {
  const name = token.replace(/^dts_story_/, '');
  return Object.hasOwn(FRAME_STATES, name) ? (name as FrameStateName) : undefined;
}
