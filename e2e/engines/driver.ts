// One small driver over the engines Playwright does not drive as shipped by Debian: Firefox ESR through
// puppeteer-core over WebDriver BiDi, WebKitGTK's MiniBrowser through WebKitWebDriver (classic WebDriver, via
// webdriverio), on the same terms (scripts/engines.mjs finds the browsers). Tests find elements with a function
// run in the page, given queries that see through shadow roots, and act on them with the engine's real input: a
// pointer click, typed keys. A tab's commands aim at its top document, an iframe (`inFrame`) or a popup
// (`popup().within`).
import * as puppeteer from 'puppeteer-core';
import type { Browser as WdioBrowser } from 'webdriverio';
import { firefoxLaunchOptions, startWebKitDriver, webkitCapabilities } from '../../scripts/engines.mjs';

export type Engine = 'firefox' | 'webkit';

/** Queries through every open shadow root, by what a person sees (the subset of Playwright's getByRole we use). */
export interface Query {
  /** Every element matching `selector` in the document and in every open shadow root under it. */
  all(selector: string): Element[];
  /** The button whose text (or aria-label) is `name`, once shown and enabled. */
  button(name: string): Element | undefined;
  /** The form control whose label's text contains `label`, once shown and enabled. */
  field(label: string): Element | undefined;
}

/** A function run in the page that finds one element (or nothing) from serialisable arguments. */
export type Find<A extends unknown[]> = (q: Query, ...args: A) => Element | null | undefined;

export interface Tab {
  readonly engine: Engine;
  goto(url: string): Promise<void>;
  /** The current document's URL. */
  url(): Promise<string>;
  /** Runs `fn` in the current document with serialisable arguments and answers its (awaited) result. */
  evaluate<A extends unknown[], R>(fn: (...args: A) => R | Promise<R>, ...args: A): Promise<R>;
  /** Polls `fn` in the current document until it answers something truthy, and answers that. */
  waitFor<A extends unknown[], R>(what: string, fn: (...args: A) => R | Promise<R>, ...args: A): Promise<NonNullable<R>>;
  /** The text of the element `find` finds, once it finds one. */
  text<A extends unknown[]>(find: Find<A>, ...args: A): Promise<string>;
  /** A real click on the element `find` finds, once it finds one and it has settled in view. */
  click<A extends unknown[]>(find: Find<A>, ...args: A): Promise<void>;
  /** Focuses the element `find` finds, once it finds one, and types `text` with real key presses. */
  type<A extends unknown[]>(text: string, find: Find<A>, ...args: A): Promise<void>;
  /** Runs `body` with this tab's commands aimed at the iframe `find` finds, then back at this document. */
  inFrame<A extends unknown[], R>(body: () => Promise<R>, find: Find<A>, ...args: A): Promise<R>;
  /** Runs `opener`, waits for the window it opens to load, and answers it. */
  popup(opener: () => Promise<void>): Promise<Popup>;
  close(): Promise<void>;
}

/** A window the page opened. */
export interface Popup {
  /** Runs `body` with the tab's commands aimed at this window, then back where they were. */
  within<R>(body: () => Promise<R>): Promise<R>;
  /** Closes the window, as a person does. */
  close(): Promise<void>;
}

const WAIT_MS = 10_000;

