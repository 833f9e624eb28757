// What the React and Vue tests share: the stand-in hosted decision page and inbox API of the elements' own browser
// tests, the reference server the @web/test-runner plugin starts (for the consent field's real captures), a ledger
// of the listeners and timers a mount leaves behind, and the console messages React and Vue report problems with.
import type { InboxRow } from '@svc/elements';

/** The stand-in hosted decision pages (packages/elements/test/fixtures) on another origin than this page. */
export const SERVICE = `http://127.0.0.1:${location.port}`;
export const TRUST = `${SERVICE}/packages/elements/test/fixtures`;
export const API = 'https://api.svc.example';

/** What the reference server of the test run tells a page (see packages/client/test/sandbox-server.ts). */
export interface Sandbox {
  base_url: string;
  publishable_key: string;
  flow_id: string;
  capture_flow_id: string;
}

let sandbox: Promise<Sandbox> | undefined;
/** The reference server, started on first use with this page's origin allowed. */
export function referenceServer(): Promise<Sandbox> {
  return (sandbox ??= fetch('/__svc__/sandbox.json').then((r) => r.json() as Promise<Sandbox>));
}

/** Tells the stand-in hosted page in `frame` to post a protocol message (a fresh, valid envelope). */
export function sendFromPage(frame: HTMLIFrameElement | null | undefined, type: string, payload: unknown): void {
  frame!.contentWindow!.postMessage({ fixture: 'send', type, payload }, SERVICE);
}

/** The decision's iframe, inside its shadow root. */
export const frameOf = (el: Element) => el.shadowRoot?.querySelector('iframe');

/** A `svc:complete` payload as the hosted page sends it. */
export const completePayload = (exchangeToken: string) =>
  ({ outcome: 'granted', exchange_token: exchangeToken, completed_at: new Date().toISOString().replace(/\.\d{3}Z$/, '.000Z') });

export const inboxRow = (token: string): InboxRow => ({
  kind: 'approval', status: 'pending', trigger: 'value', application_id: 'tp_dev_shop', application_name: 'Shop',
  title: `Pay the plumber (${token})`, summary: null, session_token: token, url: `${TRUST}/decisions/${token}`,
  deadline_at: '2030-01-01T10:00:00.000Z', created_at: '2029-12-31T10:00:00.000Z',
});

/** An inbox API that answers every call with `rows`, recording each call's URL and Authorization header. */
export function inboxApi(rows: InboxRow[]) {
  const calls: { url: string; authorization: string | null }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), authorization: new Headers(init?.headers).get('authorization') });
    return new Response(JSON.stringify({ decisions: rows, next_cursor: null }), { headers: { 'content-type': 'application/json' } });
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

/** Resolves once `condition()` holds, checking every animation frame; rejects after `ms` with `message`. */
export async function until(condition: () => unknown, message: string, ms = 5000): Promise<void> {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > ms) throw new Error(`timed out: ${message}`);
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
}

interface Registration {
  target: EventTarget;
  type: string;
  listener: EventListenerOrEventListenerObject;
  capture: boolean;
  removed: boolean;
}

/** How a registration reads in an assertion: `window message`, `document keydown (capture)`, `FORM submit (capture)`. */
const describeRegistration = ({ target, type, capture }: Registration) =>
  `${target === window ? 'window' : target === document ? 'document' : (target as Element).nodeName ?? 'target'} ${type}${capture ? ' (capture)' : ''}`;

/**
 * Watches every `addEventListener` and `removeEventListener` (once and signal included) and every timer from now
 * until `stop()`. `leftInPage()` lists the listeners added since that are still registered on something still in
 * the page (window, document, a connected node): what an unmounted element would leak. Listeners on detached
 * nodes go away with them. `pendingTimers()` counts intervals and timers of a second or more that neither ran nor
 * were cleared (shorter ones end by themselves: framework and test plumbing).
 */
