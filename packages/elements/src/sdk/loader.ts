/**
 * The script tag `/sdk/v1/svc.js`: a small classic script that defines each element only when the page uses it.
 * It watches the document for `<svc-decision>`, `<svc-consent-field>`, `<svc-inbox>`, `<svc-records>`, the people's
 * other elements (`<svc-data-offers>`, …),
 * `<svc-provider>` and `<form data-svc-flow>` (present now or added later) and then imports that element's ES module chunk, plus the chunks
 * it shares with the others, from the directory it was loaded from; a page pays for what it shows and nothing else.
 * Elements inside another component's shadow root are out of its sight: `Svc.load('svc-decision')` defines one by
 * name (`<svc-inbox>` defines the `<svc-decision>` popups of its rows itself).
 *
 * It runs as a classic script (with `async`, `defer` or neither) and as `type="module"`. It creates no script
 * element: chunks come through `import()`, which carries the tag's nonce, so a strict policy needs nothing more.
 * When a chunk cannot be fetched, the elements waiting for it get an `svc-error` (`code: "network"`) and forms
 * submit as if the SDK were absent.
 *
 * @module @svc/elements/sdk/loader
 */
import type { CaptureHandle, CaptureOptions, AutoAttachHandle } from '@svc/capture';
import chunks from 'svc:chunks';
import { type RedirectResult, resultOf } from '../decision/redirect-result.js';

/** What the page can ask for by name: the four elements, and the capture helper behind the snippet. */
type Part = keyof typeof chunks;
/** A part's chunk: its element as the default export, the shared defaults' setter, and its public exports. */
type Chunk = Record<string, unknown> & { default?: CustomElementConstructor; setConfigDefaults?: (config: { trustUrl: string }) => void };

interface SvcGlobal {
  /** Reads how the person came back from redirect mode (unverified; see `readRedirectResult`). */
  readRedirectResult(url?: string | URL): RedirectResult;
  /** Loads and defines the named parts (every one when none is named); resolves with each part's exports. */
  load(...parts: Part[]): Promise<Record<string, unknown>[]>;
  /** `attachCapture` of `@svc/capture`, loaded on first use; the handle works at once. */
  attachCapture(form: HTMLFormElement, options: CaptureOptions): CaptureHandle;
  /** `autoAttach` of `@svc/capture`, loaded on first use; the handle works at once. */
  autoAttach(root?: ParentNode & Node, defaults?: Partial<CaptureOptions>): AutoAttachHandle;
  [name: string]: unknown;
}

declare global {
  interface Window {
    /** The script tag's API (`/sdk/v1/svc.js`). */
    Svc?: SvcGlobal;
  }
}

// In a classic script `currentScript` is this tag; as `type="module"` it is null, so find the tag by its name.
const base = new URL(
  (document.currentScript as HTMLScriptElement | null)?.src ||
    document.querySelector<HTMLScriptElement>('script[src$="svc.js"]')?.src ||
    '',
  document.baseURI,
);
// Only a loader served from a service's versioned SDK path names that service; a copy elsewhere names nothing.
const service = /\/sdk\/v\d+\/svc\.js$/.test(base.pathname) ? base.origin : undefined;
const loading: Partial<Record<Part, Promise<Chunk>>> = {};
const PARTS = Object.keys(chunks) as Part[];
const FORMS = 'form[data-svc-flow]';
const selector = (part: Part) => (part === 'svc-capture' ? FORMS : part);

/**
 * Loads a part and defines its element (unless another copy of the elements already did), after `<svc-provider>`
 * when the page has one, since it answers the others' requests for configuration. A chunk that cannot be fetched
 * reaches the page as `svc-error` on the elements or forms that wait for it.
 */
async function use(part: Part): Promise<Chunk> {
  const provider = part !== 'svc-provider' && document.querySelector('svc-provider') ? use('svc-provider') : undefined;
  try {
    // The part's chunk and the chunks it imports, all at once (no waterfall), once.
    const own = await (loading[part] ??= Promise.all(chunks[part].map((file) => import(new URL(file, base).href) as Promise<Chunk>)).then(
      ([own]) => {
        if (service) own!.setConfigDefaults?.({ trustUrl: service });
        return own!;
      },
    ));
    await provider;
    if (own.default && !customElements.get(part)) customElements.define(part, own.default);
    return own;
  } catch (error) {
    for (const target of document.querySelectorAll(selector(part))) {
      target.dispatchEvent(
        new CustomEvent('svc-error', { bubbles: true, composed: true, detail: { code: 'network', message: String(error) } }),
      );
    }
    throw error;
  }
}

type Method = (...args: unknown[]) => unknown;

/**
 * A function of the capture helper, loaded on first use. What it returns is usable at once: each method call
 * waits for the real handle, and a failure has already reached the forms' `svc-error` listeners.
 */
const later =
  (name: string) =>
  (...args: unknown[]) => {
    const handle = use('svc-capture').then((own) => (own[name] as Method)(...args) as Record<string, Method>);
    handle.catch(() => {});
    return new Proxy(
      {},
      {
        get:
          (_, method: string) =>
          (...rest: unknown[]) =>
            handle.then((real) => real[method]!(...rest)),
      },
    );
  };

const Svc = {
  readRedirectResult: resultOf,
  load: (...parts) => Promise.all((parts.length ? parts : PARTS).map(use)),
  attachCapture: later('attachCapture'),
  autoAttach: later('autoAttach'),
} as SvcGlobal;

// Snippet without code: every `<form data-svc-flow>` that names its key or sits in an `<svc-provider>`, now and
// later. It reads each form's controls, so it attaches once the document is parsed.
const snippet = () => void Svc.autoAttach(document, service ? { baseUrl: service } : {});

// What is on the page now and what is added later; once every part is loaded there is nothing left to watch. A
// provider alone needs no code (it only serves the elements), so it loads with the first element.
function watch(): void {
  const waiting = new Set(PARTS);
  const check = () => {
    for (const part of waiting) {
      if (part === 'svc-provider' && waiting.has('svc-decision') && waiting.has('svc-consent-field')) continue;
      if (!document.querySelector(selector(part))) continue;
      waiting.delete(part);
      if (part !== 'svc-capture') use(part).catch(() => {});
      else if (document.readyState !== 'loading') snippet();
      else addEventListener('DOMContentLoaded', snippet);
    }
    if (!waiting.size) observer.disconnect();
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true, attributeFilter: ['data-svc-flow'] });
  check();
}

// One loader per page, even when the tag is there twice.
if (!window.Svc?.load) {
  window.Svc = Svc;
  watch();
}
