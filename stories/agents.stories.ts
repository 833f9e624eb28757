// <svc-agents> in every state, in its three views. The element is the real one; the service's answers (`GET
// /api/v1/agent_identities`, `GET …/{id}/manifests`, `GET …/{id}/trust_score`, `POST …/{id}/suspend|resume|revoke`,
// `GET /api/v1/delegations`, `POST …/{id}/revoke`, `GET /api/v1/oap/escalations`) come from a story stand-in (the
// element's `fetch`) that keeps its agents and grants for the story, so a change in the story shows in the list and
// `svc-agents-change` in the event log. The `viewer` answer refuses every change as the API refuses a viewer's token.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import type { AgentIdentity, DelegationGrant, Escalation, PinnedCapabilityManifest } from '@svc/schemas';
import { html, nothing } from 'lit';
import '@svc/elements';
import { storyService } from './support/service.js';
import './support/event-log.js';

type Answer = 'list' | 'empty' | 'loading' | 'unauthorized' | 'error' | 'viewer';

interface Args {
  view: 'agent_identities' | 'application_agents' | 'authorities';
  answer: Answer;
  signedIn: boolean;
  readonly: boolean;
  dir: 'ltr' | 'rtl';
  '--svc-agents-accent'?: string;
  '--svc-agents-radius'?: string;
  '--svc-agents-gap'?: string;
}

const CSS_ARGS = ['--svc-agents-accent', '--svc-agents-radius', '--svc-agents-gap'] as const;
const days = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

const agent = (id: string, name: string, status: AgentIdentity['status'], age: number): AgentIdentity => ({
  id,
  display_name: name,
  agent_type: 'autonomous',
  status,
  delegation_grant_id: null,
  oauth_application_id: null,
  metadata: {},
  created_at: days(-age),
  updated_at: days(-age),
  suspended_at: status === 'suspended' ? days(-1) : null,
  revoked_at: status === 'revoked' ? days(-1) : null,
});

const AGENTS: AgentIdentity[] = [
  agent('agt_story_booking', 'Booking assistant', 'active', 40),
  agent('agt_story_refunds', 'Refunds agent', 'suspended', 20),
  agent('agt_story_old', 'Old importer', 'revoked', 90),
];

const manifest = (agentId: string, version: number, scopes: string[], age: number): PinnedCapabilityManifest => ({
  agent_id: agentId,
  version,
  manifest: {
    agent_type: 'autonomous',
    name: 'Booking assistant',
    delegated_scopes: scopes,
    capabilities: [],
    operator_name: null,
    privacy_policy_url: null,
    data_storage: null,
    retention_period: null,
  },
  digest: `sha256:${'0'.repeat(64)}`,
  pinned_at: days(-age),
});
const MANIFESTS: Record<string, PinnedCapabilityManifest[]> = {
  agt_story_booking: [
    manifest('agt_story_booking', 1, ['bookings:read'], 40),
    manifest('agt_story_booking', 2, ['bookings:read', 'payments:write'], 12),
  ],
};
const SCORES: Record<string, number> = { agt_story_booking: 72, agt_story_refunds: 41, agt_story_old: 30 };

const grant = (id: string, delegate: string, status: DelegationGrant['status'], extra: Partial<DelegationGrant> = {}): DelegationGrant => ({
  id,
  status,
  delegation_type: 'ai_agent',
  principal_id: 'prs_story_ada',
  delegate_id: delegate,
  delegate_type: 'agent',
  delegated_scopes: ['payments:write', 'bookings:read'],
  allow_sub_delegation: false,
  max_actions_per_day: 20,
  expires_at: days(60),
  bounds: { value: { max_per_transaction: 100, currency: 'EUR' }, escalation: { allowed: true }, jurisdiction: { allowed: ['DE', 'FR'] } },
  parent_grant_id: null,
  delegation_chain_root: id,
  authorization_record_id: `ar_${id}`,
  application_id: 'tp_dev_story_shop',
  created_at: days(-30),
  updated_at: days(-30),
  suspended_at: null,
  revoked_at: status === 'revoked' ? days(-2) : null,
  ...extra,
});

