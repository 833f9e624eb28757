import { CaptureError } from './errors.js';
import { normalizeText, visibleText } from './text.js';
import type { DecisionEntry, PurposeDecision } from './types.js';

/** What an explicit `purposes` mapping gives per purpose key: a control, a radio group, or a selector in the form. */
export type PurposeTarget = string | Element | Iterable<Element>;

/** One option of a select, as the snapshot shows it. */
export interface SnapshotOption {
  /** What choosing it means (`data-svc-decision`, or a value of `granted`/`declined`). */
  meaning: PurposeDecision | undefined;
  /** Selected in the select's default state. */
  selected: boolean;
  text: string;
}

/** A consent control as the snapshot shows it: its default state, never its current value. */
export type SnapshotControl =
  | {
      tag: 'input';
      type: 'checkbox' | 'radio';
      id: string;
      name: string;
      meaning: PurposeDecision | undefined;
      /** Ticked in the default state (the `checked` attribute). */
      checked: boolean;
      required: boolean;
      disabled: boolean;
    }
  | { tag: 'select'; id: string; name: string; required: boolean; disabled: boolean; options: SnapshotOption[] };

/** One piece of notice text shown with a purpose: a `<label>`, or any other element (written as `<p>`). */
export interface NoticeReading {
  tag: 'label' | 'p';
  /** Normalised text (see `normalizeText`). */
  text: string;
}

/** Everything the helper read about one purpose at submit time. */
export interface PurposeReading {
  key: string;
  /** The attested decision; undefined for a notice-only purpose (no control, text only). */
  entry: DecisionEntry | undefined;
  controls: SnapshotControl[];
  notices: NoticeReading[];
}

type Kind = 'checkbox' | 'radio' | 'select' | 'notice';

const invalid = (message: string, cause?: unknown) =>
  new CaptureError('invalid_control', message, cause === undefined ? {} : { cause });

// Anything that takes part in a form but is not one of the supported controls cannot carry a decision.
const FIELDS = new Set(['input', 'select', 'textarea', 'button', 'output', 'object', 'fieldset']);

function kindOf(key: string, el: Element): Kind {
  if (el.localName === 'input') {
    const { type } = el as HTMLInputElement;
    if (type === 'checkbox' || type === 'radio') return type;
  } else if (el.localName === 'select') {
    if (!(el as HTMLSelectElement).multiple) return 'select';
  } else if (!FIELDS.has(el.localName) && !(el.constructor as { formAssociated?: boolean }).formAssociated) {
    return 'notice';
  }
  const what = el.localName === 'input' ? `<input type="${(el as HTMLInputElement).type}">` : `<${el.localName}>`;
  throw invalid(`Purpose "${key}" is marked on ${what}, which cannot carry a decision; use a checkbox, radio group or select.`);
}

const byDocumentOrder = (a: Element, b: Element): number =>
  // 4 is Node.DOCUMENT_POSITION_FOLLOWING; the number keeps this module free of DOM globals.
  a === b ? 0 : a.compareDocumentPosition(b) & 4 ? -1 : 1;

const isRequired = (el: Element): boolean =>
  (el as HTMLInputElement).required === true || el.getAttribute('aria-required') === 'true';

// :disabled also covers a control inside a disabled fieldset, which its `disabled` property does not.
const isDisabled = (el: Element): boolean => el.matches(':disabled');

function meaningOf(el: Element): PurposeDecision | undefined {
  const value = el.getAttribute('data-svc-decision') ?? (el as HTMLInputElement).value;
  return value === 'granted' || value === 'declined' ? value : undefined;
}

// The option a select shows before anyone touches it: the last one carrying `selected`, else (for a drop-down)
// the first enabled one, as the HTML reset algorithm picks it.
function defaultOption(select: HTMLSelectElement): HTMLOptionElement | undefined {
  const options = Array.from(select.options);
  return options.findLast((o) => o.defaultSelected) ?? (select.size <= 1 ? options.find((o) => !o.disabled) : undefined);
}

function referenced(el: Element, attribute: string): Element[] {
  const ids = el.getAttribute(attribute)?.split(/\s+/).filter(Boolean) ?? [];
  const root = el.getRootNode() as Partial<NonElementParentNode>;
  return ids.flatMap((id) => root.getElementById?.(id) ?? []);
}

function gather(form: HTMLFormElement, mapping: Readonly<Record<string, PurposeTarget>> | undefined): Map<string, Element[]> {
  const groups = new Map<string, Element[]>();
  if (mapping) {
    for (const [key, target] of Object.entries(mapping)) {
      let found: Element[];
      try {
        found = typeof target === 'string' ? Array.from(form.querySelectorAll(target))
          : (target as Node).nodeType === 1 ? [target as Element] : Array.from(target as Iterable<Element>);
      } catch (cause) {
        throw invalid(`The selector for purpose "${key}" is not valid.`, cause);
      }
      if (found.length === 0) throw invalid(`No control found for purpose "${key}".`);
      groups.set(key, found);
    }
    return groups;
  }
  // Controls outside the form element but owned by it (`form="..."`) count too.
  const marked = new Set<Element>(form.querySelectorAll('[data-svc-purpose]'));
  for (const el of Array.from(form.elements)) if (el.hasAttribute('data-svc-purpose')) marked.add(el);
  for (const el of marked) {
    const key = el.getAttribute('data-svc-purpose')?.trim() ?? '';
    if (!key) throw invalid('An element carries an empty data-svc-purpose.');
    groups.set(key, [...(groups.get(key) ?? []), el]);
  }
  return groups;
}

