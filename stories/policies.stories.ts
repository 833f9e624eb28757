// <svc-policies> in every state, in its three views. The element is the real one; the service's answers (policies,
// templates, data licenses, clean rooms and their queries, applications and their consent activity) come from a
// story stand-in (the element's `fetch`) that keeps its rows for the story, so revoking or closing in the story
// updates the list and shows `svc-policies-change` in the log. A viewer's story refuses every change as the service
// does (403 insufficient_permissions).
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html, nothing } from 'lit';
// Until the element is registered in @svc/elements, its own module defines it.
import '@svc/elements';
import type { CleanRoomRow, PoliciesConsentActivity, PolicyDataLicenseRow as DataLicenseRow, PolicyRow } from '@svc/elements';
import { storyService } from './support/service.js';
import './support/event-log.js';

type Answer = 'list' | 'empty' | 'loading' | 'unauthorized' | 'error' | 'viewer';

interface Args {
  view: 'policies' | 'clean_rooms' | 'consent_activity';
  answer: Answer;
  readonly: boolean;
  dir: 'ltr' | 'rtl';
  '--svc-policies-accent'?: string;
  '--svc-policies-radius'?: string;
  '--svc-policies-gap'?: string;
}

const CSS_ARGS = ['--svc-policies-accent', '--svc-policies-radius', '--svc-policies-gap'] as const;
const days = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
const date = (d: number) => days(d).slice(0, 10);

const policy = (id: string, title: string, template_id: PolicyRow['template_id'], status: PolicyRow['status'] = 'active'): PolicyRow => ({
  id,
  template_id,
  template_version: 1,
  title,
  config: {},
  owner_type: 'account',
  person_id: null,
  status,
  deal: false,
  accepted_at: null,
  acceptance: null,
  home_country: 'US',
  created_at: days(-40),
  updated_at: days(-40),
  revoked_at: status === 'revoked' ? days(-2) : null,
});

const POLICIES: PolicyRow[] = [
  policy('pol_us_story_keep', 'Keep orders ten years', 'retention'),
  policy('pol_us_story_port', 'Export on request', 'portability'),
  policy('pol_us_story_old', 'Spring newsletter offer', 'broadcast', 'revoked'),
];

const LICENSES: DataLicenseRow[] = [
  {
    id: 'dlic_us_story_acme',
    agreement_id: 'agr_us_story_research',
    application_id: 'tp_story_shop',
    max_access_count: 10,
    access_count: 3,
    remaining_accesses: 7,
    terms: { licensee: 'Acme Research', purpose: 'Market research' },
    status: 'active',
    last_accessed_at: days(-1),
    revoked_at: null,
    home_country: 'US',
    created_at: days(-20),
    updated_at: days(-1),
  },
];

const ROOMS: CleanRoomRow[] = [
  {
    id: 'clr_us_story_panel',
    agreement_id: 'agr_us_story_research',
    participants: ['tp_story_shop', 'tp_story_club'],
    status: 'active',
    created_at: days(-10),
    expires_at: days(80),
    ended_at: null,
    home_country: 'US',
    min_cohort: 10,
    privacy_budget: { epsilon_total: 2, epsilon_spent: 0.5, epsilon_remaining: 1.5 },
  },
];

/** Thirty days of made-up counts for two purposes. */
function activity(applicationId: string): PoliciesConsentActivity {
  const rows = Array.from({ length: 30 }, (_, i) => i - 29).flatMap((d) => [
    { date: date(d), purpose: 'newsletter', granted: (d * d) % 7, denied: (d * d) % 3, withdrawn: d % 4 === 0 ? 1 : 0 },
    { date: date(d), purpose: 'research', granted: (d * d) % 5, denied: (d * d) % 2, withdrawn: 0 },
  ]);
  return { application_id: applicationId, from: date(-29), to: date(0), days: rows };
}

const reply = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const page = (key: string, rows: unknown[]) => reply({ [key]: rows, next_cursor: null });

/** What a change answers: the row, changed, or the viewer's refusal. */
function change(
  answer: Answer,
  path: string,
  lists: { policies: PolicyRow[]; licenses: DataLicenseRow[]; rooms: CleanRoomRow[] },
): Response {
  if (answer === 'viewer') return reply({ message: 'This API token lacks the "write" permission.', code: 'insufficient_permissions' }, 403);
  const [, kind, id] = /\/api\/v1\/(policies|data_licenses|clean_rooms)\/([^/]+)\//.exec(path) ?? [];
  const key = kind === 'policies' ? 'policies' : kind === 'data_licenses' ? 'licenses' : 'rooms';
  const list = lists[key] as { id: string; status: string }[];
  const at = list.findIndex((r) => r.id === decodeURIComponent(id ?? ''));
  list[at] = { ...list[at]!, status: kind === 'clean_rooms' ? 'closed' : 'revoked' };
  const envelope = kind === 'policies' ? 'policy' : kind === 'data_licenses' ? 'data_license' : 'clean_room';
  return reply({ [envelope]: list[at] });
}

