// The wire shapes of protocol v2, written once: the types, runtime validation and the published JSON Schemas all
// come from here. Browser-bound, so `zod/mini` only.
//
// Every zod schema kind used here ships its implementation to every page that embeds a decision, so each rule is
// stated with zod's own kind for it and the list stays short (index.test.ts holds it; the README has the figures):
// - `z.strictObject`, `z.string`, `z.optional` and `z.nullable` for the shapes, `null` when a field has no value;
// - `z.literal` for the finite value sets (enums, `true|false`): one kind instead of enum and boolean;
// - `z.regex` checks for the string rules, with zod's own date-time and UUID v4 patterns (pinned to zod by a test)
//   instead of `z.iso.datetime()` and `z.uuidv4()`, which would add two more kinds for the same patterns;
// - `z.httpUrl()` for the logo URL, which a pattern cannot state (zod parses it with the platform's URL parser);
// - `z.int()` with `z.nonnegative()` or `z.positive()` for the counts, and `z.record(z.string(), z.unknown())` for
//   the fields that take any object;
// - `z.refine` for the rules between fields: `step_index` below `total_steps`, and the deadline payload as one object
//   whose `level` goes with its `remaining_seconds` (the JSON Schema states its two variants, see json-schemas.ts);
// - `z.union` only for the exported any-kind schemas: a whole message is one strict object per kind and type,
//   looked up by `kind` and `type`, so the host path never touches a union.
// Factories are `@__NO_SIDE_EFFECTS__` and chained constructions `@__PURE__`, so a bundle that only needs some
// schemas (the deadline clock's date-time, say) drops the rest: a method call like `.check()` is otherwise kept.
import * as z from 'zod/mini';

/** The protocol version every envelope carries in `version`. */
export const PROTOCOL_VERSION = 2;

/** Every message type of protocol v2, in the order of the spec's table. */
export const MESSAGE_TYPES = ['svc:ready', 'svc:state', 'svc:complete', 'svc:cancel', 'svc:error', 'svc:resize', 'svc:deadline'] as const;

/**
 * The kinds of decision a session can be: `signature_request` (a signing session; the server infers it from the
 * session token) came after the first two, additively, so the protocol stays version 2.
 */
export const KINDS = ['consent', 'approval', 'signature_request'] as const;

// Field schemas come from factories: each field gets its own instance, so each can carry its own description in
// the published JSON Schemas. Regexes carry no flags, because JSON Schema keeps only a pattern's source.
// Every string field that names or carries something must say something. "Has a first character" is `minLength(1)`
// stated as a regex check (any UTF-16 unit, so exactly the non-empty strings); the JSON Schemas say `minLength: 1`.
export const NON_EMPTY = /^[\s\S]/;
const matching = /* @__NO_SIDE_EFFECTS__ */ (pattern: RegExp) => z.string().check(z.regex(pattern));
const text = /* @__NO_SIDE_EFFECTS__ */ () => matching(NON_EMPTY);
// zod's own patterns behind `z.iso.datetime()` (no offset, so UTC `...Z` only, seconds required, any fraction, real
// calendar dates) and `z.uuidv4()`, as plain regex checks: the same rules without zod's date-time and UUID kinds in
// the bundle. schemas.test.ts fails if zod's patterns ever differ from these; the JSON Schemas keep their `format`.
export const UTC_DATE_TIME =
  /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z))$/;
export const UUID_V4 = /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12})$/;
const utcDateTime = /* @__NO_SIDE_EFFECTS__ */ () => matching(UTC_DATE_TIME);
const count = /* @__NO_SIDE_EFFECTS__ */ () => z.int().check(z.nonnegative());
const positive = /* @__NO_SIDE_EFFECTS__ */ () => z.int().check(z.positive());
const kind = /* @__NO_SIDE_EFFECTS__ */ () => z.literal(KINDS);
const record = /* @__NO_SIDE_EFFECTS__ */ () => z.record(z.string(), z.unknown());

/** Schema of an ISO 8601 UTC date-time such as `2030-01-01T00:00:00Z`, for the deadline clock's option. */
export const utcDateTimeSchema = utcDateTime();

/** Schema of `kind`: `consent`, `approval` or `signature_request`. */
export const kindSchema = kind();

