// Typeform's webhook contract: `Typeform-Signature: sha256=<base64 HMAC-SHA256 of the raw body>`, and a
// `form_response` whose `answers[]` carry `{field: {id, type, ref}, type, boolean|choice|choices|email|text|number}`.
import type { DecisionEntry, FlowConfig, TypeformAnswer, TypeformWebhook } from '@svc/schemas';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod/mini';
import type { FieldError } from '../../infra/errors.js';
import { fieldOf, isChoice, takesDecision, type FormMapping } from './mapping.js';

/** The signature header Typeform sends. */
export const SIGNATURE_HEADER = 'Typeform-Signature';

const SIGNATURE = /^sha256=([A-Za-z0-9+/]{43}=)$/;

/** `sha256=<base64 HMAC-SHA256(secret, raw body)>`, as Typeform signs. */
export function typeformSignature(secret: string, body: Uint8Array): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('base64')}`;
}

/**
 * Whether `header` is a valid signature of `body` under any of `secrets`. Each secret is tried in full and the
 * digests are compared in constant time, so neither which secret matched nor how much of a guess was right leaks.
 */
export function verifySignature(header: string | undefined, body: Uint8Array, secrets: readonly string[]): boolean {
  const given = header === undefined ? undefined : SIGNATURE.exec(header.trim())?.[1];
  const provided = given === undefined ? Buffer.alloc(32) : Buffer.from(given, 'base64');
  let ok = false;
  for (const secret of secrets) {
    // Computed before the `||`, so every secret is compared whatever an earlier one gave.
    const match = timingSafeEqual(createHmac('sha256', secret).update(body).digest(), provided);
    ok = ok || match;
  }
  return ok && given !== undefined;
}

/** What a submission says, read through a mapping. */
export type Reading =
  | { ok: true; decisions: Record<string, DecisionEntry>; subject: { email: string; external_id?: string | undefined } }
  | { ok: false; code: string; errors: FieldError[] };

const email = z.email().check(z.maxLength(320));

function answerOf(
  answers: readonly TypeformAnswer[],
  field: { id: string; ref?: string | undefined },
): [TypeformAnswer, number] | undefined {
  const i = answers.findIndex((a) => a.field.id === field.id || (field.ref !== undefined && a.field.ref === field.ref));
  return i < 0 ? undefined : [answers[i]!, i];
}

function textOf(answer: TypeformAnswer): string | undefined {
  if (answer.email !== undefined) return answer.email;
  if (answer.text !== undefined) return answer.text;
  if (answer.number !== undefined) return String(answer.number);
  const other = (answer as Record<string, unknown>)[answer.type];
  return typeof other === 'string' ? other : undefined;
}

/**
 * Reads a submission's decisions and subject through the mapping. A consent purpose whose field was left
 * unanswered is a decline (an unticked box); an unanswered right-to-object purpose is no objection. An answer of
 * another type than the mapping declares (the form changed since it was mapped) is refused with
 * `mapping_outdated`; a missing or invalid email with `subject_email_missing`.
 */
export function readSubmission(
  config: Pick<FlowConfig, 'purposes'>,
  mapping: FormMapping,
  response: TypeformWebhook['form_response'],
): Reading {
  const { answers } = response;
  const errors: FieldError[] = [];
  const decisions: Record<string, DecisionEntry> = {};
  const purposes = new Map(config.purposes.map((p) => [p.key, p]));

  for (const [key, binding] of Object.entries(mapping.purposes)) {
    const purpose = purposes.get(key);
    const field = fieldOf(mapping.fields, binding.field);
    // A purpose the flow's current version dropped, or a field no longer in the mapping, is left to the attestation rules.
    if (!purpose || !field || !takesDecision(purpose)) continue;
    const found = answerOf(answers, field);
    if (!found) {
      if (purpose.basis === 'consent') decisions[key] = { decision: 'declined', default_checked: false, mandatory: field.required };
      continue;
    }
    const [answer, i] = found;
    const path = `form_response.answers.${i}`;
    if (answer.field.type !== field.type) {
      errors.push({
        path: `${path}.field.type`,
        code: 'mapping_outdated',
        message: `Field "${binding.field}" is now ${answer.field.type}, mapped as ${field.type}: map the form again.`,
      });
      continue;
    }
    let yes: boolean | undefined;
    if (field.type === 'yes_no' || field.type === 'legal') {
      yes = typeof answer.boolean === 'boolean' ? answer.boolean : undefined;
    } else if (answer.choice) {
      yes = isChoice({ id: answer.choice.id, ref: answer.choice.ref, label: answer.choice.label ?? '' }, binding.yes_choice ?? '');
    } else if (answer.choices) {
      const named = binding.yes_choice ?? '';
      yes = [...(answer.choices.labels ?? []), ...(answer.choices.refs ?? []), ...(answer.choices.ids ?? [])].includes(named);
    }
    if (yes === undefined) {
      errors.push({
        path,
        code: 'answer_type_mismatch',
        message: `The answer to field "${binding.field}" carries no ${field.type === 'yes_no' || field.type === 'legal' ? 'boolean' : 'choice'}.`,
      });
      continue;
    }
    decisions[key] = { decision: yes ? 'granted' : 'declined', default_checked: false, mandatory: field.required };
  }

  const value = (binding: FormMapping['subject']['email'] | undefined, what: string): string | undefined => {
    if (!binding) return undefined;
    if (binding.hidden !== undefined) return response.hidden?.[binding.hidden];
    const field = fieldOf(mapping.fields, binding.field!);
    const found = field && answerOf(answers, field);
    if (found && field && found[0].field.type !== field.type) {
      errors.push({
        path: `form_response.answers.${found[1]}.field.type`,
        code: 'mapping_outdated',
        message: `The ${what} field is now ${found[0].field.type}, mapped as ${field.type}.`,
      });
      return undefined;
    }
    return found ? textOf(found[0])?.trim() : undefined;
  };
  const subjectEmail = value(mapping.subject.email, 'email');
  const externalId = value(mapping.subject.external_id, 'external id');
  if (errors.length) return { ok: false, code: errors[0]!.code, errors };
  if (subjectEmail === undefined || !email.safeParse(subjectEmail).success) {
    return {
      ok: false,
      code: 'subject_email_missing',
      errors: [
        {
          path: 'form_response',
          code: 'subject_email_missing',
          message: 'The submission carries no valid email for the person in the mapped field.',
        },
      ],
    };
  }
  return {
    ok: true,
    decisions,
    subject: { email: subjectEmail, ...(externalId ? { external_id: externalId.slice(0, 256) } : {}) },
  };
}
