// Step 4 of recording: compare with the person's latest earlier record under the flow. The new record supersedes it;
// purposes that moved from granted to declined are withdrawn on it (step 7), and what changed goes into the audit.
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import type { IssuedOutcome } from './attestation.js';
import { issuedOf, recordState, withdrawalsOf, type RecordRow } from './rows.js';
import type { Supersession } from './types.js';

/** What a record captured at `capturedAt` with `outcomes` supersedes of the person's records under `flowId`. */
export function supersessionOf(
  ctx: ServerContext,
  at: { personId: string; flowId: string; capturedAt: string; now: string },
  outcomes: readonly IssuedOutcome[],
): Supersession {
  const previous = stmt<[string, string, string], RecordRow>(
    ctx.db,
    'SELECT * FROM consent_records WHERE person_id = ? AND flow_id = ? AND captured_at <= ? ORDER BY captured_at DESC, seq DESC LIMIT 1',
  ).get(at.personId, at.flowId, at.capturedAt);
  if (!previous) return { previous, changed: [], moved: [] };
  const state = recordState(issuedOf(previous), withdrawalsOf(ctx, previous.id), previous.expires_at, at.now);
  const before = (key: string) => state.purposes.find((p) => p.key === key)?.outcome;
  // Compared by effect: a revoked purpose declined again is no change.
  const effect = (outcome: string | undefined) => (outcome === 'revoked' ? 'declined' : outcome);
  const changed = outcomes
    .filter((o) => effect(before(o.key)) !== o.outcome)
    .map((o) => ({ key: o.key, from: before(o.key) ?? null, to: o.outcome }));
  // An expired record has no consent in force left to withdraw.
  const moved =
    state.status !== 'expired' ? outcomes.filter((o) => o.outcome === 'declined' && before(o.key) === 'granted').map((o) => o.key) : [];
  return { previous, changed, moved };
}
