// <svc-delegations> in every state. The element is the real one; the service's answers (`GET /api/v1/me/delegations`
// and `POST .../{suspend|resume|revoke}`) come from a story stand-in (the element's `fetch`) that keeps its grants
// for the story, so pausing or revoking in the story updates the grant and shows `svc-delegations-change` in the log.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html, nothing } from 'lit';
import '@svc/elements';
import type { DelegationRow } from '@svc/elements';
import { storyService } from './support/service.js';
import './support/event-log.js';

type Answer = 'list' | 'empty' | 'loading' | 'unauthorized' | 'error';

interface Args {
  answer: Answer;
  signedIn: boolean;
  dir: 'ltr' | 'rtl';
  '--svc-delegations-accent'?: string;
  '--svc-delegations-radius'?: string;
  '--svc-delegations-gap'?: string;
}

const CSS_ARGS = ['--svc-delegations-accent', '--svc-delegations-radius', '--svc-delegations-gap'] as const;
const days = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
const grant = (id: string, extra: Partial<DelegationRow>): DelegationRow => ({
  id,
  status: 'active',
  delegation_type: 'ai_agent',
  organisation: { id: 'acct_story_bank', name: 'City Bank' },
  delegate: { type: 'agent', id: `agt_${id}`, name: 'Budget assistant' },
  delegated_scopes: [],
  max_actions_per_day: null,
  bounds: {},
  allow_sub_delegation: false,
  parent_grant_id: null,
  created_at: days(-20),
  expires_at: null,
  suspended_at: null,
  revoked_at: null,
  ...extra,
});

const GRANTS: DelegationRow[] = [
  grant('dlg_story_agent', {
    delegated_scopes: ['calendar.read', 'mail.send'],
    max_actions_per_day: 20,
    expires_at: days(70),
    bounds: {
      actions: ['read', 'write'],
      value: { max_per_transaction: 500, currency: 'EUR' },
      time: { not_before: days(-20), not_after: days(70) },
      jurisdiction: { allowed: ['DE', 'FR'] },
      escalation: { allowed: true },
    },
  }),
  grant('dlg_story_carer', {
    delegation_type: 'caregiver',
    organisation: { id: 'acct_story_clinic', name: 'Health clinic' },
    delegate: { type: 'person', id: 'prs_story_sam', name: 'sam@example.com' },
    delegated_scopes: ['records:read'],
    status: 'suspended',
    suspended_at: days(-2),
  }),
  grant('dlg_story_old', {
    delegate: { type: 'agent', id: 'agt_story_old', name: 'Old travel agent' },
    organisation: { id: 'acct_story_travel', name: 'Travel planner' },
    delegated_scopes: ['bookings:write'],
    status: 'revoked',
    revoked_at: days(-5),
  }),
];

const NEXT = { suspend: 'suspended', resume: 'active', revoke: 'revoked' } as const;

/** The story's stand-in for the person's delegations API: the answer the story names; changes change its copy. */
function storyApi(answer: Answer): typeof fetch {
  const grants = GRANTS.map((g) => ({ ...g }));
  return async (input, init) => {
    const url = new URL(String(input));
    if (answer === 'loading') return new Promise<Response>(() => {});
    const reply = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (answer === 'unauthorized')
      return reply({ message: 'The bearer token is not valid: not an API token, nor a current access token.', code: 'unauthorized' }, 401);
    if (answer === 'error') return reply({ message: 'Internal server error.', code: 'internal_error' }, 500);
    if (answer === 'empty') return reply({ delegations: [], next_cursor: null });
    const change = /\/delegations\/([^/]+)\/(suspend|resume|revoke)$/.exec(url.pathname);
    if (change && init?.method === 'POST') {
      const index = grants.findIndex((g) => g.id === decodeURIComponent(change[1]!));
      const action = change[2] as keyof typeof NEXT;
      grants[index] = { ...grants[index]!, status: NEXT[action], [`${action === 'resume' ? 'suspended' : `${action}d`}_at`]: days(0) };
      return reply({ delegation: grants[index] });
    }
    return reply({ delegations: grants, next_cursor: null });
  };
}

const meta: Meta<Args> = {
  title: 'Elements/svc-delegations',
  component: 'svc-delegations',
  args: { answer: 'list', signedIn: true, dir: 'ltr' },
  argTypes: {
    answer: {
      control: 'select',
      options: ['list', 'empty', 'loading', 'unauthorized', 'error'],
      description: 'What the story-local service answers.',
    },
    signedIn: { control: 'boolean', description: "Whether the page holds the person's access token." },
    dir: { control: 'inline-radio', options: ['ltr', 'rtl'], description: 'The page direction (the element mirrors).' },
    '--svc-delegations-accent': { control: 'color', table: { category: 'CSS custom properties' } },
    '--svc-delegations-radius': { control: 'text', table: { category: 'CSS custom properties' } },
    '--svc-delegations-gap': { control: 'text', table: { category: 'CSS custom properties' } },
  },
  render: (args) => {
    const style = CSS_ARGS.filter((k) => args[k])
      .map((k) => `${k}: ${args[k]}`)
      .join('; ');
    return html`<div class="story" dir=${args.dir}>
      <svc-delegations trust-url=${storyService()} .fetch=${storyApi(args.answer)}
        .accessToken=${args.signedIn ? 'story-access-token' : undefined} style=${style || nothing}></svc-delegations>
      <story-event-log></story-event-log>
    </div>`;
  },
  parameters: {
    docs: {
      description: {
        component:
          'Answers come from a story stand-in for `GET /api/v1/me/delegations` and `POST .../{suspend|resume|revoke}`; pausing acts at ' +
          'once, revoking asks first (Escape cancels); each updates the grant in place and shows `svc-delegations-change` in the event log.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<Args>;

/** An agent with every bound, a paused caregiver, a revoked agent: pause, resume or revoke. */
export const Ready: Story = {};
/** Right to left: the element uses logical properties only. */
export const RightToLeft: Story = { name: 'Ready: right to left', args: { dir: 'rtl' } };
/** Nobody may act for the person: said plainly (the `empty` slot). */
export const Empty: Story = { args: { answer: 'empty' } };
/** While the service has not answered. */
export const Loading: Story = { args: { answer: 'loading' } };
/** No access token yet: the `signed-out` slot. */
export const SignedOut: Story = { name: 'Signed out', args: { signedIn: false } };
/** The service refused the token (401): `svc-error` `unauthorized`, and the `signed-out` slot. */
export const Unauthorized: Story = { name: 'Error: token refused', args: { answer: 'unauthorized' } };
/** The service failed (500): `svc-error` `http`, the `error` slot and a retry button. */
export const ErrorFromService: Story = { name: 'Error: service failed', args: { answer: 'error' } };
