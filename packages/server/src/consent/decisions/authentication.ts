// Who may answer a decision addressed to a person (an escalation's approval, a signing session, a decision with an
// `addressee`): only that person, proven on the page itself. Holding the session token opens the page; it never
// answers it. The proof is the person's signed-in session on the trust URL (the service's own OpenID provider), the
// page's own code sent to the addressee's address and checked on the decision (sign-in.ts), or, for a party's quorum
// vote through the API, their own access token. What proved it, and when, stays on the decision for its record.
import type { AnswerAuthentication } from '@svc/schemas';
import { forbidden } from '../../infra/errors.js';
import type { DecisionRow } from './row.js';

/**
 * The person behind a step: signed in on the trust URL in the browser that sent it (the provider's session), or
 * calling the API with their own access token (a quorum vote).
 */
export interface Viewer {
  /** Their verified email, lower-case. */
  email: string;
  /** When they were authenticated: the session's sign-in, or the call that presented the token. */
  authenticatedAt: string;
  method: 'trust_session' | 'access_token';
}

/** How the person who answered was authenticated, as a record states it; undefined when nobody was. */
export function authenticationOf(row: Pick<DecisionRow, 'authentication_method' | 'authenticated_at'>): AnswerAuthentication | undefined {
  return row.authentication_method && row.authenticated_at
    ? { method: row.authentication_method, authenticated_at: row.authenticated_at }
    : undefined;
}

/** Whether the addressee has proven it is them, on the decision or by the viewer's session. */
export function addresseeProven(row: DecisionRow, viewer: Viewer | undefined): boolean {
  return row.addressee_email !== null && (row.authenticated_email === row.addressee_email || viewer?.email === row.addressee_email);
}

/**
 * Before a decision addressed to someone completes: the answer must be theirs. A code they checked on this decision
 * proves it; else their signed-in session does (and is recorded as the proof). Anyone else is refused, 403:
 * `not_addressee` when another person is signed in, `sign_in_required` when nobody is.
 */
export function requireAddressee(row: DecisionRow, viewer: Viewer | undefined): void {
  const addressee = row.addressee_email;
  if (!addressee || row.authenticated_email === addressee) return;
  if (viewer?.email === addressee) {
    row.authenticated_email = addressee;
    row.authentication_method = viewer.method;
    row.authenticated_at = viewer.authenticatedAt;
    return;
  }
  if (viewer) {
    throw forbidden(
      `This request is addressed to someone else: you are signed in as ${viewer.email}. Sign out, or ask the sender.`,
      'not_addressee',
    );
  }
  throw forbidden(
    'Only the person this request is addressed to can answer it: confirm it is you with the code sent to your email, or sign in.',
    'sign_in_required',
  );
}

/** After a code sent to `row.subject_email` was checked: that address is proven, now. */
export function provenByCode(row: DecisionRow, now: string): void {
  if (!row.subject_email) return;
  row.authenticated_email = row.subject_email;
  row.authentication_method = 'email_code';
  row.authenticated_at = now;
}
