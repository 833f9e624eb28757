// The consent fields of one form, together: the spec's "one consent field per flow per form" (the first field of a
// flow in document order is active, later ones are duplicates), and one hold on the form's submissions (the capture
// helper's holdSubmissions) while every active field captures, then the form submits once, with or without tokens.

import { holdSubmissions } from '@svc/capture';

/** What the registry needs of a consent field; the field keeps it private, so pages cannot call it. */
export interface RegisteredField {
  /** The field element, for document order. */
  readonly element: Element;
  /** The flow id the field shows; fields without one are never duplicates. */
  flowId(): string;
  /** Tells the field whether another field for its flow comes first in the form. */
  setDuplicate(duplicate: boolean): void;
  /**
   * Captures for a submission, settling when done (a failure is also the field's `svc-error`); undefined when the
   * field has nothing to capture (a duplicate, disabled, or without a flow).
   */
  captureForSubmit(): Promise<unknown> | undefined;
}

interface FormEntry {
  fields: Set<RegisteredField>;
  release: () => void;
}

const forms = new WeakMap<HTMLFormElement, FormEntry>();

const byDocumentOrder = ({ element: a }: RegisteredField, { element: b }: RegisteredField): number =>
  // 4 is Node.DOCUMENT_POSITION_FOLLOWING; the number keeps this module free of DOM globals at import time.
  a === b ? 0 : a.compareDocumentPosition(b) & 4 ? -1 : 1;

/** Re-checks duplicates in a field's form (after a field joined or left, or its flow changed). */
export function refreshForm(form: HTMLFormElement): void {
  const seen = new Set<string>();
  for (const field of [...(forms.get(form)?.fields ?? [])].sort(byDocumentOrder)) {
    const flow = field.flowId();
    field.setDuplicate(!!flow && seen.has(flow));
    seen.add(flow);
  }
}

/** Adds a field to its form (holding the form's submissions from the first field on) and re-checks duplicates. */
export function joinForm(form: HTMLFormElement, field: RegisteredField): void {
  let entry = forms.get(form);
  if (!entry) {
    const fields = new Set<RegisteredField>();
    // Nothing to capture (no active, enabled field): the submission goes through untouched. allSettled: the form
    // submits once every capture is done, failed or not.
    const release = holdSubmissions(form, () => {
      const captures = [...fields].map((f) => f.captureForSubmit()).filter(Boolean);
      return captures.length ? Promise.allSettled(captures) : undefined;
    });
    forms.set(form, (entry = { fields, release }));
  }
  entry.fields.add(field);
  refreshForm(form);
}

/** Removes a field from its form (the hold goes with the last field) and re-checks duplicates. */
export function leaveForm(form: HTMLFormElement, field: RegisteredField): void {
  const entry = forms.get(form);
  if (!entry) return;
  entry.fields.delete(field);
  if (entry.fields.size) return refreshForm(form);
  entry.release();
  forms.delete(form);
}
