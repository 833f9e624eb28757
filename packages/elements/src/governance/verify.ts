// Verify the chain, loaded on the first press only (it brings jose and @svc/client's verifier): every page of an
// application's audit events and anchors, read with the console's token, then checked here, in the browser, by
// @svc/client's `verifyAuditChain` against the service's JWKS. Nothing is sent anywhere to be checked.
import { verifyAuditChain } from '@svc/client';
import type { AuditAnchor, AuditEvent } from '@svc/schemas';
import type { GovernanceVerdict } from './events.js';

/** Reads one page of the API (a path with its query), answering its body or why not. */
export type PageReader = (path: string) => Promise<{ body: Record<string, unknown> } | { failed: string }>;

/** At most this many pages of each list are read (a thousand items each). */
const MAX_PAGES = 1000;

/** Every item under `key` of the list at `path`, page after page; or why a page could not be read. */
async function readAll<T>(read: PageReader, path: string, application: string | undefined, key: string): Promise<T[] | string> {
  const items: T[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const query = new URLSearchParams({ limit: '1000' });
    if (application) query.set('application_id', application);
    if (cursor) query.set('cursor', cursor);
    const answer = await read(`${path}?${query}`);
    if ('failed' in answer) return answer.failed;
    const list = answer.body[key];
    if (!Array.isArray(list)) return `the service answered without ${key}`;
    items.push(...(list as T[]));
    cursor = typeof answer.body.next_cursor === 'string' ? answer.body.next_cursor : null;
    if (!cursor) break;
  }
  return items;
}

/**
 * The verdict on `application`'s whole audit trail (the account's first application when undefined), or why it
 * could not be read. `jwks` is asked for the service's keys only when there are anchors to check.
 */
export async function verifyTrail(
  read: PageReader,
  jwks: () => Promise<{ keys: object[] }>,
  application: string | undefined,
): Promise<GovernanceVerdict | { failed: string }> {
  const events = await readAll<AuditEvent>(read, '/api/v1/audit/events', application, 'audit_events');
  if (typeof events === 'string') return { failed: events };
  const anchors = await readAll<AuditAnchor>(read, '/api/v1/audit/anchors', application, 'anchors');
  if (typeof anchors === 'string') return { failed: anchors };
  let issuer: { keys: object[] } = { keys: [] };
  if (anchors.length) {
    try {
      issuer = await jwks();
    } catch (error) {
      return { failed: `the service's keys could not be read (${String(error)})` };
    }
  }
  const result = await verifyAuditChain(events, anchors, { issuer: issuer as never });
  if (result.ok) return { ok: true, events: result.events, anchors: result.anchors };
  return { ok: false, sequence: result.sequence, reason: result.reason, message: result.message };
}
