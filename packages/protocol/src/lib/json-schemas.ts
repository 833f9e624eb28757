// Node-side only (scripts and tests): it pulls in zod's JSON Schema generator, which the browser bundle must not carry.
import * as z from 'zod/mini';
import {
  MESSAGE_TYPES,
  NON_EMPTY,
  UTC_DATE_TIME,
  UUID_V4,
  approvalCompletePayloadSchema,
  approvalStatePayloadSchema,
  brandingSchema,
  cancelPayloadSchema,
  consentCompletePayloadSchema,
  consentStatePayloadSchema,
  deadlinePayloadSchema,
  envelopeSchema,
  errorPayloadSchema,
  messageSchema,
  payloadSchemas,
  readyPayloadSchema,
  resizePayloadSchema,
  signatureCompletePayloadSchema,
} from './schemas.js';

/** Where the message schemas are published; each document's `$id` is this plus its file name. */
export const MESSAGE_SCHEMAS_BASE_URL = 'https://svc.example/schemas/messages/';

/** JSON Schema documents keyed by file name, such as `ready.json`. */
export type JsonSchemaDocuments = Record<string, Record<string, unknown>>;

// Field descriptions live here rather than in `.meta()` on the schemas, so the browser bundle does not carry them.
const fields = z.registry<{ description: string; pattern?: string }>();
const describe = (descriptions: [z.core.$ZodType, string][]) => {
  for (const [schema, description] of descriptions) fields.add(schema, { description });
};

/**
 * The `svc:deadline` payload as the published documents state it, a `oneOf` of a warning and an expiry. The browser
 * schema is one object with a refine (schemas.ts), which JSON Schema cannot state; json-schemas.test.ts holds the
 * two statements to the same verdicts.
 */
export const deadlineWarningPayloadSchema = z.strictObject({
  remaining_seconds: z.int().check(z.positive()),
  level: z.literal('warning'),
  deadline_at: z.string().check(z.regex(UTC_DATE_TIME)),
});
export const deadlineExpiredPayloadSchema = z.strictObject({
  remaining_seconds: z.literal(0),
  level: z.literal('expired'),
  deadline_at: z.string().check(z.regex(UTC_DATE_TIME)),
});
export const deadlineVariantsSchema = z.union([deadlineWarningPayloadSchema, deadlineExpiredPayloadSchema]);
const deadlineWarning = deadlineWarningPayloadSchema.shape;
const deadlineExpired = deadlineExpiredPayloadSchema.shape;
describe([
  [envelopeSchema.shape.type, 'The message type; the payload schema of the same name applies.'],
  [envelopeSchema.shape.kind, 'The kind of decision the session is.'],
  [envelopeSchema.shape.version, 'The protocol version, always 2.'],
  [envelopeSchema.shape.payload, 'The payload of the message type.'],
  [envelopeSchema.shape.ts, 'When the message was emitted, ISO 8601 in UTC.'],
  [envelopeSchema.shape.message_id, 'A UUID v4, unique per emission; receivers deliver each at most once.'],
  [readyPayloadSchema.shape.kind, 'The kind of decision; equals the envelope kind.'],
  [readyPayloadSchema.shape.session_token, 'The decision session the frame shows.'],
  [readyPayloadSchema.shape.deadline_at, 'When the session expires, ISO 8601 in UTC, or null without a deadline.'],
  [readyPayloadSchema.shape.branding, 'Display hints of the organisation.'],
  [brandingSchema.shape.name, 'The organisation name to show.'],
  [brandingSchema.shape.accent, 'The accent colour as a CSS hex colour.'],
  [readyPayloadSchema.shape.mode, 'How the decision page is shown.'],
  [readyPayloadSchema.shape.locale, 'The BCP 47 language tag of the page.'],
  [consentStatePayloadSchema, 'The state of a consent session.'],
  [approvalStatePayloadSchema, 'The state of an approval or signing session.'],
  [consentCompletePayloadSchema, 'The completion of a consent session.'],
  [approvalCompletePayloadSchema, 'The completion of an approval session.'],
  [signatureCompletePayloadSchema, 'The completion of a signing session.'],
  [deadlineWarningPayloadSchema, 'A warning before the deadline.'],
  [deadlineExpiredPayloadSchema, 'The deadline has passed.'],
  [consentStatePayloadSchema.shape.from, 'The state left.'],
  [consentStatePayloadSchema.shape.to, 'The state entered.'],
  [consentStatePayloadSchema.shape.step_index, 'Zero-based index of the current step; below total_steps.'],
  [consentStatePayloadSchema.shape.total_steps, 'Number of steps of the consent flow.'],
  [approvalStatePayloadSchema.shape.kind_payload, 'State specific to the approval or the signature request.'],
  [consentCompletePayloadSchema.shape.outcome, 'The consent outcome.'],
  [approvalCompletePayloadSchema.shape.outcome, 'The approval outcome.'],
  [signatureCompletePayloadSchema.shape.outcome, 'The signing outcome.'],
  [consentCompletePayloadSchema.shape.exchange_token, 'One-time token the host server exchanges for the result.'],
  [consentCompletePayloadSchema.shape.completed_at, 'When the user finished, ISO 8601 in UTC.'],
  [
    cancelPayloadSchema.shape.reason,
    'Why the decision was cancelled: user_cancelled when the person chose "Decide later", or the reason the host gave.',
  ],
  [cancelPayloadSchema.shape.cancelled_by, 'Who cancelled: the host page, the frame, or the user (the person, in the frame).'],
  [
    errorPayloadSchema.shape.code,
    'A stable error code: decision_not_found, origin_not_allowed, decision_expired or decision_completed (fatal), network_error, or the code of a refusal of the service.',
  ],
  [errorPayloadSchema.shape.message, 'A human-readable description.'],
  [errorPayloadSchema.shape.fatal, 'Whether the session cannot continue.'],
  [
    errorPayloadSchema.shape.recoverable_via,
    'What the host can do: new_decision (create a new decision), retry (the step may succeed again), or null when nothing on the host side helps.',
  ],
  [resizePayloadSchema.shape.height, 'The content height in CSS pixels.'],
  [deadlineWarning.remaining_seconds, 'Whole seconds left until the deadline.'],
  [deadlineExpired.remaining_seconds, 'No time left.'],
  [deadlineWarning.level, 'The deadline is near (T-30 s, T-15 s, T-5 s).'],
  [deadlineExpired.level, 'The deadline has passed (T-0).'],
  [deadlineWarning.deadline_at, 'The deadline, ISO 8601 in UTC.'],
  [deadlineExpired.deadline_at, 'The deadline, ISO 8601 in UTC.'],
]);

