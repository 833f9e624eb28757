// What <svc-inbox> and <svc-records> do when the service is busy: one more try after a short Retry-After.

/**
 * `fetch`, and once more after the `Retry-After` of a 429 (in seconds, as the service sends it) when that is at most
 * 10 s: a 429 changed nothing. A longer wait, none, or a second 429 is the answer (the error state, with its retry).
 */
export async function askAgainOn429(ask: typeof fetch, url: string, init: RequestInit): Promise<Response> {
  const answer = await ask(url, init);
  const wait = 1000 * +(answer.headers.get('retry-after') || NaN);
  if (answer.status != 429 || !(wait <= 10_000)) return answer;
  await new Promise((resolve) => setTimeout(resolve, wait));
  return ask(url, init);
}