/** Schema of `svc:ready` branding: display hints only, each optional; `accent` is a hex colour so it is safe in CSS. */
export const brandingSchema = /* @__PURE__ */ z.strictObject({
  name: z.optional(text()),
  logo_url: z.optional(z.httpUrl()),
  accent: z.optional(matching(/^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/)),
});

// The ready fields other than `kind`, shared by the any-kind schema and each kind's message variant.
const readyFields = {
  session_token: text(),
  deadline_at: z.nullable(utcDateTime()),
  branding: brandingSchema,
  mode: z.literal(['embed', 'popup', 'redirect']),
  // A BCP 47 language tag such as `en` or `pt-BR`.
  locale: matching(/^[a-zA-Z]{2,3}(?:-[a-zA-Z0-9]{1,8})*$/),
};

/** Schema of the `svc:ready` payload; `deadline_at` is null when the session has no deadline. */
export const readyPayloadSchema = z.strictObject({ kind: kind(), ...readyFields });

const transition = { from: text(), to: text() };

/** Schema of the consent `svc:state` payload: a zero-based `step_index` below `total_steps`. */
export const consentStatePayloadSchema = /* @__PURE__ */ z
  .strictObject({ ...transition, step_index: count(), total_steps: positive() })
  // JSON Schema cannot compare two fields; the published schema documents it in words.
  .check(
    z.refine((state) => state.step_index < state.total_steps, {
      message: 'step_index must be below total_steps',
      path: ['step_index'],
    }),
  );

/**
 * Schema of the approval and signature request `svc:state` payload: `kind_payload` is the approval's or the signing
 * session's own state object. The two kinds share the one schema.
 */
export const approvalStatePayloadSchema = z.strictObject({
  ...transition,
  kind_payload: record(),
});

/** Schema of the `svc:state` payload of any kind. */
export const statePayloadSchema = z.union([consentStatePayloadSchema, approvalStatePayloadSchema]);

const completion = { exchange_token: text(), completed_at: utcDateTime() };

/** Schema of the consent `svc:complete` payload. */
export const consentCompletePayloadSchema = z.strictObject({
  outcome: z.literal(['granted', 'declined']),
  ...completion,
});

/** Schema of the approval `svc:complete` payload. */
export const approvalCompletePayloadSchema = z.strictObject({
  outcome: z.literal(['approved', 'denied', 'countered']),
  ...completion,
});

/**
 * Schema of the signature request `svc:complete` payload. An expiry is no outcome here: the frame reports it with
 * `svc:deadline` at T-0 (or `svc:state` to `expired`, `svc:error` `decision_expired`), as for the other kinds.
 */
export const signatureCompletePayloadSchema = z.strictObject({
  outcome: z.literal(['signed', 'declined', 'countered']),
  ...completion,
});

/** Schema of the `svc:complete` payload of any kind. */
export const completePayloadSchema = z.union([consentCompletePayloadSchema, approvalCompletePayloadSchema, signatureCompletePayloadSchema]);

/** Schema of the `svc:cancel` payload; `cancelled_by` says whether the host page, the frame or the user cancelled. */
export const cancelPayloadSchema = z.strictObject({
  reason: text(),
  cancelled_by: z.literal(['host', 'frame', 'user']),
});

/** Schema of the `svc:error` payload; `recoverable_via` names the way out, or is null when there is none. */
export const errorPayloadSchema = z.strictObject({
  code: text(),
  message: z.string(),
  // `z.boolean()` exactly, as a literal: the JSON Schema says `"type": "boolean"`.
  fatal: z.literal([true, false]),
  recoverable_via: z.nullable(text()),
});

/** Schema of the `svc:resize` payload: the content height in whole CSS pixels. */
export const resizePayloadSchema = z.strictObject({ height: count() });

/** The `svc:deadline` payload at T-30 s, T-15 s and T-5 s: seconds are still left. */
type DeadlineWarning = { remaining_seconds: number; level: 'warning'; deadline_at: string };
/** The `svc:deadline` payload at T-0: no time is left. */
type DeadlineExpired = { remaining_seconds: 0; level: 'expired'; deadline_at: string };

