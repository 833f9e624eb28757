// <svc-governance> in every state, in its three views. The element is the real one; the service's answers (`GET
// /api/v1/modules`, `PATCH /api/v1/modules/{key}`, `GET|PATCH /api/v1/governance`, `GET /api/v1/governance/changes`,
// `GET /api/v1/applications`, `GET /api/v1/audit/events|anchors`) come from a story stand-in (the element's `fetch`)
// that keeps its modules, settings and change log for the story, so a change in the story shows in the change log
// and `svc-governance-change` in the event log. Its audit events are hash-chained here, so Verify the chain verifies
// them (or, in the tampered story, finds the event altered after it was hashed).
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html, nothing } from 'lit';
import '@svc/elements';
import { canonicalBytes, sha256Hex } from '../packages/client/src/verify/jcs.js';
import { AUDIT_GENESIS_HASH, type AuditEvent, type GovernanceChange, type ProductModule, auditHashInput } from '@svc/schemas';
import { storyService } from './support/service.js';
import './support/event-log.js';

type Answer = 'list' | 'empty' | 'loading' | 'unauthorized' | 'error' | 'tampered' | 'viewer';

interface Args {
  view: 'governance' | 'modules' | 'audit';
  answer: Answer;
  signedIn: boolean;
  readonly: boolean;
  dir: 'ltr' | 'rtl';
  '--svc-governance-accent'?: string;
  '--svc-governance-radius'?: string;
  '--svc-governance-gap'?: string;
}

const CSS_ARGS = ['--svc-governance-accent', '--svc-governance-radius', '--svc-governance-gap'] as const;
const days = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
const APP = 'tp_dev_story_shop';
const ADMIN = { kind: 'account_user', id: 'usr_story_ada' };

const MODULES: ProductModule[] = (
  [
    ['connect', 'Connect', 'Applications, device links, trust pairings and connections between people and applications.'],
    ['verify', 'Verify', 'Verifiable credentials and their presentations, trust scores and vouches.'],
    ['protect', 'Protect', 'Policies, data subject requests, data licenses and data offers.'],
    ['agree', 'Agree', 'Agreements, multi-party agreements, decisions and collaborations.'],
    ['delegate', 'Delegate', 'Delegations, agent identities, application agents, authorities and their receipts.'],
    ['comply', 'Comply', 'Transfer register, residency posture, modules, governance, evidence packages and clean rooms.'],
  ] as const
).map(([key, name, description]) => ({ key, name, description, enabled: true, enabled_at: days(-120), disabled_at: null, surfaces: [] }));

const SETTINGS = {
  api_token_approvals_required: 1,
  default_retention_days: 730,
  allowed_countries: ['US', 'DE'],
  dsar_due_days: 30,
  clean_room_min_cohort: 10,
  clean_room_epsilon_budget: 10,
  clean_room_require_noise: false,
  default_meeting_template: null,
  updated_at: days(-20),
  updated_by: 'account_user:usr_story_ada',
};

const CHANGES: GovernanceChange[] = [
  {
    id: 'gch_story_1',
    type: 'governance.updated',
    changes: { allowed_countries: { from: null, to: ['US', 'DE'] }, default_retention_days: { from: null, to: 730 } },
    actor: ADMIN,
    created_at: days(-20),
  },
  {
    id: 'gch_story_2',
    type: 'module.disabled',
    changes: { 'modules.agree.enabled': { from: true, to: false } },
    actor: ADMIN,
    created_at: days(-9),
  },
  {
    id: 'gch_story_3',
    type: 'module.enabled',
    changes: { 'modules.agree.enabled': { from: false, to: true } },
    actor: ADMIN,
    created_at: days(-8),
  },
];

