// What <svc-agreements> says, in one map, so other languages can follow as maps of the same shape.
import { html, type TemplateResult } from 'lit';
import type { AgreementRow, CollaborationRow } from './events.js';
import type { PersonListStrings } from '../internal/person-list.js';

/** The three lists the element shows. */
export type AgreementsView = 'agreements' | 'multi_party' | 'collaborations';

/** Every sentence and label of `<svc-agreements>`. */
export interface AgreementsStrings {
  /** What each view says while loading, empty, signed out… */
  lists: Record<AgreementsView, PersonListStrings>;
  agreementStatus: Record<AgreementRow['status'], string>;
  quorum: (row: AgreementRow) => string;
  you: Record<AgreementRow['you']['status'], string>;
  until: (date: TemplateResult) => TemplateResult;
  someone: string;
  yourself: string;
  partyStatus: Record<AgreementRow['you']['status'], string>;
  document: string;
  fingerprint: (sha256: string) => string;
  sign: string;
  decline: string;
  signNamed: (title: string) => string;
  declineNamed: (title: string) => string;
  confirmSign: (title: string, organisation: string, sha256: string) => string;
  confirmDecline: (title: string, organisation: string) => string;
  yesSign: string;
  yesDecline: string;
  signing: string;
  declining: string;
  signed: (title: string) => string;
  declined: (title: string) => string;
  collaborationTitle: (row: CollaborationRow) => string;
  collaborationStatus: Record<CollaborationRow['status'], string>;
  members: (row: CollaborationRow) => string;
  role: Record<CollaborationRow['membership']['role'], string>;
  membership: Record<CollaborationRow['membership']['status'], string>;
  shares: (categories: string[]) => string;
  join: string;
  leave: string;
  joinNamed: (title: string) => string;
  leaveNamed: (title: string) => string;
  confirmJoin: (title: string, organisation: string, categories: string[]) => string;
  confirmLeave: (title: string, organisation: string) => string;
  yesJoin: string;
  yesLeave: string;
  joining: string;
  leaving: string;
  joined: (title: string) => string;
  left: (title: string) => string;
}

const list = (items: string[]) => (items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

/** What every view of the list says alike. */
const common = {
  retry: 'Try again',
  more: 'Show more',
  moreShown: (count: number) => `${count} more shown.`,
  cancel: 'Cancel',
  cancelled: 'Nothing changed.',
  failed: 'Nothing changed: the service could not be reached or refused. Try again.',
};

const agreementsList = (what: string, one: string, many: string): PersonListStrings => ({
  ...common,
  loading: `Loading your ${what}…`,
  signedOut: `Sign in to see your ${what}.`,
  signInAgain: `Sign in again to see your ${what}.`,
  empty: `You have no ${what}: when an organisation asks you to sign one, it is shown here.`,
  error: `Your ${what} cannot be shown right now.`,
  shown: (count, more) => (more ? `${count} or more ${many}.` : count === 1 ? `One ${one}.` : `${count} ${many}.`),
});

/** English. */
export const EN: AgreementsStrings = {
  lists: {
    agreements: agreementsList('agreements', 'agreement', 'agreements'),
    multi_party: agreementsList('multi-party agreements', 'multi-party agreement', 'multi-party agreements'),
    collaborations: {
      ...agreementsList('collaborations', 'collaboration', 'collaborations'),
      empty: 'You take part in no collaboration: when an organisation adds you to one, it is shown here.',
    },
  },
  agreementStatus: { pending: 'Waiting for signatures', partially_signed: 'Partly signed', active: 'In force' },
  quorum: (row) =>
    row.quorum === 1
      ? 'One signature needed'
      : `${row.signed_count} of the ${row.quorum} signatures needed (${row.parties.length} parties)`,
  you: {
    pending: 'Waiting for your signature',
    signed: 'You signed',
    declined: 'You declined',
    countered: 'You proposed other terms',
    expired: 'Your time to sign ran out',
  },
  until: (date) => html`sign by ${date}`,
  someone: 'Another party',
  yourself: 'You',
  partyStatus: {
    pending: 'not yet',
    signed: 'signed',
    declined: 'declined',
    countered: 'proposed other terms',
    expired: 'ran out of time',
  },
  document: 'Read the document',
  fingerprint: (sha256) => `Fingerprint (SHA-256): ${sha256}`,
  sign: 'Sign…',
  decline: 'Decline…',
  signNamed: (title) => `Sign: ${title}`,
  declineNamed: (title) => `Decline: ${title}`,
  confirmSign: (title, organisation, sha256) =>
    `Sign “${title}” with ${organisation}? Your signature covers the document shown above, exactly as written (fingerprint ${sha256.slice(0, 12)}…). It cannot be undone.`,
  confirmDecline: (title, organisation) => `Decline “${title}” with ${organisation}? You cannot sign it after.`,
  yesSign: 'Yes, sign',
  yesDecline: 'Yes, decline',
  signing: 'Signing…',
  declining: 'Declining…',
  signed: (title) => `You signed “${title}”.`,
  declined: (title) => `You declined “${title}”.`,
  collaborationTitle: (row) => {
    const named = row.terms.title ?? row.terms.purpose ?? row.terms.name;
    return typeof named === 'string' && named ? named : 'A collaboration';
  },
  collaborationStatus: { pending: 'Forming', active: 'Active', dissolved: 'Ended' },
  members: (row) => `${row.member_count} ${row.member_count === 1 ? 'member' : 'members'}, ${row.signed_count} signed`,
  role: { initiator: 'You started it', member: 'Member', observer: 'Observer (shares nothing)' },
  membership: { pending: 'waiting for your signature', signed: 'you signed', revoked: 'you left' },
  shares: (categories) => (categories.length ? `You share: ${categories.join(', ')}` : 'You share no data'),
  join: 'Sign…',
  leave: 'Leave…',
  joinNamed: (title) => `Sign: ${title}`,
  leaveNamed: (title) => `Leave: ${title}`,
  confirmJoin: (title, organisation, categories) =>
    `Sign “${title}” with ${organisation}${categories.length ? `, sharing ${list(categories)}` : ', sharing no data'}?`,
  confirmLeave: (title, organisation) =>
    `Leave “${title}” with ${organisation}? You stop sharing with it at once, and cannot join it again yourself.`,
  yesJoin: 'Yes, sign',
  yesLeave: 'Yes, leave',
  joining: 'Signing…',
  leaving: 'Leaving…',
  joined: (title) => `You signed “${title}”.`,
  left: (title) => `You left “${title}”.`,
};
