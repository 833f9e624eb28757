// <svc-data-requests> in every state. The element is the real one; the service's answers (`GET /api/v1/me/data_requests`
// and `POST` to file one) come from a story stand-in (the element's `fetch`) that keeps its requests for the story, so
// filing in the story lists the new request first and shows `svc-data-requests-file` in the event log.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html, nothing } from 'lit';
import '@svc/elements';
import type { DataRequestRow } from '@svc/elements';
import { storyService } from './support/service.js';
import './support/event-log.js';

type Answer = 'list' | 'empty' | 'loading' | 'unauthorized' | 'error' | 'refuse-filing';

interface Args {
  answer: Answer;
  signedIn: boolean;
  dir: 'ltr' | 'rtl';
  '--svc-data-requests-accent'?: string;
  '--svc-data-requests-radius'?: string;
  '--svc-data-requests-gap'?: string;
}

const CSS_ARGS = ['--svc-data-requests-accent', '--svc-data-requests-radius', '--svc-data-requests-gap'] as const;
const days = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
const ORGANISATIONS = [
  { id: 'acct_story_news', name: 'Daily News' },
  { id: 'acct_story_travel', name: 'Travel planner' },
];

const row = (id: string, extra: Partial<DataRequestRow>): DataRequestRow => ({
  id,
  organisation: ORGANISATIONS[0]!,
  dsar_type: 'access',
  scope: null,
  status: 'received',
  received_at: days(-5),
  due_date: days(25),
  overdue: false,
  extended: false,
  original_due_date: days(25),
  extended_at: null,
  extension_reason: null,
  started_at: null,
  completed_at: null,
  completion_note: null,
  rejected_at: null,
  rejection_reason: null,
  export_url: null,
  ...extra,
});

const REQUESTS: DataRequestRow[] = [
  row('dsar_story_due', { dsar_type: 'erasure', scope: 'My newsletter profile' }),
  row('dsar_story_late', {
    organisation: ORGANISATIONS[1]!,
    status: 'in_progress',
    received_at: days(-33),
    due_date: days(-3),
    overdue: true,
  }),
  row('dsar_story_extended', {
    dsar_type: 'portability',
    received_at: days(-40),
    due_date: days(50),
    extended: true,
    extended_at: days(-15),
    extension_reason: 'your records are spread over three systems',
  }),
  row('dsar_story_done', { status: 'completed', received_at: days(-60), completed_at: days(-42), export_url: 'story' }),
  row('dsar_story_refused', {
    dsar_type: 'rectification',
    organisation: ORGANISATIONS[1]!,
    status: 'rejected',
    received_at: days(-90),
    rejected_at: days(-80),
    rejection_reason: 'We hold no such data.',
  }),
];

/** The story's stand-in for the person's data requests API: the answer the story names; filing adds to its copy. */
function storyApi(answer: Answer): typeof fetch {
  const requests = [...REQUESTS];
  let filed = 0;
  return async (input, init) => {
    if (answer === 'loading') return new Promise<Response>(() => {});
    const reply = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (answer === 'unauthorized')
      return reply({ message: 'The bearer token is not valid: not an API token, nor a current access token.', code: 'unauthorized' }, 401);
    if (answer === 'error') return reply({ message: 'Internal server error.', code: 'internal_error' }, 500);
    if (String(input).endsWith('/export')) return reply({ generated_at: days(-42), person: { id: 'prs_story', email: 'ada@example.com' } });
    if (init?.method === 'POST') {
      if (answer === 'refuse-filing') return reply({ message: 'No such organisation.', code: 'not_found' }, 404);
      const body = JSON.parse(String(init.body));
      const organisation = ORGANISATIONS.find((o) => o.id === body.organisation_id)!;
      const created = row(`dsar_story_new_${++filed}`, {
        organisation,
        dsar_type: body.dsar_type,
        scope: body.scope ?? null,
        received_at: days(0),
        due_date: days(30),
        original_due_date: days(30),
      });
      requests.unshift(created);
      return reply({ data_request: created }, 201);
    }
    if (answer === 'empty') return reply({ data_requests: [], next_cursor: null, organisations: ORGANISATIONS });
    return reply({ data_requests: requests, next_cursor: null, organisations: ORGANISATIONS });
  };
}

const meta: Meta<Args> = {
  title: 'Elements/svc-data-requests',
  component: 'svc-data-requests',
  args: { answer: 'list', signedIn: true, dir: 'ltr' },
  argTypes: {
    answer: {
      control: 'select',
      options: ['list', 'empty', 'loading', 'unauthorized', 'error', 'refuse-filing'],
      description: 'What the story-local service answers.',
    },
    signedIn: { control: 'boolean', description: "Whether the page holds the person's access token." },
    dir: { control: 'inline-radio', options: ['ltr', 'rtl'], description: 'The page direction (the element mirrors).' },
    '--svc-data-requests-accent': { control: 'color', table: { category: 'CSS custom properties' } },
    '--svc-data-requests-radius': { control: 'text', table: { category: 'CSS custom properties' } },
    '--svc-data-requests-gap': { control: 'text', table: { category: 'CSS custom properties' } },
  },
  render: (args) => {
    const style = CSS_ARGS.filter((k) => args[k])
      .map((k) => `${k}: ${args[k]}`)
      .join('; ');
    return html`<div class="story" dir=${args.dir}>
      <svc-data-requests trust-url=${storyService()} .fetch=${storyApi(args.answer)}
        .accessToken=${args.signedIn ? 'story-access-token' : undefined} style=${style || nothing}></svc-data-requests>
      <story-event-log></story-event-log>
    </div>`;
  },
  parameters: {
    docs: {
      description: {
        component:
          'Answers come from a story stand-in for `GET /api/v1/me/data_requests` and `POST /api/v1/me/data_requests`; "New request" ' +
          'opens the form, "Continue" asks first (Escape goes back), then the new request is listed first and `svc-data-requests-file` ' +
          'shows in the event log.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<Args>;

/** Five requests: due, overdue, extended with its reason, answered (with its export), refused. File a new one. */
export const Ready: Story = {};
/** Right to left: the element uses logical properties only. */
export const RightToLeft: Story = { name: 'Ready: right to left', args: { dir: 'rtl' } };
/** No requests yet: said plainly (the `empty` slot), with "New request". */
export const Empty: Story = { args: { answer: 'empty' } };
/** While the service has not answered. */
export const Loading: Story = { args: { answer: 'loading' } };
/** No access token yet: the `signed-out` slot. */
export const SignedOut: Story = { name: 'Signed out', args: { signedIn: false } };
/** The service refused the token (401): `svc-error` `unauthorized`, and the `signed-out` slot. */
export const Unauthorized: Story = { name: 'Error: token refused', args: { answer: 'unauthorized' } };
/** The service failed (500): `svc-error` `http`, the `error` slot and a retry button. */
export const ErrorFromService: Story = { name: 'Error: service failed', args: { answer: 'error' } };
/** Filing is refused (404): nothing is listed, the live region says so and the form stays. */
export const FilingRefused: Story = { name: 'Error: filing refused', args: { answer: 'refuse-filing' } };
