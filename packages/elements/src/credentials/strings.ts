// What <svc-credentials> says, in one map, so other languages can follow as maps of the same shape.
import { html, type TemplateResult } from 'lit';
import type { PersonListStrings } from '../internal/person-list.js';
import type { CredentialRow } from './events.js';

/** Every sentence and label of `<svc-credentials>`: the list's (saying which view it counts), and its own. */
export interface CredentialsStrings extends Omit<PersonListStrings, 'shown' | 'failed'> {
  emptyPresentations: string;
  shown: (count: number, more: boolean, presentations: boolean) => string;
  status: Record<CredentialRow['status'], string>;
  from: (organisation: string) => string;
  issued: (date: TemplateResult) => TemplateResult;
  expires: (date: TemplateResult) => TemplateResult;
  alwaysShared: string;
  present: string;
  presentNamed: (name: string, organisation: string) => string;
  notPresentable: string;
  choose: (name: string) => string;
  audience: string;
  claims: string;
  summary: (chosen: string[], always: string[], audience: string) => string;
  confirm: string;
  presenting: string;
  presented: (audience: string, labels: string[]) => string;
  verified: string;
  unverified: string;
  presentation: string;
  copy: string;
  copied: string;
  copyFailed: string;
  done: string;
  failed: (message: string) => string;
  sharedWith: (audience: string) => string;
  presentedOn: (date: TemplateResult, name: string, organisation: string) => TemplateResult;
}

const list = (items: string[]) => (items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

/** English. */
export const EN: CredentialsStrings = {
  loading: 'Loading your credentials…',
  signedOut: 'Sign in to see your credentials.',
  signInAgain: 'Sign in again to see your credentials.',
  empty: 'You have no credentials yet.',
  emptyPresentations: 'You have not presented any credential yet.',
  error: 'Your credentials cannot be shown right now.',
  retry: 'Try again',
  more: 'Show more',
  moreShown: (count) => `${count} more shown.`,
  shown: (count, more, presentations) => {
    const noun = presentations ? 'presentation' : 'credential';
    return more ? `${count} or more ${noun}s.` : count === 1 ? `One ${noun}.` : `${count} ${noun}s.`;
  },
  status: { active: 'Valid', revoked: 'Revoked', expired: 'Expired' },
  from: (organisation) => `from ${organisation}`,
  issued: (date) => html`Issued ${date}`,
  expires: (date) => html`expires ${date}`,
  alwaysShared: 'Always shared',
  present: 'Present',
  presentNamed: (name, organisation) => `Present: ${name} from ${organisation}`,
  notPresentable: 'This credential cannot be presented here.',
  choose: (name) => `Choose what to share from your ${name}.`,
  audience: 'Who is it for?',
  claims: 'What to share',
  summary: (chosen, always, audience) => {
    const who = audience.trim() || 'the verifier';
    const picked = chosen.length ? list(chosen) : 'nothing you chose';
    return `${who} will see ${picked}${always.length ? `, and ${list(always)} (always shared)` : ''}. Nothing else.`;
  },
  confirm: 'Present',
  cancel: 'Cancel',
  presenting: 'Presenting…',
  cancelled: 'Nothing was presented.',
  presented: (audience, labels) => `Ready for ${audience}: ${list(labels)}.`,
  verified: 'Verified: the signature holds and the credential is not revoked.',
  unverified: 'It could not be checked right now.',
  presentation: 'The presentation to hand over',
  copy: 'Copy',
  copied: 'Copied.',
  copyFailed: 'Select the text and copy it.',
  done: 'Done',
  failed: (message) => `Nothing was presented: ${message}`,
  sharedWith: (audience) => `Shared with ${audience}`,
  presentedOn: (date, name, organisation) => html`${date} · ${name} from ${organisation}`,
};