// JSON Schema's `uri` format allows any scheme; the pattern says which ones `z.httpUrl()` takes.
fields.add(brandingSchema.shape.logo_url, {
  description: 'An http(s) URL of the organisation logo.',
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
});

const payloadDescriptions: Record<(typeof MESSAGE_TYPES)[number], string> = {
  'svc:ready': 'Frame to host when the frame has loaded.',
  'svc:state':
    'Frame to host on a state transition: step_index and total_steps for consent, kind_payload for approval and signature_request.',
  'svc:complete':
    'Frame to host when the user finished: outcome granted|declined (consent), approved|denied|countered (approval) or signed|declined|countered (signature_request).',
  'svc:cancel':
    'Either direction, when a decision ends unanswered: the person leaves it (cancelled_by user) or the host cancels (cancelled_by host). Declining is an answer, svc:complete.',
  'svc:error':
    'Frame to host on an error; a fatal one when the decision cannot go on (unknown, expired or already completed, at load or when the deadline passes).',
  'svc:resize': 'Frame to host when the content height changes.',
  'svc:deadline': 'Frame to host at T-30 s, T-15 s and T-5 s (warning) and T-0 (expired).',
};

// The browser-bound schemas state some rules with the schema kinds the bundle carries anyway (see schemas.ts); the
// documents state the same rules in JSON Schema's own words: `minLength: 1` for the non-empty pattern, the `format`
// beside zod's date-time and UUID v4 patterns, a plain `boolean` type for the literal that spells it, the deadline
// payload as its two variants, and `oneOf` for the unions whose branches exclude each other.
const exclusive = new Set<z.core.$ZodType>([deadlineVariantsSchema, messageSchema, ...messageSchema.def.options]);
const formats = new Map([
  [UTC_DATE_TIME.source, 'date-time'],
  [UUID_V4.source, 'uuid'],
]);
const options: Parameters<typeof z.toJSONSchema>[1] = { target: 'draft-2020-12', metadata: fields, override: restate };
function restate({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: z.core.JSONSchema.BaseSchema }) {
  const { pattern, anyOf } = jsonSchema;
  const { def } = zodSchema._zod;
  const values = def.type === 'literal' ? (zodSchema as z.core.$ZodLiteral)._zod.def.values : [];
  if (zodSchema === deadlinePayloadSchema) {
    // Replaced whole: every key of the one-object statement goes, the two variants come in.
    for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
    const { $schema: _, ...variants } = z.toJSONSchema(deadlineVariantsSchema, options);
    Object.assign(jsonSchema, variants);
  } else if (pattern === NON_EMPTY.source) {
    delete jsonSchema.pattern;
    jsonSchema.minLength = 1;
  } else if (pattern !== undefined && formats.has(pattern)) {
    // In the order zod writes its string formats: type, format, pattern.
    delete jsonSchema.pattern;
    Object.assign(jsonSchema, { format: formats.get(pattern), pattern });
  } else if (values.length === 2 && values.includes(true) && values.includes(false)) {
    delete jsonSchema.const;
    delete jsonSchema.enum;
  } else if (anyOf && exclusive.has(zodSchema)) {
    delete jsonSchema.anyOf;
    jsonSchema.oneOf = anyOf;
  } else {
    return;
  }
  // The description came from the registry before this ran; it goes last, where zod puts it.
  const { description } = jsonSchema;
  if (description === undefined) return;
  delete jsonSchema.description;
  jsonSchema.description = description;
}

function document(file: string, title: string, description: string, schema: z.core.$ZodType) {
  const { $schema, ...body } = z.toJSONSchema(schema, options);
  return { $schema, $id: MESSAGE_SCHEMAS_BASE_URL + file, title, description, ...body };
}

/**
 * Generates the JSON Schema (Draft 2020-12) documents of protocol v2 from its zod schemas: `envelope.json`, one
 * payload document per message type (`ready.json` ...) and `message.json`, the whole message with each payload
 * tied to its type and kind.
 */
export function messageJsonSchemas(): JsonSchemaDocuments {
  const documents: JsonSchemaDocuments = {
    'envelope.json': document(
      'envelope.json',
      'svc browser message envelope (protocol v2)',
      'The six required fields of every message; the payload is checked by the schema of its type.',
      envelopeSchema,
    ),
  };
  for (const type of MESSAGE_TYPES) {
    const file = `${type.slice('svc:'.length)}.json`;
    documents[file] = document(file, `${type} payload`, payloadDescriptions[type], payloadSchemas[type]);
  }
  documents['message.json'] = document(
    'message.json',
    'svc browser message (protocol v2)',
    'A whole message: the envelope with the payload of its type, consistent with its kind.',
    messageSchema,
  );
  return documents;
}
