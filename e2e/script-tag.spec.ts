// The script tag `/sdk/v1/svc.js` as a loader, on plain HTML organisation pages (their own loopback origin): each
// page gets the elements it shows and fetches nothing else, under every way a page may write the tag (defer,
// async, type="module", added late, strict and nonce-only policies, with integrity), and the forms still post
// when the code cannot be fetched.
import type { Page, Request } from '@playwright/test';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sdkIntegrity } from '../scripts/sri.mjs';
import { expect, test as base } from './fixtures.js';
import { createCaptureFlow } from './pages/org-site.js';

interface Site {
  origin: string;
  /** Serves `html` (with `policy` as its Content-Security-Policy) and returns its URL. */
  page(html: string, policy?: string): string;
  /** What `/signup` received, in order: whether a capture token came and what committing it answered. */
  posts: { token: boolean; committed?: number }[];
}

// The page's own recorder, an external script so that it runs under every policy: svc events and violations.
const RECORDER = `window.seen = [];
for (const type of ['svc-ready', 'svc-error', 'svc-capture']) {
  document.addEventListener(type, (e) => window.seen.push({ type, tag: e.target.localName, code: e.detail && e.detail.code }));
}
document.addEventListener('securitypolicyviolation', (e) => window.seen.push({ type: 'csp', code: e.violatedDirective + ' ' + e.blockedURI }));`;

// Writes a consent field into the form when the button is pressed: an element that arrives after the script ran.
const LATE = `document.getElementById('add').addEventListener('click', () => {
  const field = document.createElement('svc-consent-field');
  for (const name of ['name', 'flow', 'publishable-key']) field.setAttribute(name, document.body.dataset[name.replace('-k', 'K')]);
  document.querySelector('form').insertBefore(field, document.querySelector('form button'));
});`;

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const test = base.extend<object, { site: Site; flowId: string }>({
  flowId: [
    async ({ svc }, use) => {
      await use(await createCaptureFlow(svc.server.url, svc.server.sandbox.api_token, 'Script tag newsletter'));
    },
    { scope: 'worker' },
  ],
  site: [
    async ({ svc }, use) => {
      const pages = new Map<string, { html: string; policy?: string | undefined }>();
      const site: Site = {
        origin: '',
        posts: [],
        page: (html, policy) => {
          const path = `/p/${pages.size}`;
          pages.set(path, { html, policy });
          return site.origin + path;
        },
      };
      const http = createServer((req, res) => {
        void (async () => {
          const path = new URL(req.url ?? '/', 'http://site.invalid').pathname;
          const page = pages.get(path);
          if (page) {
            return void res
              .writeHead(200, {
                'content-type': 'text/html; charset=utf-8',
                'cache-control': 'no-store',
                ...(page.policy ? { 'content-security-policy': page.policy } : {}),
              })
              .end(page.html);
          }
          const script = { '/recorder.js': RECORDER, '/late.js': LATE }[path];
          if (script) return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
          if (req.method === 'POST' && path === '/signup') {
            const form = new URLSearchParams(await body(req));
            const token = form.get('svc_capture_token');
            const post: Site['posts'][number] = { token: Boolean(token) };
            if (token) {
              post.committed = (
                await svc.api(`/api/v1/decisions/${token}/authorize`, { method: 'POST', json: { subject: { email: form.get('email') } } })
              ).status;
            }
            site.posts.push(post);
            return void res
              .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
              .end(
                `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Thanks</title></head><body><p id="outcome">${token ? 'with token' : 'without token'}</p></body></html>`,
              );
          }
          if (path === '/favicon.ico') return void res.writeHead(204).end();
          res.writeHead(404).end();
        })().catch((error: unknown) => res.writeHead(500).end(String(error)));
      });
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      site.origin = `http://localhost:${(http.address() as AddressInfo).port}`;
      const registered = await svc.api(`/api/v1/applications/${svc.server.sandbox.application_id}/allowed_origins`, {
        json: { allowed_origin: { origin: site.origin } },
      });
      expect([200, 201]).toContain(registered.status);
      await use(site);
      await new Promise((resolve) => http.close(resolve));
    },
    { scope: 'worker' },
  ],
});