function readPurpose(key: string, elements: Element[]): PurposeReading {
  const kinds = elements.map((el) => kindOf(key, el));
  const controls = elements.filter((_, i) => kinds[i] !== 'notice');
  const kind = kinds.find((k) => k !== 'notice');
  if (new Set(kinds.filter((k) => k !== 'notice')).size > 1) {
    throw invalid(`Purpose "${key}" mixes different kinds of control.`);
  }
  if ((kind === 'checkbox' || kind === 'select') && controls.length > 1) {
    throw invalid(`Purpose "${key}" has more than one ${kind}; one control carries one decision.`);
  }

  let entry: DecisionEntry | undefined;
  const snapshot: SnapshotControl[] = [];
  // A granting choice the person cannot change (every control of the purpose disabled) is as mandatory as a
  // required one, so it is attested as such.
  const locked = controls.length > 0 && controls.every(isDisabled);
  const mandatory = (decision: PurposeDecision) => controls.some(isRequired) || (locked && decision === 'granted');
  if (kind === 'checkbox' || kind === 'radio') {
    const inputs = controls as HTMLInputElement[];
    // A checkbox grants when ticked; a radio grants when the ticked one means `granted`.
    const grants = (input: HTMLInputElement) => kind === 'checkbox' || meaningOf(input) === 'granted';
    if (!inputs.some(grants)) throw invalid(`No radio of purpose "${key}" means granted; mark it data-svc-decision="granted".`);
    const decision = inputs.some((i) => i.checked && grants(i)) ? 'granted' : 'declined';
    entry = { decision, default_checked: inputs.some((i) => i.defaultChecked && grants(i)), mandatory: mandatory(decision) };
    for (const input of inputs) {
      snapshot.push({
        tag: 'input', type: kind, id: input.id, name: input.name, meaning: kind === 'radio' ? meaningOf(input) : undefined,
        checked: input.defaultChecked, required: isRequired(input), disabled: isDisabled(input),
      });
    }
  } else if (kind === 'select') {
    const select = controls[0] as HTMLSelectElement;
    const options = Array.from(select.options);
    if (!options.some((o) => meaningOf(o) === 'granted')) {
      throw invalid(`No option of purpose "${key}" means granted; mark it data-svc-decision="granted".`);
    }
    const initial = defaultOption(select);
    const chosen = select.selectedOptions[0];
    const decision = chosen !== undefined && meaningOf(chosen) === 'granted' ? 'granted' : 'declined';
    entry = { decision, default_checked: initial !== undefined && meaningOf(initial) === 'granted', mandatory: mandatory(decision) };
    snapshot.push({
      tag: 'select', id: select.id, name: select.name, required: isRequired(select), disabled: isDisabled(select),
      options: options.map((o) => ({ meaning: meaningOf(o), selected: o === initial, text: normalizeText(o.text) })),
    });
  }

  // The notice is what the page shows with the purpose: the elements marked with it that are not controls, each
  // control's labels, and what it points to with aria-labelledby, aria-describedby and data-svc-notice.
  const shown = new Set<Element>(elements.filter((_, i) => kinds[i] === 'notice'));
  for (const control of controls) {
    for (const label of Array.from((control as HTMLInputElement).labels ?? [])) shown.add(label);
    for (const attribute of ['aria-labelledby', 'aria-describedby', 'data-svc-notice']) {
      for (const el of referenced(control, attribute)) shown.add(el);
    }
  }
  const outermost = [...shown].filter((el) => ![...shown].some((other) => other !== el && other.contains(el)));
  const notices = outermost.sort(byDocumentOrder).map((el): NoticeReading => ({
    tag: el.localName === 'label' ? 'label' : 'p',
    text: normalizeText(visibleText(el)),
  }));
  return { key, entry, controls: snapshot, notices };
}

/**
 * Reads every purpose of the form at this instant: its controls from `data-svc-purpose` (or the explicit
 * mapping), in document order of each purpose's first element. Throws `invalid_control` on a misconfiguration.
 */
export function readPurposes(form: HTMLFormElement, mapping?: Readonly<Record<string, PurposeTarget>>): PurposeReading[] {
  const groups = [...gather(form, mapping)].map(([key, els]) => [key, els.sort(byDocumentOrder)] as const);
  groups.sort((a, b) => byDocumentOrder(a[1][0]!, b[1][0]!));
  return groups.map(([key, els]) => readPurpose(key, [...new Set(els)]));
}

/** The text a purpose's notice hash covers: its notice texts in document order, joined by one space. */
export const noticeText = (purpose: PurposeReading): string =>
  purpose.notices.map((n) => n.text).filter(Boolean).join(' ');
