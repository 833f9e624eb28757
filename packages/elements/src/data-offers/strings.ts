// What <svc-data-offers> says, in one map, so other languages can follow as maps of the same shape. Terms are free
// objects: the keys the policy templates use (price, reward, months, duration_days, max_access_count, purposes,
// commercial_use, purpose) are said in words; any other key is said as "key: value".
import { html, type TemplateResult } from 'lit';
import type { DataLicenseRow, DataOfferRow } from './events.js';
import type { PersonListStrings } from '../internal/person-list.js';

/** Every sentence and label of `<svc-data-offers>`, for one view (offers or licences) and both. */
export interface DataOffersStrings extends PersonListStrings {
  /** Said instead of `empty` in the licences view. */
  emptyLicenses: string;
  offerStatus: Record<DataOfferRow['status'], string>;
  licenseStatus: Record<DataLicenseRow['status'], string>;
  categories: (names: string[]) => string;
  answerBy: (date: TemplateResult) => TemplateResult;
  decided: (date: TemplateResult) => TemplateResult;
  theirMessage: (message: string) => string;
  declineReason: (reason: string) => string;
  uses: (license: DataLicenseRow) => string;
  lastUsed: (date: TemplateResult) => TemplateResult;
  underAgreement: (title: string, signed: TemplateResult | null) => TemplateResult;
  revokedOn: (date: TemplateResult) => TemplateResult;
  term: (key: string, value: unknown) => string;
  accept: string;
  acceptNamed: (organisation: string) => string;
  decline: string;
  declineNamed: (organisation: string) => string;
  revoke: string;
  revokeNamed: (organisation: string) => string;
  confirmDecline: (organisation: string) => string;
  confirmRevoke: (organisation: string) => string;
  yesDecline: string;
  yesRevoke: string;
  working: string;
  done: Record<'accept' | 'decline' | 'revoke', (organisation: string) => string>;
}

const list = (items: string[]) => (items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);
const words = (key: string) => key.replace(/[_.]+/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** Money in minor units (as the policy templates give it) in the person's own format, or undefined when it is not money. */
function money(value: unknown): string | undefined {
  const { amount, currency } = (value ?? {}) as { amount?: unknown; currency?: unknown };
  if (typeof amount !== 'number' || typeof currency !== 'string') return undefined;
  try {
    const format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
    return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
  } catch {
    return `${amount} ${currency}`;
  }
}

const plain = (value: unknown): string =>
  Array.isArray(value)
    ? list(value.map(plain))
    : typeof value === 'object' && value !== null
      ? Object.entries(value)
          .map(([k, v]) => `${words(k).toLowerCase()} ${plain(v)}`)
          .join(', ')
      : String(value);

/** English. */
export const EN: DataOffersStrings = {
  loading: 'Loading…',
  signedOut: 'Sign in to see the offers for your data and the licences over it.',
  signInAgain: 'Sign in again to see the offers for your data and the licences over it.',
  empty: 'No offers for your data yet.',
  emptyLicenses: 'No organisation holds a licence over your data.',
  error: 'This cannot be shown right now.',
  retry: 'Try again',
  more: 'Show more',
  moreShown: (count) => `${count} more shown.`,
  shown: (count, more) => (more ? `${count} or more shown.` : count === 1 ? 'One shown.' : `${count} shown.`),
  offerStatus: {
    draft: 'Your draft: not sent yet.',
    offered: 'You made this offer: waiting for their answer.',
    countered: 'They answered with their own terms: your answer is awaited.',
    user_revised: 'You revised your terms: waiting for their answer.',
    accepted: 'Agreed.',
    declined: 'Declined.',
    expired: 'Expired: nobody answered in time.',
  },
  licenseStatus: { active: 'In use', exhausted: 'Used up: no further use allowed', revoked: 'Revoked' },
  categories: (names) => `Your data: ${list(names.map((n) => words(n).toLowerCase()))}`,
  answerBy: (date) => html`Answer by ${date}`,
  decided: (date) => html`Decided ${date}`,
  theirMessage: (message) => `Their note: “${message}”`,
  declineReason: (reason) => `Reason given: “${reason}”`,
  uses: ({ max_access_count: max, access_count: used, remaining_accesses: left }) =>
    max === null
      ? `Used ${used === 1 ? 'once' : `${used} times`}; no limit on how often.`
      : `Used ${used} of ${max} times allowed (${left} left).`,
  lastUsed: (date) => html`Last used ${date}`,
  underAgreement: (title, signed) => (signed ? html`Under “${title}”, which you signed ${signed}` : html`Under “${title}”`),
  revokedOn: (date) => html`Revoked ${date}`,
  term: (key, value) => {
    const amount = money(value);
    if (amount && key === 'price') return `Price: ${amount}`;
    if (amount && key === 'reward') return `Reward: ${amount}`;
    if (key === 'months' && typeof value === 'number') return `For ${value === 1 ? 'one month' : `${value} months`}`;
    if (key === 'duration_days' && typeof value === 'number') return `For ${value === 1 ? 'one day' : `${value} days`}`;
    if (key === 'max_access_count' && typeof value === 'number') return `At most ${value === 1 ? 'once' : `${value} times`}`;
    if (key === 'commercial_use' && typeof value === 'boolean') return value ? 'Commercial use allowed' : 'No commercial use';
    if ((key === 'purposes' || key === 'purpose') && value) return `For: ${plain(value)}`;
    return `${words(key)}: ${amount ?? plain(value)}`;
  },
  accept: 'Accept',
  acceptNamed: (organisation) => `Accept the terms of ${organisation}`,
  decline: 'Decline',
  declineNamed: (organisation) => `Decline the terms of ${organisation}`,
  revoke: 'Revoke',
  revokeNamed: (organisation) => `Revoke the licence of ${organisation}`,
  confirmDecline: (organisation) => `Decline the terms of ${organisation}? The negotiation ends; this cannot be undone.`,
  confirmRevoke: (organisation) =>
    `Revoke the licence of ${organisation}? They may not use your data under it any more; this cannot be undone.`,
  yesDecline: 'Yes, decline',
  yesRevoke: 'Yes, revoke',
  cancel: 'Cancel',
  working: 'Sending your answer…',
  done: {
    accept: (organisation) => `You accepted the terms of ${organisation}.`,
    decline: (organisation) => `You declined the terms of ${organisation}.`,
    revoke: (organisation) => `You revoked the licence of ${organisation}.`,
  },
  cancelled: 'Nothing was changed.',
  failed: 'Nothing was changed: the service could not be reached or refused. Try again.',
};
