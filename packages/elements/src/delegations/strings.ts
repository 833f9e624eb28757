// What <svc-delegations> says, in one map, so other languages can follow as maps of the same shape. A grant's bounds
// come as the API's machine shape and are said here in plain words.
import { html, type TemplateResult } from 'lit';
import type { DelegationChange, DelegationRow } from '../events/svc-delegations-change.js';
import type { PersonListStrings } from '../internal/person-list.js';
import type { MakeProblem } from './make.js';

/** Every sentence and label of `<svc-delegations>`. */
export interface DelegationsStrings extends PersonListStrings {
  status: Record<DelegationRow['status'], string>;
  kind: (row: DelegationRow) => string;
  /** "Since" and "until" around a date (a `<time>`), in the language's order. */
  since: (date: TemplateResult) => TemplateResult;
  until: (date: TemplateResult) => TemplateResult;
  /** Each bound of the grant in plain words, in the order they are shown. */
  bounds: (row: DelegationRow, date: (iso: string) => string) => string[];
  action: Record<DelegationChange, string>;
  actionNamed: (action: DelegationChange, delegate: string) => string;
  confirmRevoke: (delegate: string, organisation: string) => string;
  confirm: string;
  working: Record<DelegationChange, string>;
  done: Record<DelegationChange, (delegate: string) => string>;
  /** The button that opens (and closes) the form to make a grant. */
  add: string;
  labels: {
    organisation: string;
    kind: string;
    email: string;
    agent: string;
    scopes: string;
    amount: string;
    currency: string;
    until: string;
  };
  /** How a field is filled in, said after its label. */
  hints: { scopes: string; amount: string };
  chooseOrganisation: string;
  kindOption: Record<DelegationRow['delegation_type'], string>;
  invalid: Record<MakeProblem, string>;
  /** Said when Continue found fields to fix. */
  fix: (count: number) => string;
  continue: string;
  close: string;
  /** The confirm step of a new grant: who, where, and its bounds in plain words. */
  confirmCreate: (delegate: string, organisation: string, kind: string, bounds: string[], until: string | undefined) => string;
  confirmMake: string;
  creating: string;
  made: (delegate: string) => string;
  notMade: string;
  notMadeFailed: string;
}

const list = (items: string[]) => (items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);
const VERBS = { read: 'read', write: 'change', delete: 'delete' } as const;

/** The bounds of `row` in English: scope, actions, value, time, daily count, place, trust score, escalation. */
function boundsEn(
  { delegated_scopes: scopes, bounds, max_actions_per_day: perDay, allow_sub_delegation: passOn }: DelegationRow,
  date: (iso: string) => string,
): string[] {
  const out: string[] = [];
  if (scopes.length) out.push(`Only: ${scopes.join(', ')}`);
  if (bounds.actions) out.push(`May only ${list(bounds.actions.map((a) => VERBS[a] ?? a))}`);
  if (bounds.value) out.push(`Up to ${bounds.value.max_per_transaction.toFixed(2)} ${bounds.value.currency} per action`);
  const { not_before: from, not_after: to } = bounds.time ?? {};
  if (from && to) out.push(`Only between ${date(from)} and ${date(to)}`);
  else if (from) out.push(`Not before ${date(from)}`);
  else if (to) out.push(`Not after ${date(to)}`);
  if (perDay) out.push(perDay === 1 ? 'At most one action a day' : `At most ${perDay} actions a day`);
  if (bounds.jurisdiction) out.push(`Only in: ${bounds.jurisdiction.allowed.join(', ')}`);
  if (bounds.reputation) out.push(`Only while its trust score is at least ${bounds.reputation.min_trust_score} of 100`);
  if (bounds.escalation) out.push(bounds.escalation.allowed ? 'May ask you before going further' : 'Never asks you for more');
  if (passOn) out.push('May pass this on, never wider');
  return out;
}

