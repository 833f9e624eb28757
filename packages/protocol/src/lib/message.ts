import { ProtocolError, ProtocolErrorCode } from './errors.js';
import {
  type Kind,
  type MessageOf,
  type MessageType,
  type PayloadOf,
  type SvcMessage,
  KINDS,
  MESSAGE_TYPES,
  PROTOCOL_VERSION,
  envelopeSchema,
  messageVariants,
} from './schemas.js';

type Result = { success: true; data: SvcMessage } | { success: false; error: { issues: readonly Issue[] } };
type Issue = { path: readonly PropertyKey[]; message: string };

/**
 * Validates `data` as a whole message with the one variant its `kind` and `type` name, so a message is checked
 * once rather than against every variant in turn. Throws what reading `data` throws.
 */
function safeParse(data: unknown): Result {
  const { kind, type } = (data ?? {}) as { kind?: unknown; type?: unknown };
  // `includes` first, so `kind` or `type` can only index the table with its own keys (never `__proto__`).
  if (KINDS.includes(kind as Kind) && MESSAGE_TYPES.includes(type as MessageType)) {
    // The variant checks `kind` and `type` again, so a getter answering differently on this read fails it.
    return messageVariants[kind as Kind][type as MessageType].safeParse(data) as Result;
  }
  // Not a kind or type of the protocol: the envelope schema names the field. Should it pass after all (a getter
  // answering differently on the second read), the variant it names decides, so nothing unchecked gets through.
  const envelope = envelopeSchema.safeParse(data);
  return envelope.success ? (messageVariants[envelope.data.kind][envelope.data.type].safeParse(data) as Result) : envelope;
}

/**
 * The verdict on untrusted data: the validated message, or the first rule it broke. A rule is a string and a message
 * an object, so `typeof` tells them apart without a wrapper object (which every page's bundle would pay for).
 */
export type Inspection = SvcMessage | 'version' | 'type' | 'schema';

/**
 * Validates untrusted data as a protocol v2 message without ever throwing, naming the first rule it breaks.
 * The message returned is zod's fresh copy, so a getter or proxy in `data` cannot change it after the check.
 */
export function inspectMessage(data: unknown): Inspection {
  try {
    if (typeof data !== 'object' || data === null) return 'schema';
    const { version, type } = data as { version?: unknown; type?: unknown };
    if (version !== PROTOCOL_VERSION) return 'version';
    if (typeof type !== 'string' || !type.startsWith('svc:')) return 'type';
    const result = safeParse(data);
    return result.success ? result.data : 'schema';
  } catch {
    // Throwing getters, revoked proxies and the like: whatever it is, it is not a message.
    return 'schema';
  }
}

/**
 * Returns `data` as a validated message (a fresh copy), or throws a `ProtocolError` with code `invalid_message`.
 *
 * @example
 * ```ts
 * const message = parseMessage(JSON.parse(text));
 * if (message.type === 'svc:complete') console.log(message.payload.outcome);
 * ```
 */
export function parseMessage(data: unknown): SvcMessage {
  let result: Result;
  try {
    result = safeParse(data);
  } catch (cause) {
    throw new ProtocolError(ProtocolErrorCode.InvalidMessage, 'Not a protocol v2 message: reading it threw', { cause });
  }
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'message';
    throw new ProtocolError(ProtocolErrorCode.InvalidMessage, `Not a protocol v2 message: ${where}: ${issue?.message}`, {
      cause: result.error,
    });
  }
  return result.data;
}

/** Tells whether `data` is a valid protocol v2 message, envelope, payload and kind alike. */
export function isSvcMessage(data: unknown): data is SvcMessage {
  return typeof inspectMessage(data) === 'object';
}

/**
 * Builds a valid message of `type` and `kind` with a fresh UUID v4 `message_id` and the current UTC time as `ts`;
 * throws a `ProtocolError` with code `invalid_message` when the payload does not fit.
 *
 * @example
 * ```ts
 * const message = createMessage('svc:resize', 'consent', { height: 480 });
 * ```
 */
export function createMessage<T extends MessageType, K extends Kind>(type: T, kind: K, payload: PayloadOf<T, K>): MessageOf<T, K> {
  // Validated here too, so plain JavaScript callers get the error at the sender, not a silent drop at the receiver.
  const message = parseMessage({
    type,
    kind,
    version: PROTOCOL_VERSION,
    payload,
    ts: new Date().toISOString(),
    message_id: uuidv4(),
  });
  return message as MessageOf<T, K>;
}

/** A random UUID v4; `crypto.randomUUID` exists only in secure contexts, so plain-http host pages build one. */
export function uuidv4(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(31));
  let i = 0;
  // Each 0 of the template becomes a random hex digit and the 8 one of 8 to b (the variant bits); the 4 stays.
  return '00000000-0000-4000-8000-000000000000'.replace(/[08]/g, (digit) =>
    (digit === '8' ? 8 | (bytes[i++]! & 3) : bytes[i++]! & 15).toString(16),
  );
}
