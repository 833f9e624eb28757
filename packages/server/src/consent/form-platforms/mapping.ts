// Form platform mappings: which form field carries which purpose's decision and the person's email. Errors rule 4
// refuses, at mapping time, a consent purpose bound to a required field, a decision bound to a field that cannot
// carry one (rating, number, free text...), and a choice field without the choice that means yes.
import {
  BOOLEAN_FIELD_TYPES,
  CHOICE_FIELD_TYPES,
  type FlowConfig,
  type FlowPurpose,
  type FormField,
  type FormFieldChoice,
  type FormFieldType,
  type PurposeBinding,
  type SubjectBinding,
} from '@svc/schemas';
import type { FieldError } from '../../infra/errors.js';

/** A connection's mapping as stored and checked. */
export interface FormMapping {
  fields: FormField[];
  subject: { email: SubjectBinding; external_id?: SubjectBinding | undefined };
  purposes: Record<string, PurposeBinding>;
}

/** Field types a person's external id may come from. */
const ID_FIELD_TYPES: readonly FormFieldType[] = ['short_text', 'long_text', 'number', 'email', 'phone_number', 'website'];

/** Whether a purpose takes a decision: consent, or a legitimate interest with a right to object. */
export const takesDecision = (p: FlowPurpose) => p.basis === 'consent' || (p.basis === 'legitimate_interest' && p.mechanism === 'opt_out');

/** The field a binding names, by id first, then by ref. */
export function fieldOf(fields: readonly FormField[], idOrRef: string): FormField | undefined {
  return fields.find((f) => f.id === idOrRef) ?? fields.find((f) => f.ref === idOrRef);
}

/** Whether a choice is the one the binding names (by label, ref or id). */
export function isChoice(choice: Pick<FormFieldChoice, 'id' | 'ref' | 'label'>, named: string): boolean {
  return choice.label === named || choice.ref === named || choice.id === named;
}

/**
 * Checks a mapping against the flow version's purposes; returns every problem (empty when the mapping is
 * accepted). Paths are under `form_connection`. Codes: `duplicate_field`, `unknown_field`,
 * `field_cannot_carry_email`, `field_cannot_carry_external_id`, `unknown_purpose`, `notice_only_purpose`,
 * `purpose_missing`, `field_cannot_carry_decision`, `consent_field_required`, `yes_choice_missing`,
 * `yes_choice_not_applicable`.
 */
export function checkMapping(config: Pick<FlowConfig, 'purposes'>, mapping: FormMapping): FieldError[] {
  const errors: FieldError[] = [];
  const at = (path: string, code: string, message: string) => errors.push({ path: `form_connection.${path}`, code, message });

  const ids = new Set<string>();
  const refs = new Set<string>();
  mapping.fields.forEach((f, i) => {
    if (ids.has(f.id)) at(`fields.${i}.id`, 'duplicate_field', `Field id "${f.id}" appears twice.`);
    if (f.ref !== undefined && refs.has(f.ref)) at(`fields.${i}.ref`, 'duplicate_field', `Field ref "${f.ref}" appears twice.`);
    ids.add(f.id);
    if (f.ref !== undefined) refs.add(f.ref);
  });

  const email = mapping.subject.email;
  if (email.field !== undefined) {
    const field = fieldOf(mapping.fields, email.field);
    if (!field) at('subject.email.field', 'unknown_field', `No field "${email.field}" in the form.`);
    else if (field.type !== 'email')
      at(
        'subject.email.field',
        'field_cannot_carry_email',
        `Field "${email.field}" is ${field.type}; the person's email needs an email field (or a hidden field).`,
      );
  }
  const externalId = mapping.subject.external_id;
  if (externalId?.field !== undefined) {
    const field = fieldOf(mapping.fields, externalId.field);
    if (!field) at('subject.external_id.field', 'unknown_field', `No field "${externalId.field}" in the form.`);
    else if (!ID_FIELD_TYPES.includes(field.type))
      at(
        'subject.external_id.field',
        'field_cannot_carry_external_id',
        `Field "${externalId.field}" is ${field.type}; it cannot carry an id.`,
      );
  }

  const purposes = new Map(config.purposes.map((p) => [p.key, p]));
  for (const [key, binding] of Object.entries(mapping.purposes)) {
    const path = `purposes.${key}`;
    const purpose = purposes.get(key);
    if (!purpose) {
      at(path, 'unknown_purpose', `The flow has no purpose "${key}".`);
      continue;
    }
    if (!takesDecision(purpose)) {
      at(
        path,
        'notice_only_purpose',
        `Purpose "${key}" (${purpose.basis}) is notice-only: it takes no decision, so no field can carry one.`,
      );
      continue;
    }
    const field = fieldOf(mapping.fields, binding.field);
    if (!field) {
      at(`${path}.field`, 'unknown_field', `No field "${binding.field}" in the form.`);
      continue;
    }
    const isBoolean = BOOLEAN_FIELD_TYPES.includes(field.type);
    const isChoiceField = CHOICE_FIELD_TYPES.includes(field.type);
    if (!isBoolean && !isChoiceField) {
      at(
        `${path}.field`,
        'field_cannot_carry_decision',
        `Purpose "${key}" is bound to a ${field.type} field, which cannot carry a decision; use yes_no, legal or a choice field.`,
      );
      continue;
    }
    if (purpose.basis === 'consent' && field.required) {
      at(
        `${path}.field`,
        'consent_field_required',
        `Consent purpose "${key}" is bound to a required field; consent must be optional to give.`,
      );
    }
    if (isBoolean && binding.yes_choice !== undefined) {
      at(
        `${path}.yes_choice`,
        'yes_choice_not_applicable',
        `Field "${binding.field}" is ${field.type}: its yes is the answer true; name no choice.`,
      );
    }
    if (isChoiceField) {
      if (binding.yes_choice === undefined) {
        at(`${path}.yes_choice`, 'yes_choice_missing', `Purpose "${key}" is bound to a choice field: name the choice that means yes.`);
      } else if (!(field.choices ?? []).some((c) => isChoice(c, binding.yes_choice!))) {
        at(`${path}.yes_choice`, 'yes_choice_missing', `Field "${binding.field}" has no choice "${binding.yes_choice}" to mean yes.`);
      }
    }
  }
  for (const purpose of config.purposes) {
    if (purpose.basis === 'consent' && !Object.hasOwn(mapping.purposes, purpose.key)) {
      at(
        `purposes.${purpose.key}`,
        'purpose_missing',
        `Consent purpose "${purpose.key}" is not bound to a field; every consent purpose needs a decision.`,
      );
    }
  }
  return errors;
}
