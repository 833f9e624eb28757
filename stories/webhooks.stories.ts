// <svc-webhooks> in every state. The element is the real one; the service's answers (`GET /api/v1/applications`,
// `GET|POST|PATCH|DELETE .../{id}/webhook_endpoints[/{endpoint_id}]`, `POST .../rotate_secret`, `POST .../test`, `GET
// .../deliveries`, `POST .../deliveries/{delivery_id}/redeliver`) come from a story stand-in (the element's `fetch`)
// that keeps its endpoints and deliveries for the story, so a change in the story updates the list and shows
// `svc-webhooks-change` in the log. A signing secret is made up here, and shown once.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html, nothing } from 'lit';
import '@svc/elements';
import type { WebhookDeliveryRow, WebhookEndpointRow } from '@svc/elements';
import { storyService } from './support/service.js';
import './support/event-log.js';

type Answer = 'list' | 'empty' | 'loading' | 'unauthorized' | 'error' | 'refused';

interface Args {
  answer: Answer;
  readonly: boolean;
  chooseApplication: boolean;
  signedIn: boolean;
  dir: 'ltr' | 'rtl';
  '--svc-webhooks-accent'?: string;
  '--svc-webhooks-radius'?: string;
  '--svc-webhooks-gap'?: string;
}

const CSS_ARGS = ['--svc-webhooks-accent', '--svc-webhooks-radius', '--svc-webhooks-gap'] as const;
const days = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
const APP = 'tp_dev_story_shop';

const endpointOf = (id: string, url: string, extra: Partial<WebhookEndpointRow> = {}): WebhookEndpointRow => ({
  id,
  application_id: APP,
  url,
  description: null,
  events: ['*'],
  status: 'enabled',
  consecutive_failures: 0,
  disabled_reason: null,
  disabled_at: null,
  secret_rotated_at: null,
  previous_secret_expires_at: null,
  created_at: days(-40),
  updated_at: days(-40),
  ...extra,
});

const ENDPOINTS: WebhookEndpointRow[] = [
  endpointOf('we_story_crm', 'https://crm.example/hooks/svc', { description: 'CRM sync', consecutive_failures: 1 }),
  endpointOf('we_story_mail', 'https://mail.example/svc', {
    events: ['consent.granted', 'consent.revoked'],
    status: 'disabled',
    disabled_reason: 'consecutive_failures',
    disabled_at: days(-2),
    consecutive_failures: 5,
  }),
];

let made = 0;
function deliveryOf(endpoint: string, status: WebhookDeliveryRow['status'], ago: number, type = 'consent.granted'): WebhookDeliveryRow {
  made += 1;
  const failed = status === 'failed';
  const at = days(-ago);
  return {
    id: `whd_story_${made}`,
    webhook_endpoint_id: endpoint,
    event_id: `evt_story_${made}`,
    event_type: type,
    test: false,
    status,
    failure_reason: failed ? 'attempts_exhausted' : null,
    attempt_count: failed ? 5 : 1,
    next_attempt_at: status === 'pending' ? days(0.01) : null,
    created_at: at,
    completed_at: status === 'pending' ? null : at,
    attempts: [
      {
        number: 1,
        started_at: at,
        finished_at: at,
        outcome: failed ? 'failed' : status === 'acknowledged' ? 'acknowledged' : 'failed',
        status_code: failed ? 503 : 200,
        error: failed ? 'server_error' : null,
        error_message: failed ? 'HTTP 503' : null,
        duration_ms: 120,
        response_body: null,
      },
    ],
  };
}

/** Two weeks of deliveries: mostly acknowledged, some failed, one pending. */
function deliveriesOf(endpoint: string): WebhookDeliveryRow[] {
  const list: WebhookDeliveryRow[] = [];
  for (let ago = 0; ago < 14; ago += 1) {
    for (let n = 0; n < (ago * 7) % 4; n += 1) list.push(deliveryOf(endpoint, 'acknowledged', ago + n / 10));
    if (ago % 5 === 1) list.push(deliveryOf(endpoint, 'failed', ago + 0.5, 'consent.revoked'));
  }
  list.unshift(deliveryOf(endpoint, 'pending', 0.001));
  return list.sort((a, b) => b.created_at.localeCompare(a.created_at));
}

