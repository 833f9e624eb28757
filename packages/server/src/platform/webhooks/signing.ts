import { createHmac } from 'node:crypto';

/** `X-Svc-Signature: t=<unix>,v1=<hex>[,v1=<hex>]`: one HMAC-SHA256 over `"<t>.<raw body>"` per secret valid now. */
export function signatureHeader(body: string, secrets: readonly string[], unixSeconds: number): string {
  const parts = [`t=${unixSeconds}`];
  for (const secret of secrets) {
    parts.push(`v1=${createHmac('sha256', secret).update(`${unixSeconds}.`).update(body, 'utf8').digest('hex')}`);
  }
  return parts.join(',');
}

/** The four headers of a delivery (plus the JSON content type). */
export function deliveryHeaders(
  event: { id: string; type: string },
  body: string,
  secrets: readonly string[],
  unixSeconds: number,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-svc-event-id': event.id,
    'x-svc-event-type': event.type,
    'x-svc-timestamp': String(unixSeconds),
    'x-svc-signature': signatureHeader(body, secrets, unixSeconds),
  };
}
