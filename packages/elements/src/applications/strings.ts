// What <svc-applications> says, in one map per view, so other languages can follow as maps of the same shape.
import { html, type TemplateResult } from 'lit';
import type { PersonListStrings } from '../internal/person-list.js';
import type { ApiTokenRow, ApplicationRow } from './events.js';

/** Every sentence and label of `<svc-applications>`'s applications view. */
export interface ApplicationsStrings extends PersonListStrings {
  environment: Record<ApplicationRow['environment'], string>;
  inactive: string;
  created: (date: TemplateResult) => TemplateResult;
  publishableKeys: string;
  origins: string;
  noOrigins: string;
  originsUnread: string;
  lastSeen: (date: TemplateResult | null) => TemplateResult | string;
  originLabel: string;
  originHint: (environment: ApplicationRow['environment']) => string;
  add: string;
  adding: string;
  added: (origin: string, app: string) => string;
  already: (origin: string, app: string) => string;
  remove: string;
  removeNamed: (origin: string) => string;
  confirmRemove: (origin: string, app: string) => string;
  confirmRemoveButton: string;
  removing: string;
  removed: (origin: string, app: string) => string;
  clients: string;
  noClients: string;
  clientId: string;
  redirectUris: string;
  noRedirects: string;
  refused: (message: string) => string;
}

/** Every sentence and label of `<svc-applications view="api_tokens">`. */
export interface TokensStrings extends PersonListStrings {
  permissions: string;
  permission: Record<ApiTokenRow['permissions'][number], string>;
  created: (date: TemplateResult) => TemplateResult;
  lastUsed: (date: TemplateResult | null) => TemplateResult | string;
  expires: (date: TemplateResult | null) => TemplateResult | string;
  open: string;
  formTitle: string;
  name: string;
  choose: string;
  noPermission: string;
  noName: string;
  submit: string;
  creating: string;
  created_: (name: string) => string;
  secretTitle: (name: string) => string;
  secretOnce: string;
  copy: string;
  copied: string;
  copyFailed: string;
  dismiss: string;
  dismissed: string;
  rotate: string;
  rotateNamed: (name: string) => string;
  confirmRotate: (name: string) => string;
  confirmRotateButton: string;
  rotating: string;
  rotated: (name: string) => string;
  revoke: string;
  revokeNamed: (name: string) => string;
  confirmRevoke: (name: string) => string;
  confirmRevokeButton: string;
  revoking: string;
  revoked: (name: string) => string;
  refused: (message: string) => string;
}

const COMMON = {
  error: 'This cannot be shown right now.',
  retry: 'Try again',
  more: 'Show more',
  moreShown: (count: number) => `${count} more shown.`,
  cancel: 'Cancel',
  cancelled: 'Nothing was changed.',
  failed: 'Nothing was changed: the service could not be reached or refused. Try again.',
  signedOut: "Sign in to your organisation's console to see this.",
  signInAgain: "Sign in to your organisation's console again to see this.",
};

/** The service's refusal of a role (403), said with its own message. */
const refused = (message: string) => `Your role cannot do this. The service said: ${message}`;

/** English, the applications view. */
export const EN: ApplicationsStrings = {
  ...COMMON,
  loading: 'Loading your applications…',
  empty: 'Your organisation has no applications yet.',
  shown: (count, more) => (more ? `${count} or more applications.` : count === 1 ? 'One application.' : `${count} applications.`),
  environment: { development: 'Development', production: 'Production' },
  inactive: 'Inactive',
  created: (date) => html`created ${date}`,
  publishableKeys: 'Publishable keys',
  origins: 'Allowed origins',
  noOrigins: 'No allowed origins: no web page can call the service with this application’s publishable key.',
  originsUnread: 'The allowed origins and OAuth clients cannot be shown right now.',
  lastSeen: (date) => (date ? html`last seen ${date}` : 'not seen yet'),
  originLabel: 'Origin to allow',
  originHint: (environment) =>
    environment === 'development'
      ? 'Scheme, host and port only, e.g. https://shop.example or http://localhost:3000.'
      : 'Scheme, host and port only, e.g. https://shop.example.',
  add: 'Allow origin',
  adding: 'Allowing the origin…',
  added: (origin, app) => `${origin} may now call the service for ${app}.`,
  already: (origin, app) => `${origin} was already allowed for ${app}.`,
  remove: 'Remove',
  removeNamed: (origin) => `Remove the allowed origin ${origin}`,
  confirmRemove: (origin, app) => `Remove ${origin} from ${app}? Pages there can no longer call the service with its publishable key.`,
  confirmRemoveButton: 'Yes, remove',
  removing: 'Removing the origin…',
  removed: (origin, app) => `Removed: ${origin} from ${app}.`,
  clients: 'OAuth clients',
  noClients: 'No OAuth clients.',
  clientId: 'Client id',
  redirectUris: 'Redirect URIs',
  noRedirects: 'No redirect URIs.',
  refused,
};

/** English, the API tokens view. */
export const EN_TOKENS: TokensStrings = {
  ...COMMON,
  loading: 'Loading your API tokens…',
  empty: 'Your organisation has no API tokens.',
  shown: (count, more) => (more ? `${count} or more API tokens.` : count === 1 ? 'One API token.' : `${count} API tokens.`),
  permissions: 'Permissions',
  permission: {
    read: 'read',
    write: 'write',
    admin: 'admin',
    'audit:verify': 'audit:verify',
    'disclosures:write': 'disclosures:write',
  },
  created: (date) => html`Created ${date}`,
  lastUsed: (date) => (date ? html`last used ${date}` : 'never used'),
  expires: (date) => (date ? html`expires ${date}` : 'never expires'),
  open: 'Create an API token',
  formTitle: 'Create an API token',
  name: 'Name',
  choose: 'What it may do',
  noPermission: 'Choose at least one permission.',
  noName: 'Give the token a name.',
  submit: 'Create token',
  creating: 'Creating the token…',
  created_: (name) => `Created the API token ${name}. Copy its value now.`,
  secretTitle: (name) => `The value of ${name}`,
  secretOnce: 'Copy it now and keep it safe: you will not see it again.',
  copy: 'Copy',
  copied: 'Copied.',
  copyFailed: 'It could not be copied: select it and copy it yourself.',
  dismiss: 'I have copied it',
  dismissed: 'The value is no longer shown.',
  rotate: 'Rotate',
  rotateNamed: (name) => `Rotate the API token ${name}`,
  confirmRotate: (name) => `Rotate ${name}? Its current value stops working at once; you will see the new one once.`,
  confirmRotateButton: 'Yes, rotate',
  rotating: 'Rotating the token…',
  rotated: (name) => `Rotated ${name}. Copy its new value now.`,
  revoke: 'Revoke',
  revokeNamed: (name) => `Revoke the API token ${name}`,
  confirmRevoke: (name) => `Revoke ${name}? Anything that uses it stops working at once.`,
  confirmRevokeButton: 'Yes, revoke',
  revoking: 'Revoking the token…',
  revoked: (name) => `Revoked ${name}.`,
  refused,
};