/** An organisation's page: `head` holds the script tag, `main` the content. */
function html(head: string, main: string, data = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Northwind</title>
<script src="/recorder.js"></script>
${head}</head><body${data}><main><h1>Northwind</h1>${main}</main></body></html>`;
}

/** The form of a sign-up page, with `inside` before its button. */
const signup = (inside: string) => `<form action="/signup" method="post">
<label for="email">Email address</label><input id="email" name="email" type="email" required>
${inside}<button type="submit">Sign up</button></form>`;

/** The names of the files a page asked `/sdk/v1/` for, in order, their hashes cut off (`svc-lit`, not `svc-lit-Ab12Cd.js`). */
function sdkRequests(page: Page): string[] {
  const names: string[] = [];
  page.on('request', (request: Request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/sdk/v1/')) names.push(path.slice('/sdk/v1/'.length).replace(/(-[\w-]{6})?\.js$/, ''));
  });
  return names;
}

const seen = (page: Page) => page.evaluate(() => (window as unknown as { seen: { type: string; tag: string; code?: string }[] }).seen);

async function signUp(page: Page, tick = true): Promise<void> {
  await page.getByLabel('Email address').fill('ada@example.com');
  if (tick) await page.getByRole('checkbox', { name: 'Email newsletter' }).check();
  await page.getByRole('button', { name: 'Sign up' }).click();
}

test.describe('the script tag loads what a page shows', () => {
  test('a form page with one consent field fetches the field and Lit, never the decision, and the capture is committed', async ({
    page,
    svc,
    site,
    flowId,
  }) => {
    const { publishable_key: key } = svc.server.sandbox;
    const fetched = sdkRequests(page);
    await page.goto(
      site.page(
        html(
          `<script src="${svc.origin}/sdk/v1/svc.js" defer></script>`,
          signup(`<svc-consent-field name="consent" flow="${flowId}" publishable-key="${key}"></svc-consent-field>`),
        ),
      ),
    );
    await signUp(page);
    await expect(page.locator('#outcome')).toHaveText('with token');
    expect(site.posts.at(-1)).toEqual({ token: true, committed: 200 });
    expect(fetched.sort()).toEqual(['svc', 'svc-consent-field', 'svc-lit']);
  });

  test('a decision page fetches the decision and Lit, never the consent field or the capture helper', async ({ page, svc, site }) => {
    const fetched = sdkRequests(page);
    const { session_token } = await svc.createDecision({
      kind: 'consent',
      subject_ref: svc.server.sandbox.flow_id,
      delivery_mode: 'embed',
      embed_origin: site.origin,
    });
    await page.goto(
      site.page(
        html(`<script src="${svc.origin}/sdk/v1/svc.js" defer></script>`, `<svc-decision token="${session_token}"></svc-decision>`),
      ),
    );
    await expect.poll(() => seen(page)).toContainEqual({ type: 'svc-ready', tag: 'svc-decision' });
    await expect(page.frameLocator('svc-decision iframe').getByRole('heading').first()).toBeVisible();
    expect(fetched.sort()).toEqual(['svc', 'svc-decision', 'svc-lit']);
  });

  test('a page with both elements and a provider fetches Lit once, and the provider configures the field', async ({
    page,
    svc,
    site,
    flowId,
  }) => {
    const { publishable_key: key } = svc.server.sandbox;
    const fetched = sdkRequests(page);
    const { session_token } = await svc.createDecision({
      kind: 'consent',
      subject_ref: svc.server.sandbox.flow_id,
      delivery_mode: 'embed',
      embed_origin: site.origin,
    });
    await page.goto(
      site.page(
        html(
          `<script src="${svc.origin}/sdk/v1/svc.js" defer></script>`,
          `<svc-provider publishable-key="${key}">
${signup(`<svc-consent-field name="consent" flow="${flowId}"></svc-consent-field>`)}
<svc-decision token="${session_token}"></svc-decision></svc-provider>`,
        ),
      ),
    );
    await expect.poll(() => seen(page)).toContainEqual({ type: 'svc-ready', tag: 'svc-decision' });
    await signUp(page);
    await expect(page.locator('#outcome')).toHaveText('with token');
    expect(fetched.sort()).toEqual(['svc', 'svc-consent-field', 'svc-decision', 'svc-lit', 'svc-provider']);
  });

  test('an element written into the page after the script ran is defined then, and nothing is fetched before', async ({
    page,
    svc,
    site,
    flowId,
  }) => {
    const { publishable_key: key } = svc.server.sandbox;
    const fetched = sdkRequests(page);
    await page.goto(
      site.page(
        html(
          `<script src="${svc.origin}/sdk/v1/svc.js" defer></script><script src="/late.js" defer></script>`,
          `${signup('')}<button id="add" type="button">Add consent</button>`,
          ` data-name="consent" data-flow="${flowId}" data-publishable-key="${key}"`,
        ),
      ),
    );
    await page.waitForLoadState('networkidle');
    expect(fetched).toEqual(['svc']);
    await page.getByRole('button', { name: 'Add consent' }).click();
    await signUp(page);
    await expect(page.locator('#outcome')).toHaveText('with token');
    expect(fetched.sort()).toEqual(['svc', 'svc-consent-field', 'svc-lit']);
  });

  test('a snippet form fetches the capture helper alone (no Lit) and is attached as before', async ({ page, svc, site, flowId }) => {
    const { publishable_key: key } = svc.server.sandbox;
    const fetched = sdkRequests(page);
    await page.goto(
      site.page(
        html(
          `<script src="${svc.origin}/sdk/v1/svc.js" defer></script>`,
          signup(`<label><input type="checkbox" name="news" data-svc-purpose="newsletter"> Email newsletter</label>`).replace(
            '<form ',
            `<form data-svc-flow="${flowId}" data-svc-publishable-key="${key}" `,
          ),
        ),
      ),
    );
    await page.waitForLoadState('networkidle');
    await signUp(page);
    await expect(page.locator('#outcome')).toHaveText('with token');
    expect(site.posts.at(-1)).toEqual({ token: true, committed: 200 });
    expect(fetched.sort()).toEqual(['svc', 'svc-capture']);
  });
});

test.describe('the script tag as pages write it', () => {
  const field = (flowId: string, key: string) =>
    signup(`<svc-consent-field name="consent" flow="${flowId}" publishable-key="${key}"></svc-consent-field>`);

  for (const [name, attributes] of [
    ['async', 'async'],
    ['type="module"', 'type="module"'],
    ['neither async nor defer', ''],
  ] as const) {
    test(`works with ${name}`, async ({ page, svc, site, flowId }) => {
      await page.goto(
        site.page(
          html(`<script src="${svc.origin}/sdk/v1/svc.js" ${attributes}></script>`, field(flowId, svc.server.sandbox.publishable_key)),
        ),
      );
      await signUp(page);
      await expect(page.locator('#outcome')).toHaveText('with token');
    });
  }

  test(`works under script-src 'self' <service> and under a nonce-only policy, with no violation`, async ({ page, svc, site, flowId }) => {
    const { publishable_key: key } = svc.server.sandbox;
    const rest = `style-src 'self'; connect-src ${svc.origin}; frame-src ${svc.origin}; base-uri 'none'; object-src 'none'`;
    const { session_token } = await svc.createDecision({
      kind: 'consent',
      subject_ref: svc.server.sandbox.flow_id,
      delivery_mode: 'embed',
      embed_origin: site.origin,
    });
    const strict = site.page(
      html(
        `<script src="${svc.origin}/sdk/v1/svc.js" defer></script>`,
        `${field(flowId, key)}<svc-decision token="${session_token}"></svc-decision>`,
      ),
      `default-src 'self'; script-src 'self' ${svc.origin}; ${rest}`,
    );
    const nonced = site.page(
      html(`<script src="${svc.origin}/sdk/v1/svc.js" nonce="n0nce" defer></script>`, field(flowId, key)).replace(
        '<script src="/recorder.js">',
        '<script src="/recorder.js" nonce="n0nce">',
      ),
      `default-src 'self'; script-src 'nonce-n0nce'; ${rest}`,
    );
    for (const url of [strict, nonced]) {
      await page.goto(url);
      await expect(page.getByRole('checkbox', { name: 'Email newsletter' })).toBeVisible();
      if (url === strict) await expect.poll(() => seen(page)).toContainEqual({ type: 'svc-ready', tag: 'svc-decision' });
      expect((await seen(page)).filter((e) => e.type === 'csp')).toEqual([]);
      await signUp(page);
      await expect(page.locator('#outcome')).toHaveText('with token');
    }
  });

  test('with integrity on the tag and an import map checking every chunk', async ({ page, svc, site, flowId }) => {
    const { loader, importMap } = sdkIntegrity(svc.origin);
    const tag = `<script type="importmap">${JSON.stringify(importMap)}</script>
<script src="${svc.origin}/sdk/v1/svc.js" integrity="${loader}" crossorigin="anonymous" defer></script>`;
    await page.goto(site.page(html(tag, field(flowId, svc.server.sandbox.publishable_key))));
    await signUp(page);
    await expect(page.locator('#outcome')).toHaveText('with token');

    // A chunk whose bytes are not the published ones is refused, and the form still posts.
    const altered = JSON.stringify(importMap).replace(
      /("[^"]*svc-consent-field-[^"]*":")sha384-[^"]+/,
      '$1sha384-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    );
    await page.goto(site.page(html(tag.replace(JSON.stringify(importMap), altered), field(flowId, svc.server.sandbox.publishable_key))));
    await expect.poll(() => seen(page)).toContainEqual({ type: 'svc-error', tag: 'svc-consent-field', code: 'network' });
    await signUp(page, false);
    await expect(page.locator('#outcome')).toHaveText('without token');
  });
});

test.describe('the script tag fails open', () => {
  test('when a chunk cannot be fetched, the element reports it and the form posts without a token', async ({ page, svc, site, flowId }) => {
    await page.route('**/sdk/v1/svc-consent-field-*', (route) => route.abort('connectionrefused'));
    await page.goto(
      site.page(
        html(
          `<script src="${svc.origin}/sdk/v1/svc.js" defer></script>`,
          signup(
            `<svc-consent-field name="consent" flow="${flowId}" publishable-key="${svc.server.sandbox.publishable_key}"></svc-consent-field>`,
          ),
        ),
      ),
    );
    await expect.poll(() => seen(page)).toContainEqual({ type: 'svc-error', tag: 'svc-consent-field', code: 'network' });
    await signUp(page, false);
    await expect(page.locator('#outcome')).toHaveText('without token');
    expect(site.posts.at(-1)).toEqual({ token: false });
  });

  test('when the service is down, the page and its snippet form work as plain HTML', async ({ page, site, flowId }) => {
    const dead = 'http://127.0.0.1:9';
    await page.goto(
      site.page(
        html(
          `<script src="${dead}/sdk/v1/svc.js" defer></script>`,
          signup('<label><input type="checkbox" name="news" data-svc-purpose="newsletter"> Email newsletter</label>').replace(
            '<form ',
            `<form data-svc-flow="${flowId}" data-svc-publishable-key="pk_test_0123456789abcdef" `,
          ),
        ),
      ),
    );
    await signUp(page);
    await expect(page.locator('#outcome')).toHaveText('without token');
  });
});

test.describe('window.Svc', () => {
  test('reads a redirect at once, loads elements on request, and hands out capture handles that work before the code arrives', async ({
    page,
    svc,
    site,
    flowId,
  }) => {
    const fetched = sdkRequests(page);
    await page.goto(
      site.page(
        html(
          `<script src="${svc.origin}/sdk/v1/svc.js"></script>`,
          signup('<label><input type="checkbox" name="news" data-svc-purpose="newsletter"> Email newsletter</label>'),
        ),
      ) + '?error=access_denied',
    );
    const result = await page.evaluate(
      async ({ flowId, key, service }) => {
        const Svc = (window as unknown as { Svc: Record<string, (...args: unknown[]) => any> }).Svc;
        const redirect = Svc.readRedirectResult();
        const [decision] = await Svc.load('svc-decision');
        const form = document.querySelector('form')!;
        (form.querySelector('input[type=email]') as HTMLInputElement).value = 'ada@example.com';
        (form.querySelector('input[type=checkbox]') as HTMLInputElement).checked = true;
        const handle = Svc.attachCapture(form, { flowId, publishableKey: key, baseUrl: service });
        const capture = await handle.capture();
        return {
          redirect,
          defined: customElements.get('svc-decision') === decision.SvcDecision,
          token: capture.session_token.startsWith('dts_'),
          written: (form.querySelector('input[name=svc_capture_token]') as HTMLInputElement).value === capture.session_token,
        };
      },
      { flowId, key: svc.server.sandbox.publishable_key, service: svc.origin },
    );
    expect(result).toEqual({
      redirect: { outcome: 'declined', error: 'access_denied', verified: false },
      defined: true,
      token: true,
      written: true,
    });
    expect(fetched.sort()).toEqual(['svc', 'svc-capture', 'svc-decision', 'svc-lit']);
  });
});