const reply = (body: unknown, status = 200) =>
  new Response(body === null ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const secret = () => `whsec_story${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;

/** What the stand-in does with a change: `refused` answers every change as a viewer's role (403). */
function change(endpoints: WebhookEndpointRow[], deliveries: Map<string, WebhookDeliveryRow[]>, url: URL, init: RequestInit): Response {
  const parts = url.pathname.split('/').map(decodeURIComponent);
  const id = parts[6];
  const index = endpoints.findIndex((e) => e.id === id);
  const body = init.body ? (JSON.parse(String(init.body)) as { webhook_endpoint?: Partial<WebhookEndpointRow> }) : {};
  if (parts.at(-1) === 'redeliver') {
    const list = deliveries.get(id!) ?? [];
    const at = list.findIndex((d) => d.id === parts[8]);
    list[at] = { ...list[at]!, status: 'pending', failure_reason: null, attempt_count: 0, completed_at: null, next_attempt_at: days(0) };
    return reply({ delivery: list[at] }, 202);
  }
  if (parts.at(-1) === 'test') return reply({ delivery: { ...deliveryOf(id!, 'acknowledged', 0, 'webhook.test'), test: true } }, 201);
  if (parts.at(-1) === 'rotate_secret')
    return reply({ webhook_endpoint: { ...endpoints[index]!, secret_rotated_at: days(0), secret: secret() } });
  if (init.method === 'DELETE') {
    endpoints.splice(index, 1);
    return reply(null, 204);
  }
  if (init.method === 'PATCH') {
    const status = body.webhook_endpoint?.status ?? endpoints[index]!.status;
    endpoints[index] = { ...endpoints[index]!, status, disabled_reason: status === 'disabled' ? 'manual' : null, consecutive_failures: 0 };
    return reply({ webhook_endpoint: endpoints[index] });
  }
  const input = body.webhook_endpoint!;
  if (!/^https?:\/\//.test(input.url ?? '')) {
    return reply({ message: 'webhook_endpoint.url: must be an http(s) URL', code: 'validation_failed' }, 422);
  }
  const created = endpointOf(`we_story_${endpoints.length + 1}`, input.url!, { events: input.events ?? ['*'], created_at: days(0) });
  endpoints.push(created);
  deliveries.set(created.id, []);
  return reply({ webhook_endpoint: { ...created, secret: secret() } }, 201);
}

/** The story's stand-in for the organisation's webhooks API: the answer the story names; changes change its copy. */
function storyApi(answer: Answer): typeof fetch {
  const endpoints = ENDPOINTS.map((e) => ({ ...e }));
  const deliveries = new Map(endpoints.map((e) => [e.id, deliveriesOf(e.id)]));
  return async (input, init = {}) => {
    const url = new URL(String(input));
    if (answer === 'loading') return new Promise<Response>(() => {});
    if (answer === 'unauthorized')
      return reply({ message: 'The bearer token is not valid: not an API token, nor a current access token.', code: 'unauthorized' }, 401);
    if (answer === 'error') return reply({ message: 'Internal server error.', code: 'internal_error' }, 500);
    if (url.pathname === '/api/v1/applications') {
      const apps = [
        { id: APP, name: 'Story shop', environment: 'development' },
        { id: 'tp_live_story_club', name: 'Story club', environment: 'production' },
      ];
      return reply({ applications: apps, next_cursor: null });
    }
    if (init.method && init.method !== 'GET') {
      if (answer === 'refused')
        return reply({ message: 'This API token lacks the "write" permission.', code: 'insufficient_permissions' }, 403);
      return change(endpoints, deliveries, url, init);
    }
    const shown = answer === 'empty' || !url.pathname.includes(APP) ? [] : endpoints;
    if (url.pathname.endsWith('/webhook_endpoints')) return reply({ webhook_endpoints: shown, next_cursor: null });
    const status = url.searchParams.get('status');
    const list = deliveries.get(url.pathname.split('/')[6]!) ?? [];
    return reply({ deliveries: list.filter((d) => !status || d.status === status), next_cursor: null });
  };
}

const meta: Meta<Args> = {
  title: 'Elements/svc-webhooks',
  component: 'svc-webhooks',
  args: { answer: 'list', readonly: false, chooseApplication: false, signedIn: true, dir: 'ltr' },
  argTypes: {
    answer: {
      control: 'select',
      options: ['list', 'empty', 'loading', 'unauthorized', 'error', 'refused'],
      description: 'What the story-local service answers (`refused`: every change is a viewer role’s 403).',
    },
    readonly: { control: 'boolean', description: "A viewer's console: no change controls." },
    chooseApplication: { control: 'boolean', description: 'Without `application`: a select of the account’s applications.' },
    signedIn: { control: 'boolean', description: "Whether the page holds the console's access token." },
    dir: { control: 'inline-radio', options: ['ltr', 'rtl'], description: 'The page direction (the element mirrors).' },
    '--svc-webhooks-accent': { control: 'color', table: { category: 'CSS custom properties' } },
    '--svc-webhooks-radius': { control: 'text', table: { category: 'CSS custom properties' } },
    '--svc-webhooks-gap': { control: 'text', table: { category: 'CSS custom properties' } },
  },
  render: (args) => {
    const style = CSS_ARGS.filter((k) => args[k])
      .map((k) => `${k}: ${args[k]}`)
      .join('; ');
    return html`<div class="story" dir=${args.dir}>
      <svc-webhooks application=${args.chooseApplication ? nothing : APP} ?readonly=${args.readonly} trust-url=${storyService()}
        .fetch=${storyApi(args.answer)} .accessToken=${args.signedIn ? 'story-access-token' : undefined}
        style=${style || nothing}></svc-webhooks>
      <story-event-log></story-event-log>
    </div>`;
  },
  parameters: {
    docs: {
      description: {
        component:
          'Answers come from a story stand-in for the webhooks API. Add an endpoint (its signing secret is shown once), rotate a ' +
          'secret, send a test event, disable, enable or delete an endpoint (disable and delete ask first; Escape cancels), filter ' +
          'the deliveries and redeliver a failed one; each change shows `svc-webhooks-change` in the event log.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<Args>;

/** Two endpoints (one disabled after failures), two weeks of deliveries, the chart and its table. */
export const Ready: Story = {};
/** Without `application`: a labelled select of the account's applications, the first shown. */
export const ChooseApplication: Story = { name: 'Choosing the application', args: { chooseApplication: true } };
/** A viewer's console (`readonly`): the endpoints and deliveries, no change controls. */
export const ReadOnly: Story = { name: 'Read-only (viewer)', args: { readonly: true } };
/** A viewer's console without `readonly`: every change is refused (403), said with the service's message. */
export const Refused: Story = { name: 'Refused: viewer role', args: { answer: 'refused' } };
/** Right to left: the element uses logical properties only. */
export const RightToLeft: Story = { name: 'Ready: right to left', args: { dir: 'rtl' } };
/** No endpoints yet: said plainly (the `empty` slot), and the form to add one is still there. */
export const Empty: Story = { args: { answer: 'empty' } };
/** While the service has not answered. */
export const Loading: Story = { args: { answer: 'loading' } };
/** No access token yet: the `signed-out` slot. */
export const SignedOut: Story = { name: 'Signed out', args: { signedIn: false } };
/** The service refused the token (401): `svc-error` `unauthorized`, and the `signed-out` slot. */
export const Unauthorized: Story = { name: 'Error: token refused', args: { answer: 'unauthorized' } };
/** The service failed (500): `svc-error` `http`, the `error` slot and a retry button. */
export const ErrorFromService: Story = { name: 'Error: service failed', args: { answer: 'error' } };
