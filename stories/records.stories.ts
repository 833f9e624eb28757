// <svc-records> in every state. The element is the real one; the service's answers (`GET /api/v1/me/consent_records`
// and `POST .../withdraw`) come from a story stand-in (the element's `fetch`) that keeps its records for the story,
// so withdrawing in the story updates the record and shows `svc-records-withdraw` in the event log.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html, nothing } from 'lit';
import '@svc/elements';
import type { RecordRow } from '@svc/elements';
import { storyService } from './support/service.js';
import './support/event-log.js';

type Answer = 'list' | 'more' | 'empty' | 'loading' | 'unauthorized' | 'error';

interface Args {
  answer: Answer;
  signedIn: boolean;
  dir: 'ltr' | 'rtl';
  '--svc-records-accent'?: string;
  '--svc-records-radius'?: string;
  '--svc-records-gap'?: string;
}

const CSS_ARGS = ['--svc-records-accent', '--svc-records-radius', '--svc-records-gap'] as const;
const days = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

const RECORDS: RecordRow[] = [
  {
    id: 'cr_story_news',
    status: 'fulfilled',
    recorded_at: days(-12),
    captured_at: days(-12),
    expires_at: days(353),
    flow_id: 'flw_story_news',
    organisation: { id: 'org_story_news', name: 'Daily News' },
    application: { id: 'tp_story_news', name: 'Daily News app' },
    title: 'Newsletter and analytics',
    purposes: [
      { key: 'newsletter', label: 'Weekly newsletter', outcome: 'granted', basis: 'consent', withdrawable: true },
      { key: 'analytics', label: 'Anonymous reading statistics', outcome: 'granted', basis: 'consent', withdrawable: true },
      { key: 'fraud', label: 'Fraud prevention', outcome: 'noticed', basis: 'legitimate_interest', withdrawable: true },
      { key: 'billing', label: 'Billing', outcome: 'noticed', basis: 'contract', withdrawable: false },
    ],
    receipt_id: 'cr_story_news',
    withdrawal_method: '',
  },
  {
    id: 'cr_story_travel',
    status: 'fulfilled',
    recorded_at: days(-40),
    captured_at: days(-40),
    expires_at: null,
    flow_id: 'flw_story_travel',
    organisation: { id: 'org_story_travel', name: 'Travel planner' },
    application: { id: 'tp_story_travel', name: 'Trip booker' },
    title: null,
    purposes: [
      { key: 'offers', label: 'Offers by email', outcome: 'granted', basis: 'consent', withdrawable: true },
      { key: 'partners', label: 'Sharing with partner hotels', outcome: 'declined', basis: 'consent', withdrawable: false },
    ],
    receipt_id: 'cr_story_travel',
    withdrawal_method: '',
  },
  {
    id: 'cr_story_gym',
    status: 'expired',
    recorded_at: days(-800),
    captured_at: days(-800),
    expires_at: days(-70),
    flow_id: 'flw_story_gym',
    organisation: { id: 'org_story_gym', name: 'City Gym' },
    application: { id: 'tp_story_gym', name: 'Members' },
    title: 'Class reminders',
    purposes: [{ key: 'reminders', label: 'Class reminders by text', outcome: 'granted', basis: 'consent', withdrawable: false }],
    receipt_id: 'cr_story_gym',
    withdrawal_method: '',
  },
];

