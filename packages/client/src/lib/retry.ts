/** First backoff ceiling; each retry doubles it up to {@link MAX_BACKOFF_MS}. */
export const BASE_BACKOFF_MS = 250;
/** Largest backoff ceiling between two attempts. */
export const MAX_BACKOFF_MS = 8_000;
/** Default of `maxRetryAfterMs`: a longer `Retry-After` is not waited for, the error goes back to the caller instead. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Methods that can be repeated without changing the outcome (RFC 9110, section 9.2.2). */
const idempotent = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** Whether a request may be sent again: an idempotent method, or a write that carries an idempotency key. */
export function isRetrySafe(method: string, idempotencyKey: string | undefined): boolean {
  return idempotent.has(method) || idempotencyKey !== undefined;
}

/** Whether a status is worth another attempt: rate limited, or a server failure. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * Full-jitter exponential backoff (a uniform draw below an exponentially growing ceiling), which spreads the
 * retries of many clients instead of synchronising them. `attempt` counts from 0 for the first retry.
 */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** attempt));
}

/** Seconds from a `Retry-After` header (delta-seconds or an HTTP date), or undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  // Every HTTP-date form starts with a day name; Date.parse alone would read `1.5` or `-5` as a date in 2001.
  if (!/^\s*[A-Za-z]{3}/.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