/**
 * Schema of the `svc:deadline` payload: a `warning` has seconds left, `expired` has none. One object with a refine
 * rather than a union of the two, which would ship zod's union to every page; the published JSON Schema states it
 * as a `oneOf` of the two (json-schemas.ts), and a test holds the two statements to the same verdicts.
 */
export const deadlinePayloadSchema = /* @__PURE__ */ z
  .strictObject({ remaining_seconds: count(), level: z.literal(['warning', 'expired']), deadline_at: utcDateTime() })
  .check(
    z.refine((deadline) => (deadline.level === 'expired') === (deadline.remaining_seconds === 0), {
      message: 'remaining_seconds must be 0 when expired and above 0 for a warning',
      path: ['remaining_seconds'],
    }),
  ) as z.ZodMiniType<DeadlineWarning | DeadlineExpired, DeadlineWarning | DeadlineExpired>;

/** The payload schema of each message type, covering every kind. */
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
  type: z.literal(MESSAGE_TYPES),
  kind: kind(),
  version: z.literal(PROTOCOL_VERSION),
  payload: record(),
  ts: utcDateTime(),
  message_id: matching(UUID_V4),
};

/** Schema of the envelope alone: the six required fields, nothing else, with any object as payload. */
export const envelopeSchema = z.strictObject(envelopeShape);

/* @__NO_SIDE_EFFECTS__ */
function variant<T extends MessageType, K extends Kind, P extends z.ZodMiniType>(type: T, kind: K, payload: P) {
  return z.strictObject({ ...envelopeShape, type: z.literal(type), kind: z.literal(kind), payload });
}

// One variant per type and kind, so a payload that only makes sense for the other kind (a consent `svc:complete`
// with outcome `approved`, a ready payload naming another kind) fails validation instead of reaching a handler.
/* @__NO_SIDE_EFFECTS__ */
function variantsOf<K extends Kind, S extends z.ZodMiniType, C extends z.ZodMiniType>(kind: K, state: S, complete: C) {
  // The payload schema of each type, in the order of MESSAGE_TYPES.
  const payloads = [
    z.strictObject({ kind: z.literal(kind), ...readyFields }),
    state,
    complete,
    cancelPayloadSchema,
    errorPayloadSchema,
    resizePayloadSchema,
    deadlinePayloadSchema,
  ] as const;
  // Built from the list rather than spelled out per type, which would ship each type's name twice more per kind.
  return Object.fromEntries(MESSAGE_TYPES.map((type, i) => [type, variant(type, kind, payloads[i]!)])) as Variants<K, typeof payloads>;
}

/** The variants of kind `K` by type, given the payload schemas `P` in the order of `MESSAGE_TYPES`. */
type Variants<K extends Kind, P extends readonly z.ZodMiniType[]> = {
  [I in keyof typeof MESSAGE_TYPES & `${number}` as (typeof MESSAGE_TYPES)[I]]: ReturnType<
    typeof variant<(typeof MESSAGE_TYPES)[I], K, I extends keyof P ? P[I] & z.ZodMiniType : never>
  >;
};

/**
 * The schema of each whole message by kind and type: what `parseMessage` looks up after reading `kind` and
 * `type`, instead of trying every variant. Internal; `messageSchema` is the same variants as one union.
 */
export const messageVariants = {
  consent: variantsOf('consent', consentStatePayloadSchema, consentCompletePayloadSchema),
  approval: variantsOf('approval', approvalStatePayloadSchema, approvalCompletePayloadSchema),
  signature_request: variantsOf('signature_request', approvalStatePayloadSchema, signatureCompletePayloadSchema),
};

type VariantOf<K extends Kind> = (typeof messageVariants)[K][MessageType];
const unionOf = /* @__NO_SIDE_EFFECTS__ */ <K extends Kind>(kind: K): z.ZodMiniUnion<VariantOf<K>[]> =>
  z.union(Object.values(messageVariants[kind]) as VariantOf<K>[]);

/** Schema of a whole message: envelope and payload, with the payload matching both `type` and `kind`. */
export const messageSchema = z.union([unionOf('consent'), unionOf('approval'), unionOf('signature_request')]);

/** A decision kind: `consent`, `approval` or `signature_request`. */
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
