// The wire shapes of protocol v2, written once: the types, runtime validation and the published JSON Schemas all
// come from here. Browser-bound, so `zod/mini` only.
import * as z from 'zod/mini';

/** The protocol version every envelope carries in `version`. */
export const PROTOCOL_VERSION = 2;

/** Every message type of protocol v2, in the order of the spec's table. */
export const MESSAGE_TYPES = [
  'svc:ready',
  'svc:state',
  'svc:complete',
  'svc:cancel',
  'svc:error',
  'svc:resize',
  'svc:deadline',
] as const;

/** The two kinds of decision a session can be. */
export const KINDS = ['consent', 'approval'] as const;

// Field schemas come from factories: each field gets its own instance, so each can carry its own description in
// the published JSON Schemas. Regexes carry no flags, because JSON Schema keeps only a pattern's source.
// Every string field that names or carries something must say something.
const text = () => z.string().check(z.minLength(1));
// `iso.datetime()` rejects offsets by default, so only UTC (`...Z`) timestamps pass.
const utcDateTime = () => z.iso.datetime();
const count = () => z.int().check(z.nonnegative());
const kind = () => z.enum(KINDS);

/** Schema of `kind`: `consent` or `approval`. */
export const kindSchema = kind();

/** Schema of `svc:ready` branding: display hints only, each optional; `accent` is a hex colour so it is safe in CSS. */
export const brandingSchema = z.strictObject({
  name: z.optional(text()),
  logo_url: z.optional(z.httpUrl()),
  accent: z.optional(z.string().check(z.regex(/^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/))),
});

/** Schema of the `svc:ready` payload; `deadline_at` is null when the session has no deadline. */
export const readyPayloadSchema = z.strictObject({
  kind: kind(),
  session_token: text(),
  deadline_at: z.nullable(utcDateTime()),
  branding: brandingSchema,
  mode: z.enum(['embed', 'popup', 'redirect']),
  // A BCP 47 language tag such as `en` or `pt-BR`.
  locale: z.string().check(z.regex(/^[a-zA-Z]{2,3}(?:-[a-zA-Z0-9]{1,8})*$/)),
});

const transition = { from: text(), to: text() };

/** Schema of the consent `svc:state` payload: a zero-based `step_index` below `total_steps`. */
export const consentStatePayloadSchema = z
  .strictObject({ ...transition, step_index: count(), total_steps: z.int().check(z.positive()) })
  // JSON Schema cannot compare two fields; the published schema documents it in words.
  .check(
    z.refine((state) => state.step_index < state.total_steps, {
      message: 'step_index must be below total_steps',
      path: ['step_index'],
    }),
  );

/** Schema of the approval `svc:state` payload: `kind_payload` is the approval's own state object. */
export const approvalStatePayloadSchema = z.strictObject({
  ...transition,
  kind_payload: z.record(z.string(), z.unknown()),
});

/** Schema of the `svc:state` payload of either kind. */
export const statePayloadSchema = z.union([consentStatePayloadSchema, approvalStatePayloadSchema]);

const completion = { exchange_token: text(), completed_at: utcDateTime() };

/** Schema of the consent `svc:complete` payload. */
export const consentCompletePayloadSchema = z.strictObject({
  outcome: z.enum(['granted', 'declined']),
  ...completion,
});

/** Schema of the approval `svc:complete` payload. */
export const approvalCompletePayloadSchema = z.strictObject({
  outcome: z.enum(['approved', 'denied', 'countered']),
  ...completion,
});

/** Schema of the `svc:complete` payload of either kind. */
export const completePayloadSchema = z.union([consentCompletePayloadSchema, approvalCompletePayloadSchema]);

/** Schema of the `svc:cancel` payload; `cancelled_by` says whether the host page, the frame or the user cancelled. */
export const cancelPayloadSchema = z.strictObject({
  reason: text(),
  cancelled_by: z.enum(['host', 'frame', 'user']),
});

/** Schema of the `svc:error` payload; `recoverable_via` names the way out, or is null when there is none. */
export const errorPayloadSchema = z.strictObject({
  code: text(),
  message: z.string(),
  fatal: z.boolean(),
  recoverable_via: z.nullable(text()),
});

/** Schema of the `svc:resize` payload: the content height in whole CSS pixels. */
export const resizePayloadSchema = z.strictObject({ height: count() });

/** Schema of the `svc:deadline` payload at T-30 s, T-15 s and T-5 s: seconds are still left. */
export const deadlineWarningPayloadSchema = z.strictObject({
  remaining_seconds: z.int().check(z.positive()),
  level: z.literal('warning'),
  deadline_at: utcDateTime(),
});

