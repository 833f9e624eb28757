// What <svc-vouches> says, in one map per view, so other languages can follow as maps of the same shape.
import { html, type TemplateResult } from 'lit';
import type { PersonListStrings } from '../internal/person-list.js';
import type { TrustScoreRow, VouchRow } from './events.js';

/** Every sentence and label of `<svc-vouches>`'s vouches view. */
export interface VouchesStrings extends PersonListStrings {
  /** Who the other side is: an agent by its name, a person by the id they were given. */
  counterpart: (row: VouchRow) => string;
  heading: (row: VouchRow) => string;
  status: Record<VouchRow['status'], string>;
  given: (date: TemplateResult) => TemplateResult;
  withdrawnOn: (date: TemplateResult) => TemplateResult;
  open: string;
  formTitle: string;
  vouchee: string;
  voucheeHint: string;
  statement: string;
  submit: string;
  sending: string;
  badId: string;
  refused: string;
  vouched: (who: string, organisation: string) => string;
  already: (who: string, organisation: string) => string;
  withdraw: string;
  withdrawNamed: (who: string) => string;
  confirm: (who: string, organisation: string) => string;
  confirmButton: string;
  withdrawing: string;
  withdrawn: (who: string, organisation: string) => string;
}

/** Every sentence and label of `<svc-vouches view="trust_scores">`. */
export interface ScoresStrings extends PersonListStrings {
  intro: string;
  score: (score: number) => string;
  yourId: string;
  counted: (row: TrustScoreRow['factors'][number]) => string;
}

const who = (row: VouchRow) => row.counterpart.name ?? row.counterpart.id;
const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

const COMMON = {
  error: 'This cannot be shown right now.',
  retry: 'Try again',
  more: 'Show more',
  moreShown: (count: number) => `${count} more shown.`,
  cancel: 'Cancel',
  cancelled: 'Nothing was changed.',
  failed: 'Nothing was changed: the service could not be reached or refused. Try again.',
};

/** English, the vouches view. */
export const EN: VouchesStrings = {
  ...COMMON,
  loading: 'Loading your vouches…',
  signedOut: 'Sign in to see who vouches for you, and vouch for others.',
  signInAgain: 'Sign in again to see your vouches.',
  empty: 'No vouches yet: nobody has vouched for you, and you have not vouched for anyone.',
  shown: (count, more) => (more ? `${count} or more vouches.` : count === 1 ? 'One vouch.' : `${count} vouches.`),
  counterpart: (row) => (row.counterpart.type === 'agent' ? `${who(row)} (agent)` : who(row)),
  heading: (row) => (row.direction === 'given' ? `You vouch for ${EN.counterpart(row)}` : `${who(row)} vouches for you`),
  status: { active: 'Active', revoked: 'Withdrawn' },
  given: (date) => html`Given ${date}`,
  withdrawnOn: (date) => html`withdrawn ${date}`,
  open: 'Vouch for someone',
  formTitle: 'Vouch for someone',
  vouchee: 'Their id',
  voucheeHint: 'The id on their trust score page: prs_… for a person, agt_… for an agent. Never your own.',
  statement: 'What you say about them (optional)',
  submit: 'Vouch',
  sending: 'Vouching…',
  badId: 'Enter an id that starts with prs_ (a person) or agt_ (an agent).',
  refused: 'Nobody you can vouch for has this id: check it, and that it is not your own.',
  vouched: (name, organisation) => `You now vouch for ${name} at ${organisation}.`,
  already: (name, organisation) => `You already vouch for ${name} at ${organisation}.`,
  withdraw: 'Withdraw',
  withdrawNamed: (name) => `Withdraw your vouch for ${name}`,
  confirm: (name, organisation) =>
    `Withdraw your vouch for ${name} at ${organisation}? It stops lifting their trust score, and counts against it.`,
  confirmButton: 'Yes, withdraw',
  withdrawing: 'Withdrawing…',
  withdrawn: (name, organisation) => `Withdrawn: your vouch for ${name} at ${organisation}.`,
};

/** English, the trust scores view. */
export const EN_SCORES: ScoresStrings = {
  ...COMMON,
  loading: 'Loading your trust scores…',
  signedOut: 'Sign in to see your trust score.',
  signInAgain: 'Sign in again to see your trust score.',
  empty: 'No organisation knows you yet, so you have no trust score.',
  shown: (count, more) => (more ? `${count} or more scores.` : count === 1 ? 'One score.' : `${count} scores.`),
  intro:
    'Each organisation that knows you reads a trust score, from 0 to 100, and so do the limits you set on agents acting for you. Everyone starts at 50; this is what moved yours.',
  score: (score) => `${score} of 100`,
  yourId: 'Your id here, for someone who vouches for you:',
  counted: (f) => `Yours: ${f.value}, so ${signed(f.contribution)} ${Math.abs(f.contribution) === 1 ? 'point' : 'points'}.`,
};
