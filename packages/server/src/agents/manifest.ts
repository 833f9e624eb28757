// An agent's capability manifest: what its operator declares it is and may do, with the scopes a grant delegates to
// it. Its digest is the `capability_manifest` extension of the agent's authorization receipts; the transparency
// records publish the manifest itself under the same digest.
import { jcsHash } from '../audit/hash.js';
import type { AgentIdentityRecord } from './store.js';

/** The fields the digest covers, as the spec lists them; an undeclared field is null. */
export interface CapabilityManifest {
  agent_type: string;
  name: string;
  delegated_scopes: string[];
  capabilities: string[];
  operator_name: string | null;
  privacy_policy_url: string | null;
  data_storage: string | null;
  retention_period: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);

/**
 * The manifest of `agent` under a grant of `delegatedScopes`: the operator's declarations are read from the agent's
 * `metadata` (`capabilities` as an array of strings, `operator_name`, `privacy_policy_url`, `data_storage`,
 * `retention_period`); scopes and capabilities are sorted, so the digest does not depend on their order.
 */
export function capabilityManifestOf(agent: Pick<AgentIdentityRecord, 'agent_type' | 'display_name' | 'metadata'>, delegatedScopes: readonly string[]): CapabilityManifest {
  const meta = agent.metadata;
  const capabilities = Array.isArray(meta.capabilities) ? meta.capabilities.filter((c): c is string => typeof c === 'string') : [];
  return {
    agent_type: agent.agent_type,
    name: agent.display_name,
    delegated_scopes: [...new Set(delegatedScopes)].sort(),
    capabilities: [...new Set(capabilities)].sort(),
    operator_name: text(meta.operator_name),
    privacy_policy_url: text(meta.privacy_policy_url),
    data_storage: text(meta.data_storage),
    retention_period: text(meta.retention_period),
  };
}

/** `sha256:<hex>` over the RFC 8785 JSON of the manifest. */
export function capabilityManifestDigest(manifest: CapabilityManifest): string {
  return `sha256:${jcsHash(manifest)}`;
}
