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

const PURPOSE = 'data-svc-purpose';

// Every misconfiguration names its purpose the same way.
const refuse = (key: string, problem: string, options?: { cause: unknown }) =>
  new CaptureError('invalid_control', `Purpose "${key}" ${problem}`, options);

function kindOf(key: string, el: Element): Kind {
  const { localName: tag, type } = el as HTMLInputElement;
  if (tag === 'input' && (type === 'checkbox' || type === 'radio')) return type;
  if (tag === 'select' && !(el as HTMLSelectElement).multiple) return 'select';
  // Anything that takes part in a form but is not one of the supported controls cannot carry a decision: the
  // listed elements (they alone have `willValidate`) and form-associated custom elements.
  if (!('willValidate' in el) && !(el.constructor as { formAssociated?: boolean }).formAssociated) return 'notice';
  throw refuse(
    key,
    `is marked on <${tag === 'input' ? `input type="${type}"` : tag}>, which cannot carry a decision; use a checkbox, radios or a select.`,
  );
}

const byDocumentOrder = (a: Element, b: Element): number =>
  // 4 is Node.DOCUMENT_POSITION_FOLLOWING; the number keeps this module free of DOM globals.
  a === b ? 0 : a.compareDocumentPosition(b) & 4 ? -1 : 1;

const isRequired = (el: Element): boolean => el.matches(':required,[aria-required=true]');

// :disabled also covers a control inside a disabled fieldset, which its `disabled` property does not.
const isDisabled = (el: Element): boolean => el.matches(':disabled');

function meaningOf(el: Element): PurposeDecision | undefined {
  const value = el.getAttribute('data-svc-decision') ?? (el as HTMLInputElement).value;
  return /^(granted|declined)$/.test(value) ? (value as PurposeDecision) : undefined;
}

// Each purpose key with its elements, from the explicit mapping or from `data-svc-purpose`.
function gather(form: HTMLFormElement, mapping: Readonly<Record<string, PurposeTarget>> | undefined): [string, Element[]][] {
  if (mapping) {
    return Object.entries(mapping).map(([key, target]) => {
      let found: Element[];
      try {
        found =
          typeof target === 'string'
            ? [...form.querySelectorAll(target)]
            : (target as Node).nodeType === 1
              ? [target as Element]
              : [...(target as Iterable<Element>)];
      } catch (cause) {
        throw refuse(key, 'has an invalid selector.', { cause });
      }
      if (!found.length) throw refuse(key, 'has no control.');
      return [key, found];
    });
  }
  const groups = new Map<string, Element[]>();
  // Controls outside the form element but owned by it (`form="..."`) count too.
  for (const el of new Set([...form.querySelectorAll(`[${PURPOSE}]`), ...form.elements])) {
    const key = el.getAttribute(PURPOSE)?.trim();
    if (key === undefined) continue;
    if (!key) throw refuse(key, `is empty: ${PURPOSE} must name a purpose.`);
    groups.set(key, [...(groups.get(key) ?? []), el]);
  }
  return [...groups];
}

function readPurpose(key: string, elements: Element[]): PurposeReading {
  const kinds = elements.map((el) => kindOf(key, el));
  const controls = elements.filter((_, i) => kinds[i] !== 'notice') as HTMLInputElement[];
  const kind = kinds.find((k) => k !== 'notice');
  if (kinds.some((k) => k !== 'notice' && k !== kind)) throw refuse(key, 'mixes different kinds of control.');
  if (kind !== 'radio' && controls[1]) throw refuse(key, `has more than one ${kind}; one purpose takes one.`);

  let entry: DecisionEntry | undefined;
  let snapshot: SnapshotControl[] = [];
  if (kind) {
    const select = kind === 'select' && (controls[0] as unknown as HTMLSelectElement);
    // The choices the decision is read from: the box or the radios, or the select's options.
    const choices = (select ? [...select.options] : controls) as (HTMLInputElement & HTMLOptionElement)[];
    // The option a select shows before anyone touches it: the last one carrying `selected`, else (for a drop-down)
    // the first enabled one, as the HTML reset algorithm picks it.
    const initial =
      select && (choices.findLast((o) => o.defaultSelected) ?? (select.size > 1 ? undefined : choices.find((o) => !o.disabled)));
    // A checkbox grants when ticked; a radio or option grants when the chosen one means `granted`.
    const grants = (c: Element) => kind === 'checkbox' || meaningOf(c) === 'granted';
    if (!choices.some(grants)) throw refuse(key, `has no ${select ? 'option' : 'radio'} meaning granted (data-svc-decision="granted").`);
    const decision = choices.some((c) => grants(c) && (select ? c.selected : c.checked)) ? 'granted' : 'declined';
    entry = {
      decision,
      default_checked: choices.some((c) => grants(c) && (select ? c === initial : c.defaultChecked)),
      // A granting choice the person cannot change (every control of the purpose disabled) is as mandatory as a
      // required one, so it is attested as such.
      mandatory: controls.some(isRequired) || (decision === 'granted' && controls.every(isDisabled)),
    };
    const common = (c: Element) => ({ id: c.id, name: (c as HTMLInputElement).name, required: isRequired(c), disabled: isDisabled(c) });
    snapshot = select
      ? [
          {
            tag: 'select',
            ...common(select),
            options: choices.map((o) => ({ meaning: meaningOf(o), selected: o === initial, text: normalizeText(o.text) })),
          },
        ]
      : controls.map((c) => ({
          tag: 'input',
          type: kind as 'checkbox' | 'radio',
          ...common(c),
          meaning: kind === 'radio' ? meaningOf(c) : undefined,
          checked: c.defaultChecked,
        }));
  }

  // The notice is what the page shows with the purpose: the elements marked with it that are not controls, each
  // control's labels, and what it points to with aria-labelledby, aria-describedby and data-svc-notice.
  const shown = new Set(elements.filter((_, i) => kinds[i] === 'notice'));
  for (const control of controls) {
    for (const label of control.labels ?? []) shown.add(label);
    const root = control.getRootNode() as Partial<NonElementParentNode>;
    // getAttribute's null joins as an empty string; getElementById('') finds nothing.
    for (const id of ['aria-labelledby', 'aria-describedby', 'data-svc-notice']
      .map((a) => control.getAttribute(a))
      .join(' ')
      .split(/\s+/)) {
      const el = root.getElementById?.(id);
      if (el) shown.add(el);
    }
  }
  const all = [...shown];
  const notices = all
    .filter((el) => !all.some((other) => other !== el && other.contains(el)))
    .sort(byDocumentOrder)
    .map(
      (el): NoticeReading => ({
        tag: el.localName === 'label' ? 'label' : 'p',
        text: normalizeText(visibleText(el)),
      }),
    );
  return { key, entry, controls: snapshot, notices };
}

/**
 * Reads every purpose of the form at this instant: its controls from `data-svc-purpose` (or the explicit
 * mapping), in document order of each purpose's first element. Throws `invalid_control` on a misconfiguration.
 */
export function readPurposes(form: HTMLFormElement, mapping?: Readonly<Record<string, PurposeTarget>>): PurposeReading[] {
  const groups = gather(form, mapping).map(([key, els]) => [key, [...new Set(els)].sort(byDocumentOrder)] as const);
  return groups.sort((a, b) => byDocumentOrder(a[1][0]!, b[1][0]!)).map(([key, els]) => readPurpose(key, els));
}

/** The text a purpose's notice hash covers: its notice texts in document order, joined by one space. */
export const noticeText = (purpose: PurposeReading): string =>
  purpose.notices
    .map((n) => n.text)
    .filter(Boolean)
    .join(' ');
