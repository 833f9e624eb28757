// What <svc-policies> says, in one map per view, so other languages can follow as maps of the same shape.
import type { PersonListStrings } from '../internal/person-list.js';

const COMMON = {
  signedOut: "Sign in to your organisation's console to see this.",
  signInAgain: 'Sign in again to see this.',
  error: 'This cannot be shown right now.',
  retry: 'Try again',
  more: 'Show more',
  moreShown: (count: number) => `${count} more shown.`,
  cancel: 'Cancel',
  cancelled: 'Nothing was changed.',
  failed: 'Nothing was changed: the service could not be reached or refused. Try again.',
  /** The service's own words when it refused a change (a viewer's token, say). */
  refused: (message: string) => `Nothing was changed. The service said: ${message}`,
};

/** Every sentence and label of the policies view (policies and data licenses). */
export interface PoliciesStrings extends PersonListStrings {
  refused: (message: string) => string;
  policiesHeading: string;
  licensesHeading: string;
  noLicenses: string;
  status: Record<string, string>;
  template: (name: string) => string;
  made: string;
  revoke: string;
  revokePolicyNamed: (title: string) => string;
  confirmPolicy: (title: string) => string;
  revokeLicenseNamed: (licensee: string) => string;
  confirmLicense: (licensee: string) => string;
  confirmButton: string;
  revoking: string;
  revoked: (what: string) => string;
  licensee: string;
  purpose: string;
  accesses: (count: number, max: number | null) => string;
  noPurpose: string;
}

/** English, the policies view. */
export const EN: PoliciesStrings = {
  ...COMMON,
  loading: 'Loading the policies…',
  empty: 'No policies yet.',
  shown: (count, more) => (more ? `${count} or more policies.` : count === 1 ? 'One policy.' : `${count} policies.`),
  policiesHeading: 'Policies',
  licensesHeading: 'Data licenses',
  noLicenses: 'No data licenses yet.',
  status: { active: 'Active', revoked: 'Revoked', exhausted: 'Every access used' },
  template: (name) => `Template: ${name}`,
  made: 'Made',
  revoke: 'Revoke',
  revokePolicyNamed: (title) => `Revoke the policy ${title}`,
  confirmPolicy: (title) => `Revoke the policy ${title}? This cannot be undone.`,
  revokeLicenseNamed: (licensee) => `Revoke the data license of ${licensee}`,
  confirmLicense: (licensee) => `Revoke the data license of ${licensee}? No further access is counted. This cannot be undone.`,
  confirmButton: 'Yes, revoke',
  revoking: 'Revoking…',
  revoked: (what) => `Revoked: ${what}.`,
  licensee: 'Licensee',
  purpose: 'Purpose',
  accesses: (count, max) => (max === null ? `${count} accesses` : `${count} of ${max} accesses`),
  noPurpose: 'not stated',
};

/** Every sentence and label of the clean rooms view. */
export interface CleanRoomsStrings extends PersonListStrings {
  refused: (message: string) => string;
  heading: (agreement: string) => string;
  status: Record<string, string>;
  participants: string;
  expires: string;
  noExpiry: string;
  budget: (remaining: number, total: number) => string;
  budgetLabel: string;
  queries: string;
  hideQueries: string;
  queriesLoading: string;
  noQueries: string;
  queriesFailed: string;
  query: (type: string, status: string) => string;
  close: string;
  closeNamed: (agreement: string) => string;
  confirm: (agreement: string) => string;
  confirmButton: string;
  closing: string;
  closed: (agreement: string) => string;
}

const epsilon = (n: number) => Number(n.toFixed(3)).toString();

/** English, the clean rooms view. */
export const EN_ROOMS: CleanRoomsStrings = {
  ...COMMON,
  loading: 'Loading the clean rooms…',
  empty: 'No clean rooms yet.',
  shown: (count, more) => (more ? `${count} or more clean rooms.` : count === 1 ? 'One clean room.' : `${count} clean rooms.`),
  heading: (agreement) => `Clean room under agreement ${agreement}`,
  status: { active: 'Active', closed: 'Closed', expired: 'Expired' },
  participants: 'Participants',
  expires: 'Expires',
  noExpiry: 'no end date',
  budgetLabel: 'Privacy budget left',
  budget: (remaining, total) => `ε ${epsilon(remaining)} of ${epsilon(total)}`,
  queries: 'Show queries',
  hideQueries: 'Hide queries',
  queriesLoading: 'Loading the queries…',
  noQueries: 'No queries yet.',
  queriesFailed: 'The queries cannot be shown right now.',
  query: (type, status) => `${type.replaceAll('_', ' ')}: ${status}`,
  close: 'Close',
  closeNamed: (agreement) => `Close the clean room under agreement ${agreement}`,
  confirm: (agreement) => `Close the clean room under agreement ${agreement}? No further query can run in it. This cannot be undone.`,
  confirmButton: 'Yes, close',
  closing: 'Closing…',
  closed: (agreement) => `Closed: the clean room under agreement ${agreement}.`,
};

/** Every sentence and label of the consent activity view. */
export interface ActivityStrings extends PersonListStrings {
  refused: (message: string) => string;
  application: string;
  purpose: string;
  caption: (purpose: string, from: string, to: string) => string;
  granted: string;
  denied: string;
  withdrawn: string;
  totals: (granted: number, denied: number, withdrawn: number) => string;
  none: string;
  activityLoading: string;
  activityFailed: string;
}

/** English, the consent activity view. */
export const EN_ACTIVITY: ActivityStrings = {
  ...COMMON,
  loading: 'Loading the consent activity…',
  empty: 'No applications yet, so no consent activity.',
  shown: () => '',
  application: 'Application',
  purpose: 'Purpose',
  caption: (purpose, from, to) => `Consent for ${purpose} per day, ${from} to ${to}`,
  granted: 'Given',
  denied: 'Refused',
  withdrawn: 'Withdrawn',
  totals: (granted, denied, withdrawn) => `In total: ${granted} given, ${denied} refused, ${withdrawn} withdrawn.`,
  none: 'No consent was given, refused or withdrawn in this period.',
  activityLoading: 'Loading the consent activity…',
  activityFailed: 'The consent activity cannot be shown right now.',
};
