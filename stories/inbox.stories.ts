// <svc-inbox> in every state. The element is the real one; the inbox answers (`GET /api/v1/inbox`) come from a story
// stand-in for the service (the element's `fetch`), and each row opens the story-local decision page
// (`{storybook}/svc/decisions/dts_story_<state>`) in a real popup through <svc-decision mode="popup">, so completing it
// there reaches the story's event log as `svc-complete`.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html, nothing } from 'lit';
import '@svc/elements';
import type { InboxRow } from '@svc/elements';
import { tokenOf } from './frames/states.js';
import { storyService } from './support/service.js';
import './support/event-log.js';

type Answer = 'list' | 'more' | 'empty' | 'loading' | 'unauthorized' | 'error';

interface Args {
  answer: Answer;
  signedIn: boolean;
  kind?: string;
  sort?: string;
  '--svc-inbox-accent'?: string;
  '--svc-inbox-radius'?: string;
  '--svc-inbox-gap'?: string;
}

const CSS_ARGS = ['--svc-inbox-accent', '--svc-inbox-radius', '--svc-inbox-gap'] as const;
const hours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

const ROWS: InboxRow[] = [
  {
    kind: 'consent',
    status: 'pending',
    trigger: null,
    application_id: 'tp_dev_news',
    application_name: 'Daily News',
    title: 'Newsletter and analytics',
    summary: 'Weekly newsletter, and anonymous statistics of how you read.',
    session_token: tokenOf('consent_step_1'),
    url: '',
    deadline_at: hours(0.25),
    created_at: hours(-0.1),
  },
  {
    kind: 'approval',
    status: 'pending',
    trigger: 'value',
    application_id: 'tp_dev_travel',
    application_name: 'Travel planner',
    title: 'Pay the flight to Paris (240 EUR)',
    summary: "Trip booker, an AI agent, asks: Value 240 EUR is above the grant's value bound of 100 EUR per transaction.",
    session_token: tokenOf('approval'),
    url: '',
    deadline_at: hours(20),
    created_at: hours(-4),
  },
  {
    kind: 'signature_request',
    status: 'pending',
    trigger: null,
    application_id: 'tp_dev_homes',
    application_name: 'Homes & Co',
    title: 'Lease of flat 3',
    summary: 'Your signature is asked for: 1 of 2 parties have signed, 2 needed.',
    session_token: tokenOf('signature'),
    url: '',
    deadline_at: hours(70),
    created_at: hours(-30),
  },
];

/** The story's stand-in for `GET /api/v1/inbox`: the answer the story names, with the filters applied. */
function storyApi(answer: Answer): typeof fetch {
  return async (input) => {
    const url = new URL(String(input));
    if (answer === 'loading') return new Promise<Response>(() => {});
    const reply = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (answer === 'unauthorized')
      return reply({ message: 'The bearer token is not valid: not an API token, nor a current access token.', code: 'unauthorized' }, 401);
    if (answer === 'error') return reply({ message: 'Internal server error.', code: 'internal_error' }, 500);
    if (answer === 'empty') return reply({ decisions: [], next_cursor: null });
    const kind = url.searchParams.get('kind');
    let rows = ROWS.filter((row) => !kind || row.kind === kind).map((row) => ({
      ...row,
      url: `${storyService()}/decisions/${row.session_token}`,
    }));
    if (url.searchParams.get('sort') === 'newest') rows = rows.reverse();
    if (answer === 'more') {
      const second = url.searchParams.get('cursor') === 'page2';
      return reply({ decisions: second ? rows.slice(2) : rows.slice(0, 2), next_cursor: second ? null : 'page2' });
    }
    return reply({ decisions: rows, next_cursor: null });
  };
}

const meta: Meta<Args> = {
  title: 'Elements/svc-inbox',
  component: 'svc-inbox',
  args: { answer: 'list', signedIn: true },
  argTypes: {
    answer: {
      control: 'select',
      options: ['list', 'more', 'empty', 'loading', 'unauthorized', 'error'],
      description: 'What the story-local service answers.',
    },
    signedIn: { control: 'boolean', description: "Whether the page holds the person's access token." },
    kind: { control: 'select', options: ['', 'consent', 'approval', 'signature_request'] },
    sort: { control: 'inline-radio', options: ['deadline', 'newest'] },
    '--svc-inbox-accent': { control: 'color', table: { category: 'CSS custom properties' } },
    '--svc-inbox-radius': { control: 'text', table: { category: 'CSS custom properties' } },
    '--svc-inbox-gap': { control: 'text', table: { category: 'CSS custom properties' } },
  },
  render: (args) => {
    const style = CSS_ARGS.filter((k) => args[k])
      .map((k) => `${k}: ${args[k]}`)
      .join('; ');
    return html`<div class="story">
      <svc-inbox base-url="https://api.svc.example" trust-url=${storyService()} kind=${args.kind || nothing} sort=${args.sort || nothing}
        .fetch=${storyApi(args.answer)} .accessToken=${args.signedIn ? 'story-access-token' : undefined} style=${style || nothing}></svc-inbox>
      <story-event-log></story-event-log>
    </div>`;
  },
  parameters: {
    docs: {
      description: {
        component:
          'Answers come from a story stand-in for `GET /api/v1/inbox`; each row opens the story-local decision page in a popup, ' +
          'so completing it there shows `svc-complete` in the event log, and the list is read again.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<Args>;

/** Three decisions wait, soonest deadline first: a consent, an agent's approval (trigger value), a signature request. Each title opens it in a popup. */
export const List: Story = {};
/** Newest first. */
export const NewestFirst: Story = { name: 'List: newest first', args: { sort: 'newest' } };
/** Only approvals (the element's `kind`). */
export const FilteredByKind: Story = { name: 'List: approvals only', args: { kind: 'approval' } };
/** More than a page: "Show more" reads the next one with the service's cursor. */
export const MorePages: Story = { name: 'List: more pages', args: { answer: 'more' } };
/** Nothing waits: said plainly (the `empty` slot). */
export const Empty: Story = { args: { answer: 'empty' } };
/** While the service has not answered. */
export const Loading: Story = { args: { answer: 'loading' } };
/** No access token yet: the `signed-out` slot. */
export const SignedOut: Story = { name: 'Signed out', args: { signedIn: false } };
/** The service refused the token (401): `svc-error` `unauthorized`, and the `signed-out` slot. */
export const Unauthorized: Story = { name: 'Error: token refused', args: { answer: 'unauthorized' } };
/** The service failed (500): `svc-error` `http`, the `error` slot and a retry button. */
export const ErrorFromService: Story = { name: 'Error: service failed', args: { answer: 'error' } };
