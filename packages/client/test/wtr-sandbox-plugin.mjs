// @web/test-runner plugin: serves `/__svc__/sandbox.json` to browser tests, starting one reference server (in a
// child process, from the TypeScript sources) the first time a test asks, with the test page's origin allowed and
// a public OAuth client registered for it. For the OAuth tests it also serves the client's callback page
// (`/__svc__/oauth/callback`) and the `svc-oauth-authorize` command: a person signing in on the service's hosted
// pages in another tab of the same browser engine (Playwright drives Chromium, puppeteer-core Firefox, a second
// WebDriver session WebKit; a page cannot script another origin's page).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('./sandbox-server.ts', import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));
const CALLBACK = '/__svc__/oauth/callback';

/**
 * Walks the hosted sign-in (email, then the sandbox code the page shows) and consent pages in `page` from `url`,
 * answering with `decision`, until the service sends the tab to the callback page on `appOrigin`; returns that URL.
 */
async function authorizeInTab(page, url, email, decision, appOrigin) {
  const done = (at) => new URL(at).pathname === CALLBACK;
  await page.goto(url);
  for (let step = 0; step < 6 && !done(page.url()); step += 1) {
    const data = JSON.parse((await page.locator('#svc-oauth-data').textContent()) ?? 'null');
    const form = page.locator('svc-oauth-page');
    const before = page.url();
    let submit;
    if (data?.step === 'email') {
      await form.getByLabel('Email address').fill(email);
      submit = form.getByRole('button', { name: 'Continue' });
    } else if (data?.step === 'code') {
      await form.getByLabel('Code').fill(data.sandbox_code);
      submit = form.getByRole('button', { name: 'Verify' });
    } else if (data?.step === 'consent') {
      submit = form.getByRole('button', { name: decision === 'deny' ? 'Deny' : 'Allow', exact: true });
    } else {
      throw new Error(`not a sign-in page: ${before}`);
    }
    await Promise.all([page.waitForURL((next) => next.href !== before), submit.click()]);
  }
  if (!done(page.url())) throw new Error(`the sign-in did not reach the callback: ${page.url()}`);
  return page.url();
}

/**
 * In the hosted page: answers the step it shows, filling the field and clicking the button by their visible names
 * (the same ones the Playwright walk uses), for engines driven without Playwright's locators.
 */
function answerStepInPage(email, decision) {
  const data = JSON.parse(document.querySelector('#svc-oauth-data')?.textContent ?? 'null');
  const host = document.querySelector('svc-oauth-page');
  const root = host?.shadowRoot ?? host ?? document;
  const fill = (label, value) => {
    const forId = [...root.querySelectorAll('label')].find((l) => l.textContent.trim() === label)?.htmlFor;
    const input = forId && root.querySelector(`#${forId}`);
    if (!input) throw new Error(`no field labelled ${label}`);
    input.focus();
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
  };
  const click = (name) => {
    const button = [...root.querySelectorAll('button')].find((b) => b.textContent.trim() === name);
    if (!button) throw new Error(`no button ${name}`);
    button.click();
  };
  if (data?.step === 'email') {
    fill('Email address', email);
    click('Continue');
  } else if (data?.step === 'code') {
    fill('Code', data.sandbox_code);
    click('Verify');
  } else if (data?.step === 'consent') {
    click(decision === 'deny' ? 'Deny' : 'Allow');
  } else {
    return `not a sign-in page: ${location.href}`;
  }
  return '';
}

/**
 * The same walk as authorizeInTab through a minimal driver `{goto(url), url(), answer(email, decision)}` (puppeteer
 * page or WebDriver session): answer a step, wait for the URL to change, until the callback page.
 */
async function authorizeWithDriver(driver, url, email, decision) {
  const done = (at) => new URL(at).pathname === CALLBACK;
  await driver.goto(url);
  for (let step = 0; step < 6 && !done(await driver.url()); step += 1) {
    const before = await driver.url();
    const problem = await driver.answer(email, decision);
    if (problem) throw new Error(problem);
    const until = Date.now() + 10_000;
    while ((await driver.url()) === before) {
      if (Date.now() > until) throw new Error(`the sign-in did not leave ${before}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Let the next page's element render before reading it.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const at = await driver.url();
  if (!done(at)) throw new Error(`the sign-in did not reach the callback: ${at}`);
  return at;
}

/** The plugin; tests fetch `/__svc__/sandbox.json` for `{base_url, publishable_key, flow_id, capture_flow_id, application_id, oauth_client_id, oauth_redirect_uri, countries}`. */
export function svcSandboxPlugin() {
  let child;
  let sandbox;

  function start(origin) {
    child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', entry, origin], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    return new Promise((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the svc sandbox server exited with ${code}`)));
      createInterface({ input: child.stdout }).once('line', (line) => resolve(line));
    });
  }

  return {
    name: 'svc-sandbox',
    serve(context) {
      if (context.path === CALLBACK) {
        return { body: '<!doctype html><title>Signed in</title><p>Back at the app.</p>', type: 'text/html' };
      }
      if (context.path !== '/__svc__/sandbox.json') return undefined;
      sandbox ??= start(context.origin);
      return sandbox.then((body) => ({ body, type: 'application/json' }));
    },
    /**
     * `svc-oauth-authorize {url, email, decision?}`: the person's side of a sign-in, in a tab of its own browser
     * context (its own cookies, the hosted pages' CSP enforced: their form-action lets the last redirect reach the
     * client's origin) of the same Chromium; answers the callback URL.
     */
    async executeCommand({ command, payload, session }) {
      if (command !== 'svc-oauth-authorize') return undefined;
      if (session.browser.type === 'puppeteer') {
        // Firefox over WebDriver BiDi: a page in a browser context of its own (its own cookies).
        const testPage = session.browser.getPage(session.id);
        const person = await testPage.browser().createBrowserContext();
        try {
          const page = await person.newPage();
          return await authorizeWithDriver({
            goto: (to) => page.goto(to),
            url: async () => page.url(),
            answer: (...args) => page.evaluate(answerStepInPage, ...args),
          }, payload.url, payload.email, payload.decision);
        } finally {
          await person.close();
        }
      }
      if (session.browser.type === 'webdriver') {
        // WebKit over classic WebDriver: a second session, so a second MiniBrowser with its own cookies.
        if (!session.browser.newIsolatedSession) throw new Error('svc-oauth-authorize needs a WebDriver launcher with newIsolatedSession()');
        const person = await session.browser.newIsolatedSession();
        try {
          return await authorizeWithDriver({
            goto: (to) => person.navigateTo(to),
            url: () => person.getUrl(),
            answer: (...args) => person.execute(answerStepInPage, ...args),
          }, payload.url, payload.email, payload.decision);
        } finally {
          await person.deleteSession();
        }
      }
      if (session.browser.type !== 'playwright') throw new Error(`svc-oauth-authorize cannot drive ${session.browser.type}`);
      const testPage = session.browser.getPage(session.id);
      const person = await testPage.context().browser().newContext();
      try {
        return await authorizeInTab(await person.newPage(), payload.url, payload.email, payload.decision, new URL(testPage.url()).origin);
      } finally {
        await person.close();
      }
    },
    serverStop() {
      child?.kill('SIGTERM');
    },
  };
}
