// One session's timers, frames and other undo steps, released together, so tearing a session down cannot leave a
// listener, a timer or an animation frame behind.

/** Releases what one session scheduled or subscribed to; each method returns a function that undoes it early. */
export class Scope {
  readonly #cleanups = new Set<() => void>();
  #closed = false;

  /** Registers `cleanup` to run on dispose (at once when already disposed); returns a function that runs it now instead. */
  add(cleanup: () => void): () => void {
    const once = () => {
      if (this.#cleanups.delete(once)) cleanup();
    };
    this.#cleanups.add(once);
    if (this.#closed) once();
    return once;
  }

  /** `setTimeout` that is cleared on dispose. */
  timeout(callback: () => void, ms: number): () => void {
    return this.#once((run) => setTimeout(run, ms), clearTimeout, callback);
  }

  /** `setInterval` that is cleared on dispose. */
  interval(callback: () => void, ms: number): () => void {
    const handle = setInterval(callback, ms);
    return this.add(() => clearInterval(handle));
  }

  /** `requestAnimationFrame` that is cancelled on dispose. */
  frame(callback: () => void): () => void {
    return this.#once(requestAnimationFrame, cancelAnimationFrame, callback);
  }

  /** Runs every registered cleanup; safe to call more than once. */
  dispose(): void {
    this.#closed = true;
    for (const cleanup of this.#cleanups) cleanup();
  }

  /** Schedules `callback` once with `schedule`, forgetting its `unschedule` step when it runs. */
  #once<H>(schedule: (run: () => void) => H, unschedule: (handle: H) => void, callback: () => void): () => void {
    const handle = schedule(() => {
      this.#cleanups.delete(cancel);
      callback();
    });
    const cancel = this.add(() => unschedule(handle));
    return cancel;
  }
}
