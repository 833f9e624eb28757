// What <svc-receipts> says, in one map, so other languages can follow as maps of the same shape.
import type { PersonListStrings } from '../internal/person-list.js';
import type { AuthorizationReceiptRow, ReceiptVerdict } from './events.js';

type Bound = AuthorizationReceiptRow['bounds'][number];
type Action = AuthorizationReceiptRow['actions']['recent'][number];

/** Every sentence and label of `<svc-receipts>`. */
export interface ReceiptsStrings {
  authorization: PersonListStrings;
  disclosure: PersonListStrings;
  kind: (row: AuthorizationReceiptRow) => string;
  boundName: Record<Bound['bound'], string>;
  bound: (bound: Bound) => string;
  actions: (counts: AuthorizationReceiptRow['actions']) => string;
  action: (action: Action) => string;
  disclosedBy: (organisation: string) => string;
  agent: (agent: { agent_name: string; agent_type: string; operator_name: string | null; role: string | null }) => string;
  checking: string;
  verdict: Record<ReceiptVerdict, string>;
  dropLabel: string;
  dropHint: string;
  fileVerdict: (name: string, verdict: ReceiptVerdict) => string;
}

const common = {
  retry: 'Try again',
  more: 'Show more',
  moreShown: (count: number) => `${count} more shown.`,
  shown: (count: number, more: boolean) => (more ? `${count} or more receipts.` : count === 1 ? 'One receipt.' : `${count} receipts.`),
  cancel: 'Cancel',
  cancelled: 'Nothing was done.',
  failed: 'The service could not be reached or refused. Try again.',
};

const list = (items: unknown) => (Array.isArray(items) ? items.map(String).join(', ') : String(items));

/** A configured bound in plain words. */
function boundText({ bound, limit }: Bound): string {
  const l = (limit ?? {}) as Record<string, unknown>;
  switch (bound) {
    case 'scope':
      return `Only: ${list(l.scopes)}`;
    case 'action':
      return `Only these actions: ${list(l.actions)}`;
    case 'value':
      return `At most ${l.max_per_transaction} ${l.currency} per action`;
    case 'time':
      return [l.not_before && `from ${l.not_before}`, l.not_after && `until ${l.not_after}`].filter(Boolean).join(' ');
    case 'escalation':
      return l.allowed ? 'May ask you for more' : 'May not ask you for more';
    case 'reputation':
      return `Needs a trust score of at least ${l.min_trust_score}`;
    case 'jurisdiction':
      return `Only in ${list(l.allowed)}`;
    default:
      return l.max_uses !== undefined ? `At most ${l.max_uses} use` : `At most ${l.max_actions_per_day} actions a day`;
  }
}

/** English. */
export const EN: ReceiptsStrings = {
  authorization: {
    ...common,
    loading: 'Loading what was done in your name…',
    signedOut: 'Sign in to see what agents and people did in your name.',
    signInAgain: 'Sign in again to see what was done in your name.',
    empty: 'Nobody has acted in your name yet.',
    error: 'These receipts cannot be shown right now.',
  },
  disclosure: {
    ...common,
    loading: 'Loading the agents disclosed to you…',
    signedOut: 'Sign in to see the agents organisations disclosed to you.',
    signInAgain: 'Sign in again to see the agents disclosed to you.',
    empty: 'No organisation has disclosed an agent to you yet.',
    error: 'These receipts cannot be shown right now.',
  },
  kind: ({ kind, outcome }) =>
    kind === 'grant'
      ? 'You let them act for you'
      : outcome === 'approved'
        ? 'You approved'
        : outcome === 'denied'
          ? 'You said no'
          : 'You answered with a counter-proposal',
  boundName: {
    scope: 'What',
    action: 'Actions',
    value: 'Amount',
    time: 'When',
    escalation: 'Asking you',
    reputation: 'Trust',
    jurisdiction: 'Where',
    sequence: 'How often',
  },
  bound: (bound) => (bound.configured ? boundText(bound) : 'Not set'),
  actions: ({ allowed, denied, escalated }) =>
    allowed + denied + escalated === 0
      ? 'No action taken under it yet.'
      : `${allowed} within the bounds, ${denied} refused, ${escalated} asked of you.`,
  action: ({ action, scope, value, currency, jurisdiction, outcome, bound }) =>
    `${action} (${scope})${value !== null ? `, ${value} ${currency ?? ''}`.trimEnd() : ''}${jurisdiction ? ` in ${jurisdiction}` : ''}: ${
      outcome === 'allowed' ? 'within the bounds' : `${outcome === 'denied' ? 'refused' : 'asked of you'}, beyond the ${bound ?? ''} bound`
    }`,
  disclosedBy: (organisation) => `${organisation} told you an agent takes part`,
  agent: ({ agent_name, agent_type, operator_name, role }) =>
    `${agent_name} (${agent_type}${operator_name ? `, run by ${operator_name}` : ''})${role ? `: ${role}` : ''}`,
  checking: 'Checking the signature on your device…',
  verdict: {
    valid: 'Valid: signed by this service and unchanged since.',
    tampered: 'Tampered: this receipt was changed after the service signed it.',
    not_this_service: 'Not signed by this service: none of its keys made this signature.',
    malformed: 'Malformed: this is not a signed receipt.',
    unchecked: "Not checked: the service's keys could not be read.",
  },
  dropLabel: 'Check a receipt file',
  dropHint: 'Drop any receipt file here (a consent receipt too), or choose one. It is checked on your device and sent nowhere.',
  fileVerdict: (name, verdict) => `${name}: ${EN.verdict[verdict]}`,
};
