// What <svc-connections> says, in one map, so other languages can follow as maps of the same shape.
import { html, type TemplateResult } from 'lit';
import type { ConnectionRow, DeviceLinkRow, TrustPairingRow } from './events.js';
import type { PersonListStrings } from '../internal/person-list.js';

/** The three things the element lists. */
export type ConnectionsView = 'connections' | 'device_links' | 'trust_pairings';

/** What each view says of its list as a whole. */
type ViewStrings = Pick<PersonListStrings, 'loading' | 'signedOut' | 'signInAgain' | 'empty' | 'error' | 'shown'>;

/** Every sentence and label of `<svc-connections>`. */
export interface ConnectionsStrings extends Omit<PersonListStrings, keyof ViewStrings> {
  views: Record<ConnectionsView, ViewStrings>;
  connectionStatus: Record<ConnectionRow['status'], string>;
  /** The trust tier in plain words: what the application holds from the person. */
  tier: Record<NonNullable<ConnectionRow['trust_tier']>, string>;
  since: (date: TemplateResult) => TemplateResult;
  lastActive: (date: TemplateResult) => TemplateResult;
  ended: (date: TemplateResult) => TemplateResult;
  /** One policy in force, in plain words. */
  policy: (policy: ConnectionRow['active_policies'][number]) => string;
  unnamedApplication: string;
  disconnect: string;
  disconnectNamed: (application: string) => string;
  confirmDisconnect: (application: string, organisation: string, stops: number) => string;
  confirmYesDisconnect: string;
  disconnecting: string;
  disconnected: (application: string) => string;
  linkStatus: Record<DeviceLinkRow['status'], string>;
  unnamedDevice: string;
  made: (date: TemplateResult) => TemplateResult;
  expires: (date: TemplateResult) => TemplateResult;
  claim: string;
  claimNamed: (device: string) => string;
  codeLabel: string;
  deviceNameLabel: string;
  thisDevice: string;
  claimSubmit: string;
  claiming: string;
  claimed: (device: string) => string;
  cancelLink: string;
  cancelLinkNamed: (device: string) => string;
  confirmCancelLink: (device: string) => string;
  confirmYesCancelLink: string;
  cancellingLink: string;
  linkCancelled: (device: string) => string;
  pairingStatus: Record<TrustPairingRow['status'], string>;
  pair: (first: string, second: string) => string;
  paired: (date: TemplateResult) => TemplateResult;
  unpaired: (date: TemplateResult) => TemplateResult;
  unpair: string;
  unpairNamed: (pair: string) => string;
  confirmUnpair: (pair: string) => string;
  confirmYesUnpair: string;
  unpairing: string;
  unpairedSaid: (pair: string) => string;
}

const count = (n: number, one: string, many: string, more: boolean) =>
  more ? `${n} or more ${many}.` : n === 1 ? `One ${one}.` : `${n} ${many}.`;

/** English. */
export const EN: ConnectionsStrings = {
  views: {
    connections: {
      loading: 'Loading the applications you are connected to…',
      signedOut: 'Sign in to see the applications you are connected to.',
      signInAgain: 'Sign in again to see the applications you are connected to.',
      empty: 'You are not connected to any application.',
      error: 'Your connections cannot be shown right now.',
      shown: (n, more) => count(n, 'connection', 'connections', more),
    },
    device_links: {
      loading: 'Loading your device links…',
      signedOut: 'Sign in to see your device links.',
      signInAgain: 'Sign in again to see your device links.',
      empty: 'No device is waiting to be linked. To link one, ask for a code on it first.',
      error: 'Your device links cannot be shown right now.',
      shown: (n, more) => count(n, 'device link', 'device links', more),
    },
    trust_pairings: {
      loading: 'Loading your paired devices…',
      signedOut: 'Sign in to see your paired devices.',
      signInAgain: 'Sign in again to see your paired devices.',
      empty: 'You have no paired devices.',
      error: 'Your paired devices cannot be shown right now.',
      shown: (n, more) => count(n, 'pairing', 'pairings', more),
    },
  },
  retry: 'Try again',
  more: 'Show more',
  moreShown: (n) => `${n} more shown.`,
  cancel: 'Cancel',
  cancelled: 'Nothing was changed.',
  failed: 'Nothing was changed: the service could not be reached or refused. Try again.',
  connectionStatus: { active: 'Connected', suspended: 'Paused', disconnected: 'Disconnected' },
  tier: {
    connected: 'Holds nothing more from you',
    consented: 'Holds your consent',
    delegated: 'May act for you',
  },
  since: (date) => html`Since ${date}`,
  lastActive: (date) => html`last active ${date}`,
  ended: (date) => html`ended ${date}`,
  policy: (policy) =>
    policy.type === 'consent_record'
      ? `Your consent to ${policy.purposes.join(', ')}`
      : `A ${policy.status === 'suspended' ? 'paused ' : ''}grant to ${policy.delegate_type === 'agent' ? 'an agent' : 'a person'} to act for you (${policy.delegated_scopes.join(', ')})`,
  unnamedApplication: 'An application',
  disconnect: 'Disconnect',
  disconnectNamed: (application) => `Disconnect from ${application}`,
  confirmDisconnect: (application, organisation, stops) =>
    `Disconnect from ${application} (${organisation})? This is final${
      stops ? ': the consent you gave it is withdrawn and the grants to act for you are revoked' : ''
    }. Connecting again starts anew.`,
  confirmYesDisconnect: 'Yes, disconnect',
  disconnecting: 'Disconnecting…',
  disconnected: (application) => `Disconnected from ${application}.`,
  linkStatus: {
    pending: 'Waiting for its code',
    claimed: 'Linked',
    expired: 'Expired',
    locked: 'Locked after too many wrong codes',
    cancelled: 'Cancelled',
  },
  unnamedDevice: 'A device',
  made: (date) => html`Asked ${date}`,
  expires: (date) => html`code valid until ${date}`,
  claim: 'Enter its code',
  claimNamed: (device) => `Enter the code ${device} shows`,
  codeLabel: 'The code your other device shows',
  deviceNameLabel: 'A name for this device',
  thisDevice: 'This browser',
  claimSubmit: 'Link this device',
  claiming: 'Linking…',
  claimed: (device) => `This device is now paired with ${device}.`,
  cancelLink: 'Cancel',
  cancelLinkNamed: (device) => `Cancel the link of ${device}`,
  confirmCancelLink: (device) => `Cancel the link of ${device}? Its code will stop working.`,
  confirmYesCancelLink: 'Yes, cancel the link',
  cancellingLink: 'Cancelling…',
  linkCancelled: (device) => `The link of ${device} is cancelled.`,
  pairingStatus: { active: 'Paired', revoked: 'Unpaired' },
  pair: (first, second) => `${first} and ${second}`,
  paired: (date) => html`Paired ${date}`,
  unpaired: (date) => html`unpaired ${date}`,
  unpair: 'Unpair',
  unpairNamed: (pair) => `Unpair ${pair}`,
  confirmUnpair: (pair) => `Unpair ${pair}? They will no longer trust each other.`,
  confirmYesUnpair: 'Yes, unpair',
  unpairing: 'Unpairing…',
  unpairedSaid: (pair) => `${pair} are no longer paired.`,
};
