// What <svc-webhooks> says, in one map, so other languages can follow as maps of the same shape.
import { html, type TemplateResult } from 'lit';
import type { PersonListStrings } from '../internal/person-list.js';
import type { DeliveryFilter, WebhookDeliveryRow, WebhookEndpointRow } from './events.js';

/** Every sentence and label of `<svc-webhooks>`. */
export interface WebhooksStrings extends PersonListStrings {
  noApplications: string;
  application: string;
  status: Record<WebhookEndpointRow['status'], string>;
  disabledBy: Record<NonNullable<WebhookEndpointRow['disabled_reason']>, string>;
  events: (events: readonly string[]) => string;
  failures: (count: number) => string;
  refused: (message: string) => string;
  notShown: (message: string) => string;
  loadingDeliveries: string;
  open: string;
  formTitle: string;
  url: string;
  urlHint: string;
  eventsLabel: string;
  eventsHint: string;
  noUrl: string;
  submit: string;
  adding: string;
  added: (url: string) => string;
  enable: string;
  enabling: string;
  enabled: (url: string) => string;
  disable: string;
  confirmDisable: (url: string) => string;
  confirmDisableButton: string;
  disabling: string;
  disabled: (url: string) => string;
  remove: string;
  confirmDelete: (url: string) => string;
  confirmDeleteButton: string;
  deleting: string;
  deleted: (url: string) => string;
  rotate: string;
  confirmRotate: (url: string) => string;
  confirmRotateButton: string;
  rotating: string;
  rotated: (url: string) => string;
  named: (action: string, url: string) => string;
  secretTitle: (url: string) => string;
  secretOnce: string;
  copy: string;
  copied: string;
  copyFailed: string;
  dismiss: string;
  dismissed: string;
  test: string;
  testing: string;
  tested: (delivery: WebhookDeliveryRow) => string;
  deliveries: string;
  filter: string;
  filters: Record<DeliveryFilter, string>;
  noDeliveries: Record<DeliveryFilter, string>;
  deliveriesUnread: string;
  deliveryStatus: Record<WebhookDeliveryRow['status'], string>;
  testMark: string;
  attempts: (count: number) => string;
  lastCode: (code: number | null) => string;
  lastError: string;
  nextAttempt: (date: TemplateResult) => TemplateResult;
  redeliver: string;
  redeliverNamed: (type: string) => string;
  redelivering: string;
  redelivered: (type: string) => string;
  chartLabel: string;
  succeeded: string;
  failedSeries: string;
}

const host = (url: string) => {
  try {
    return new URL(url).host + new URL(url).pathname;
  } catch {
    return url;
  }
};

