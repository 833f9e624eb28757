// An agent's capability manifest: what its operator declares it is and may do, with the scopes a grant delegates to
// it. Its digest is the `capability_manifest` extension of the agent's authorization receipts; the transparency
// records publish the manifest itself under the same digest. Pinned versions (frozen at pin time, never changed)
// are stored here too, and `grantCapabilityManifestDigest` is what a grant's receipt carries.
import { jcs, jcsHash, sha256Hex } from '../../consent/audit/hash.js';
import { recordActivity } from '../../infra/activity.js';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { ApiError } from '../../infra/errors.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { transaction } from '../../infra/transaction.js';
import { findAgentIdentity, type AgentIdentityRecord } from './store.js';

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
export function capabilityManifestOf(
  agent: Pick<AgentIdentityRecord, 'agent_type' | 'display_name' | 'metadata'>,
  delegatedScopes: readonly string[],
): CapabilityManifest {
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

// ---- Pinned versions ----------------------------------------------------------------------------------------------

/** A manifest version frozen at pin time (the wire's `capability_manifest`). */
export interface PinnedManifest {
  agent_id: string;
  version: number;
  manifest: CapabilityManifest;
  digest: string;
  pinned_at: string;
}

interface ManifestRow {
  seq: number;
  agent_id: string;
  version: number;
  manifest: string;
  digest: string;
  pinned_at: string;
}

const toPinned = (row: ManifestRow): PinnedManifest => ({
  agent_id: row.agent_id,
  version: row.version,
  manifest: JSON.parse(row.manifest) as CapabilityManifest,
  digest: row.digest,
  pinned_at: row.pinned_at,
});

function latestRow(ctx: ServerContext, agentId: string): ManifestRow | undefined {
  return stmt<[string], ManifestRow>(ctx.db, 'SELECT * FROM agent_manifests WHERE agent_id = ? ORDER BY version DESC LIMIT 1').get(agentId);
}

/**
 * Pins the manifest of `agent` as it is now (name, type and the operator's declarations in its metadata) with the
 * scopes it is declared to request, as the agent's next version, and records `agent_identity.manifest_pinned` as
 * activity. A manifest identical to the latest version (same digest) pins nothing: the latest is answered with
 * `created` false. A revoked agent declares nothing new: 409 `agent_revoked`.
 */
export function pinCapabilityManifest(
  ctx: ServerContext,
  agentId: string,
  delegatedScopes: readonly string[],
  actor: { api_token_id?: string | undefined } = {},
): { pinned: PinnedManifest; created: boolean } {
  return transaction(ctx.db, () => {
    // Read inside the transaction: the version number and the frozen fields rest on what is stored now.
    const agent = findAgentIdentity(ctx, agentId);
    if (!agent) throw new Error(`agent identity ${agentId} vanished`);
    if (agent.status === 'revoked') {
      throw new ApiError(
        409,
        `Agent identity ${agent.id} is revoked: it declares no new capability manifest (its pinned versions stay published).`,
        'agent_revoked',
      );
    }
    const manifest = capabilityManifestOf(agent, delegatedScopes);
    const text = jcs(manifest);
    const digest = `sha256:${sha256Hex(text)}`;
    const latest = latestRow(ctx, agent.id);
    if (latest?.digest === digest) return { pinned: toPinned(latest), created: false };
    const version = (latest?.version ?? 0) + 1;
    const pinnedAt = isoNow(ctx.clock);
    stmt(ctx.db, 'INSERT INTO agent_manifests (agent_id, version, manifest, digest, pinned_at) VALUES (?, ?, ?, ?, ?)').run(
      agent.id,
      version,
      text,
      digest,
      pinnedAt,
    );
    if (agent.application_id) {
      recordActivity(ctx, agent.application_id, 'agent_identity.manifest_pinned', {
        agent_identity_id: agent.id,
        version,
        digest,
        api_token_id: actor.api_token_id ?? null,
      });
    }
    return { pinned: { agent_id: agent.id, version, manifest, digest, pinned_at: pinnedAt }, created: true };
  });
}

/** The agent's pinned version `version`, or undefined. */
export function findPinnedManifest(ctx: ServerContext, agentId: string, version: number): PinnedManifest | undefined {
  const row = stmt<[string, number], ManifestRow>(ctx.db, 'SELECT * FROM agent_manifests WHERE agent_id = ? AND version = ?').get(
    agentId,
    version,
  );
  return row && toPinned(row);
}

/** Every pinned version of the agent, oldest first. */
export function allPinnedManifests(ctx: ServerContext, agentId: string): PinnedManifest[] {
  return stmt<[string], ManifestRow>(ctx.db, 'SELECT * FROM agent_manifests WHERE agent_id = ? ORDER BY version')
    .all(agentId)
    .map(toPinned);
}

/** A page of the agent's pinned versions, oldest first. */
export function listPinnedManifests(
  ctx: ServerContext,
  agentId: string,
  page: { limit: number; cursor?: string | undefined },
): { capability_manifests: PinnedManifest[]; next_cursor: string | null } {
  const rows = stmt<[string, number, number], ManifestRow>(
    ctx.db,
    'SELECT * FROM agent_manifests WHERE agent_id = ? AND version > ? ORDER BY version LIMIT ?',
  ).all(agentId, decodeCursor(page.cursor), page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.version);
  return { capability_manifests: items.map(toPinned), next_cursor };
}

/**
 * The `capability_manifest` digest of an authorization receipt granting `delegatedScopes` to `agent`. Pinned
 * versions are the operator's published declarations, so they win over the agent's metadata as it is now:
 * - the latest pinned version whose scopes equal the grant's: its digest (the receipt then names a manifest anyone
 *   can fetch and recompute, even when the metadata changed after pinning);
 * - else, when the agent has pinned versions, the latest one's frozen declarations with the grant's scopes;
 * - else the manifest of the agent as it is now ({@link capabilityManifestOf}).
 */
export function grantCapabilityManifestDigest(
  ctx: ServerContext,
  agent: Pick<AgentIdentityRecord, 'id' | 'agent_type' | 'display_name' | 'metadata'>,
  delegatedScopes: readonly string[],
): string {
  const scopes = [...new Set(delegatedScopes)].sort();
  const pinned = allPinnedManifests(ctx, agent.id);
  const same = (a: string[]) => a.length === scopes.length && a.every((s, i) => s === scopes[i]);
  const match = [...pinned].reverse().find((p) => same(p.manifest.delegated_scopes));
  if (match) return match.digest;
  const latest = pinned[pinned.length - 1];
  if (latest) return capabilityManifestDigest({ ...latest.manifest, delegated_scopes: scopes });
  return capabilityManifestDigest(capabilityManifestOf(agent, scopes));
}
