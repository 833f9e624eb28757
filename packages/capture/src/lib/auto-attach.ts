import { attachCapture, isAttached, type CaptureHandle, type CaptureOptions } from './attach.js';
import { asCaptureError } from './errors.js';
import { emitError } from './events/emit.js';

/** What {@link autoAttach} returns. */
export interface AutoAttachHandle {
  /** Stops watching for new forms and detaches every form this call attached. */
  disconnect(): void;
}

const FORMS = 'form[data-svc-flow]';

// Reads a form's capture options from its own data attributes, then from the closest <svc-provider>, then from
// the defaults the caller (the script-tag bundle) passes.
function optionsOf(form: HTMLFormElement, defaults: Partial<CaptureOptions>): CaptureOptions {
  const provider = form.closest('svc-provider');
  const pick = (fallback: string | URL | undefined, own: string, ...names: string[]) =>
    [form.getAttribute(own), ...names.map((name) => provider?.getAttribute(name)), fallback].find((v) => v != null) ?? '';
  return {
    ...defaults,
    flowId: form.getAttribute('data-svc-flow') ?? '',
    publishableKey: pick(defaults.publishableKey, 'data-svc-publishable-key', 'publishable-key') as string,
    baseUrl: pick(defaults.baseUrl, 'data-svc-base-url', 'base-url', 'trust-url'),
    ...(form.hasAttribute('data-svc-commit') && { commit: true }),
  };
}

/**
 * Attaches the capture helper to every `<form data-svc-flow="flw_...">` under `root` that carries
 * `data-svc-publishable-key` or sits inside an `<svc-provider publishable-key trust-url>`, now and whenever one is
 * added later, each form at most once; a form whose options are incomplete gets an `svc-error` instead.
 */
export function autoAttach(root: ParentNode & Node = document, defaults: Partial<CaptureOptions> = {}): AutoAttachHandle {
  const handles: CaptureHandle[] = [];
  const failed = new WeakSet<Element>();
  const visit = (form: HTMLFormElement) => {
    if (isAttached(form) || failed.has(form)) return;
    try {
      handles.push(attachCapture(form, optionsOf(form, defaults)));
    } catch (cause) {
      failed.add(form);
      emitError(form, asCaptureError(cause, 'The capture helper could not attach.'));
    }
  };
  // A node and its subtree; text and comment nodes have neither `matches` nor `querySelectorAll`.
  const scan = (node: Node) => {
    if ((node as Element).matches?.(FORMS)) visit(node as HTMLFormElement);
    (node as ParentNode).querySelectorAll?.<HTMLFormElement>(FORMS).forEach(visit);
  };
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      record.addedNodes.forEach(scan);
      if (record.attributeName) scan(record.target);
    }
  });
  observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-svc-flow'] });
  scan(root);
  return {
    disconnect() {
      observer.disconnect();
      for (const handle of handles.splice(0)) handle.detach();
    },
  };
}