/** English. */
export const EN: WebhooksStrings = {
  loading: 'Loading webhook endpoints…',
  signedOut: 'Sign in to see this organisation’s webhook endpoints.',
  signInAgain: 'Sign in again to see the webhook endpoints.',
  empty: 'No webhook endpoints yet: nothing is sent to your systems when consent changes.',
  noApplications: 'This organisation has no applications yet, so no webhook endpoints.',
  error: 'The webhook endpoints cannot be shown right now.',
  retry: 'Try again',
  more: 'Show more',
  moreShown: (count) => `${count} more shown.`,
  shown: (count, more) => (more ? `${count} or more endpoints.` : count === 1 ? 'One endpoint.' : `${count} endpoints.`),
  cancel: 'Cancel',
  cancelled: 'Nothing was changed.',
  failed: 'Nothing was changed: the service could not be reached or refused. Try again.',
  refused: (message) => `Nothing was changed: ${message}`,
  notShown: (message) => `The webhook endpoints cannot be shown: ${message}`,
  loadingDeliveries: 'Loading deliveries…',
  application: 'Application',
  status: { enabled: 'Enabled', disabled: 'Disabled' },
  disabledBy: { manual: 'by hand', consecutive_failures: 'after failures in a row' },
  events: (events) => (events.includes('*') ? 'Every event' : events.join(', ')),
  failures: (count) => (count === 1 ? 'One failure in a row' : `${count} failures in a row`),
  open: 'Add an endpoint',
  formTitle: 'Add a webhook endpoint',
  url: 'URL',
  urlHint: 'Where events are POSTed: https for a production application.',
  eventsLabel: 'Events',
  eventsHint: 'Event types separated by commas (consent.granted, consent.revoked…), or * for every event.',
  noUrl: 'Enter the URL that receives the events.',
  submit: 'Add endpoint',
  adding: 'Adding the endpoint…',
  added: (url) => `Added: ${host(url)} now receives events.`,
  enable: 'Enable',
  enabling: 'Enabling…',
  enabled: (url) => `Enabled: ${host(url)} receives events again.`,
  disable: 'Disable',
  confirmDisable: (url) => `Disable ${host(url)}? Its deliveries wait until it is enabled again.`,
  confirmDisableButton: 'Yes, disable',
  disabling: 'Disabling…',
  disabled: (url) => `Disabled: ${host(url)} receives nothing until it is enabled.`,
  remove: 'Delete',
  confirmDelete: (url) => `Delete ${host(url)}? It receives nothing more, and its pending deliveries fail.`,
  confirmDeleteButton: 'Yes, delete',
  deleting: 'Deleting…',
  deleted: (url) => `Deleted: ${host(url)}.`,
  rotate: 'Rotate signing secret',
  confirmRotate: (url) =>
    `Issue a new signing secret for ${host(url)}? The current one keeps signing for one day, so your receiver can switch.`,
  confirmRotateButton: 'Yes, rotate',
  rotating: 'Rotating the signing secret…',
  rotated: (url) => `New signing secret for ${host(url)}: copy it now.`,
  named: (action, url) => `${action}: ${host(url)}`,
  secretTitle: (url) => `Signing secret of ${host(url)}`,
  secretOnce: 'Copy it now: you will not see it again.',
  copy: 'Copy',
  copied: 'Copied.',
  copyFailed: 'It could not be copied: select it and copy it by hand.',
  dismiss: 'I have copied it',
  dismissed: 'The signing secret is no longer shown.',
  test: 'Send a test event',
  testing: 'Sending a test event…',
  tested: (d) =>
    d.status === 'acknowledged'
      ? `Test event acknowledged${d.attempts.at(-1)?.status_code ? ` (${d.attempts.at(-1)!.status_code})` : ''}.`
      : `Test event not acknowledged: ${d.attempts.at(-1)?.error_message ?? d.failure_reason ?? 'no answer'}.`,
  deliveries: 'Deliveries',
  filter: 'Show deliveries',
  filters: { all: 'All', failed: 'Failed', succeeded: 'Succeeded', pending: 'Pending' },
  noDeliveries: {
    all: 'No deliveries yet.',
    failed: 'No failed deliveries.',
    succeeded: 'No succeeded deliveries.',
    pending: 'No pending deliveries.',
  },
  deliveriesUnread: 'The deliveries cannot be shown right now.',
  deliveryStatus: { pending: 'Pending', acknowledged: 'Succeeded', failed: 'Failed' },
  testMark: 'test',
  attempts: (count) => (count === 1 ? '1 attempt' : `${count} attempts`),
  lastCode: (code) => (code === null ? 'no status code' : `last status ${code}`),
  lastError: 'Last error',
  nextAttempt: (date) => html`next attempt ${date}`,
  redeliver: 'Redeliver',
  redeliverNamed: (type) => `Redeliver ${type}`,
  redelivering: 'Queuing the delivery again…',
  redelivered: (type) => `Queued again: ${type} will be sent now.`,
  chartLabel: 'Deliveries per day, last 14 days',
  succeeded: 'Succeeded',
  failedSeries: 'Failed',
};
