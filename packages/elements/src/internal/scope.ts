// One session's timers, frames and other undo steps, released together, so tearing a session down cannot leave a
// listener, a timer or an animation frame behind.

/** Releases what one session scheduled or subscribed to; each method returns a function that undoes it early. */
export class Scope {
  private readonly cleanups = new Set<() => void>();
  private closed = false;

  /** True once {@link Scope.dispose} ran; nothing can be added after that. */
  get disposed(): boolean {
    return this.closed;
  }

  /** Registers `cleanup` to run on dispose; returns a function that runs it now instead. */
  add(cleanup: () => void): () => void {
    if (this.closed) {
      cleanup();
      return () => undefined;
    }
    const once = () => {
      if (this.cleanups.delete(once)) cleanup();
    };
    this.cleanups.add(once);
    return once;
  }

  /** `setTimeout` that is cleared on dispose. */
  timeout(callback: () => void, ms: number): () => void {
    const handle = setTimeout(() => {
      this.cleanups.delete(cancel);
      callback();
    }, ms);
    const cancel = this.add(() => clearTimeout(handle));
    return cancel;
  }

  /** `setInterval` that is cleared on dispose. */
  interval(callback: () => void, ms: number): () => void {
    const handle = setInterval(callback, ms);
    return this.add(() => clearInterval(handle));
  }

  /** `requestAnimationFrame` that is cancelled on dispose. */
  frame(callback: () => void): () => void {
    const handle = requestAnimationFrame(() => {
      this.cleanups.delete(cancel);
      callback();
    });
    const cancel = this.add(() => cancelAnimationFrame(handle));
    return cancel;
  }

  /** Runs every registered cleanup; safe to call more than once. */
  dispose(): void {
    this.closed = true;
    for (const cleanup of [...this.cleanups]) cleanup();
    this.cleanups.clear();
  }
}
