// What <svc-records> says, in one map, so other languages can follow as maps of the same shape.
import { html, type TemplateResult } from 'lit';
import type { RecordPurpose, RecordRow } from '../events/svc-records-withdraw.js';
import type { PersonListStrings } from '../internal/person-list.js';

/** Every sentence and label of `<svc-records>`. */
export interface RecordsStrings extends PersonListStrings {
  status: Record<RecordRow['status'], string>;
  /** "Given" and "until" around a date (a `<time>`), in the language's order. */
  given: (date: TemplateResult) => TemplateResult;
  until: (date: TemplateResult) => TemplateResult;
  outcome: (purpose: RecordPurpose) => string;
  withdraw: string;
  withdrawNamed: (purpose: string) => string;
  withdrawAll: string;
  withdrawAllNamed: (organisation: string) => string;
  confirmOne: (purpose: string, organisation: string) => string;
  confirmAll: (purposes: string[], organisation: string) => string;
  confirm: string;
  withdrawing: string;
  withdrawn: (purposes: string[], organisation: string) => string;
}

const list = (items: string[]) => (items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

/** English. */
export const EN: RecordsStrings = {
  loading: 'Loading your consent records…',
  signedOut: 'Sign in to see your consent records.',
  signInAgain: 'Sign in again to see your consent records.',
  empty: 'You have no consent records yet.',
  error: 'Your consent records cannot be shown right now.',
  retry: 'Try again',
  more: 'Show more',
  moreShown: (count) => `${count} more shown.`,
  shown: (count, more) => (more ? `${count} or more records.` : count === 1 ? 'One record.' : `${count} records.`),
  status: { fulfilled: 'Active', revoked: 'Withdrawn', expired: 'Expired' },
  given: (date) => html`Given ${date}`,
  until: (date) => html`until ${date}`,
  outcome: ({ outcome, basis }) =>
    outcome === 'granted'
      ? 'You agreed.'
      : outcome === 'declined'
        ? 'You said no.'
        : outcome === 'revoked'
          ? 'You withdrew your consent.'
          : outcome === 'objected'
            ? 'You objected.'
            : basis === 'legitimate_interest'
              ? 'Used for their legitimate interest; you may object.'
              : 'You were told about this.',
  withdraw: 'Withdraw',
  withdrawNamed: (purpose) => `Withdraw: ${purpose}`,
  withdrawAll: 'Withdraw all',
  withdrawAllNamed: (organisation) => `Withdraw all from ${organisation}`,
  confirmOne: (purpose, organisation) => `Withdraw “${purpose}” from ${organisation}? They must stop from now on.`,
  confirmAll: (purposes, organisation) =>
    `Withdraw ${list(purposes.map((p) => `“${p}”`))} from ${organisation}? They must stop from now on.`,
  confirm: 'Yes, withdraw',
  cancel: 'Cancel',
  withdrawing: 'Withdrawing…',
  withdrawn: (purposes, organisation) => `Withdrawn from ${organisation}: ${list(purposes)}.`,
  cancelled: 'Nothing was withdrawn.',
  failed: 'Nothing was withdrawn: the service could not be reached or refused. Try again.',
};
