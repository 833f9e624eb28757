// Component and browser tests run in real Chromium (Debian's, or the one CHROME_PATH names).
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { frameworksPlugin } from './frameworks/wtr-frameworks-plugin.mjs';
import { svcSandboxPlugin } from './packages/client/test/wtr-sandbox-plugin.mjs';
import { countReporter } from './scripts/wtr-count-reporter.mjs';

export const chromeArgs = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run',
];

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
  ],
  concurrency: 1,
  browserStartTimeout: 60_000,
  testFramework: { config: { timeout: 10_000 } },
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: { executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: chromeArgs },
    }),
  ],
  reporters: [
    defaultReporter(),
    summaryReporter(),
    ...(process.env.SVC_WTR_COUNTS ? [countReporter(process.env.SVC_WTR_COUNTS)] : []),
  ],
};