const GRANTS: DelegationGrant[] = [
  grant('dlg_story_one', 'agt_story_booking', 'active'),
  grant('dlg_story_two', 'agt_story_refunds', 'suspended', { principal_id: 'prs_story_lee', bounds: {}, max_actions_per_day: 1 }),
  grant('dlg_story_old', 'agt_story_old', 'revoked', { expires_at: null }),
];

const escalation = (id: string, status: Escalation['status'], age: number, description: string, value: number): Escalation => ({
  id,
  status,
  trigger: 'value',
  delegation_grant_id: 'dlg_story_one',
  agent_identity_id: 'agt_story_booking',
  principal_id: 'prs_story_ada',
  application_id: 'tp_dev_story_shop',
  action: { scope: 'payments:write', action: 'write', value, currency: 'EUR', jurisdiction: 'DE', description },
  reason: 'The action is worth more than the grant allows per action (100.00 EUR).',
  counter_proposal: null,
  authorization_record_id: status === 'pending' ? null : `ar_${id}`,
  created_at: days(-age),
  expires_at: days(-age + 1),
  decided_at: status === 'pending' || status === 'expired' ? null : days(-age + 0.1),
  used_at: null,
});

const ESCALATIONS: Escalation[] = [
  escalation('esc_story_1', 'approved', 11, 'Pay the hotel in Lyon', 240),
  escalation('esc_story_2', 'denied', 9, 'Upgrade to first class', 900),
  escalation('esc_story_3', 'expired', 6, 'Book a second night', 130),
  escalation('esc_story_4', 'approved', 3, 'Pay the train tickets', 180),
  escalation('esc_story_5', 'countered', 1, 'Pay the rental car', 420),
  escalation('esc_story_6', 'pending', 0, 'Pay the museum tickets', 120),
];

const reply = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A change: the agent's or grant's new status in the story's copy, or the viewer's refusal. */
function changed(answer: Answer, path: string, agents: AgentIdentity[], grants: DelegationGrant[]): Response | undefined {
  const move = /\/(agent_identities|delegations)\/([^/]+)\/(suspend|resume|revoke)$/.exec(path);
  if (!move) return undefined;
  if (answer === 'viewer') return reply({ message: 'This API token lacks the "write" permission.', code: 'insufficient_permissions' }, 403);
  const [, kind, id, action] = move;
  const status = action === 'suspend' ? 'suspended' : action === 'resume' ? 'active' : 'revoked';
  if (kind === 'agent_identities') {
    const i = agents.findIndex((a) => a.id === decodeURIComponent(id!));
    agents[i] = { ...agents[i]!, status: status as AgentIdentity['status'], updated_at: days(0) };
    return reply({ agent_identity: agents[i] });
  }
  const i = grants.findIndex((g) => g.id === decodeURIComponent(id!));
  grants[i] = { ...grants[i]!, status: status as DelegationGrant['status'], revoked_at: days(0) };
  return reply({ delegation_grant: grants[i] });
}

/** The story's stand-in for the organisation's API: the answer the story names; changes change its copy. */
function storyApi(answer: Answer): typeof fetch {
  const agents = AGENTS.map((a) => ({ ...a }));
  const grants = GRANTS.map((g) => ({ ...g }));
  return async (input) => {
    const path = new URL(String(input)).pathname;
    if (answer === 'loading') return new Promise<Response>(() => {});
    if (answer === 'unauthorized')
      return reply({ message: 'The bearer token is not valid: not an API token, nor a current access token.', code: 'unauthorized' }, 401);
    if (answer === 'error') return reply({ message: 'Internal server error.', code: 'internal_error' }, 500);
    const empty = answer === 'empty';
    const change = changed(answer, path, agents, grants);
    if (change) return change;
    const detail = /\/agent_identities\/([^/]+)\/(manifests|trust_score)$/.exec(path);
    if (detail?.[2] === 'manifests') return reply({ capability_manifests: MANIFESTS[detail[1]!] ?? [], next_cursor: null });
    if (detail) {
      const factors = [{ name: 'actions_allowed', weight: 1, value: 22, contribution: 20, cap: 20 }];
      return reply({
        trust_score: { subject_id: detail[1], subject_type: 'agent', score: SCORES[detail[1]!] ?? 50, factors, computed_at: days(0) },
      });
    }
    if (path.endsWith('/agent_identities')) return reply({ agent_identities: empty ? [] : agents, next_cursor: null });
    if (path.endsWith('/delegations')) return reply({ delegation_grants: empty ? [] : grants, next_cursor: null });
    if (path.endsWith('/escalations')) return reply({ escalations: empty ? [] : ESCALATIONS, next_cursor: null });
    return reply({ message: 'No such thing.', code: 'not_found' }, 404);
  };
}

