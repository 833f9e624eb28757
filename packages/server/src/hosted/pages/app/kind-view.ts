// What the hosted page asks of a kind's view, and what the view may use of the page. The page keeps the shared
// parts (messages, deadline, endings, cancel); a view renders its kind's part of the page data.
import type { nothing, TemplateResult } from 'lit';
import type { PageData, PageParts, PageProgress, PageStatus, TransitionRequest, TransitionResult } from '../page-data.js';

/** The page, as a view sees it. */
export interface PageHost {
  readonly data: PageData;
  readonly progress: PageProgress;
  readonly busy: boolean;
  /** The sign-in code the sandbox shows instead of sending email. */
  readonly sandboxCode: string | null;
  /** Sends one step to the server, then tells the host page what changed. */
  act(request: TransitionRequest, announce?: string): Promise<TransitionResult | undefined>;
  /** A form's submit: builds the step (undefined when the form is not ready) and sends it. */
  submit(event: SubmitEvent, build: () => TransitionRequest | undefined): void;
  /** The trimmed value of the form field `name`. */
  field(name: string): string;
  /** Shows a message the person can act on (null clears it). */
  showError(message: string | null): void;
  /** Renders again after a view's own state changed. */
  requestUpdate(): void;
}

/** An ending screen. */
export interface Ending {
  title: string;
  text: string;
}

/** One kind's view of the page. */
export interface KindView {
  /** The page heading (also part of the landmark's name). */
  readonly title: string;
  /** "Step n of m" while open; null for a kind with nothing to count. */
  stepLabel(): string | null;
  /** `svc:state` for a change from `from` to `to`. */
  statePayload(from: PageStatus, to: PageStatus, stepIndex: number, totalSteps: number): unknown;
  /** Changes of this key (with status and step) move focus to the new heading. */
  readonly focusKey: string;
  /** The endings of the kind's outcomes. */
  readonly endings: Partial<Record<PageStatus, Ending>>;
  /** The outcome that sends redirect mode back without `error=access_denied`. */
  readonly success: PageStatus;
  /**
   * False for a kind whose decision stays open until its deadline (a signing session): "Decide later" and the host's
   * cancel leave the page without telling the server, and the link keeps working.
   */
  readonly cancellable?: false;
  /** The kind's screen while the decision is open. */
  render(): TemplateResult | typeof nothing;
}

/**
 * What a screen reader hears on reaching a screen: the visible step counter's own words (so "Step 2 of 4" is shown
 * and spoken alike), or the heading for a kind with nothing to count.
 */
export function stepAnnouncement(view: Pick<KindView, 'stepLabel' | 'title'>): string {
  return `${view.stepLabel() ?? view.title}.`;
}
