// What <svc-governance> says, in one object (a list's sentences per view), so other languages can follow as maps of
// the same shape.
import { html, type TemplateResult } from 'lit';
import type { PersonListStrings } from '../internal/person-list.js';
import type { GovernanceChangeRow, GovernanceView } from './events.js';

const COMMON = {
  error: 'This cannot be shown right now.',
  retry: 'Try again',
  more: 'Show more',
  moreShown: (count: number) => `${count} more shown.`,
  cancel: 'Cancel',
  cancelled: 'Nothing was changed.',
  failed: 'Nothing was changed: the service could not be reached or refused. Try again.',
  signedOut: 'Sign in to the console to see this.',
  signInAgain: 'Sign in to the console again.',
};

const count = (n: number, one: string, many: string, more: boolean) =>
  more ? `${n} or more ${many}.` : n === 1 ? `One ${one}.` : `${n} ${many}.`;

/** A value as the change log and the settings say it. */
function value(v: unknown): string {
  if (v === null || v === undefined) return 'not set';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return v.length ? v.join(', ') : 'none';
  return String(v);
}

/** Every sentence and label of `<svc-governance>`. */
export const EN = {
  lists: {
    modules: {
      ...COMMON,
      loading: 'Loading the modules…',
      empty: 'This account has no modules.',
      shown: (n, more) => count(n, 'module', 'modules', more),
    },
    governance: {
      ...COMMON,
      loading: 'Loading the governance settings and their change log…',
      empty: 'Nothing has been changed yet: every setting has its default.',
      shown: (n, more) => count(n, 'change', 'changes', more),
    },
    audit: {
      ...COMMON,
      loading: 'Loading the audit trail…',
      empty: 'This application has no audit events yet.',
      shown: (n, more) => count(n, 'event', 'events', more),
    },
  } satisfies Record<GovernanceView, PersonListStrings>,
  value,
  // modules
  enabled: (since: TemplateResult) => html`Enabled since ${since}`,
  disabled: (since: TemplateResult | null) => (since ? html`Disabled since ${since}` : html`Disabled`),
  enable: 'Enable',
  disable: 'Disable',
  enableNamed: (name: string) => `Enable ${name}`,
  disableNamed: (name: string) => `Disable ${name}`,
  confirmDisable: (name: string) =>
    `Disable ${name}? While it is disabled, the service refuses to create what ${name} covers; what exists stays readable.`,
  confirmDisableButton: 'Yes, disable',
  disabling: 'Disabling…',
  enabling: 'Enabling…',
  moduleDone: (name: string, enabled: boolean) => `${name} is ${enabled ? 'enabled' : 'disabled'}.`,
  // governance settings
  settingsTitle: 'Governance settings',
  settingsError: 'The settings cannot be shown right now.',
  labels: {
    api_token_approvals_required: 'Approvals a new API token needs',
    default_retention_days: 'Default retention (days)',
    allowed_countries: 'Countries data may be processed in',
    dsar_due_days: 'Days a data subject request is due in',
    clean_room_min_cohort: 'Smallest clean-room bucket shown',
    clean_room_epsilon_budget: "A new clean room's privacy budget (epsilon)",
    clean_room_require_noise: 'Clean-room queries must add noise',
    default_meeting_template: "Meeting consents' default flow",
  } as Record<string, string>,
  defaults: {
    default_retention_days: "not set: the flow's own term",
    allowed_countries: 'every country the service runs in',
    default_meeting_template: "not set: the account's oldest active flow",
  } as Record<string, string>,
  lastChanged: (at: TemplateResult, by: string) => html`Last changed ${at} by ${by}.`,
  /** `updated_by` as the service stores it (`api_token:api_token_…`, `account_user:…`), said like the log's actor. */
  updatedBy: (by: string | null) => {
    const [kind, ...id] = (by ?? '').split(':');
    return id.length ? EN.actor({ kind: kind!, id: id.join(':') }) : (by ?? '');
  },
  neverChanged: 'Never changed: every setting has its default.',
  edit: 'Change settings',
  save: 'Save',
  saving: 'Saving…',
  countriesHint: 'Two-letter codes separated by commas (US, DE); empty for every country.',
  emptyHint: 'Empty for the default.',
  unchanged: 'Nothing to save: no setting was changed.',
  saved: (n: number) => (n === 1 ? 'One setting changed.' : `${n} settings changed.`),
  refused: (message: string) => `Nothing was changed: ${message}`,
  // change log
  changeLog: 'Change log',
  changeType: {
    'governance.updated': 'Settings changed',
    'module.enabled': 'Module enabled',
    'module.disabled': 'Module disabled',
  } as Record<GovernanceChangeRow['type'], string>,
  actor: (actor: { kind: string; id: string }) => `${actorKind(actor.kind)} ${actor.id}`,
  by: (at: TemplateResult, actor: string) => html`${at}, by ${actor}`,
  /** One setting's change: `Countries data may be processed in: from every country to US, DE`; a module's by its name. */
  changed: (name: string, from: unknown, to: unknown) => {
    const module = /^modules\.(\w+)\.enabled$/.exec(name)?.[1];
    if (module) return `${module[0]!.toUpperCase()}${module.slice(1)}: from ${onOff(from)} to ${onOff(to)}`;
    const said = (v: unknown) => (v === null && EN.defaults[name] ? EN.defaults[name] : value(v));
    return `${EN.labels[name] ?? name}: from ${said(from)} to ${said(to)}`;
  },
  // audit
  application: 'Application',
  applicationsError: 'The applications cannot be listed right now.',
  eventHeading: (sequence: number, type: string) => `#${sequence} ${type}`,
  eventActor: (actor: string) => `Actor: ${actor}`,
  verify: 'Verify the chain',
  verifying: 'Reading the whole trail and verifying it here, in your browser…',
  verifies: (events: number, anchors: number) =>
    `The chain of ${events} ${events === 1 ? 'event' : 'events'} verifies${anchors ? `, and so ${anchors === 1 ? 'does its anchor' : `do its ${anchors} anchors`}` : ''}.`,
  nothingToVerify: 'There are no events to verify yet.',
  breaks: (sequence: number | null, why: string) =>
    sequence === null ? `The chain does not verify: ${why}.` : `The chain breaks at event ${sequence}: ${why}.`,
  reasons: {
    hash_mismatch: 'its data was changed after it was recorded',
    previous_hash_mismatch: 'it does not link to the event before it',
    sequence_gap: 'an event before it is missing',
    application_mismatch: 'it belongs to another application',
    merkle_root_mismatch: 'an anchor does not match the events it covers',
    anchor_signature_invalid: "an anchor's signature is not the service's",
    anchor_link_broken: 'an anchor does not continue the one before it',
  } as Record<string, string>,
  cannotVerify: (message: string) => `The chain could not be read to verify it: ${message}`,
};

const onOff = (v: unknown) => (v ? 'enabled' : 'disabled');

function actorKind(kind: string): string {
  const kinds: Record<string, string> = {
    api_token: 'API token',
    account_user: 'account user',
    person: 'person',
    agent: 'agent',
    publishable_key: 'publishable key',
  };
  return kinds[kind] ?? kind;
}
