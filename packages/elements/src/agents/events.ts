// The events of `<svc-agents>`: `svc-agents-change` (an agent identity was suspended, resumed or revoked, or a
// delegation grant revoked, and the service recorded it) and its own `svc-error` (a list could not be read, or an
// action failed or was refused).
import type { AgentIdentity, DelegationGrant, Escalation, PinnedCapabilityManifest, TrustScore } from '@svc/schemas';
import type { PersonListErrorDetail } from '../internal/person-list.js';

/** An agent identity of the organisation, as `GET /api/v1/agent_identities` answers it (`AgentIdentity` of `@svc/schemas`). */
export type AgentRow = AgentIdentity;

/** A delegation grant of the organisation, as `GET /api/v1/delegations` answers an API token (`DelegationGrant`). */
export type GrantRow = DelegationGrant;

/** An escalation of the organisation, as `GET /api/v1/oap/escalations` answers an API token (`Escalation`). */
export type EscalationRow = Escalation;

/** What is read about each agent beside its row: its pinned capability manifests and its trust score (null until read, or when it could not be). */
export interface AgentDetails {
  manifests: PinnedCapabilityManifest[] | null;
  trust_score: TrustScore | null;
}

/** The views of `<svc-agents>`: the agents, what each may do (grants), and the authority they asked for (escalations). */
export type AgentsView = 'agent_identities' | 'application_agents' | 'authorities';

/** What the organisation did: suspend or resume an agent, or revoke an agent or a grant. */
export type AgentsAction = 'suspend' | 'resume' | 'revoke';

/** Detail of `svc-agents-change`: what was changed (its kind and id), what was done, and its status now. Never a secret. */
export interface SvcAgentsChangeDetail {
  kind: 'agent_identity' | 'delegation_grant';
  id: string;
  action: AgentsAction;
  status: string;
}

/** Fired (bubbles, composed) once the service has recorded a change the organisation made. */
export type SvcAgentsChangeEvent = CustomEvent<SvcAgentsChangeDetail>;

/** Detail of an `svc-error` from `<svc-agents>` itself: `message` (the service's own words), `fatal` and `recoverable_via`. */
export interface AgentsErrorDetail extends PersonListErrorDetail {
  /** `unauthorized` (the token was refused), `forbidden` (the role may not: a viewer), `not_found`, `invalid` (409: not from this status), `network`, `http` or `invalid_configuration`. */
  code: 'unauthorized' | 'forbidden' | 'not_found' | 'invalid' | 'network' | 'http' | 'invalid_configuration';
}

/** Fired (bubbles, composed) by `<svc-agents>` when a list could not be read or an action failed. */
export type SvcAgentsErrorEvent = CustomEvent<AgentsErrorDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-agents-change': SvcAgentsChangeEvent;
  }
  interface SvcErrorDetailMap {
    agents: AgentsErrorDetail;
  }
}