/** Five consent events of the story's application, each hashed over the one before as the service does. */
async function chain(tampered: boolean): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  let previous = AUDIT_GENESIS_HASH;
  for (let sequence = 1; sequence <= 5; sequence += 1) {
    const event = {
      id: `aev_story_${sequence}`,
      application_id: APP,
      sequence,
      type: sequence === 4 ? 'consent.revoked' : 'consent.granted',
      occurred_at: days(sequence - 6),
      data: {
        record_id: `cr_us_story_${sequence}`,
        decision: sequence === 4 ? 'revoked' : 'granted',
        actor: sequence === 4 ? ADMIN : undefined,
      },
      previous_hash: previous,
      hash: '',
      anchor_id: null,
    };
    event.data = JSON.parse(JSON.stringify(event.data));
    event.hash = await sha256Hex(canonicalBytes(auditHashInput(event)));
    previous = event.hash;
    events.push(event);
  }
  if (tampered) events[2]!.data = { ...events[2]!.data, decision: 'denied' };
  return events;
}

const reply = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The story's stand-in for the organisation's API: the answer the story names; changes update its copy. */
function storyApi(answer: Answer): typeof fetch {
  const modules = MODULES.map((m) => ({ ...m }));
  let settings = { ...SETTINGS };
  const changes = CHANGES.map((c) => ({ ...c }));
  const events = chain(answer === 'tampered');
  const empty = answer === 'empty';
  return async (input, init) => {
    const url = new URL(String(input));
    const path = url.pathname.replace(/^.*\/api\/v1/, '');
    if (answer === 'loading') return new Promise<Response>(() => {});
    if (answer === 'unauthorized') return reply({ message: 'The bearer token is not valid.', code: 'unauthorized' }, 401);
    if (answer === 'error') return reply({ message: 'Internal server error.', code: 'internal_error' }, 500);
    if (init?.method === 'PATCH' && answer === 'viewer')
      return reply({ message: 'This API token lacks the "admin" permission.', code: 'insufficient_permissions' }, 403);
    const module = /^\/modules\/(\w+)$/.exec(path);
    if (module && init?.method === 'PATCH') {
      const enabled = (JSON.parse(String(init.body)) as { module: { enabled: boolean } }).module.enabled;
      const index = modules.findIndex((m) => m.key === module[1]);
      const was = modules[index]!;
      modules[index] = { ...was, enabled, enabled_at: enabled ? days(0) : null, disabled_at: enabled ? was.disabled_at : days(0) };
      const type = enabled ? 'module.enabled' : 'module.disabled';
      changes.push({
        id: `gch_story_${changes.length + 1}`,
        type,
        changes: { [`modules.${was.key}.enabled`]: { from: !enabled, to: enabled } },
        actor: ADMIN,
        created_at: days(0),
      });
      return reply({ module: modules[index] });
    }
    if (path === '/governance' && init?.method === 'PATCH') {
      const patch = (JSON.parse(String(init.body)) as { governance: Record<string, unknown> }).governance;
      if (typeof patch.dsar_due_days === 'number' && patch.dsar_due_days > 90)
        return reply({ message: 'dsar_due_days must be at most 90.', code: 'validation_failed' }, 422);
      const logged = Object.fromEntries(
        Object.entries(patch).map(([k, v]) => [k, { from: (settings as Record<string, unknown>)[k], to: v }]),
      );
      settings = { ...settings, ...patch, updated_at: days(0), updated_by: 'account_user:usr_story_ada' };
      changes.push({
        id: `gch_story_${changes.length + 1}`,
        type: 'governance.updated',
        changes: logged,
        actor: ADMIN,
        created_at: days(0),
      });
      return reply({ governance: settings });
    }
    if (path === '/modules') return reply({ modules: empty ? [] : modules, next_cursor: null });
    if (path === '/governance') return reply({ governance: settings });
    if (path === '/governance/changes') return reply({ governance_changes: empty ? [] : changes, next_cursor: null });
    if (path === '/applications')
      return reply({ applications: [{ id: APP, name: 'Shop', environment: 'development' }], next_cursor: null });
    if (path === '/audit/events') return reply({ audit_events: empty ? [] : await events, next_cursor: null });
    if (path === '/audit/anchors') return reply({ anchors: [], next_cursor: null });
    return reply({ message: 'Not found.', code: 'not_found' }, 404);
  };
}

