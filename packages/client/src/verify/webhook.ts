// Offline webhook verification: the signature contract is `X-Svc-Signature: t=<unix>,v1=<hex>[,v1=<hex>]`, each
// v1 = HMAC-SHA256(secret, "<t>.<raw body>"). Web Crypto only, so it runs unchanged in Node 20+ and browsers.
import { webhookEvent, WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE, type WebhookEvent } from '@svc/schemas';
import { SvcConfigurationError, SvcError, type SvcErrorDetails, type SvcFieldError } from '../lib/errors.js';

/** Request headers as Fetch (`Headers`), Node (`IncomingHttpHeaders`) or a plain object give them. */
export type WebhookHeaders = Headers | { readonly [name: string]: string | readonly string[] | undefined | null };

/** The raw request body exactly as received: never a re-serialised parse result. */
export type WebhookBody = string | Uint8Array | ArrayBuffer;

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /** Largest accepted distance, in seconds, between the signed timestamp and `now`, either way. Default 300. */
  toleranceSeconds?: number;
  /** The current time (a `Date` or milliseconds since the epoch); pass the server clock when it is a test clock. */
  now?: Date | number;
}

/** Options of {@link signWebhook}. */
export interface SignWebhookOptions {
  /** Unix seconds to sign; default now. */
  timestamp?: number;
}

/** The headers of a delivery, as {@link signWebhook} makes them. */
export type WebhookSignatureHeaders = {
  'x-svc-event-id': string;
  'x-svc-event-type': string;
  'x-svc-timestamp': string;
  'x-svc-signature': string;
};

/** Base class of the errors {@link verifyWebhook} throws; answer them with a 4xx (or 2xx for an unknown event). */
export abstract class SvcWebhookVerificationError extends SvcError {
  abstract override readonly code:
    | 'ERR_SVC_WEBHOOK_HEADER'
    | 'ERR_SVC_WEBHOOK_SIGNATURE'
    | 'ERR_SVC_WEBHOOK_TIMESTAMP'
    | 'ERR_SVC_WEBHOOK_PAYLOAD'
    | 'ERR_SVC_WEBHOOK_UNKNOWN_EVENT';
}

/**
 * `X-Svc-Signature` or `X-Svc-Timestamp` is missing or malformed. `reason`: `missing_signature`,
 * `malformed_signature`, `malformed_timestamp` or `timestamp_mismatch` (the header and `t=` differ).
 */
export class SvcWebhookHeaderError extends SvcWebhookVerificationError {
  override readonly name = 'SvcWebhookHeaderError';
  readonly code = 'ERR_SVC_WEBHOOK_HEADER';
}

/** No `v1` signature matches any of the given secrets: the body or timestamp was altered, or the secret is wrong. */
export class SvcWebhookSignatureError extends SvcWebhookVerificationError {
  override readonly name = 'SvcWebhookSignatureError';
  readonly code = 'ERR_SVC_WEBHOOK_SIGNATURE';
}

/** The signature is valid but its timestamp is outside the tolerance; `reason` is `stale` or `future`. */
export class SvcWebhookTimestampError extends SvcWebhookVerificationError {
  override readonly name = 'SvcWebhookTimestampError';
  readonly code = 'ERR_SVC_WEBHOOK_TIMESTAMP';
  /** The signed timestamp, unix seconds. */
  readonly timestamp: number;

  constructor(message: string, timestamp: number, details: SvcErrorDetails = {}) {
    super(message, details);
    this.timestamp = timestamp;
  }
}

/**
 * The signed body is not a valid event: `reason` is `not_json`, `invalid` (`errors` names each field) or
 * `header_mismatch` (`X-Svc-Event-ID` or `X-Svc-Event-Type` differ from the body's `id` or `type`).
 */
export class SvcWebhookPayloadError extends SvcWebhookVerificationError {
  override readonly name = 'SvcWebhookPayloadError';
  readonly code = 'ERR_SVC_WEBHOOK_PAYLOAD';
}

/**
 * The delivery is authentic but its type is unknown to this version of `@svc/client` (an endpoint subscribed to
 * `*` receives types added later). Answer 2xx; `event` holds the parsed body.
 */
export class SvcWebhookUnknownEventError extends SvcWebhookVerificationError {
  override readonly name = 'SvcWebhookUnknownEventError';
  readonly code = 'ERR_SVC_WEBHOOK_UNKNOWN_EVENT';
  /** The authentic, parsed body: at least `id` and `type`. */
  readonly event: { id: string; type: string; [field: string]: unknown };

  constructor(message: string, event: { id: string; type: string; [field: string]: unknown }) {
    super(message);
    this.event = event;
  }
}

