// What must survive the redirect to the sign-in page and back: the PKCE verifier, the state and the nonce of one
// sign-in. They live in the tab's sessionStorage (or the storage given) from the redirect to the callback, are read
// once, and are useless without the code the callback brings. Tokens are never stored.
import { SvcConfigurationError } from '../lib/errors.js';

/** The part of the Web Storage API the helper uses (sessionStorage, or a stand-in outside a browser). */
export interface PendingStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** One sign-in between its redirect and its callback. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  /** The scopes asked for (an ID token is required when they include `openid`). */
  scope: string;
}

/** The storage key of a client's pending sign-in: one per client per tab. */
export const pendingKey = (clientId: string): string => `svc.oauth.pending:${clientId}`;

/** `storage`, else the tab's sessionStorage; a `SvcConfigurationError` where there is none (Node without `storage`). */
export function pendingStorage(storage: PendingStorage | undefined): PendingStorage {
  const found = storage ?? (globalThis as { sessionStorage?: PendingStorage }).sessionStorage;
  if (!found)
    throw new SvcConfigurationError(
      'There is no sessionStorage here: pass `storage` to createOAuthClient (it holds the PKCE verifier, state and nonce across the redirect).',
    );
  return found;
}

/** Stores `pending` for `clientId`, replacing an earlier sign-in that never came back. */
export function savePendingSignIn(storage: PendingStorage, clientId: string, pending: PendingSignIn): void {
  storage.setItem(pendingKey(clientId), JSON.stringify(pending));
}

/** Reads and removes the pending sign-in of `clientId` (each is used once), or undefined when there is none. */
export function takePendingSignIn(storage: PendingStorage, clientId: string): PendingSignIn | undefined {
  const key = pendingKey(clientId);
  const text = storage.getItem(key);
  storage.removeItem(key);
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<PendingSignIn>;
    const fields = [value.state, value.nonce, value.verifier, value.redirectUri, value.scope];
    return fields.every((f) => typeof f === 'string') ? (value as PendingSignIn) : undefined;
  } catch {
    return undefined;
  }
}
