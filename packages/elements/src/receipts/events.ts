// The events of `<svc-receipts>`: `svc-receipts-verify` (a receipt was checked offline, in the list or from a file)
// and its own `svc-error` (the receipts could not be read). The rows are the people's API's shapes.
import type { PersonAuthorizationReceipt, PersonDisclosureReceipt } from '@svc/schemas';

/** An authorization receipt in the person's name, as `GET /api/v1/me/authorization_receipts` answers it. */
export type AuthorizationReceiptRow = PersonAuthorizationReceipt;

/** A receipt that disclosed agents to the person, as `GET /api/v1/me/disclosure_receipts` answers it. */
export type DisclosureReceiptRow = PersonDisclosureReceipt;

/**
 * What the offline check found: `valid` (signed by one of the service's keys, unchanged since), `tampered` (changed
 * after signing), `not_this_service` (no key of the service made the signature), `malformed` (not a signed receipt),
 * `unchecked` (the service's keys could not be read, so nothing could be checked).
 */
export type ReceiptVerdict = 'valid' | 'tampered' | 'not_this_service' | 'malformed' | 'unchecked';

/** Detail of `svc-receipts-verify`. */
export interface SvcReceiptsVerifyDetail {
  /** `list` (a receipt shown) or `file` (one the person dropped or chose). */
  source: 'list' | 'file';
  verdict: ReceiptVerdict;
  /** The receipt's `record_id`, when it could be read. */
  record_id: string | null;
  /** The file's name, for a file. */
  file_name?: string;
}

/** Fired (bubbles, composed) once a receipt was checked. */
export type SvcReceiptsVerifyEvent = CustomEvent<SvcReceiptsVerifyDetail>;