export function watchLeaks() {
  const proto = EventTarget.prototype;
  const { addEventListener: add, removeEventListener: remove } = proto;
  const registrations: Registration[] = [];
  const captureOf = (options?: boolean | EventListenerOptions) => (typeof options === 'boolean' ? options : !!options?.capture);
  const find = (target: EventTarget, type: string, listener: unknown, capture: boolean) =>
    registrations.find((r) => !r.removed && r.target === target && r.type === type && r.listener === listener && r.capture === capture);

  proto.addEventListener = function (this: EventTarget, type: string, listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions) {
    add.call(this, type, listener, options);
    const capture = captureOf(options);
    if (!listener || find(this, type, listener, capture)) return;
    const registration: Registration = { target: this, type, listener, capture, removed: false };
    registrations.push(registration);
    if (typeof options === 'object') {
      const gone = () => void (registration.removed = true);
      // A `once` listener goes after it ran; this one, added after it, runs right after it.
      if (options.once) add.call(this, type, gone, { capture, once: true });
      if (options.signal) add.call(options.signal, 'abort', gone, { once: true });
    }
  };
  proto.removeEventListener = function (this: EventTarget, type: string, listener: EventListenerOrEventListenerObject | null,
    options?: boolean | EventListenerOptions) {
    remove.call(this, type, listener, options);
    const registration = find(this, type, listener, captureOf(options));
    if (registration) registration.removed = true;
  };

  const timers = { setTimeout: window.setTimeout, clearTimeout: window.clearTimeout, setInterval: window.setInterval, clearInterval: window.clearInterval };
  const pending = new Map<number, number>(); // id -> delay (Infinity for an interval)
  window.setTimeout = ((handler: TimerHandler, delay = 0, ...args: unknown[]) => {
    const id = timers.setTimeout.call(window, () => {
      pending.delete(id);
      (handler as (...a: unknown[]) => void)(...args);
    }, delay);
    pending.set(id, delay);
    return id;
  }) as typeof window.setTimeout;
  window.setInterval = ((handler: TimerHandler, delay = 0, ...args: unknown[]) => {
    const id = timers.setInterval.call(window, handler, delay, ...args);
    pending.set(id, Infinity);
    return id;
  }) as typeof window.setInterval;
  window.clearTimeout = window.clearInterval = ((id?: number) => {
    if (id !== undefined) pending.delete(id);
    timers.clearTimeout.call(window, id);
  }) as typeof window.clearTimeout;

  return {
    leftInPage: () => registrations.filter((r) => !r.removed && (r.target === window || r.target === document ||
      (r.target instanceof Node && r.target.isConnected))).map(describeRegistration),
    /** Listeners added since `watchLeaks()` on window and document, still registered (for a check while mounted). */
    onWindowAndDocument: () => registrations.filter((r) => !r.removed && (r.target === window || r.target === document)).map(describeRegistration),
    pendingTimers: () => [...pending.values()].filter((delay) => delay >= 1000).length,
    stop() {
      proto.addEventListener = add;
      proto.removeEventListener = remove;
      Object.assign(window, timers);
    },
  };
}

/** Collects `console.error` and `console.warn` (React's and Vue's warnings: props, keys, hydration...) until `stop()`. */
export function watchConsole() {
  const original = { error: console.error, warn: console.warn };
  const seen: string[] = [];
  for (const level of ['error', 'warn'] as const) {
    console[level] = (...args: unknown[]) => {
      seen.push(`${level}: ${args.map(String).join(' ')}`);
      original[level].apply(console, args);
    };
  }
  return { seen, stop: () => void Object.assign(console, original) };
}

/**
 * Clicks the open button of an inbox row's `<svc-decision>` with `window.open` counted instead of called; answers how
 * many popups the click asked for (0 when the app's `svc-inbox-open` handler prevented the default).
 */
export async function openRowWithoutPopups(inbox: Element): Promise<number> {
  const decision = inbox.shadowRoot!.querySelector('svc-decision') as (HTMLElement & { updateComplete: Promise<unknown> }) | null;
  await decision!.updateComplete;
  const open = window.open;
  let popups = 0;
  window.open = () => {
    popups += 1;
    return null;
  };
  try {
    decision!.shadowRoot!.querySelector<HTMLElement>('[part~=button]')!.click();
  } finally {
    window.open = open;
  }
  return popups;
}