/** The story's stand-in for the organisation's API: the answer the story names. */
function storyApi(answer: Answer): typeof fetch {
  const lists = {
    policies: POLICIES.map((p) => ({ ...p })),
    licenses: LICENSES.map((l) => ({ ...l })),
    rooms: ROOMS.map((r) => ({ ...r })),
  };
  return async (input, init) => {
    const { pathname } = new URL(String(input));
    if (answer === 'loading') return new Promise<Response>(() => {});
    if (answer === 'unauthorized') return reply({ message: 'The bearer token is not valid.', code: 'unauthorized' }, 401);
    if (answer === 'error') return reply({ message: 'Internal server error.', code: 'internal_error' }, 500);
    if (init?.method === 'POST') return change(answer, pathname, lists);
    const empty = answer === 'empty';
    if (pathname.endsWith('/policy_templates')) {
      const names = { retention: 'Retention', portability: 'Portability', broadcast: 'Broadcast' };
      return page(
        'policy_templates',
        Object.entries(names).map(([id, name]) => ({ id, name })),
      );
    }
    if (pathname.endsWith('/policies')) return page('policies', empty ? [] : lists.policies);
    if (pathname.endsWith('/data_licenses')) return page('data_licenses', empty ? [] : lists.licenses);
    if (pathname.endsWith('/queries')) {
      const query = {
        id: 'crq_us_story_1',
        status: 'completed',
        computation_type: 'count_by_purpose',
        clean_room_id: ROOMS[0]!.id,
        submitted_at: days(-3),
        completed_at: days(-3),
      };
      return page('queries', [query]);
    }
    if (pathname.endsWith('/clean_rooms')) return page('clean_rooms', empty ? [] : lists.rooms);
    const counts = /\/applications\/([^/]+)\/consent_activity$/.exec(pathname);
    if (counts) return reply({ consent_activity: activity(decodeURIComponent(counts[1]!)) });
    const apps = [
      { id: 'tp_story_shop', name: 'Shop' },
      { id: 'tp_story_club', name: 'Members club' },
    ];
    return page('applications', empty ? [] : apps);
  };
}

const meta: Meta<Args> = {
  title: 'Elements/svc-policies',
  component: 'svc-policies',
  args: { view: 'policies', answer: 'list', readonly: false, dir: 'ltr' },
  argTypes: {
    view: { control: 'inline-radio', options: ['policies', 'clean_rooms', 'consent_activity'], description: 'What the element shows.' },
    answer: {
      control: 'select',
      options: ['list', 'empty', 'loading', 'unauthorized', 'error', 'viewer'],
      description: "What the story-local service answers (`viewer`: lists, but refuses every change as a viewer's token).",
    },
    readonly: { control: 'boolean', description: 'A viewer: no change controls.' },
    dir: { control: 'inline-radio', options: ['ltr', 'rtl'], description: 'The page direction (the element mirrors).' },
    '--svc-policies-accent': { control: 'color', table: { category: 'CSS custom properties' } },
    '--svc-policies-radius': { control: 'text', table: { category: 'CSS custom properties' } },
    '--svc-policies-gap': { control: 'text', table: { category: 'CSS custom properties' } },
  },
  render: (args) => {
    const style = CSS_ARGS.filter((k) => args[k])
      .map((k) => `${k}: ${args[k]}`)
      .join('; ');
    return html`<div class="story" dir=${args.dir}>
      <svc-policies view=${args.view} ?readonly=${args.readonly} trust-url=${storyService()} .fetch=${storyApi(args.answer)}
        .accessToken=${'story-console-token'} style=${style || nothing}></svc-policies>
      <story-event-log></story-event-log>
    </div>`;
  },
  parameters: {
    docs: {
      description: {
        component:
          "Answers come from a story stand-in for the organisation's API (`/api/v1/policies`, `/api/v1/data_licenses`, `/api/v1/clean_rooms`, " +
          '`/api/v1/applications/{id}/consent_activity`). Revoking or closing asks first (Escape cancels); each change shows ' +
          '`svc-policies-change` in the event log. The `viewer` answer refuses changes as the service refuses a viewer.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<Args>;

/** Policies and a data license: revoke one (confirm step). */
export const Ready: Story = {};
/** Clean rooms: participants, expiry, the privacy budget left, queries on demand, Close. */
export const CleanRooms: Story = { name: 'Clean rooms', args: { view: 'clean_rooms' } };
/** Consent activity: a chart per purpose beside its text table. */
export const ConsentActivity: Story = { name: 'Consent activity', args: { view: 'consent_activity' } };
/** A viewer with `readonly`: no change controls at all. */
export const ReadOnly: Story = { name: 'Read-only (viewer)', args: { readonly: true } };
/** A viewer without `readonly`: the service refuses the change, and its words are shown. */
export const ViewerRefused: Story = { name: "Error: a viewer's change refused", args: { answer: 'viewer' } };
/** Right to left: the element uses logical properties only. */
export const RightToLeft: Story = { name: 'Ready: right to left', args: { dir: 'rtl' } };
/** Nothing yet: said plainly (the `empty` slot). */
export const Empty: Story = { args: { answer: 'empty' } };
/** While the service has not answered. */
export const Loading: Story = { args: { answer: 'loading' } };
/** The service refused the token (401): `svc-error` `unauthorized`, and the `signed-out` slot. */
export const Unauthorized: Story = { name: 'Error: token refused', args: { answer: 'unauthorized' } };
/** The service failed (500): `svc-error` `http`, the `error` slot and a retry button. */
export const ErrorFromService: Story = { name: 'Error: service failed', args: { answer: 'error' } };
