// @web/test-runner plugin: serves `/__svc__/sandbox.json` to browser tests, starting one reference server (in a
// child process, from the TypeScript sources) the first time a test asks, with the test page's origin allowed and
// a public OAuth client registered for it. For the OAuth tests it also serves the client's callback page
// (`/__svc__/oauth/callback`) and the `svc-oauth-authorize` command: a person signing in on the service's hosted
// pages in another tab of the same Chromium (Playwright drives it; a page cannot script another origin's page).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('./sandbox-server.ts', import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));
const CALLBACK = '/__svc__/oauth/callback';

let warnedFormAction = false;

/**
 * Says once on stderr when a hosted page's CSP `form-action` would stop Chromium from following the service's
 * redirect to the client (`origin`) after the form post: Chromium checks that directive on every redirect of a
 * form submission, so a real person's browser would stay on the service's page. The person's tab here ignores
 * page CSP (`bypassCSP`) so the client's side can still be tested; this line keeps the server's problem visible.
 */
function checkFormAction(csp, origin) {
  const sources = /(?:^|;)\s*form-action\s+([^;]*)/.exec(csp ?? '')?.[1]?.trim().split(/\s+/);
  if (!sources || warnedFormAction || sources.includes('*') || sources.includes(origin)) return;
  warnedFormAction = true;
  process.stderr.write(`svc-oauth-authorize: the hosted sign-in page's CSP "form-action ${sources.join(' ')}" does not allow ${origin}: `
    + "Chromium would block the service's redirect to the client after the form post (the test's tab bypasses page CSP)\n");
}

/**
 * Walks the hosted sign-in (email, then the sandbox code the page shows) and consent pages in `page` from `url`,
 * answering with `decision`, until the service sends the tab to the callback page on `appOrigin`; returns that URL.
 */
async function authorizeInTab(page, url, email, decision, appOrigin) {
  const done = (at) => new URL(at).pathname === CALLBACK;
  page.on('response', (res) => {
    if (new URL(res.url()).pathname.startsWith('/oauth/interaction/')) checkFormAction(res.headers()['content-security-policy'], appOrigin);
  });
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

/** The plugin; tests fetch `/__svc__/sandbox.json` for `{base_url, publishable_key, flow_id, application_id, oauth_client_id, oauth_redirect_uri}`. */
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
     * context (its own cookies, page CSP bypassed: see checkFormAction) of the same Chromium; answers the callback URL.
     */
    async executeCommand({ command, payload, session }) {
      if (command !== 'svc-oauth-authorize') return undefined;
      if (session.browser.type !== 'playwright') throw new Error('svc-oauth-authorize needs the Playwright launcher');
      const testPage = session.browser.getPage(session.id);
      const person = await testPage.context().browser().newContext({ bypassCSP: true });
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
