// The participant steps of a consent decision: the screens in order (intro, sign-in, verification, disclosures,
// comprehension checks, review or confirm), then `agree` (fulfilled, granted) or `decline` (declined) on any screen.
import type { FlowConfig, PurposeOutcome } from '@svc/schemas';
import { z } from 'zod/mini';
import type { ServerContext } from '../../../../infra/context.js';
import type { Screen } from '../../participant-types.js';
import { actionBody, actionEmail, declineAction, sendCodeAction, verifyAction } from '../../actions.js';
import { invalidTransition, refuse } from '../../refusals.js';
import type { DecisionRow } from '../../row.js';
import { checkCode, issueCode } from '../../sign-in.js';
import type { KindAction, StepResult } from '../kind.js';
import { answerAt, screensOfRow, statusOfScreen, termsOf } from './screens.js';

const keys = z.array(z.string().check(z.maxLength(64))).check(z.maxLength(50));

/** The actions of a consent decision's page (a decline's comment, which signing sessions keep, is not kept). */
export const consentActions = [
  actionBody('begin'),
  actionBody('sign_in', { email: actionEmail }),
  sendCodeAction,
  verifyAction,
  actionBody('acknowledge'),
  actionBody('answer', { answer: z.int().check(z.gte(0), z.lte(9)) }),
  actionBody('agree', { granted: keys, objected: keys }),
  declineAction,
];

/** `email`, lower-case, when the decision may be answered with it: a decision addressed to someone takes only theirs. */
function addressed(row: DecisionRow, email: string): string {
  const lower = email.toLowerCase();
  if (row.addressee_email && lower !== row.addressee_email) {
    throw refuse('email_mismatch', 'This request is addressed to another email address.', 'email');
  }
  return lower;
}

/**
 * One step on the current screen. Refusals (422): `invalid_transition`, `email_required`, `wrong_code`,
 * `code_required`, `wrong_answer`, `required_purpose_missing`, `unknown_purpose`, `not_a_consent_purpose`,
 * `not_objectable`.
 */
export function actConsent(_ctx: ServerContext, row: DecisionRow, request: KindAction, now: string): StepResult {
  const screens = screensOfRow(row);
  const screen = screens[row.step_index];
  const terms = termsOf(row);
  const invalid = () => invalidTransition(row, request.action);
  const advance = () => {
    row.step_index += 1;
    row.status = statusOfScreen(screens, row.step_index);
  };
  // An email typed at sign-in but never verified is not kept: it names nobody the decision can be bound to.
  const complete = (status: 'fulfilled' | 'declined', outcome: 'granted' | 'declined'): StepResult => {
    if (!identityEstablished(screens, row, row.step_index)) row.subject_email = null;
    return { complete: { status, outcome } };
  };

  switch (request.action) {
    case 'begin':
      if (screen?.type !== 'intro') throw invalid();
      advance();
      return {};
    case 'sign_in':
      if (screen?.type !== 'sign_in') throw invalid();
      row.subject_email = addressed(row, request.email);
      advance();
      return screens[row.step_index]?.type === 'verify' ? { sandboxCode: issueCode(row) } : {};
    case 'send_code':
      if (screen?.type !== 'verify') throw invalid();
      if (request.email) row.subject_email = addressed(row, request.email);
      if (!row.subject_email) throw refuse('email_required', 'Enter your email address first.', 'email');
      return { sandboxCode: issueCode(row), unchanged: true };
    case 'verify': {
      if (screen?.type !== 'verify') throw invalid();
      const wrong = checkCode(row, request.code, now);
      if (wrong) return { refusal: wrong };
      advance();
      return {};
    }
    case 'acknowledge':
      if (screen?.type !== 'disclosure') throw invalid();
      advance();
      return {};
    case 'answer': {
      if (screen?.type !== 'comprehension_check' || !terms) throw invalid();
      const evidence = JSON.parse(row.evidence ?? '[]') as unknown[];
      const correct = answerAt(terms.config, row.step_index) === request.answer;
      evidence.push({ step_index: row.step_index, answer: request.answer, correct, at: now });
      row.evidence = JSON.stringify(evidence);
      if (!correct) {
        return { refusal: refuse('wrong_answer', 'That is not right. Read the information again and choose another answer.', 'answer') };
      }
      advance();
      return {};
    }
    case 'agree':
      if ((screen?.type !== 'review' && screen?.type !== 'confirm') || !terms) throw invalid();
      row.purposes = JSON.stringify(purposeOutcomes(terms.config, request.granted, request.objected));
      return complete('fulfilled', 'granted');
    case 'decline':
      if (!terms) throw invalid();
      row.purposes = JSON.stringify(declinedOutcomes(terms.config));
      return complete('declined', 'declined');
    default:
      throw invalid();
  }
}

/** How each purpose ends when the person agrees with `granted` consent purposes and `objected` opt-outs. */
function purposeOutcomes(config: FlowConfig, granted: readonly string[], objected: readonly string[]): PurposeOutcome[] {
  const byKey = new Map(config.purposes.map((p) => [p.key, p]));
  const unknown = [...granted, ...objected].filter((key) => !byKey.has(key));
  if (unknown.length) throw refuse('unknown_purpose', `No purpose ${unknown.map((k) => `"${k}"`).join(', ')} in this flow.`, 'purposes');
  const notConsent = granted.filter((key) => byKey.get(key)?.basis !== 'consent');
  if (notConsent.length)
    throw refuse('not_a_consent_purpose', `Only consent purposes can be granted: ${notConsent.join(', ')}.`, 'granted');
  const notObjectable = objected.filter((key) => byKey.get(key)?.mechanism !== 'opt_out');
  if (notObjectable.length)
    throw refuse('not_objectable', `Only opt-out purposes can be objected to: ${notObjectable.join(', ')}.`, 'objected');
  const missing = config.purposes.filter((p) => p.basis === 'consent' && p.required && !granted.includes(p.key));
  if (missing.length) {
    throw refuse(
      'required_purpose_missing',
      `The flow needs consent to ${missing.map((p) => `"${p.label}"`).join(', ')} to continue; decline instead if you do not agree.`,
      'granted',
    );
  }
  return config.purposes.map((p) => ({
    key: p.key,
    basis: p.basis,
    mechanism: p.mechanism,
    outcome: p.basis === 'consent' ? (granted.includes(p.key) ? 'granted' : 'declined') : objected.includes(p.key) ? 'objected' : 'noticed',
  }));
}

function declinedOutcomes(config: FlowConfig): PurposeOutcome[] {
  return config.purposes.map((p) => ({
    key: p.key,
    basis: p.basis,
    mechanism: p.mechanism,
    outcome: p.basis === 'consent' ? 'declined' : 'noticed',
  }));
}

/**
 * Whether the person's identity was established by the time they completed on screen `index`: they signed in, and
 * passed the verification step when the flow has one (every screen before `index` was passed; the screens run in
 * order). An email typed at sign-in but never verified establishes nothing.
 */
function identityEstablished(screens: readonly Screen[], row: Pick<DecisionRow, 'subject_email'>, index: number): boolean {
  return row.subject_email !== null && screens.every((screen, i) => screen.type !== 'verify' || i < index);
}
