// What <svc-agents> says, in one map per view, so other languages can follow as maps of the same shape. The reader
// is an account user of the organisation: "your agents", the principal is "the person" (named by id only).
import { html, type TemplateResult } from 'lit';
import type { PersonListStrings } from '../internal/person-list.js';
import type { AgentRow, EscalationRow, GrantRow } from './events.js';

const COMMON = {
  error: 'This cannot be shown right now.',
  retry: 'Try again',
  more: 'Show more',
  moreShown: (count: number) => `${count} more shown.`,
  cancel: 'Cancel',
  cancelled: 'Nothing was changed.',
  failed: 'Nothing was changed: the service could not be reached or refused. Try again.',
  /** The service's refusal of a change, in its own words (a viewer's 403, a 409). */
  refused: (message: string) => `Nothing was changed. The service said: ${message}`,
  signedOut: 'Sign in to the console to see your agents.',
  signInAgain: 'Your console session ended: sign in again.',
};

/** Every sentence and label of the agent identities view. */
export interface AgentStrings extends PersonListStrings {
  refused: (message: string) => string;
  status: Record<AgentRow['status'], string>;
  type: Record<AgentRow['agent_type'], string>;
  registered: (date: TemplateResult) => TemplateResult;
  manifests: string;
  noManifest: string;
  manifest: (version: number, scopes: string[], pinned: TemplateResult) => TemplateResult;
  trustScore: (score: number) => string;
  noScore: string;
  suspend: string;
  resume: string;
  revoke: string;
  named: (action: string, name: string) => string;
  confirm: (name: string) => string;
  confirmButton: string;
  working: string;
  done: (name: string, status: string) => string;
}

/** Every sentence and label of the grants view (`application_agents`). */
export interface GrantStrings extends PersonListStrings {
  refused: (message: string) => string;
  status: Record<GrantRow['status'], string>;
  heading: (delegate: string, agent: boolean) => string;
  principal: (id: string) => string;
  scopes: (scopes: string[]) => string;
  bounds: (row: GrantRow) => string[];
  expires: (date: TemplateResult | null) => TemplateResult | string;
  revoke: string;
  named: (delegate: string) => string;
  confirm: (delegate: string, principal: string) => string;
  confirmButton: string;
  working: string;
  done: (delegate: string) => string;
}

/** Every sentence and label of the authorities view (escalations). */
export interface AuthorityStrings extends PersonListStrings {
  refused: (message: string) => string;
  outcome: Record<EscalationRow['status'], string>;
  trigger: Record<EscalationRow['trigger'], string>;
  heading: (agent: string, description: string) => string;
  action: (row: EscalationRow) => string;
  asked: (date: TemplateResult) => TemplateResult;
  decided: (date: TemplateResult) => TemplateResult;
  chartLabel: string;
}

