import type { Migration } from '../db.js';

/**
 * Pinned capability manifests: each version of an agent's declared capability set, frozen at pin time with its
 * content hash, published under `/.well-known/transparency/agents/{agent_id}/manifests/{version}`. A version is
 * never changed or removed once written; the triggers refuse it even to code that tries.
 */
export const agentManifests: Migration = {
  id: 13,
  name: 'agent-manifests',
  sql: `
    CREATE TABLE agent_manifests (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      agent_id TEXT NOT NULL REFERENCES agent_identities(id),
      version INTEGER NOT NULL CHECK (version >= 1),
      -- the RFC 8785 (JCS) text of the manifest: the bytes its digest is taken over
      manifest TEXT NOT NULL,
      digest TEXT NOT NULL,
      pinned_at TEXT NOT NULL,
      UNIQUE (agent_id, version)
    );
    CREATE TRIGGER agent_manifests_frozen_update BEFORE UPDATE ON agent_manifests
      BEGIN SELECT RAISE(ABORT, 'pinned capability manifests are immutable'); END;
    CREATE TRIGGER agent_manifests_frozen_delete BEFORE DELETE ON agent_manifests
      BEGIN SELECT RAISE(ABORT, 'pinned capability manifests are immutable'); END;
  `,
};
