// The exchange, shared by every kind: a completed decision's single-use exchange token for its claims (and the
// kind's token, a granted consent's consent token).
import type { ConsentExchange } from '@svc/schemas';
import { isoNow } from '../../infra/clock.js';
import type { Principal, ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { hashSecret, safeEqual } from '../../infra/ids.js';
import { transaction } from '../../infra/transaction.js';
import { kindOf } from './kinds/index.js';
import { refuse } from './refusals.js';
import { collectionChannelOf, SECRET } from './row.js';
import { findOwnedDecision } from './store.js';
import { recordIdOf } from './wire.js';

/**
 * Exchanges a completed decision's exchange token, once, for its ConsentExchange. Refusals (422): `not_completed`,
 * `exchange_token_invalid`, `exchange_token_used`, `exchange_token_expired`.
 */
export function exchangeDecision(ctx: ServerContext, principal: Principal, token: string, exchangeToken: string): ConsentExchange {
  return transaction(ctx.db, (): ConsentExchange => {
    const row = findOwnedDecision(ctx, principal, token);
    if (!row.exchange_token_hash || !row.completed_at || !row.outcome) {
      throw refuse('not_completed', `The decision is ${row.status}: there is nothing to exchange yet.`);
    }
    if (!SECRET.test(exchangeToken) || !safeEqual(hashSecret(exchangeToken), row.exchange_token_hash)) {
      throw refuse('exchange_token_invalid', 'The exchange token does not belong to this decision.', 'exchange_token');
    }
    if (row.exchanged_at)
      throw refuse('exchange_token_used', 'The exchange token was already exchanged; it is single use.', 'exchange_token');
    const now = isoNow(ctx.clock);
    if (Date.parse(now) >= Date.parse(row.exchange_expires_at!)) {
      throw refuse('exchange_token_expired', 'The exchange token has expired (it lives 5 minutes).', 'exchange_token');
    }
    const kind = kindOf(row.kind);
    const recordId = recordIdOf(ctx, row);
    // Nothing of the exchange outlives it: the sealed token goes with its first use.
    stmt(ctx.db, 'UPDATE decisions SET exchanged_at = ?, sealed_consent_token = NULL, updated_at = ? WHERE id = ?').run(now, now, row.id);
    ctx.metrics.increment('decisions.exchanged_total', { kind: row.kind });
    return {
      claims: kind.claims(row, ctx),
      status: row.status,
      outcome: row.outcome as ConsentExchange['outcome'],
      application_id: row.application_id,
      consent_transaction_id: row.consent_transaction_id!,
      ...(recordId ? { record_id: recordId } : {}),
      provenance: { collection_channel: collectionChannelOf(row), delivery_mode: row.delivery_mode },
      ...(row.scope ? { scope: row.scope } : {}),
      ...kind.redeem?.(ctx, row, exchangeToken, now),
    };
  });
}
