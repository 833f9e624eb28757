// The consent decision's screens and the status each one stands for: the spec's consent token statuses, laid
// over the flow's step sequence. Pure functions, shared by the participant steps and the page part.
import type { FlowConfig, FlowStep } from '@svc/schemas';
import type { PageStatus, Screen } from '../../participant-types.js';
import type { DecisionRow } from '../../row.js';

/** The flow version's terms frozen into a consent decision. */
export interface DecisionTerms {
  title: string;
  description: string | null;
  config: FlowConfig;
}

/** The terms a consent decision is governed by. */
export function termsOf(row: Pick<DecisionRow, 'terms'>): DecisionTerms | undefined {
  return row.terms ? (JSON.parse(row.terms) as DecisionTerms) : undefined;
}

/** The screens of a consent decision. */
export function screensOfRow(row: Pick<DecisionRow, 'terms'>): Screen[] {
  const terms = termsOf(row);
  return terms ? screensOf(terms.config) : [];
}

/** A flow that declares no steps walks the standard path. */
const STANDARD_PATH: FlowStep[] = [{ type: 'sign_in', method: 'email' }, { type: 'verify' }, { type: 'review' }];

/**
 * The screens of a consent decision: an intro (`pending`), one screen per flow step, and, when the flow does not
 * end with a `review` step, a final `confirm` screen where the person gives or refuses consent. Comprehension
 * answers are stripped: the page never learns which choice is right.
 */
export function screensOf(config: FlowConfig): Screen[] {
  const steps = config.steps.length > 0 ? config.steps : STANDARD_PATH;
  const screens: Screen[] = [{ type: 'intro' }];
  for (const step of steps) {
    switch (step.type) {
      case 'comprehension_check':
        screens.push({ type: 'comprehension_check', question: step.question, choices: [...step.choices] });
        break;
      case 'disclosure':
        screens.push({ type: 'disclosure', title: step.title, body: step.body });
        break;
      default:
        screens.push({ type: step.type, title: step.title });
    }
  }
  if (screens.at(-1)?.type !== 'review') screens.push({ type: 'confirm' });
  return screens;
}

/** `total_steps` of a consent decision: its screens plus the final (terminal) position. */
export function totalSteps(screens: readonly Screen[]): number {
  return screens.length + 1;
}

/**
 * The status a screen stands for: sign-in `authenticating`, verify `verifying`, review `reviewing`; disclosures and
 * comprehension checks `informed`; the final confirm screen `evidenced` once a comprehension check was passed,
 * else `reviewing`.
 */
export function statusOfScreen(screens: readonly Screen[], index: number): PageStatus {
  const screen = screens[index];
  switch (screen?.type) {
    case 'intro':
      return 'pending';
    case 'sign_in':
      return 'authenticating';
    case 'verify':
      return 'verifying';
    case 'review':
      return 'reviewing';
    case 'disclosure':
    case 'comprehension_check':
      return 'informed';
    case 'confirm':
      return screens.slice(0, index).some((s) => s.type === 'comprehension_check') ? 'evidenced' : 'reviewing';
    default:
      throw new RangeError(`no screen ${index}`);
  }
}

/** The comprehension check answers of a flow, by screen index (the page never sees them). */
export function answerAt(config: FlowConfig, screenIndex: number): number | undefined {
  const steps = config.steps.length > 0 ? config.steps : STANDARD_PATH;
  const step = steps[screenIndex - 1];
  return step?.type === 'comprehension_check' ? step.answer : undefined;
}