/** Every error {@link verifyWebhook} throws for a delivery; `switch (err.code)` narrows to the class. */
export type AnyWebhookVerificationError =
  | SvcWebhookHeaderError
  | SvcWebhookSignatureError
  | SvcWebhookTimestampError
  | SvcWebhookPayloadError
  | SvcWebhookUnknownEventError;

/** Whether `value` is a webhook verification error, narrowed so `switch (err.code)` works. */
export function isWebhookVerificationError(value: unknown): value is AnyWebhookVerificationError {
  return value instanceof SvcWebhookVerificationError;
}

const KNOWN_TYPES = new Set<string>([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE]);
const encoder = new TextEncoder();

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).has === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | readonly string[] | undefined | null>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  if (value === null || value === undefined) return undefined;
  return typeof value === 'string' ? value : value.join(', ');
}

function bytesOf(body: WebhookBody): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new SvcConfigurationError('rawBody must be the raw request body: a string, Uint8Array or ArrayBuffer (not a parsed object).');
}

function signedBytes(timestamp: string, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${timestamp}.`);
  const out = new Uint8Array(prefix.length + body.length);
  out.set(prefix, 0);
  out.set(body, prefix.length);
  return out;
}

function secretsOf(secretOrSecrets: string | readonly string[]): string[] {
  const list = (typeof secretOrSecrets === 'string' ? [secretOrSecrets] : [...secretOrSecrets]).filter(
    (s) => typeof s === 'string' && s.length > 0,
  );
  if (!list.length) throw new SvcConfigurationError('verifyWebhook needs at least one non-empty signing secret (whsec_...).');
  return list;
}

function hmacKey(secret: string, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);
}

function fromHex(hex: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return undefined;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i += 1) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function toHex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Parses `t=<unix>,v1=<hex>[,v1=<hex>]`; unknown schemes (a future `v2`) are ignored. */
function parseSignature(value: string): { timestamp: string; signatures: Uint8Array<ArrayBuffer>[] } {
  let timestamp: string | undefined;
  const signatures: Uint8Array<ArrayBuffer>[] = [];
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const val = part.slice(eq + 1).trim();
    if (eq < 1) continue;
    if (key === 't') {
      if (timestamp !== undefined)
        throw new SvcWebhookHeaderError('X-Svc-Signature carries more than one t=.', { reason: 'malformed_signature' });
      timestamp = val;
    } else if (key === 'v1') {
      const bytes = fromHex(val);
      if (bytes) signatures.push(bytes);
    }
  }
  if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp)) {
    throw new SvcWebhookHeaderError('X-Svc-Signature has no valid t=<unix seconds>.', { reason: 'malformed_signature' });
  }
  if (!signatures.length)
    throw new SvcWebhookHeaderError('X-Svc-Signature has no v1=<64 hex digits> signature.', { reason: 'malformed_signature' });
  return { timestamp, signatures };
}

function fieldErrorsOf(issues: readonly { path: PropertyKey[]; code: string; message: string }[]): SvcFieldError[] {
  return issues.map((issue) => ({ path: issue.path.map(String).join('.') || '(body)', code: issue.code, message: issue.message }));
}

/**
 * Verifies a webhook delivery and returns its typed event. It checks, in order: the `X-Svc-Signature` header
 * (and that `X-Svc-Timestamp` equals its `t=`), that at least one `v1` signature matches one of the secrets
 * (HMAC-SHA256 over `"<t>.<raw body>"`, compared in constant time by Web Crypto), that the timestamp is within
 * `toleranceSeconds` of now, then that the body is a valid event whose `id` and `type` match `X-Svc-Event-ID`
 * and `X-Svc-Event-Type`. Pass both secrets during a rotation. Works in Node 20+ and browsers.
 *
 * @throws {AnyWebhookVerificationError} for a delivery that must not be acted on (answer 4xx), or
 *   {@link SvcWebhookUnknownEventError} for an authentic event of a type this version does not know (answer 2xx).
 * @example
 * ```ts
 * const event = await verifyWebhook(rawBody, req.headers, process.env.SVC_WEBHOOK_SECRET!);
 * if (event.type === 'consent.granted') grantAccess(event.data.flow_id, event.data.subject_ref);
 * ```
 */
export async function verifyWebhook(
  rawBody: WebhookBody,
  headers: WebhookHeaders,
  secretOrSecrets: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const secrets = secretsOf(secretOrSecrets);
  const tolerance = options.toleranceSeconds ?? 300;
  if (!Number.isFinite(tolerance) || tolerance < 0) throw new SvcConfigurationError('toleranceSeconds must be a non-negative number.');
  const body = bytesOf(rawBody);

  const signatureHeader = header(headers, 'x-svc-signature');
  if (!signatureHeader) throw new SvcWebhookHeaderError('The X-Svc-Signature header is missing.', { reason: 'missing_signature' });
  const { timestamp, signatures } = parseSignature(signatureHeader);
  const timestampHeader = header(headers, 'x-svc-timestamp');
  if (timestampHeader !== undefined && timestampHeader.trim() !== timestamp) {
    throw new SvcWebhookHeaderError('X-Svc-Timestamp differs from the signed t= in X-Svc-Signature.', { reason: 'timestamp_mismatch' });
  }

  const data = signedBytes(timestamp, body);
  let verified = false;
  for (const secret of secrets) {
    const key = await hmacKey(secret, 'verify');
    for (const signature of signatures) {
      // Web Crypto compares MACs in constant time; looping over every candidate leaks only match or no match.
      if (await crypto.subtle.verify('HMAC', key, signature, data)) verified = true;
    }
    if (verified) break;
  }
  if (!verified) throw new SvcWebhookSignatureError('No X-Svc-Signature v1 signature matches the signing secret(s).');

  const now = Math.floor(
    (options.now === undefined ? Date.now() : typeof options.now === 'number' ? options.now : options.now.getTime()) / 1000,
  );
  const signedAt = Number(timestamp);
  if (signedAt < now - tolerance) {
    throw new SvcWebhookTimestampError(
      `The delivery was signed ${now - signedAt} s ago, more than the ${tolerance} s tolerance.`,
      signedAt,
      { reason: 'stale' },
    );
  }
  if (signedAt > now + tolerance) {
    throw new SvcWebhookTimestampError(
      `The delivery is signed ${signedAt - now} s in the future, more than the ${tolerance} s tolerance.`,
      signedAt,
      { reason: 'future' },
    );
  }

  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch (cause) {
    throw new SvcWebhookPayloadError('The webhook body is not JSON.', { reason: 'not_json', cause });
  }
  const shell = parsed as { id?: unknown; type?: unknown } | null;
  if (typeof shell !== 'object' || shell === null || typeof shell.id !== 'string' || typeof shell.type !== 'string') {
    throw new SvcWebhookPayloadError('The webhook body is not an event: it needs a string id and type.', { reason: 'invalid' });
  }
  const idHeader = header(headers, 'x-svc-event-id');
  const typeHeader = header(headers, 'x-svc-event-type');
  if ((idHeader !== undefined && idHeader !== shell.id) || (typeHeader !== undefined && typeHeader !== shell.type)) {
    throw new SvcWebhookPayloadError('X-Svc-Event-ID or X-Svc-Event-Type differs from the signed body.', { reason: 'header_mismatch' });
  }
  if (!KNOWN_TYPES.has(shell.type)) {
    throw new SvcWebhookUnknownEventError(
      `Event type "${shell.type}" is unknown to this version of @svc/client; answer 2xx.`,
      shell as { id: string; type: string },
    );
  }
  const result = webhookEvent.safeParse(parsed);
  if (!result.success) {
    const errors = fieldErrorsOf(result.error.issues as { path: PropertyKey[]; code: string; message: string }[]);
    throw new SvcWebhookPayloadError(
      `The ${shell.type} event does not match its schema${errors[0] ? `: ${errors[0].path}: ${errors[0].message}` : ''}.`,
      { reason: 'invalid', errors },
    );
  }
  return result.data;
}

/**
 * Signs a body the way the service does and returns the four delivery headers: for testing a receiver without
 * a server. The event id and type are read from the body.
 *
 * @example
 * ```ts
 * const headers = await signWebhook(body, 'whsec_test');
 * await fetch('http://localhost:3000/webhooks', { method: 'POST', headers, body });
 * ```
 */
export async function signWebhook(
  rawBody: WebhookBody,
  secretOrSecrets: string | readonly string[],
  options: SignWebhookOptions = {},
): Promise<WebhookSignatureHeaders> {
  const secrets = secretsOf(secretOrSecrets);
  const body = bytesOf(rawBody);
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const data = signedBytes(timestamp, body);
  const parts = [`t=${timestamp}`];
  for (const secret of secrets) parts.push(`v1=${toHex(await crypto.subtle.sign('HMAC', await hmacKey(secret, 'sign'), data))}`);
  let event: { id?: unknown; type?: unknown } = {};
  try {
    event = JSON.parse(new TextDecoder().decode(body)) as typeof event;
  } catch {
    // A body that is not JSON still gets signed; a receiver test may want exactly that.
  }
  return {
    'x-svc-event-id': typeof event.id === 'string' ? event.id : '',
    'x-svc-event-type': typeof event.type === 'string' ? event.type : '',
    'x-svc-timestamp': timestamp,
    'x-svc-signature': parts.join(','),
  };
}