/** Answers the first truthy result of `read`; a throw (a document going away mid-navigation) counts as not yet. */
async function poll<R>(what: string, read: () => Promise<R>): Promise<NonNullable<R>> {
  const until = Date.now() + WAIT_MS;
  let last: unknown;
  for (;;) {
    try {
      const value = await read();
      if (value) return value as NonNullable<R>;
    } catch (error) {
      last = error;
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}${last ? ` (last: ${String(last)})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether the current document is a loaded page (a new window starts on about:blank). */
const loaded = () => location.href !== 'about:blank' && document.readyState === 'complete';

/** The page's side of {@link Query}; self-contained, as it runs in the page. */
function queries(): Query {
  const all = (selector: string): Element[] => {
    const found: Element[] = [];
    const walk = (root: Document | ShadowRoot) => {
      found.push(...root.querySelectorAll(selector));
      for (const element of root.querySelectorAll('*')) if (element.shadowRoot) walk(element.shadowRoot);
    };
    walk(document);
    return found;
  };
  // What a person can act on, as Playwright waits for before acting: shown and not disabled (a page busy with a
  // request disables its buttons).
  const usable = (element: Element) => element.checkVisibility() && !(element as HTMLButtonElement).disabled;
  const text = (element: Element) => (element.getAttribute('aria-label') ?? element.textContent ?? '').replace(/\s+/g, ' ').trim();
  return {
    all,
    button: (name) => all('button, [role=button]').find((element) => text(element) === name && usable(element)),
    field: (label) => {
      const found = all('label').find((element) => text(element).includes(label)) as HTMLLabelElement | undefined;
      const control = found?.control ?? found?.querySelector('input, select, textarea');
      return control && usable(control) ? control : undefined;
    },
  };
}

/**
 * Whether `element` is where a click would land: in view, its box the same over two frames (a frame that resizes
 * moves what it shows), and the topmost element at its centre. Playwright checks the same before a click; a
 * click at coordinates taken a frame too early reaches nothing.
 */
function settled(element: Element): Promise<boolean> {
  // No named inner functions: this one is passed to the page as it is, without the `__name` prelude of `call`.
  element.scrollIntoView({ block: 'nearest' });
  const before = JSON.stringify(element.getBoundingClientRect());
  return new Promise((resolve) =>
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        const rect = element.getBoundingClientRect();
        const top = (element.getRootNode() as Document | ShadowRoot).elementFromPoint(
          rect.left + rect.width / 2,
          rect.top + rect.height / 2,
        );
        resolve(
          JSON.stringify(rect) === before &&
            rect.width > 0 &&
            (top === element || element.contains(top) || (top as HTMLLabelElement | null)?.control === element),
        );
      }),
    ),
  );
}

/**
 * A call of `fn` with `args` as script source: how both protocols take a function with arguments. `__name` is the
 * helper tsx's esbuild wraps named functions in, which the page lacks.
 */
const call = (fn: (...args: never[]) => unknown, args: unknown[]) =>
  `(() => { const __name = (f) => f; return (${fn.toString()})(...${JSON.stringify(args)}); })()`;

/** A call of the finder `find`, given the page's {@link Query} first. */
const callFind = (find: Find<unknown[]>, args: unknown[]) =>
  `(() => { const __name = (f) => f; return (${find.toString()})((${queries.toString()})(), ...${JSON.stringify(args)}); })()`;

// ---- Firefox: puppeteer-core over WebDriver BiDi ----

async function firefoxTab(): Promise<Tab> {
  const browser = await puppeteer.launch(firefoxLaunchOptions as puppeteer.LaunchOptions);
  const page = (await browser.pages())[0] ?? (await browser.newPage());
  let context: puppeteer.Page | puppeteer.Frame = page;
  const handle = (find: Find<unknown[]>, args: unknown[]) =>
    poll(
      `${find.toString()} ${JSON.stringify(args)}`,
      async () => (await context.evaluateHandle(callFind(find, args))).asElement() as puppeteer.ElementHandle<Element> | null,
    );
  // Runs `body` with the tab's commands aimed at `target`, then back where they were.
  const aimedAt = async <R>(target: puppeteer.Page | puppeteer.Frame, body: () => Promise<R>) => {
    const outer = context;
    context = target;
    try {
      return await body();
    } finally {
      context = outer;
    }
  };
  const tab: Tab = {
    engine: 'firefox',
    async goto(url) {
      context = page;
      await page.goto(url);
    },
    url: async () => context.url(),
    evaluate: async (fn, ...args) => context.evaluate(call(fn, args)) as never,
    waitFor: (what, fn, ...args) => poll(what, () => tab.evaluate(fn, ...args)),
    async text(find, ...args) {
      return (await handle(find as Find<unknown[]>, args)).evaluate((element) => element.textContent ?? '');
    },
    async click(find, ...args) {
      const element = await poll('a settled element to click', async () => {
        const found = await handle(find as Find<unknown[]>, args);
        return (await found.evaluate(settled)) && found;
      });
      await element.click();
    },
    async type(text, find, ...args) {
      await (await handle(find as Find<unknown[]>, args)).type(text);
    },
    async inFrame(body, find, ...args) {
      const frame = await (await handle(find as Find<unknown[]>, args)).contentFrame();
      if (!frame) throw new Error('not an iframe');
      return aimedAt(frame, body);
    },
    async popup(opener) {
      const opened = new Promise<puppeteer.Page>((resolve) => page.once('popup', (popup) => popup && resolve(popup)));
      await opener();
      const popup = await opened;
      const within = <R>(body: () => Promise<R>) => aimedAt(popup, body);
      await within(() => tab.waitFor('the popup to load', loaded));
      return { within, close: () => popup.close() };
    },
    close: () => browser.close(),
  };
  return tab;
}

// ---- WebKit: WebKitWebDriver (classic WebDriver) through webdriverio ----

/** The element reference in a WebDriver answer. */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

async function webkitTab(): Promise<Tab> {
  const driver = await startWebKitDriver();
  const { remote } = await import('webdriverio');
  let session: WdioBrowser;
  try {
    session = await remote({
      hostname: '127.0.0.1',
      port: driver.port,
      path: '/',
      logLevel: 'error',
      capabilities: webkitCapabilities as never,
    });
  } catch (error) {
    driver.stop();
    throw error;
  }
  const top = await session.getWindowHandle();
  await session.setWindowRect(0, 0, 1280, 1024);
  // The raw protocol command, whose answer keeps its WebDriver element reference.
  const elementId = (find: Find<unknown[]>, args: unknown[]) =>
    poll(
      `${find.toString()} ${JSON.stringify(args)}`,
      async () => ((await session.executeScript(`return ${callFind(find, args)}`, [])) as Record<string, string> | null)?.[ELEMENT],
    );
  const tab: Tab = {
    engine: 'webkit',
    async goto(url) {
      await session.switchToWindow(top);
      await session.navigateTo(url);
    },
    url: () => session.executeScript('return location.href', []) as Promise<string>,
    evaluate: (fn, ...args) => session.executeScript(`return ${call(fn, args)}`, []) as never,
    waitFor: (what, fn, ...args) => poll(what, () => tab.evaluate(fn, ...args)),
    async text(find, ...args) {
      const id = await elementId(find as Find<unknown[]>, args);
      return (await session.executeScript('return arguments[0].textContent', [{ [ELEMENT]: id }])) as string;
    },
    async click(find, ...args) {
      const id = await poll('a settled element to click', async () => {
        const found = await elementId(find as Find<unknown[]>, args);
        return (await session.executeScript(`return (${settled.toString()})(arguments[0])`, [{ [ELEMENT]: found }])) && found;
      });
      await session.elementClick(id);
    },
    async type(text, find, ...args) {
      await session.elementSendKeys(await elementId(find as Find<unknown[]>, args), text);
    },
    async inFrame(body, find, ...args) {
      const id = await elementId(find as Find<unknown[]>, args);
      // WebKitWebDriver scrolls only the frame's own document to a click: show the whole frame first.
      await session.executeScript('arguments[0].scrollIntoView({ block: "start" })', [{ [ELEMENT]: id }]);
      await session.switchFrame({ [ELEMENT]: id } as never);
      try {
        return await body();
      } finally {
        await session.switchToParentFrame();
      }
    },
    async popup(opener) {
      const known = new Set(await session.getWindowHandles());
      await opener();
      const handle = await poll('the popup window', async () => (await session.getWindowHandles()).find((h) => !known.has(h)));
      const within = async <R>(body: () => Promise<R>) => {
        const outer = await session.getWindowHandle();
        await session.switchToWindow(handle);
        try {
          return await body();
        } finally {
          await session.switchToWindow(outer);
        }
      };
      await within(() => tab.waitFor('the popup to load', loaded));
      return {
        within,
        async close() {
          const outer = await session.getWindowHandle();
          await session.switchToWindow(handle);
          await session.closeWindow();
          await session.switchToWindow(outer);
        },
      };
    },
    async close() {
      try {
        await session.deleteSession();
      } finally {
        driver.stop();
      }
    },
  };
  return tab;
}

/** Launches `engine` and answers its one tab. */
export function openTab(engine: Engine): Promise<Tab> {
  return engine === 'firefox' ? firefoxTab() : webkitTab();
}
