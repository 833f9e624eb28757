// Who a decision is addressed to, as creation reads it: the email the caller named (`addressee`), lower-case, or
// null. Each kind decides whether it takes one (kinds/<kind>/create.ts); the inbox lists by the stored result.
import type { OpenDecisionRequest } from './kinds/kind.js';

/** The `addressee` of the request, trimmed and lower-case; null when it names none. */
export function addresseeOf(request: Pick<OpenDecisionRequest, 'addressee'>): string | null {
  return request.addressee ? request.addressee.email.trim().toLowerCase() : null;
}
