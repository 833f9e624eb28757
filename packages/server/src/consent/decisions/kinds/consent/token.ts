// The consent token: issued when a consent decision is fulfilled, handed out once by the exchange (or carried by the
// `consent.granted` webhook), and verified once by the organisation's server.
import type { ConsentExchange, ConsentVerification } from '@svc/schemas';
import { isoNow } from '../../../../infra/clock.js';
import type { ServerContext } from '../../../../infra/context.js';
import { stmt } from '../../../../infra/db.js';
import { hashSecret, newSecret } from '../../../../infra/ids.js';
import { transaction } from '../../../../infra/transaction.js';
import { plusSeconds, SECRET, TOKEN_LIFETIME_SECONDS, type DecisionRow } from '../../row.js';
import { consentWithdrawalOf, recordWithdrawalOf } from './record.js';
import { seal, unseal } from './seal.js';

/** Issues the consent token of a fulfilled decision, sealed into the row under the exchange token; its value. */
export function issueConsentToken(ctx: ServerContext, row: DecisionRow, exchangeToken: string, now: string): string | undefined {
  if (row.status !== 'fulfilled') return undefined;
  const consentToken = newSecret();
  row.sealed_consent_token = seal(consentToken, exchangeToken);
  stmt(
    ctx.db,
    `INSERT INTO consent_tokens (token_hash, decision_id, account_id, application_id, flow_id, flow_version,
      consent_transaction_id, issued_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    hashSecret(consentToken),
    row.id,
    row.account_id,
    row.application_id,
    row.flow_id,
    row.flow_version,
    row.consent_transaction_id,
    now,
    plusSeconds(now, TOKEN_LIFETIME_SECONDS),
  );
  return consentToken;
}

/** A consent token issued to a committed capture (ConsentAuthorized): its value and end of life. */
export interface CaptureConsentToken {
  consent_token: string;
  consent_token_expires_at: string;
}

/**
 * Issues the consent token of a committed capture, bound to its consent record (withdrawing the record stops its use):
 * verified once within 5 minutes, like a decision's.
 */
export function issueCaptureConsentToken(
  ctx: ServerContext,
  capture: { account_id: string; application_id: string; flow_id: string; flow_version: number; record_id: string },
  now: string,
): CaptureConsentToken {
  const consentToken = newSecret();
  const expiresAt = plusSeconds(now, TOKEN_LIFETIME_SECONDS);
  stmt(
    ctx.db,
    `INSERT INTO consent_tokens (token_hash, record_id, account_id, application_id, flow_id, flow_version, issued_at, expires_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    hashSecret(consentToken),
    capture.record_id,
    capture.account_id,
    capture.application_id,
    capture.flow_id,
    capture.flow_version,
    now,
    expiresAt,
  );
  return { consent_token: consentToken, consent_token_expires_at: expiresAt };
}

/**
 * At exchange: the sealed consent token, opened with the exchange token, with the seconds it has left; none once the
 * consent was withdrawn (the token would only verify `revoked`).
 */
export function redeemConsentToken(
  ctx: ServerContext,
  row: DecisionRow,
  exchangeToken: string,
  now: string,
): Pick<ConsentExchange, 'access_token' | 'token_type' | 'expires_in'> | undefined {
  if (consentWithdrawalOf(ctx, row) !== 'none') return undefined;
  const consentToken = row.sealed_consent_token ? unseal(row.sealed_consent_token, exchangeToken) : undefined;
  if (!consentToken) return undefined;
  const expiresAt = stmt<[string], string>(ctx.db, 'SELECT expires_at FROM consent_tokens WHERE token_hash = ?')
    .pluck()
    .get(hashSecret(consentToken)) as unknown as string;
  return {
    access_token: consentToken,
    token_type: 'consent_token',
    expires_in: Math.max(0, Math.ceil((Date.parse(expiresAt) - Date.parse(now)) / 1000)),
  };
}

interface ConsentTokenRow {
  token_hash: string;
  /** The hosted decision that issued the token, or null for a committed capture's (then `record_id`). */
  decision_id: string | null;
  record_id: string | null;
  account_id: string;
  application_id: string;
  flow_id: string;
  flow_version: number;
  consent_transaction_id: string | null;
  expires_at: string;
  verified_at: string | null;
}

/**
 * Verifies a consent token for the caller's account and clears it: the first verification within 5 minutes is
 * `fulfilled` and valid; a second one, or one after 5 minutes, is `expired`; a token whose consent was withdrawn
 * since it was issued is `revoked`, whatever its age (withdrawal stops use at once); a token the account never
 * received is `invalid`.
 */
export function verifyConsentToken(ctx: ServerContext, accountId: string, consentToken: string): ConsentVerification {
  const invalid = (): ConsentVerification => {
    ctx.metrics.increment('consent_tokens.verified_total', { status: 'invalid' });
    return { valid: false, status: 'invalid', expires_at: null };
  };
  if (!SECRET.test(consentToken)) return invalid();
  const hash = hashSecret(consentToken);
  const now = isoNow(ctx.clock);
  const checked = transaction(ctx.db, () => {
    const known = stmt<[string], ConsentTokenRow>(ctx.db, 'SELECT * FROM consent_tokens WHERE token_hash = ?').get(hash);
    if (!known || known.account_id !== accountId) return undefined;
    if (withdrawalOf(ctx, known) !== 'none') {
      return { row: known, status: 'revoked' as const };
    }
    // The first verification clears the token: only one conditional update can move it.
    const consumed = stmt<[string, string, string, string], ConsentTokenRow>(
      ctx.db,
      'UPDATE consent_tokens SET verified_at = ? WHERE token_hash = ? AND account_id = ? AND verified_at IS NULL AND expires_at > ? RETURNING *',
    ).get(now, hash, accountId, now);
    return { row: consumed ?? known, status: consumed ? ('fulfilled' as const) : ('expired' as const) };
  });
  if (!checked) return invalid();
  const { row, status } = checked;
  ctx.metrics.increment('consent_tokens.verified_total', { status });
  return {
    valid: status === 'fulfilled',
    status,
    flow_id: row.flow_id,
    expires_at: row.expires_at,
    flow_version: row.flow_version,
    ...(row.consent_transaction_id ? { consent_transaction_id: row.consent_transaction_id } : {}),
  };
}

/** How much of the consent behind a token was withdrawn: through its decision, or its capture's record. */
function withdrawalOf(ctx: ServerContext, token: ConsentTokenRow): 'none' | 'some' | 'all' {
  if (token.decision_id === null) return recordWithdrawalOf(ctx, token.account_id, token.record_id);
  return consentWithdrawalOf(ctx, { id: token.decision_id, application_id: token.application_id, account_id: token.account_id });
}
