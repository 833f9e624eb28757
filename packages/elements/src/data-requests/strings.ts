// What <svc-data-requests> says, in one map, so other languages can follow as maps of the same shape.
import { html, type TemplateResult } from 'lit';
import type { PersonListStrings } from '../internal/person-list.js';
import type { DataRequestRow, DataRequestType } from './events.js';

/** Every sentence and label of `<svc-data-requests>`. */
export interface DataRequestsStrings extends PersonListStrings {
  /** The locale dates are written in. */
  locale: string;
  type: Record<DataRequestType, { label: string; explanation: string }>;
  status: Record<DataRequestRow['status'], string>;
  sent: (date: TemplateResult) => TemplateResult;
  due: (date: TemplateResult) => TemplateResult;
  overdue: (days: number) => string;
  extended: (date: TemplateResult, reason: string) => TemplateResult;
  answered: (date: TemplateResult) => TemplateResult;
  refused: (date: TemplateResult, reason: string) => TemplateResult;
  download: string;
  newRequest: string;
  formTitle: string;
  organisation: string;
  kind: string;
  details: string;
  detailsHint: string;
  next: string;
  noOrganisations: string;
  confirm: (type: string, organisation: string) => string;
  confirmButton: string;
  filing: string;
  filed: (type: string, organisation: string) => string;
}

/** English. */
export const EN: DataRequestsStrings = {
  locale: 'en-GB',
  loading: 'Loading your data requests…',
  signedOut: 'Sign in to see your data requests.',
  signInAgain: 'Sign in again to see your data requests.',
  empty: 'You have not made any data requests yet.',
  error: 'Your data requests cannot be shown right now.',
  retry: 'Try again',
  more: 'Show more',
  moreShown: (count) => `${count} more shown.`,
  shown: (count, more) => (more ? `${count} or more requests.` : count === 1 ? 'One request.' : `${count} requests.`),
  type: {
    access: { label: 'A copy of my data', explanation: 'They send you a copy of the data they hold about you.' },
    erasure: { label: 'Delete my data', explanation: 'They delete the data they hold about you, unless the law makes them keep it.' },
    portability: { label: 'Move my data', explanation: 'They give you your data in a format another service can read.' },
    rectification: { label: 'Correct my data', explanation: 'They fix data about you that is wrong or incomplete.' },
  },
  status: { received: 'Sent, not started yet', in_progress: 'Being worked on', completed: 'Answered', rejected: 'Refused' },
  sent: (date) => html`Sent ${date}`,
  due: (date) => html`Answer due by ${date}`,
  overdue: (days) => `Overdue by ${days === 1 ? '1 day' : `${days} days`}`,
  extended: (date, reason) => html`Extended to ${date} because ${reason}`,
  answered: (date) => html`Answered ${date}`,
  refused: (date, reason) => html`Refused ${date}: ${reason}`,
  download: 'Download your data',
  newRequest: 'New request',
  formTitle: 'New data request',
  organisation: 'Organisation',
  kind: 'What do you want?',
  details: 'Details (optional)',
  detailsHint: 'For example which account, or what is wrong.',
  next: 'Continue',
  cancel: 'Cancel',
  noOrganisations: 'There is no organisation you can send a request to yet.',
  confirm: (type, organisation) => `Send “${type}” to ${organisation}? They must answer within 30 days.`,
  confirmButton: 'Yes, send it',
  filing: 'Sending…',
  filed: (type, organisation) => `Sent to ${organisation}: ${type}.`,
  cancelled: 'Nothing was sent.',
  failed: 'Nothing was sent: the service could not be reached or refused. Try again.',
};
