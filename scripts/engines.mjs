// The three browser engines the browser tests run in, found through env vars with Debian's paths as defaults:
//   chromium  CHROME_PATH    (/usr/bin/chromium)          Playwright (CDP)
//   firefox   FIREFOX_PATH   (/usr/bin/firefox-esr)       puppeteer-core over WebDriver BiDi
//   webkit    WEBKIT_DRIVER  (/usr/bin/WebKitWebDriver)   WebKitGTK's MiniBrowser over classic WebDriver, on an Xvfb
//             WEBKIT_BROWSER (MiniBrowser next to libwebkit2gtk-4.1)   screen when DISPLAY is unset
// `SVC_ENGINE` (a comma-separated list; default `chromium`) picks which ones a run uses.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

export const ENGINES = ['chromium', 'firefox', 'webkit'];

export const paths = {
  chromium: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  firefox: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr',
  webkitDriver: process.env.WEBKIT_DRIVER ?? '/usr/bin/WebKitWebDriver',
  webkitBrowser: process.env.WEBKIT_BROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
};

/** The engines `SVC_ENGINE` names (default chromium); throws on an unknown name. */
export function selectedEngines(value = process.env.SVC_ENGINE) {
  const names = (value || 'chromium')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const list = names.includes('all') ? ENGINES : names;
  for (const name of list) if (!ENGINES.includes(name)) throw new Error(`SVC_ENGINE: unknown engine ${name}; use ${ENGINES.join(', ')}`);
  return list;
}

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(check, what, ms = 15_000) {
  const until = Date.now() + ms;
  for (;;) {
    let ok = false;
    try {
      ok = await check();
    } catch (error) {
      if (error?.message === 'Xvfb exited') throw error;
    }
    if (ok) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * An X display for WebKitGTK: `DISPLAY` when set, otherwise an Xvfb server this process starts (and stops with
 * `stop()`). Answers `{display, stop}`.
 */
export async function ensureDisplay() {
  if (process.env.DISPLAY) return { display: process.env.DISPLAY, stop() {} };
  for (let n = 90 + (process.pid % 50); n < 400; n += 1) {
    if (existsSync(`/tmp/.X${n}-lock`) || existsSync(`/tmp/.X11-unix/X${n}`)) continue;
    const xvfb = spawn('Xvfb', [`:${n}`, '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
    let exited = false;
    xvfb.once('exit', () => {
      exited = true;
    });
    try {
      await waitFor(async () => {
        if (exited) throw new Error('Xvfb exited');
        return existsSync(`/tmp/.X11-unix/X${n}`);
      }, 'Xvfb');
    } catch {
      xvfb.kill('SIGTERM');
      continue;
    }
    return { display: `:${n}`, stop: () => xvfb.kill('SIGTERM') };
  }
  throw new Error('no free X display for Xvfb');
}

/**
 * Starts WebKitWebDriver on a free port with an X display (`display`, else DISPLAY, else a new Xvfb screen);
 * answers `{port, display, stop}`. One WebKitWebDriver serves one session at a time.
 */
export async function startWebKitDriver(display) {
  const screen = display ? { display, stop() {} } : await ensureDisplay();
  const port = await freePort();
  const driver = spawn(paths.webkitDriver, [`--port=${port}`], {
    stdio: ['ignore', 'ignore', 'inherit'],
    // A machine under the C locale makes MiniBrowser's navigator.language "C", which no browser a person runs
    // reports and Intl refuses; the browser's language is named as a person's is.
    env: { ...process.env, DISPLAY: screen.display, LANG: 'en_US.UTF-8' },
  });
  await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/status`)).ok, 'WebKitWebDriver');
  return {
    port,
    display: screen.display,
    stop() {
      driver.kill('SIGTERM');
      screen.stop();
    },
  };
}

/** The WebDriver capabilities of a MiniBrowser session (classic WebDriver: WebKitWebDriver has no BiDi). */
export const webkitCapabilities = {
  browserName: 'MiniBrowser',
  'webkitgtk:browserOptions': { binary: paths.webkitBrowser, args: ['--automation', '--javascript-can-open-windows-automatically=true'] },
  'wdio:enforceWebDriverClassic': true,
};

/** puppeteer-core's launch options for Firefox ESR over WebDriver BiDi. */
export const firefoxLaunchOptions = {
  browser: 'firefox',
  executablePath: paths.firefox,
  headless: true,
  protocol: 'webDriverBiDi',
};
