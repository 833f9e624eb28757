// End-to-end tests drive real Chromium (Debian's, or the one CHROME_PATH names) against the reference server.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  // Each worker runs its own reference server (e2e/fixtures.ts, worker-scoped) and Chromium; spec files are shared
  // out between the two.
  workers: 2,
  timeout: 30_000,
  forbidOnly: true,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
