// <svc-delegations> in every state. The element is the real one; the service's answers (`GET /api/v1/me/delegations`,
// `POST /api/v1/me/delegations` and `POST .../{suspend|resume|revoke}`) come from a story stand-in (the element's
// `fetch`) that keeps its grants for the story, so making, pausing or revoking in the story updates the list and shows
// `svc-delegations-change` in the log. The stand-in refuses a grant to the person's own email, as the service does.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import type { StoryContext } from '@storybook/web-components-vite';
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
/** The signed-in person's own email: a grant to it is refused. */
const SELF = 'you@example.com';

const ORGANISATIONS = [
  { id: 'acct_story_bank', name: 'City Bank' },
  { id: 'acct_story_clinic', name: 'Health clinic' },
];

/** The grant the stand-in makes of a `POST /api/v1/me/delegations` body, or its refusal. */
function made(count: number, body: Record<string, any>): DelegationRow | { message: string; code: string } {
  const email = body.delegate_email as string | undefined;
  if (email === SELF) return { message: 'A person cannot delegate to themselves.', code: 'self_delegation' };
  const terms = body.delegation_grant;
  return grant(`dlg_story_new_${count}`, {
    delegation_type: terms.delegation_type,
    organisation: ORGANISATIONS.find((o) => o.id === body.organisation_id) ?? ORGANISATIONS[0]!,
    delegate: email
      ? { type: 'person', id: 'prs_story_new', name: email }
      : { type: 'agent', id: body.delegate_id, name: 'Your new agent' },
    delegated_scopes: terms.delegated_scopes,
    bounds: terms.bounds ?? {},
    created_at: days(0),
    expires_at: terms.expires_at ?? null,
  });
}

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
    if (answer === 'empty') return reply({ delegations: [], next_cursor: null, organisations: ORGANISATIONS });
    if (url.pathname.endsWith('/me/delegations') && init?.method === 'POST') {
      const grant = made(grants.length, JSON.parse(String(init.body)));
      if (!('id' in grant)) return reply(grant, 422);
      grants.unshift(grant);
      return reply({ delegation: grant }, 201);
    }
    const change = /\/delegations\/([^/]+)\/(suspend|resume|revoke)$/.exec(url.pathname);
    if (change && init?.method === 'POST') {
      const index = grants.findIndex((g) => g.id === decodeURIComponent(change[1]!));
      const action = change[2] as keyof typeof NEXT;
      grants[index] = { ...grants[index]!, status: NEXT[action], [`${action === 'resume' ? 'suspended' : `${action}d`}_at`]: days(0) };
      return reply({ delegation: grants[index] });
    }
    return reply({ delegations: grants, next_cursor: null, organisations: ORGANISATIONS });
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
          'Answers come from a story stand-in for `GET /api/v1/me/delegations`, `POST /api/v1/me/delegations` and `POST .../{suspend|resume|revoke}`; ' +
          'pausing acts at once, revoking and making a grant ask first (Escape cancels); each updates the list and shows `svc-delegations-change` ' +
          'in the event log. "Let someone act for you" opens the form; your own email (you@example.com) is refused.',
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

/** The element of the story, once its grants show. */
async function shown(canvas: HTMLElement): Promise<HTMLElement & { updateComplete: Promise<boolean> }> {
  const el = canvas.querySelector('svc-delegations') as (HTMLElement & { updateComplete: Promise<boolean> }) | null;
  for (let tries = 0; tries < 50 && !el?.shadowRoot?.querySelector('[part=add]'); tries += 1)
    await new Promise((r) => requestAnimationFrame(r));
  if (!el) throw new Error('no <svc-delegations>');
  return el;
}

/** Opens the form and fills it as `values` say (`id` of a field: its value). */
async function openForm({ canvasElement }: StoryContext<Args>, values: Record<string, string> = {}): Promise<void> {
  const el = await shown(canvasElement);
  el.shadowRoot!.querySelector<HTMLButtonElement>('[part=add]')!.click();
  await el.updateComplete;
  for (const [id, value] of Object.entries(values)) {
    const control = el.shadowRoot!.querySelector<HTMLInputElement | HTMLSelectElement>(`#${id}`)!;
    control.value = value;
    control.dispatchEvent(new Event(control instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
    await el.updateComplete;
  }
}

const continued = async (context: StoryContext<Args>) => {
  const el = await shown(context.canvasElement);
  el.shadowRoot!.querySelector<HTMLButtonElement>('[data-key="continue new"]')!.click();
  await el.updateComplete;
};

/** "Let someone act for you": the form, open (where, who, what, until when). */
export const MakeForm: Story = { name: 'Make a grant: the form', play: (context) => openForm(context) };
/** Continue with nothing filled in: each problem under its field, tied to it. */
export const MakeProblems: Story = {
  name: 'Make a grant: problems',
  play: async (context) => {
    await openForm(context);
    await continued(context);
  },
};
/** An agent with a value limit and a last day: the confirm step says the bounds in plain words. */
export const MakeConfirm: Story = {
  name: 'Make a grant: confirm an agent’s bounds',
  play: async (context) => {
    await openForm(context, {
      organisation: 'acct_story_bank',
      kind: 'ai_agent',
      delegate: 'agt_story_helper',
      scopes: 'payments:write calendar.read',
      amount: '50',
      currency: 'EUR',
      until: days(30).slice(0, 10),
    });
    await continued(context);
  },
};