const meta: Meta<Args> = {
  title: 'Elements/svc-agents',
  component: 'svc-agents',
  args: { view: 'agent_identities', answer: 'list', signedIn: true, readonly: false, dir: 'ltr' },
  argTypes: {
    view: {
      control: 'inline-radio',
      options: ['agent_identities', 'application_agents', 'authorities'],
      description: 'What the element lists: the agents, their grants, or their escalations.',
    },
    answer: {
      control: 'select',
      options: ['list', 'empty', 'loading', 'unauthorized', 'error', 'viewer'],
      description: "What the story-local service answers (`viewer` refuses every change as it refuses a viewer's token).",
    },
    signedIn: { control: 'boolean', description: "Whether the page holds the console's token." },
    readonly: { control: 'boolean', description: 'A viewer: no change controls.' },
    dir: { control: 'inline-radio', options: ['ltr', 'rtl'], description: 'The page direction (the element mirrors).' },
    '--svc-agents-accent': { control: 'color', table: { category: 'CSS custom properties' } },
    '--svc-agents-radius': { control: 'text', table: { category: 'CSS custom properties' } },
    '--svc-agents-gap': { control: 'text', table: { category: 'CSS custom properties' } },
  },
  render: (args) => {
    const style = CSS_ARGS.filter((k) => args[k])
      .map((k) => `${k}: ${args[k]}`)
      .join('; ');
    return html`<div class="story" dir=${args.dir}>
      <svc-agents view=${args.view} ?readonly=${args.readonly} trust-url=${storyService()} .fetch=${storyApi(args.answer)}
        .accessToken=${args.signedIn ? 'story-console-token' : undefined} style=${style || nothing}></svc-agents>
      <story-event-log></story-event-log>
    </div>`;
  },
  parameters: {
    docs: {
      description: {
        component:
          'Answers come from a story stand-in for the organisation API. Suspend, resume or revoke an agent (revoking asks first; ' +
          'Escape cancels); revoke a grant; each change shows `svc-agents-change` in the event log. The authorities view shows a ' +
          'chart of escalations per day by outcome beside the same numbers as a table.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<Args>;

/** Three agents (active, suspended, revoked), with their manifests and trust scores: suspend, resume or revoke. */
export const Ready: Story = {};
/** What each agent may do: the grants, with their bounds; revoke one. */
export const Grants: Story = { name: 'Application agents (grants)', args: { view: 'application_agents' } };
/** The escalations by outcome, with the 14-day chart and its table. */
export const Authorities: Story = { args: { view: 'authorities' } };
/** Right to left: the element uses logical properties only. */
export const RightToLeft: Story = { name: 'Ready: right to left', args: { dir: 'rtl' } };
/** A viewer's console: no change controls at all. */
export const ReadOnly: Story = { name: 'Read-only (viewer)', args: { readonly: true } };
/** A viewer's token without `readonly`: every change is refused, in the service's words. */
export const ViewerRefused: Story = { name: 'Error: change refused (viewer)', args: { answer: 'viewer' } };
/** Nothing yet: said plainly (the `empty` slot). */
export const Empty: Story = { args: { answer: 'empty' } };
/** The authorities view with no escalations: the table of zeros is still there. */
export const EmptyAuthorities: Story = { name: 'Empty: authorities', args: { view: 'authorities', answer: 'empty' } };
/** While the service has not answered. */
export const Loading: Story = { args: { answer: 'loading' } };
/** No token yet: the `signed-out` slot. */
export const SignedOut: Story = { name: 'Signed out', args: { signedIn: false } };
/** The service refused the token (401): `svc-error` `unauthorized`, and the `signed-out` slot. */
export const Unauthorized: Story = { name: 'Error: token refused', args: { answer: 'unauthorized' } };
/** The service failed (500): `svc-error` `http`, the `error` slot and a retry button. */
export const ErrorFromService: Story = { name: 'Error: service failed', args: { answer: 'error' } };
