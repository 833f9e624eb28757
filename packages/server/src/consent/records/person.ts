// Step 3 of recording: find or make the person the record is about. A subject is bound by email (one person per
// email per account); a record nobody signed in to gets a stand-in principal of its own. Also: finding a person again.
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { homedId } from '../../infra/ids.js';
import { emailOf } from './rows.js';
import type { ConsentRecordInput, Subject } from './types.js';

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The person with this email in the account, made on first sight. */
export function personFor(ctx: ServerContext, accountId: string, email: string, now: string): string {
  const normalised = normaliseEmail(email);
  const found = stmt<[string, string], { id: string }>(ctx.db, 'SELECT id FROM persons WHERE account_id = ? AND email = ?').get(
    accountId,
    normalised,
  );
  if (found) return found.id;
  const id = homedId(ctx.country, 'prs_', 20);
  stmt(ctx.db, 'INSERT INTO persons (id, account_id, email, created_at) VALUES (?, ?, ?, ?)').run(id, accountId, normalised, now);
  return id;
}

/**
 * The stand-in principal of an anonymous record: a person row whose id is the record id. Its email column (unique per
 * account, not null) holds `anonymous:<record id>`, which no email lookup can match (emails are validated, and this
 * has no `@`); `emailOf` answers it as empty.
 */
function anonymousPrincipal(ctx: ServerContext, accountId: string, recordId: string, now: string): string {
  stmt(ctx.db, 'INSERT INTO persons (id, account_id, email, created_at) VALUES (?, ?, ?, ?)').run(
    recordId,
    accountId,
    `anonymous:${recordId}`,
    now,
  );
  return recordId;
}

/** The subject of record `recordId`: the person its email names (made on first sight), or its anonymous principal. */
export function subjectOf(
  ctx: ServerContext,
  input: Pick<ConsentRecordInput, 'subject'>,
  accountId: string,
  recordId: string,
  now: string,
): Subject {
  const { subject } = input;
  if (!subject) return { personId: anonymousPrincipal(ctx, accountId, recordId, now), email: '', externalId: null, anonymous: true };
  return {
    personId: personFor(ctx, accountId, subject.email, now),
    email: normaliseEmail(subject.email),
    externalId: subject.external_id ?? null,
    anonymous: false,
  };
}

/** The person of an application named by external id (from their latest record carrying it), email or person id. */
export function findPerson(
  ctx: ServerContext,
  accountId: string,
  applicationId: string,
  ref: { externalId?: string | undefined; email?: string | undefined; personId?: string | undefined },
): { id: string; email: string } | undefined {
  let id: string | undefined;
  if (ref.externalId !== undefined) {
    id = stmt<[string, string], { person_id: string }>(
      ctx.db,
      'SELECT person_id FROM consent_records WHERE application_id = ? AND external_id = ? ORDER BY captured_at DESC, seq DESC LIMIT 1',
    ).get(applicationId, ref.externalId)?.person_id;
  } else if (ref.email !== undefined) {
    id = stmt<[string, string], { id: string }>(ctx.db, 'SELECT id FROM persons WHERE account_id = ? AND email = ?').get(
      accountId,
      normaliseEmail(ref.email),
    )?.id;
  } else if (ref.personId !== undefined) {
    id = stmt<[string, string], { id: string }>(ctx.db, 'SELECT id FROM persons WHERE account_id = ? AND id = ?').get(
      accountId,
      ref.personId,
    )?.id;
  }
  return id === undefined ? undefined : { id, email: emailOf(ctx, id) };
}