const meta: Meta<Args> = {
  title: 'Elements/svc-governance',
  component: 'svc-governance',
  args: { view: 'governance', answer: 'list', signedIn: true, readonly: false, dir: 'ltr' },
  argTypes: {
    view: { control: 'inline-radio', options: ['governance', 'modules', 'audit'], description: 'What the element shows.' },
    answer: {
      control: 'select',
      options: ['list', 'empty', 'loading', 'unauthorized', 'error', 'tampered', 'viewer'],
      description: 'What the story-local service answers (`tampered`: one audit event altered; `viewer`: every change refused).',
    },
    signedIn: { control: 'boolean', description: "Whether the page holds the console's token." },
    readonly: { control: 'boolean', description: "A viewer's page: no change controls." },
    dir: { control: 'inline-radio', options: ['ltr', 'rtl'], description: 'The page direction (the element mirrors).' },
    '--svc-governance-accent': { control: 'color', table: { category: 'CSS custom properties' } },
    '--svc-governance-radius': { control: 'text', table: { category: 'CSS custom properties' } },
    '--svc-governance-gap': { control: 'text', table: { category: 'CSS custom properties' } },
  },
  render: (args) => {
    const style = CSS_ARGS.filter((k) => args[k])
      .map((k) => `${k}: ${args[k]}`)
      .join('; ');
    return html`<div class="story" dir=${args.dir}>
      <svc-governance view=${args.view} trust-url=${storyService()} ?readonly=${args.readonly} .fetch=${storyApi(args.answer)}
        .accessToken=${args.signedIn ? 'story-console-token' : undefined} style=${style || nothing}></svc-governance>
      <story-event-log></story-event-log>
    </div>`;
  },
  parameters: {
    docs: {
      description: {
        component:
          'Answers come from a story stand-in for the organisation API. Disable a module (it asks first; Escape cancels) or enable it; ' +
          'change a setting (a DSAR due in more than 90 days is refused in the service’s words); each change shows in the change log ' +
          'and `svc-governance-change` in the event log. In the audit view, Verify the chain checks the story’s hash chain in the browser.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<Args>;

/** The governance settings, a form to change them, and the change log. */
export const Ready: Story = {};
/** The account's modules: Enable, and Disable after a confirm step. */
export const Modules: Story = { args: { view: 'modules' } };
/** An application's audit trail; Verify the chain says it verifies. */
export const Audit: Story = { name: 'Audit trail', args: { view: 'audit' } };
/** One event altered after it was hashed: Verify says the chain breaks at event 3, and marks it. */
export const Tampered: Story = { name: 'Audit trail: tampered', args: { view: 'audit', answer: 'tampered' } };
/** A viewer's page (`readonly`): no change controls at all; Verify still works. */
export const ReadOnly: Story = { name: 'Read-only (viewer)', args: { view: 'modules', readonly: true } };
/** A viewer's page without `readonly`: a change is refused, said in the service's words. */
export const Refused: Story = { name: 'Error: change refused', args: { view: 'modules', answer: 'viewer' } };
/** Right to left: the element uses logical properties only. */
export const RightToLeft: Story = { name: 'Ready: right to left', args: { dir: 'rtl' } };
/** Nothing changed yet; an account without modules; an application without events. */
export const Empty: Story = { args: { answer: 'empty' } };
/** While the service has not answered. */
export const Loading: Story = { args: { answer: 'loading' } };
/** No token yet: the `signed-out` slot. */
export const SignedOut: Story = { name: 'Signed out', args: { signedIn: false } };
/** The service refused the token (401): `svc-error` `unauthorized`, and the `signed-out` slot. */
export const Unauthorized: Story = { name: 'Error: token refused', args: { answer: 'unauthorized' } };
/** The service failed (500): `svc-error` `http`, the `error` slot and a retry button. */
export const ErrorFromService: Story = { name: 'Error: service failed', args: { answer: 'error' } };
