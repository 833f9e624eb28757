// The consent fields of one form, together: the spec's "one consent field per flow per form" (the first field of a
// flow in document order is active, later ones are duplicates), and one submit listener per form that holds the
// submission back while every active field captures, then submits the form once, with or without tokens.

import { requestSubmitAs } from '@svc/capture';

/** What the registry needs of a consent field; the field keeps it private, so pages cannot call it. */
export interface RegisteredField {
  /** The field element, for document order. */
  readonly element: Element;
  /** The flow id the field shows; fields without one are never duplicates. */
  flowId(): string;
  /** Tells the field whether another field for its flow comes first in the form. */
  setDuplicate(duplicate: boolean): void;
  /** Whether the field has something to capture at submit (active, enabled). */
  capturesOnSubmit(): boolean;
  /** Captures for a submission; settles when done, never rejects (failures are the field's `svc-error`). */
  captureForSubmit(): Promise<void>;
}

interface FormEntry {
  fields: Set<RegisteredField>;
  onSubmit: (event: SubmitEvent) => void;
}

const forms = new WeakMap<HTMLFormElement, FormEntry>();

const byDocumentOrder = ({ element: a }: RegisteredField, { element: b }: RegisteredField): number =>
  // 4 is Node.DOCUMENT_POSITION_FOLLOWING; the number keeps this module free of DOM globals at import time.
  a === b ? 0 : a.compareDocumentPosition(b) & 4 ? -1 : 1;

function reconcile(entry: FormEntry): void {
  const first = new Map<string, RegisteredField>();
  for (const field of [...entry.fields].sort(byDocumentOrder)) {
    const flow = field.flowId();
    if (!flow) {
      field.setDuplicate(false);
    } else if (first.has(flow)) {
      field.setDuplicate(true);
    } else {
      first.set(flow, field);
      field.setDuplicate(false);
    }
  }
}

function listenTo(form: HTMLFormElement, entry: FormEntry): void {
  let pending = false;
  let resubmitting = false;
  const resubmit = (submitter: HTMLElement | null) => {
    resubmitting = true;
    try {
      requestSubmitAs(form, submitter);
    } finally {
      resubmitting = false;
    }
  };
  // Capture phase on the form, as the capture helper does: it runs before the page's own listeners on the form, so
  // they only ever see the one submission that follows the captures.
  entry.onSubmit = (event: SubmitEvent) => {
    if (resubmitting || !event.isTrusted || event.defaultPrevented) return;
    const capturing = [...entry.fields].filter((f) => f.capturesOnSubmit());
    if (capturing.length === 0) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (pending) return; // a second click or Enter while the captures are under way
    pending = true;
    const { submitter } = event;
    void Promise.allSettled(capturing.map((f) => f.captureForSubmit())).then(() => {
      // A task later, not a microtask: captures that fail at once settle while the browser is still firing this
      // submit event, and a requestSubmit() then is silently ignored (the form would never submit).
      setTimeout(() => {
        pending = false;
        resubmit(submitter);
      });
    });
  };
  form.addEventListener('submit', entry.onSubmit, { capture: true });
}

/** Adds a field to its form (listening for the form's submissions from the first field on) and re-checks duplicates. */
export function joinForm(form: HTMLFormElement, field: RegisteredField): void {
  let entry = forms.get(form);
  if (!entry) {
    entry = { fields: new Set(), onSubmit: () => undefined };
    forms.set(form, entry);
    listenTo(form, entry);
  }
  entry.fields.add(field);
  reconcile(entry);
}

/** Removes a field from its form (the listener goes with the last field) and re-checks duplicates. */
export function leaveForm(form: HTMLFormElement, field: RegisteredField): void {
  const entry = forms.get(form);
  if (!entry) return;
  entry.fields.delete(field);
  if (entry.fields.size === 0) {
    form.removeEventListener('submit', entry.onSubmit, { capture: true });
    forms.delete(form);
    return;
  }
  reconcile(entry);
}

/** Re-checks duplicates in a field's form (after its flow changed). */
export function refreshForm(form: HTMLFormElement): void {
  const entry = forms.get(form);
  if (entry) reconcile(entry);
}
