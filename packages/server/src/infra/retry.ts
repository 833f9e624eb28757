// The retry schedule of the server's outboxes (webhook deliveries, mail): five attempts in all, the later ones after
// 30 s, 2 min, 15 min and 1 h (spec: Limits, for webhooks; mail keeps the same schedule).

/** Waits before attempts 2, 3, 4 and 5. */
export const RETRY_DELAYS_SECONDS = [30, 2 * 60, 15 * 60, 60 * 60] as const;
/** Attempts per delivery, the first included. */
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/**
 * When the next attempt is due (server-clock ms) after `attempts` failed attempts, or undefined when none is left.
 */
export function nextAttemptMs(attempts: number, nowMs: number): number | undefined {
  if (attempts >= MAX_ATTEMPTS) return undefined;
  return nowMs + RETRY_DELAYS_SECONDS[attempts - 1]! * 1000;
}
