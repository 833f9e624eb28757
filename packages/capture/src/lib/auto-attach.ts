import { attachCapture, isAttached, type CaptureHandle, type CaptureOptions } from './attach.js';
import { CaptureError } from './errors.js';
import { emit } from './events/emit.js';

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
  const pick = (own: string, providers: string[]) =>
    form.getAttribute(own) ?? providers.map((name) => provider?.getAttribute(name)).find((v) => v != null) ?? undefined;
  const options: CaptureOptions = {
    ...defaults,
    flowId: form.getAttribute('data-svc-flow') ?? '',
    publishableKey: pick('data-svc-publishable-key', ['publishable-key']) ?? defaults.publishableKey ?? '',
    baseUrl: pick('data-svc-base-url', ['base-url', 'trust-url']) ?? defaults.baseUrl ?? '',
  };
  if (form.hasAttribute('data-svc-commit')) options.commit = true;
  return options;
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
      const error = cause instanceof CaptureError ? cause : new CaptureError('unexpected', 'The capture helper could not attach.', { cause });
      emit(form, 'svc-error', error.toDetail());
    }
  };
  const scan = (node: Node) => {
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
    if ((node as Element).matches?.(FORMS)) visit(node as HTMLFormElement);
    for (const form of Array.from((node as ParentNode).querySelectorAll<HTMLFormElement>(FORMS))) visit(form);
  };

  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes') scan(record.target);
      else for (const node of Array.from(record.addedNodes)) scan(node);
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
