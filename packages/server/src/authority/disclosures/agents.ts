// What a receipt says about the agents a flow discloses (`extensions.agent_disclosures`): each declared agent as its
// identity stands when the record is made, with its role in the flow. Consent and notice records carry it;
// authorization records never do.
import type { FlowConfig } from '@svc/schemas';
import { findAgentIdentity } from '../agents/store.js';
import type { ServerContext } from '../../infra/context.js';

/** One disclosed agent on a receipt. */
export interface AgentDisclosure {
  agent_id: string;
  agent_name: string;
  agent_type: string;
  operator_name?: string;
  role?: string;
  disclosed_at?: string;
}

/** The disclosures of a flow version's declared agents (empty when it declares none). */
export function agentDisclosuresOf(ctx: ServerContext, config: Pick<FlowConfig, 'agents'>, disclosedAt?: string): AgentDisclosure[] {
  return (config.agents ?? []).map((declared) => {
    const agent = findAgentIdentity(ctx, declared.agent_id);
    const operator = agent && typeof agent.metadata.operator_name === 'string' ? agent.metadata.operator_name : undefined;
    return {
      agent_id: declared.agent_id,
      agent_name: agent?.display_name ?? declared.agent_id,
      agent_type: agent?.agent_type ?? 'assistant',
      ...(operator ? { operator_name: operator } : {}),
      ...(declared.role ? { role: declared.role } : {}),
      ...(disclosedAt ? { disclosed_at: disclosedAt } : {}),
    };
  });
}

/** Every declared agent that is not an agent identity of the account: the flow's config paths to name in a 422. */
export function unknownDisclosedAgents(
  ctx: ServerContext,
  accountId: string,
  config: Pick<FlowConfig, 'agents'> | undefined,
): { path: string; code: string; message: string }[] {
  return (config?.agents ?? []).flatMap((declared, index) => {
    const agent = findAgentIdentity(ctx, declared.agent_id);
    return agent?.account_id === accountId
      ? []
      : [{ path: `flow.config.agents.${index}.agent_id`, code: 'unknown_agent', message: 'names no agent identity of this account' }];
  });
}