const TYPES: Record<DelegationRow['delegation_type'], string> = {
  ai_agent: 'An agent',
  guardian: 'Your guardian',
  caregiver: 'Your caregiver',
  power_of_attorney: 'Power of attorney',
  it_admin: 'IT administrator',
  peer: 'A person',
};

/** English. */
export const EN: DelegationsStrings = {
  loading: 'Loading who may act for you…',
  signedOut: 'Sign in to see who may act for you.',
  signInAgain: 'Sign in again to see who may act for you.',
  empty: 'Nobody may act for you: you have not let any person or agent act in your name.',
  error: 'Who may act for you cannot be shown right now.',
  retry: 'Try again',
  more: 'Show more',
  moreShown: (count) => `${count} more shown.`,
  shown: (count, more) => (more ? `${count} or more.` : count === 1 ? 'One person or agent.' : `${count} people or agents.`),
  status: { active: 'Active', suspended: 'Paused', revoked: 'Revoked', expired: 'Expired' },
  kind: (row) => TYPES[row.delegation_type] ?? row.delegation_type,
  since: (date) => html`Since ${date}`,
  until: (date) => html`until ${date}`,
  bounds: boundsEn,
  action: { suspend: 'Pause', resume: 'Resume', revoke: 'Revoke' },
  actionNamed: (action, delegate) => `${EN.action[action]}: ${delegate}`,
  confirmRevoke: (delegate, organisation) =>
    `Revoke what ${delegate} may do for you at ${organisation}? It stops at once and cannot be undone.`,
  confirm: 'Yes, revoke',
  cancel: 'Cancel',
  working: { suspend: 'Pausing…', resume: 'Resuming…', revoke: 'Revoking…' },
  done: {
    suspend: (delegate) => `${delegate} is paused: it cannot act for you until you resume it.`,
    resume: (delegate) => `${delegate} may act for you again.`,
    revoke: (delegate) => `${delegate} may no longer act for you.`,
  },
  cancelled: 'Nothing was revoked.',
  failed: 'Nothing changed: the service could not be reached or refused. Try again.',
  add: 'Let someone act for you',
  labels: {
    organisation: 'Where',
    kind: 'Who they are',
    email: 'Their email',
    agent: 'The agent’s ID',
    scopes: 'What they may do',
    amount: 'Most per action (optional)',
    currency: 'Currency',
    until: 'Until (optional)',
  },
  hints: { scopes: 'Scopes, separated by spaces, such as records:read', amount: 'An amount, such as 50' },
  chooseOrganisation: 'Choose…',
  kindOption: {
    peer: 'A person you trust',
    caregiver: 'Your caregiver',
    guardian: 'Your guardian',
    power_of_attorney: 'Power of attorney',
    it_admin: 'IT administrator',
    ai_agent: 'An agent (software)',
  },
  invalid: {
    organisation: 'Choose where they may act for you.',
    email: 'Enter their email, such as name@example.com.',
    agent: 'Enter the agent’s ID: it starts with agt_.',
    scopes: 'Name at least one thing they may do.',
    scope: 'Scopes are words such as records:read, separated by spaces.',
    amount: 'Enter an amount above 0.',
    currency: 'Enter a three-letter currency code, such as EUR.',
    until: 'Choose a day after today.',
  },
  fix: (count) => (count === 1 ? 'Check the field marked below.' : `Check the ${count} fields marked below.`),
  continue: 'Continue',
  close: 'Cancel',
  confirmCreate: (delegate, organisation, kind, bounds, until) =>
    `${kind}: let ${delegate} act for you${organisation ? ` at ${organisation}` : ''}? ${[...bounds, until ? `Until the end of ${until}` : 'Until you revoke it'].join('. ')}.`,
  confirmMake: 'Yes, let them act for me',
  creating: 'Making the grant…',
  made: (delegate) => `${delegate} may now act for you, within these bounds.`,
  notMade: 'Nothing was made.',
  notMadeFailed: 'Nothing was made: the service could not be reached or refused. Try again.',
};
