/**
 * Submits `form` again as `submitter` did: `requestSubmit` (not `submit`) so validation and the page's own submit
 * listeners run; a submitter that left the form is dropped.
 */
export function requestSubmitAs(form: HTMLFormElement, submitter: HTMLElement | null): void {
  try {
    form.requestSubmit(submitter?.isConnected && (submitter as HTMLButtonElement).form === form ? submitter : null);
  } catch {
    form.requestSubmit();
  }
}

/**
 * Holds back each real submission of `form` while `work()` runs, then submits the form once more, as its submitter
 * did, whether the work succeeded or not. A submission while the work is under way (a second click or Enter) is
 * dropped; `work` returning undefined lets that submission through untouched. Returns the function that stops
 * holding (work already under way still ends in its one submission). Shared with `<svc-consent-field>`.
 */
export function holdSubmissions(form: HTMLFormElement, work: () => Promise<unknown> | undefined): () => void {
  let pending = false;
  let resubmitting = false;
  // Registered in the capture phase on the form, so it runs before the page's own submit listeners on the form
  // and its ancestors: they see only the one submission that follows the work, never the held-back one.
  const onSubmit = (event: SubmitEvent): void => {
    // Our own re-submission, a synthetic event (it would not submit anything), or one the page already cancelled.
    if (resubmitting || !event.isTrusted || event.defaultPrevented) return;
    if (!pending) {
      const running = work();
      if (!running) return;
      pending = true;
      const { submitter } = event;
      // A task later, not a microtask: work that fails at once (invalid_control, no_purposes) settles while the
      // browser is still firing this submit event, and a requestSubmit() then is silently ignored.
      const resubmit = () =>
        setTimeout(() => {
          pending = false;
          resubmitting = true;
          try {
            requestSubmitAs(form, submitter);
          } finally {
            resubmitting = false;
          }
        });
      running.then(resubmit, resubmit);
    }
    event.preventDefault();
    event.stopImmediatePropagation();
  };
  form.addEventListener('submit', onSubmit, { capture: true });
  return () => form.removeEventListener('submit', onSubmit, { capture: true });
}