/** The story's stand-in for the person's records API: the answer the story names; withdrawals change its copy. */
function storyApi(answer: Answer): typeof fetch {
  const records = RECORDS.map((record) => ({ ...record, withdrawal_method: `${storyService()}/withdraw/${record.id}` }));
  return async (input, init) => {
    const url = new URL(String(input));
    if (answer === 'loading') return new Promise<Response>(() => {});
    const reply = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (answer === 'unauthorized')
      return reply({ message: 'The bearer token is not valid: not an API token, nor a current access token.', code: 'unauthorized' }, 401);
    if (answer === 'error') return reply({ message: 'Internal server error.', code: 'internal_error' }, 500);
    if (answer === 'empty') return reply({ consent_records: [], next_cursor: null });
    const withdraw = /\/consent_records\/([^/]+)\/withdraw$/.exec(url.pathname);
    if (withdraw && init?.method === 'POST') {
      const index = records.findIndex((r) => r.id === decodeURIComponent(withdraw[1]!));
      const keys: string[] = JSON.parse(String(init.body)).purposes;
      const record = records[index]!;
      const purposes = record.purposes.map((p) =>
        keys.includes(p.key)
          ? { ...p, outcome: p.basis === 'consent' ? ('revoked' as const) : ('objected' as const), withdrawable: false }
          : p,
      );
      const status = purposes.some((p) => p.outcome === 'granted') ? record.status : ('revoked' as const);
      records[index] = { ...record, purposes, status };
      return reply({ consent_record: records[index] });
    }
    if (answer === 'more') {
      const second = url.searchParams.get('cursor') === 'page2';
      return reply({ consent_records: second ? records.slice(2) : records.slice(0, 2), next_cursor: second ? null : 'page2' });
    }
    return reply({ consent_records: records, next_cursor: null });
  };
}

const meta: Meta<Args> = {
  title: 'Elements/svc-records',
  component: 'svc-records',
  args: { answer: 'list', signedIn: true, dir: 'ltr' },
  argTypes: {
    answer: {
      control: 'select',
      options: ['list', 'more', 'empty', 'loading', 'unauthorized', 'error'],
      description: 'What the story-local service answers.',
    },
    signedIn: { control: 'boolean', description: "Whether the page holds the person's access token." },
    dir: { control: 'inline-radio', options: ['ltr', 'rtl'], description: 'The page direction (the element mirrors).' },
    '--svc-records-accent': { control: 'color', table: { category: 'CSS custom properties' } },
    '--svc-records-radius': { control: 'text', table: { category: 'CSS custom properties' } },
    '--svc-records-gap': { control: 'text', table: { category: 'CSS custom properties' } },
  },
  render: (args) => {
    const style = CSS_ARGS.filter((k) => args[k])
      .map((k) => `${k}: ${args[k]}`)
      .join('; ');
    return html`<div class="story" dir=${args.dir}>
      <svc-records trust-url=${storyService()} .fetch=${storyApi(args.answer)}
        .accessToken=${args.signedIn ? 'story-access-token' : undefined} style=${style || nothing}></svc-records>
      <story-event-log></story-event-log>
    </div>`;
  },
  parameters: {
    docs: {
      description: {
        component:
          'Answers come from a story stand-in for `GET /api/v1/me/consent_records` and `POST .../withdraw`; withdrawing a purpose ' +
          'asks first (Escape cancels), then updates the record in place and shows `svc-records-withdraw` in the event log.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<Args>;

/** Three records from three organisations: withdraw one purpose, object to a legitimate interest, or withdraw all. */
export const Ready: Story = {};
/** More than a page: "Show more" reads the next one with the service's cursor. */
export const MorePages: Story = { name: 'Ready: more pages', args: { answer: 'more' } };
/** Right to left: the element uses logical properties only. */
export const RightToLeft: Story = { name: 'Ready: right to left', args: { dir: 'rtl' } };
/** No records: said plainly (the `empty` slot). */
export const Empty: Story = { args: { answer: 'empty' } };
/** While the service has not answered. */
export const Loading: Story = { args: { answer: 'loading' } };
/** No access token yet: the `signed-out` slot. */
export const SignedOut: Story = { name: 'Signed out', args: { signedIn: false } };
/** The service refused the token (401): `svc-error` `unauthorized`, and the `signed-out` slot. */
export const Unauthorized: Story = { name: 'Error: token refused', args: { answer: 'unauthorized' } };
/** The service failed (500): `svc-error` `http`, the `error` slot and a retry button. */
export const ErrorFromService: Story = { name: 'Error: service failed', args: { answer: 'error' } };
