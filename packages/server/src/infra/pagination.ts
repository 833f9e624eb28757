import { badRequest } from './errors.js';

/** Page size of list endpoints when the query gives no `limit` (at most 100, see `listQuery`). */
export const DEFAULT_LIMIT = 20;

/**
 * Cursors are opaque to clients: base64url of `v1:<seq>`, where `seq` is the last row's position in a stable,
 * insertion-ordered sequence (an AUTOINCREMENT column or SQLite's rowid), so pages never skip or repeat rows.
 */
export function encodeCursor(seq: number): string {
  return Buffer.from(`v1:${seq}`, 'utf8').toString('base64url');
}

/** The position after which the next page starts (0 for the first page); a cursor we did not make is a 400. */
export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const match = /^v1:(\d{1,15})$/.exec(/^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '');
  if (!match?.[1]) throw badRequest('cursor is not a cursor this server issued; pass next_cursor unchanged.', 'invalid_cursor');
  return Number(match[1]);
}

/** Splits `limit + 1` fetched rows into a page and the cursor of the next one (null on the last page). */
export function toPage<T>(rows: T[], limit: number, seqOf: (row: T) => number): { items: T[]; next_cursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, next_cursor: rows.length > limit && last !== undefined ? encodeCursor(seqOf(last)) : null };
}
