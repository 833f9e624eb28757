import { z } from 'zod/mini';
import { dateTime, listOf } from './common.js';

/**
 * Field types of a Typeform form definition. Only `yes_no` and `legal` (a boolean) and the choice fields
 * (`multiple_choice`, `dropdown`, `picture_choice`, with the choice that means yes) can carry a decision.
 */
export const formFieldType = z.enum([
  'yes_no',
  'legal',
  'multiple_choice',
  'dropdown',
  'picture_choice',
  'email',
  'short_text',
  'long_text',
  'number',
  'rating',
  'opinion_scale',
  'nps',
  'ranking',
  'matrix',
  'date',
  'phone_number',
  'website',
  'file_upload',
  'payment',
  'contact_info',
  'address',
  'statement',
  'calendly',
]);
export type FormFieldType = z.infer<typeof formFieldType>;

/** Field types whose answer is a boolean. */
export const BOOLEAN_FIELD_TYPES: readonly FormFieldType[] = ['yes_no', 'legal'];
/** Field types whose answer is a choice (or, with multiple selection, choices). */
export const CHOICE_FIELD_TYPES: readonly FormFieldType[] = ['multiple_choice', 'dropdown', 'picture_choice'];

const fieldId = z.string().check(z.minLength(1), z.maxLength(100), z.regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'));
const label = z.string().check(z.minLength(1), z.maxLength(1000));

/** One choice of a choice field, as the form definition lists it. */
export const formFieldChoice = z.strictObject({
  id: z.optional(fieldId),
  ref: z.optional(fieldId),
  label,
});
export type FormFieldChoice = z.infer<typeof formFieldChoice>;

/** One field of the form, as the platform's form definition declares it (`id`, `ref`, `type`, `required`, choices). */
export const formField = z.strictObject({
  id: fieldId,
  ref: z.optional(fieldId),
  type: formFieldType,
  title: z.optional(label),
  /** The form requires an answer to submit. A consent purpose bound to a required field is refused. */
  required: z._default(z.boolean(), false),
  choices: z.optional(z.array(formFieldChoice).check(z.maxLength(100))),
  allow_multiple_selection: z.optional(z.boolean()),
});
export type FormField = z.infer<typeof formField>;
export type FormFieldInput = z.input<typeof formField>;

/** Where a subject value comes from: a form field (id or ref) or a hidden field of the form's URL. */
export const subjectBinding = z
  .strictObject({
    field: z.optional(fieldId),
    hidden: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  })
  .check(z.refine((b) => (b.field === undefined) !== (b.hidden === undefined), 'name exactly one of field or hidden'));
export type SubjectBinding = z.infer<typeof subjectBinding>;

/** A purpose bound to the field that carries its decision; a choice field names the choice that means yes. */
export const purposeBinding = z.strictObject({
  /** The field's id or ref. */
  field: fieldId,
  /** A choice field's choice (its label, ref or id) that means yes; every other answer is a decline. */
  yes_choice: z.optional(label),
});
export type PurposeBinding = z.infer<typeof purposeBinding>;

const purposeKey = z.string().check(z.minLength(1), z.maxLength(64));

/**
 * `POST /api/v1/applications/{id}/form_connections`: a Typeform-compatible form bound to a flow. `fields` is the
 * form definition; `subject` and `purposes` map its fields to the person's email (and external id) and to purpose
 * keys. A mapping that breaks Errors rule 4 is refused with 422 naming the purpose.
 */
export const createFormConnectionRequest = z.strictObject({
  form_connection: z.strictObject({
    name: z.string().check(z.minLength(1), z.maxLength(100)),
    flow_id: z.string().check(z.minLength(1), z.maxLength(100)),
    platform: z._default(z.enum(['typeform']), 'typeform'),
    /** The platform's form id; when set, submissions of other forms are refused. */
    form_id: z.optional(fieldId),
    fields: z.array(formField).check(z.minLength(1), z.maxLength(200)),
    subject: z.strictObject({ email: subjectBinding, external_id: z.optional(subjectBinding) }),
    purposes: z
      .record(purposeKey, purposeBinding)
      .check(z.refine((map) => Object.keys(map).length <= 50, 'purposes may name at most 50 purposes')),
  }),
});
export type CreateFormConnectionRequest = z.input<typeof createFormConnectionRequest>;

/** A form connection as the API returns it; `secret` only on create and on rotation. */
export const formConnection = z.object({
  id: z.string(),
  application_id: z.string(),
  flow_id: z.string(),
  platform: z.enum(['typeform']),
  name: z.string(),
  form_id: z.nullable(z.string()),
  fields: z.array(formField),
  subject: z.object({ email: subjectBinding, external_id: z.optional(subjectBinding) }),
  purposes: z.record(z.string(), purposeBinding),
  /** Where the platform posts submissions: `{base_url}/hooks/forms/{id}`. */
  webhook_url: z.string(),
  /** The signing secret (`Typeform-Signature: sha256=<base64 HMAC-SHA256 of the raw body>`); shown once. */
  secret: z.optional(z.string()),
  secret_rotated_at: z.nullable(dateTime()),
  /** Until when the secret before the last rotation is still honoured (one day after the rotation). */
  previous_secret_expires_at: z.nullable(dateTime()),
  last_submission_at: z.nullable(dateTime()),
  created_at: dateTime(),
  updated_at: dateTime(),
});
export type FormConnection = z.infer<typeof formConnection>;

/** `{form_connection}` envelope. */
export const formConnectionEnvelope = z.object({ form_connection: formConnection });
/** `{form_connections: [...], next_cursor}`. */
export const formConnectionList = listOf('form_connections', formConnection);

const text = z.string().check(z.maxLength(100_000));

/** One answer of a Typeform `form_response` (the fields the service reads; others are allowed and ignored). */
export const typeformAnswer = z.looseObject({
  field: z.looseObject({ id: fieldId, type: z.string().check(z.maxLength(100)), ref: z.optional(fieldId) }),
  type: z.string().check(z.maxLength(100)),
  boolean: z.optional(z.boolean()),
  choice: z.optional(
    z.looseObject({
      id: z.optional(z.string()),
      ref: z.optional(z.string()),
      label: z.optional(z.string()),
      other: z.optional(z.string()),
    }),
  ),
  choices: z.optional(
    z.looseObject({
      ids: z.optional(z.array(z.string()).check(z.maxLength(100))),
      refs: z.optional(z.array(z.string()).check(z.maxLength(100))),
      labels: z.optional(z.array(z.string()).check(z.maxLength(100))),
      other: z.optional(z.string()),
    }),
  ),
  email: z.optional(text),
  text: z.optional(text),
  number: z.optional(z.number()),
});
export type TypeformAnswer = z.infer<typeof typeformAnswer>;

/** `POST /hooks/forms/{connection_id}`: a Typeform webhook delivery (`event_type` `form_response`). */
export const typeformWebhook = z.looseObject({
  event_id: z.optional(z.string().check(z.maxLength(200))),
  event_type: z.string().check(z.maxLength(100)),
  form_response: z.looseObject({
    form_id: fieldId,
    /** The submission's unique token: a delivery repeating it is a replay. */
    token: z.string().check(z.minLength(1), z.maxLength(200)),
    landed_at: z.optional(z.string().check(z.maxLength(100))),
    submitted_at: z.optional(z.string().check(z.maxLength(100))),
    hidden: z.optional(z.record(z.string().check(z.maxLength(100)), z.string().check(z.maxLength(1000)))),
    answers: z._default(z.array(typeformAnswer).check(z.maxLength(500)), []),
  }),
});
export type TypeformWebhook = z.infer<typeof typeformWebhook>;

/** What the inbound hook answers: the record made (or found, for a replay). */
export const formSubmissionResult = z.object({
  /** `recorded`, or `duplicate` for a replayed submission token (nothing new was written). */
  status: z.enum(['recorded', 'duplicate']),
  record_id: z.string(),
});
export type FormSubmissionResult = z.infer<typeof formSubmissionResult>;
