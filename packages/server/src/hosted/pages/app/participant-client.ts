// The hosted page's calls to the participant API (`/decisions/{token}/...`), same origin, JSON only.
import type { TransitionRequest, TransitionResult } from '../page-data.js';

/** A participant API refusal or a transport failure, with the server's stable code when there is one. */
export class ParticipantError extends Error {
  /** The server's error code (`wrong_code`, `decision_expired`, ...) or `network_error`. */
  readonly code: string;
  /** HTTP status, 0 for a transport failure. */
  readonly status: number;

  constructor(code: string, message: string, status: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ParticipantError';
    this.code = code;
    this.status = status;
  }
}

/** Calls one endpoint of the participant API. */
async function call<T>(url: string, body: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch (cause) {
    throw new ParticipantError('network_error', 'The service could not be reached. Check your connection and try again.', 0, { cause });
  }
  const json = (await res.json().catch(() => ({}))) as { message?: string; code?: string };
  if (!res.ok) {
    throw new ParticipantError(json.code ?? 'http_error', json.message ?? `The service answered ${res.status}.`, res.status);
  }
  return json as T;
}

/** Sends one participant step; resolves with the new progress (and the completion, when it completed). */
export function sendTransition(api: string, request: TransitionRequest): Promise<TransitionResult> {
  return call<TransitionResult>(`${api}/transitions`, request);
}

/** Reports messages the page could not post, so the server counts them. Never throws. */
export function reportDrops(api: string, reason: 'origin_missing' | 'target_missing', count: number): void {
  void fetch(`${api}/drops`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ reason, count: Math.min(count, 50) }),
    credentials: 'same-origin',
    keepalive: true,
  }).catch(() => undefined);
}
