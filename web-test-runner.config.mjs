// Component and browser tests run in real browsers: Chromium (Debian's, or the one CHROME_PATH names) by default;
// SVC_ENGINE=firefox|webkit|chromium,firefox,webkit|all picks Firefox ESR and WebKitGTK too (see scripts/engines.mjs).
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import { chromeLauncher } from '@web/test-runner-chrome';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { WebdriverLauncher } from '@web/test-runner-webdriver';
import * as puppeteerCore from 'puppeteer-core';
import { firefoxLaunchOptions, paths, selectedEngines, startWebKitDriver, webkitCapabilities } from './scripts/engines.mjs';
import { frameworksPlugin } from './frameworks/wtr-frameworks-plugin.mjs';
import { svcSandboxPlugin } from './packages/client/test/wtr-sandbox-plugin.mjs';
import { personServerPlugin } from './packages/elements/test/wtr-person-servers.mjs';
import { countReporter } from './scripts/wtr-count-reporter.mjs';
import { keysPlugin } from './scripts/wtr-keys-plugin.mjs';

export const chromeArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** WebKitGTK's MiniBrowser through WebKitWebDriver, which this launcher starts (on an Xvfb screen) and stops. */
class WebKitLauncher extends WebdriverLauncher {
  constructor() {
    super({ hostname: '127.0.0.1', port: 0, path: '/', logLevel: 'error', capabilities: webkitCapabilities });
  }

  async initialize(config, testFiles) {
    this.webkit = await startWebKitDriver();
    this.options.port = this.webkit.port;
    await super.initialize(config, testFiles);
    this.name = 'WebKit';
  }

  /**
   * A second MiniBrowser, with cookies of its own, for a person acting in another window (the OAuth walk of
   * packages/client/test/wtr-sandbox-plugin.mjs): WebKitWebDriver runs one session at a time, so a second driver.
   */
  async newIsolatedSession() {
    this.second ??= startWebKitDriver(this.webkit.display);
    const { port } = await this.second;
    const { remote } = await import('webdriverio');
    return remote({ ...this.options, port });
  }

  async stop() {
    await super.stop();
    (await this.second)?.stop();
    this.webkit?.stop();
  }
}

const launchers = {
  chromium: () =>
    playwrightLauncher({
      product: 'chromium',
      launchOptions: { executablePath: paths.chromium, args: chromeArgs },
    }),
  // puppeteer-core drives Firefox over WebDriver BiDi; Playwright cannot drive a stock Firefox.
  firefox: () => chromeLauncher({ puppeteer: puppeteerCore, launchOptions: firefoxLaunchOptions }),
  webkit: () => new WebKitLauncher(),
};

export default {
  files: ['packages/*/src/**/*.browser.test.ts', 'frameworks/**/*.browser.test.{ts,tsx}'],
  nodeResolve: { exportConditions: ['source', 'browser', 'import'] },
  plugins: [
    esbuildPlugin({ ts: true, tsconfig: 'tsconfig.base.json', target: 'es2022' }),
    // The React tests' TSX, with React 19's JSX runtime (frameworks/tsconfig.json says `react-jsx`).
    esbuildPlugin({ tsx: true, tsconfig: 'frameworks/tsconfig.json', target: 'es2022' }),
    // React as ES modules and Vue's browser build with its template compiler, for frameworks/*.browser.test.*.
    frameworksPlugin(),
    // Serves /__svc__/sandbox.json, starting a reference server with the page's origin allowed on first use.
    svcSandboxPlugin(),
    // `svc-<name>-person`: a new signed-in person with consent records, a credential, data requests or delegation
    // grants, from a reference server of its own per element.
    ...['records', 'connections', 'credentials', 'data-requests', 'delegations', 'data-offers', 'vouches'].map(personServerPlugin),
    personServerPlugin('agreements'),
    personServerPlugin('receipts'),
    personServerPlugin('evidence'),
    personServerPlugin('agents'),
    personServerPlugin('applications'),
    personServerPlugin('governance'),
    personServerPlugin('webhooks'),
    personServerPlugin('policies'),
    // `svc-decisions-person`: consent decisions open, expired, closing and declined, for <svc-decision>'s lifecycle tests.
    personServerPlugin('decisions'),
    // `svc-press`: key chords (Shift+Tab) in every engine.
    keysPlugin(),
  ],
  concurrency: 1,
  browserStartTimeout: 60_000,
  testFramework: { config: { timeout: 10_000 } },
  browsers: selectedEngines().map((engine) => launchers[engine]()),
  reporters: [defaultReporter(), summaryReporter(), ...(process.env.SVC_WTR_COUNTS ? [countReporter(process.env.SVC_WTR_COUNTS)] : [])],
};