const VERBS: Record<string, string> = { read: 'read', write: 'change', delete: 'delete' };
const list = (items: string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`);
const money = (n: number, currency: string | null) => `${n.toFixed(2)}${currency ? ` ${currency}` : ''}`;

/** The bounds of a grant in plain words, for the organisation that operates the agent. */
function boundsEn({ bounds, max_actions_per_day: perDay, allow_sub_delegation: passOn }: GrantRow): string[] {
  const out: string[] = [];
  if (bounds.actions) out.push(`May only ${list(bounds.actions.map((a) => VERBS[a] ?? a))}`);
  if (bounds.value) out.push(`Up to ${money(bounds.value.max_per_transaction, bounds.value.currency)} per action`);
  const { not_before: from, not_after: to } = bounds.time ?? {};
  if (from) out.push(`Not before ${from.slice(0, 10)}`);
  if (to) out.push(`Not after ${to.slice(0, 10)}`);
  if (perDay) out.push(perDay === 1 ? 'At most one action a day' : `At most ${perDay} actions a day`);
  if (bounds.jurisdiction) out.push(`Only in: ${bounds.jurisdiction.allowed.join(', ')}`);
  if (bounds.reputation) out.push(`Only while its trust score is at least ${bounds.reputation.min_trust_score} of 100`);
  if (bounds.escalation) out.push(bounds.escalation.allowed ? 'May ask the person before going further' : 'Never asks for more');
  if (passOn) out.push('May pass this on, never wider');
  return out;
}

/** English, the agent identities view. */
export const EN_AGENTS: AgentStrings = {
  ...COMMON,
  loading: 'Loading your agents…',
  empty: 'No agents yet: register one with the API (POST /api/v1/agent_identities).',
  shown: (count, more) => (more ? `${count} or more agents.` : count === 1 ? 'One agent.' : `${count} agents.`),
  status: { active: 'Active', suspended: 'Suspended', revoked: 'Revoked' },
  type: { assistant: 'Assistant', autonomous: 'Autonomous agent', workflow: 'Workflow' },
  registered: (date) => html`registered ${date}`,
  manifests: 'Pinned capability manifests',
  noManifest: 'No capability manifest pinned yet.',
  manifest: (version, scopes, pinned) => html`Version ${version}: ${scopes.length ? scopes.join(', ') : 'no scopes'} (pinned ${pinned})`,
  trustScore: (score) => `Trust score ${score} of 100`,
  noScore: 'Trust score not available.',
  suspend: 'Suspend',
  resume: 'Resume',
  revoke: 'Revoke',
  named: (action, name) => `${action} ${name}`,
  confirm: (name) => `Revoke ${name} for good? It can never act again: every token it holds stops working, and it cannot be resumed.`,
  confirmButton: 'Yes, revoke',
  working: 'Changing…',
  done: (name, status) => `${name} is now ${status.toLowerCase()}.`,
};

/** English, the grants view (`view="application_agents"`). */
export const EN_GRANTS: GrantStrings = {
  ...COMMON,
  loading: 'Loading what your agents may do…',
  empty: 'No delegation grants yet: nobody has let one of your agents act for them.',
  shown: (count, more) => (more ? `${count} or more grants.` : count === 1 ? 'One grant.' : `${count} grants.`),
  status: { active: 'Active', suspended: 'Suspended', revoked: 'Revoked', expired: 'Expired' },
  heading: (delegate, agent) => (agent ? `${delegate} may act` : `${delegate} (a person) may act`),
  principal: (id) => `for ${id}`,
  scopes: (scopes) => (scopes.length ? `Scopes: ${scopes.join(', ')}` : 'No scopes'),
  bounds: boundsEn,
  expires: (date) => (date ? html`expires ${date}` : 'no expiry'),
  revoke: 'Revoke',
  named: (delegate) => `Revoke the grant to ${delegate}`,
  confirm: (delegate, principal) =>
    `Revoke the grant that lets ${delegate} act for ${principal}? Every token issued from it, and every grant made under it, stops at once. Only the person can grant it again.`,
  confirmButton: 'Yes, revoke',
  working: 'Revoking…',
  done: (delegate) => `Revoked: the grant to ${delegate}.`,
};

/** English, the authorities view (`view="authorities"`). */
export const EN_AUTHORITIES: AuthorityStrings = {
  ...COMMON,
  loading: 'Loading the authority your agents asked for…',
  empty: 'No escalations yet: none of your agents has asked a person for more than its grant allows.',
  shown: (count, more) => (more ? `${count} or more escalations.` : count === 1 ? 'One escalation.' : `${count} escalations.`),
  outcome: { pending: 'Pending', approved: 'Approved', denied: 'Denied', countered: 'Countered', expired: 'Expired' },
  trigger: {
    scope: 'beyond its scopes',
    action: 'beyond its actions',
    value: 'beyond its value bound',
    time: 'outside its time bound',
    escalation: 'asked ahead',
    reputation: 'below its trust score bound',
  },
  heading: (agent, description) => `${agent}: ${description}`,
  action: ({ action: a }) =>
    `${VERBS[a.action] ?? a.action} in ${a.scope}${a.value !== null ? `, ${money(a.value, a.currency)}` : ''}${a.jurisdiction ? `, in ${a.jurisdiction}` : ''}`,
  asked: (date) => html`asked ${date}`,
  decided: (date) => html`decided ${date}`,
  chartLabel: 'Escalations per day by outcome, last 14 days',
};