/** Schema of the `svc:deadline` payload at T-0: no time is left. */
export const deadlineExpiredPayloadSchema = z.strictObject({
  remaining_seconds: z.literal(0),
  level: z.literal('expired'),
  deadline_at: utcDateTime(),
});

/** Schema of the `svc:deadline` payload: a `warning` has seconds left, `expired` has none. */
export const deadlinePayloadSchema = z.discriminatedUnion('level', [
  deadlineWarningPayloadSchema,
  deadlineExpiredPayloadSchema,
]);

/** The payload schema of each message type, covering both kinds. */
export const payloadSchemas = {
  'svc:ready': readyPayloadSchema,
  'svc:state': statePayloadSchema,
  'svc:complete': completePayloadSchema,
  'svc:cancel': cancelPayloadSchema,
  'svc:error': errorPayloadSchema,
  'svc:resize': resizePayloadSchema,
  'svc:deadline': deadlinePayloadSchema,
} as const;

const envelopeShape = {
  type: z.enum(MESSAGE_TYPES),
  kind: kind(),
  version: z.literal(PROTOCOL_VERSION),
  payload: z.record(z.string(), z.unknown()),
  ts: utcDateTime(),
  message_id: z.uuidv4(),
};

/** Schema of the envelope alone: the six required fields, nothing else, with any object as payload. */
export const envelopeSchema = z.strictObject(envelopeShape);

function variant<T extends (typeof MESSAGE_TYPES)[number], K extends Kind, P extends z.ZodMiniType>(
  type: T,
  kind: K,
  payload: P,
) {
  return z.strictObject({ ...envelopeShape, type: z.literal(type), kind: z.literal(kind), payload });
}

// One union per kind, so a payload that only makes sense for the other kind (a consent `svc:complete` with
// outcome `approved`, a ready payload naming another kind) fails validation instead of reaching a handler.
function messagesOf<K extends Kind, S extends z.ZodMiniType, C extends z.ZodMiniType>(kind: K, state: S, complete: C) {
  return z.discriminatedUnion('type', [
    variant('svc:ready', kind, z.extend(readyPayloadSchema, { kind: z.literal(kind) })),
    variant('svc:state', kind, state),
    variant('svc:complete', kind, complete),
    variant('svc:cancel', kind, cancelPayloadSchema),
    variant('svc:error', kind, errorPayloadSchema),
    variant('svc:resize', kind, resizePayloadSchema),
    variant('svc:deadline', kind, deadlinePayloadSchema),
  ]);
}

/** Schema of a whole message: envelope and payload, with the payload matching both `type` and `kind`. */
export const messageSchema = z.discriminatedUnion('kind', [
  messagesOf('consent', consentStatePayloadSchema, consentCompletePayloadSchema),
  messagesOf('approval', approvalStatePayloadSchema, approvalCompletePayloadSchema),
]);

/** A decision kind: `consent` or `approval`. */
export type Kind = z.infer<typeof kindSchema>;
/** A message type such as `svc:ready`. */
export type MessageType = (typeof MESSAGE_TYPES)[number];
/** Any valid protocol v2 message, discriminated by `kind` and `type`. */
export type SvcMessage = z.infer<typeof messageSchema>;
/** An envelope whose payload has not been checked against its type. */
export type Envelope = z.infer<typeof envelopeSchema>;
/** The message of type `T` (and kind `K`). */
export type MessageOf<T extends MessageType = MessageType, K extends Kind = Kind> = Extract<SvcMessage, { type: T; kind: K }>;
/** The payload of message type `T` (and kind `K`). */
export type PayloadOf<T extends MessageType, K extends Kind = Kind> = MessageOf<T, K>['payload'];

/** The `svc:ready` payload. */
export type ReadyPayload = PayloadOf<'svc:ready'>;
/** The `svc:ready` branding hints. */
export type Branding = z.infer<typeof brandingSchema>;
/** The `svc:state` payload. */
export type StatePayload = PayloadOf<'svc:state'>;
/** The `svc:complete` payload. */
export type CompletePayload = PayloadOf<'svc:complete'>;
/** The `svc:cancel` payload. */
export type CancelPayload = PayloadOf<'svc:cancel'>;
/** The `svc:error` payload. */
export type ErrorPayload = PayloadOf<'svc:error'>;
/** The `svc:resize` payload. */
export type ResizePayload = PayloadOf<'svc:resize'>;
/** The `svc:deadline` payload. */
export type DeadlinePayload = PayloadOf<'svc:deadline'>;
