import type { ServerContext } from './context.js';

type CloseHook = () => void | Promise<void>;

const hooks = new WeakMap<ServerContext, CloseHook[]>();

/**
 * Registers work to finish when the server closes (stop a timer, drain a worker), run before the database
 * closes. Hooks run in reverse order of registration, one after the other.
 */
export function onClose(ctx: ServerContext, hook: CloseHook): void {
  const list = hooks.get(ctx) ?? [];
  list.push(hook);
  hooks.set(ctx, list);
}

/** Runs and forgets every hook registered for `ctx`; a failing hook is logged and does not stop the others. */
export async function runCloseHooks(ctx: ServerContext): Promise<void> {
  const list = hooks.get(ctx) ?? [];
  hooks.delete(ctx);
  for (const hook of list.reverse()) {
    try {
      await hook();
    } catch (err) {
      console.error('[svc-server] close hook failed', err);
    }
  }
}
