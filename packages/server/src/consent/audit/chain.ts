// The tamper-evident audit trail: one hash chain per application. Each event's hash is the SHA-256 of the JCS bytes
// of the event including the previous event's hash, and it is appended in the same transaction as the change.
import { AUDIT_GENESIS_HASH, auditHashInput, type AuditEvent } from '@svc/schemas';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { newId } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { stmt } from '../../infra/db.js';
import { transaction } from '../../infra/transaction.js';
import { jcsHash } from './hash.js';

/** The decisions the trail records: consent granted, denied, modified, revoked; an approval granted, denied, countered. */
export type AuditDecision = 'granted' | 'denied' | 'modified' | 'revoked' | 'countered';

/** What a module appends: its type (`consent.granted`, ...) and evidence without personal data. */
export interface AuditEntryInput {
  applicationId: string;
  /**
   * `consent.granted`, `consent.denied`, `consent.modified`, `consent.revoked`, `approval.granted`, `approval.denied`,
   * `approval.countered`, or another module's event type.
   */
  type: string;
  /** Defaults to now on the server clock. */
  occurredAt?: string;
  /** JSON evidence: ids, purposes, outcomes. Never an email or other personal data. */
  data: Record<string, unknown>;
}

interface AuditRow {
  application_id: string;
  sequence: number;
  id: string;
  type: string;
  occurred_at: string;
  data: string;
  previous_hash: string;
  hash: string;
  anchor_id: string | null;
}

/** The hash of an event: lower-case hex SHA-256 of the JCS bytes of {@link auditHashInput}. */
export function auditEventHash(e: Parameters<typeof auditHashInput>[0]): string {
  return jcsHash(auditHashInput(e));
}

function toWire(row: AuditRow): AuditEvent {
  return { ...row, data: JSON.parse(row.data) as Record<string, unknown> };
}

/**
 * Appends one event to the application's chain. Call it inside the transaction that makes the change, so the
 * event and the change commit or roll back together (better-sqlite3 transactions nest as savepoints).
 */
export function appendAuditEvent(ctx: ServerContext, input: AuditEntryInput): AuditEvent {
  const { db } = ctx;
  return transaction(db, () => {
    const head = stmt<[string], { sequence: number; hash: string }>(
      db,
      'SELECT sequence, hash FROM audit_events WHERE application_id = ? ORDER BY sequence DESC LIMIT 1',
    ).get(input.applicationId);
    // A JSON round trip drops undefined members, so the stored text hashes the same as what is hashed here; the
    // text is stored as it is (serialising what it parses to gives it back).
    const dataText = JSON.stringify(input.data);
    const event = {
      id: newId('aev_', 20),
      application_id: input.applicationId,
      sequence: (head?.sequence ?? 0) + 1,
      type: input.type,
      occurred_at: input.occurredAt ?? isoNow(ctx.clock),
      data: JSON.parse(dataText) as Record<string, unknown>,
      previous_hash: head?.hash ?? AUDIT_GENESIS_HASH,
    };
    const hash = auditEventHash(event);
    stmt(
      db,
      `INSERT INTO audit_events (application_id, sequence, id, type, occurred_at, data, previous_hash, hash)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(event.application_id, event.sequence, event.id, event.type, event.occurred_at, dataText, event.previous_hash, hash);
    return { ...event, hash, anchor_id: null };
  });
}

/** A page of an application's audit events, oldest first (the cursor is the last sequence). */
export function listAuditEvents(
  ctx: ServerContext,
  applicationId: string,
  page: { limit: number; cursor?: string | undefined },
): { audit_events: AuditEvent[]; next_cursor: string | null } {
  const rows = stmt<[string, number, number], AuditRow>(
    ctx.db,
    'SELECT * FROM audit_events WHERE application_id = ? AND sequence > ? ORDER BY sequence LIMIT ?',
  ).all(applicationId, decodeCursor(page.cursor), page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.sequence);
  return { audit_events: items.map(toWire), next_cursor };
}

/** Events of an application after `afterSequence`, oldest first (for anchoring). */
export function unanchoredEvents(ctx: ServerContext, applicationId: string, afterSequence: number): { sequence: number; hash: string }[] {
  return stmt<[string, number], { sequence: number; hash: string }>(
    ctx.db,
    'SELECT sequence, hash FROM audit_events WHERE application_id = ? AND sequence > ? ORDER BY sequence',
  ).all(applicationId, afterSequence);
}
