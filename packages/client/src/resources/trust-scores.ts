import { trustScoreEnvelope, type TrustScore } from '@svc/schemas';
import type { CallOptions, SvcConnection } from '../lib/connection.js';

/**
 * Reads a trust score (`GET /api/v1/trust_scores/{subject_id}`): of a person (`prs_…`; an API token of the account, or
 * the person's own access token) or of an agent identity (`agt_…`; an API token, or a person of the account). The
 * score is 0-100, a deterministic function of what the service recorded, with each factor's weight, value,
 * contribution and cap; a delegation's reputation bound reads the same score.
 */
export function getTrustScore(connection: SvcConnection<'bearer'>, subjectId: string, options?: CallOptions): Promise<TrustScore> {
  return connection
    .request({ method: 'GET', path: `/api/v1/trust_scores/${encodeURIComponent(subjectId)}`, schema: trustScoreEnvelope }, options)
    .then((body) => body.trust_score);
}

/** `svc.trustScores`. */
export interface TrustScoresResource {
  /** Reads a person's or an agent's trust score; see {@link getTrustScore}. */
  get(subjectId: string, options?: CallOptions): Promise<TrustScore>;
}

/** Binds the trust score functions to a connection. */
export function trustScoresResource(connection: SvcConnection<'bearer'>): TrustScoresResource {
  return { get: (subjectId, options) => getTrustScore(connection, subjectId, options) };
}
