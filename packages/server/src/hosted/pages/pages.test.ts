import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runInNewContext } from 'node:vm';
import { parseMessage } from '@svc/protocol';
import { allowOrigin, createConsent, createDecision, grantStandard } from '../../consent/decisions/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';
import type { PageData } from './page-data.js';
import { FRAME_MESSAGES_JS, type FrameMessages, jsonForScript } from './render.js';

function csp(res: Response): Map<string, string> {
  const header = res.headers.get('content-security-policy') ?? '';
  return new Map(
    header
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name!, values.join(' ')];
      }),
  );
}

/** The frame message page's data block, each message checked against the protocol's schemas. */
function postedOf(html: string): FrameMessages & { messages: ReturnType<typeof parseMessage>[] } {
  const post = dataOf(html, 'svc-frame-messages') as unknown as FrameMessages;
  assert.match(html, /<script type="module" async src="\/assets\/frame-messages.js"><\/script>/);
  return { ...post, messages: post.messages.map((m) => parseMessage(m)) };
}

/** Runs /assets/frame-messages.js against `html`'s data in a window that is `framed` (or opened) or neither. */
function runFrameScript(html: string, place: 'framed' | 'opened' | 'top') {
  const posts: { message: unknown; target: string }[] = [];
  const other = { postMessage: (message: unknown, target: string) => posts.push({ message, target }) };
  const window: Record<string, unknown> = { opener: place === 'opened' ? other : null };
  window.parent = place === 'framed' ? other : window;
  const block = /<script type="application\/json" id="svc-frame-messages">([^<]*)<\/script>/.exec(html)![1];
  const document = { getElementById: (id: string) => (id === 'svc-frame-messages' ? { textContent: block } : null) };
  runInNewContext(FRAME_MESSAGES_JS, { window, document, JSON });
  return posts;
}

function dataOf(html: string, id = 'svc-decision-data'): PageData {
  const match = new RegExp(`<script type="application/json" id="${id}">([^<]*)</script>`).exec(html);
  assert.ok(match, 'the page embeds its data as a JSON data block');
  return JSON.parse(match[1]!) as PageData;
}

describe('hosted decision pages', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    await allowOrigin(server, 'https://shop.example');
  });
  after(() => server.dispose());

  it('serves the embed page with frame-ancestors limited to the allowed origins and a strict policy', async () => {
    const d = await createConsent(server, { embed_origin: 'https://shop.example' });
    const res = await fetch(d.embed_url);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    const policy = csp(res);
    assert.deepEqual(policy.get('frame-ancestors')?.split(' ').sort(), [server.url, 'https://shop.example'].sort());
    assert.equal(policy.get('script-src'), "'self'");
    assert.equal(policy.get('style-src'), "'self'");
    assert.equal(policy.get('default-src'), "'none'");
    assert.equal(policy.get('connect-src'), "'self'");
    assert.ok(!res.headers.get('content-security-policy')!.includes('unsafe'));
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('x-frame-options'), null);

    const html = await res.text();
    assert.match(html, /<html lang="en">/);
    assert.match(html, /<script type="module" src="\/assets\/decision-page.js"><\/script>/);
    // No inline executable script: every <script> is either the JSON data block or the module from 'self'.
    for (const tag of html.match(/<script[^>]*>/g) ?? []) assert.match(tag, /type="application\/json"|src="\/assets\//);
    const data = dataOf(html);
    assert.equal(data.mode, 'embed');
    assert.equal(data.target_origin, 'https://shop.example');
    assert.equal(data.session_token, d.session_token);
    assert.equal(data.deadline_at, d.deadline_at);
    assert.equal(data.status, 'pending');
    assert.deepEqual(
      data.consent?.screens.map((s) => s.type),
      ['intro', 'sign_in', 'verify', 'review'],
    );
    assert.equal(data.branding.name, 'Sandbox application');
  });

  it('never puts the comprehension answer into the page', async () => {
    const d = await createConsent(server, { subject_ref: server.sandbox.informed_flow_id });
    const data = dataOf(await (await fetch(d.embed_url)).text());
    const check = data.consent?.screens.find((s) => s.type === 'comprehension_check');
    assert.ok(check);
    assert.equal('answer' in check, false);
    assert.deepEqual(
      data.consent?.screens.map((s) => s.type),
      ['intro', 'disclosure', 'comprehension_check', 'confirm'],
    );
  });

  it('serves the full page unframeable, in popup or redirect mode', async () => {
    const popup = await createConsent(server, { delivery_mode: 'popup', embed_origin: 'https://shop.example' });
    const res = await fetch(popup.url);
    assert.equal(res.status, 200);
    assert.equal(csp(res).get('frame-ancestors'), "'none'");
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    const data = dataOf(await res.text());
    assert.equal(data.mode, 'popup');
    assert.equal(data.target_origin, 'https://shop.example');

    const redirect = await createConsent(server, {
      delivery_mode: 'redirect',
      embed_origin: undefined,
      redirect_uri: 'https://shop.example/done?order=7',
    });
    const page = dataOf(await (await fetch(redirect.url)).text());
    assert.equal(page.mode, 'redirect');
    assert.equal(page.target_origin, null);
    assert.equal(page.redirect_uri, 'https://shop.example/done?order=7');
    assert.equal(page.redirect_uri_denied, 'https://shop.example/done?order=7&error=access_denied');
  });

  it("targets a popup without embed_origin at its opener's origin (Referer) only when that origin is allowed", async () => {
    const popup = await createDecision(server, { kind: 'approval', subject_ref: 'esc_1', delivery_mode: 'popup', scope: 'refunds' });
    const allowed = dataOf(await (await fetch(popup.url, { headers: { referer: 'https://shop.example/' } })).text());
    assert.equal(allowed.target_origin, 'https://shop.example');
    assert.deepEqual(
      allowed.approval,
      { escalation_id: 'esc_1', scope: 'refunds', state: null, meeting_id: null, agent: null },
      'a free-form reference names no agent',
    );
    const stranger = dataOf(await (await fetch(popup.url, { headers: { referer: 'https://evil.example/' } })).text());
    assert.equal(stranger.target_origin, null);
    const none = dataOf(await (await fetch(popup.url)).text());
    assert.equal(none.target_origin, null);
  });

  it('has no target origin once the embed origin is no longer allowed (the page then drops and counts)', async () => {
    await allowOrigin(server, 'https://gone.example');
    const d = await createConsent(server, { embed_origin: 'https://gone.example' });
    const del = await server.api(
      `/api/v1/applications/${server.sandbox.application_id}/allowed_origins/${encodeURIComponent('https://gone.example')}`,
      { method: 'DELETE' },
    );
    assert.ok(del.status === 204 || del.status === 200, String(del.status));
    const res = await fetch(d.embed_url);
    assert.ok(!csp(res).get('frame-ancestors')?.includes('gone.example'));
    assert.equal(dataOf(await res.text()).target_origin, null);
  });

  it('escapes the data block so decision fields cannot close the script element', async () => {
    const d = await createConsent(server, { state: '</script><script>alert(1)</script><!--' });
    const html = await (await fetch(d.embed_url)).text();
    assert.ok(!html.includes('</script><script>alert(1)'));
    assert.equal(jsonForScript({ a: '</script>\u2028' }), '{"a":"\\u003c/script\\u003e\\u2028"}');
  });

  it('answers an unknown or malformed token with a 404 page that loads no script', async () => {
    for (const path of ['/decisions/dts_' + 'x'.repeat(43), '/decisions/dts_nope/embed', '/decisions/..%2F..%2Fetc%2Fpasswd']) {
      const res = await fetch(server.url + path);
      assert.equal(res.status, 404, path);
      const html = await res.text();
      assert.match(html, /Decision not found/);
      assert.ok(!html.includes('<script'));
    }
  });

  it('answers an unknown token loaded by a page with svc:error decision_not_found, posted to that exact origin only', async () => {
    for (const [path, mode] of [
      ['/decisions/dts_nope/embed', 'embed'],
      [`/decisions/dts_${'x'.repeat(43)}`, 'popup'],
    ] as const) {
      const res = await fetch(server.url + path, { headers: { referer: 'https://unknown.example/' } });
      assert.equal(res.status, 404, path);
      assert.equal(csp(res).get('script-src'), "'self'");
      const html = await res.text();
      assert.match(html, /Decision not found/);
      const post = postedOf(html);
      assert.equal(post.target_origin, 'https://unknown.example');
      assert.equal(post.mode, mode);
      assert.equal(post.messages.length, 1);
      const [error] = post.messages;
      assert.equal(error!.type, 'svc:error');
      assert.deepEqual(
        { ...error!.payload, message: undefined },
        {
          code: 'decision_not_found',
          message: undefined,
          fatal: true,
          recoverable_via: 'new_decision',
        },
      );
      assert.match((error!.payload as { message: string }).message, /session token.*token attribute/);
      const posts = runFrameScript(html, mode === 'embed' ? 'framed' : 'opened');
      assert.deepEqual(
        posts.map((p) => p.target),
        ['https://unknown.example'],
        'posted once, to the exact origin, never *',
      );
      assert.deepEqual(posts[0]!.message, post.messages[0]);
      assert.deepEqual(runFrameScript(html, 'top'), [], 'a page neither framed nor opened posts nothing');
    }
    // A Referer that is not an http(s) URL names no origin: the script-free page, as without one.
    const odd = await (await fetch(`${server.url}/decisions/dts_nope/embed`, { headers: { referer: 'about:blank' } })).text();
    assert.ok(!odd.includes('<script'));
  });

  it('answers a frame embedded on an origin the application does not allow with svc:error origin_not_allowed', async () => {
    const d = await createConsent(server, { embed_origin: 'https://shop.example' });
    const res = await fetch(d.embed_url, { headers: { referer: 'https://evil.example/checkout' } });
    assert.equal(res.status, 403);
    // Anyone may frame this page (frame-ancestors checks every ancestor), which shows nothing of the decision.
    assert.equal(csp(res).get('frame-ancestors'), '*');
    assert.equal(csp(res).get('script-src'), "'self'");
    const html = await res.text();
    assert.ok(!html.includes(d.session_token), 'nothing of the decision');
    assert.ok(!html.includes('svc-decision-data'));
    const post = postedOf(html);
    assert.equal(post.target_origin, 'https://evil.example');
    assert.equal(post.mode, 'embed');
    const [error] = post.messages;
    assert.equal(error!.type, 'svc:error');
    assert.equal(error!.kind, 'consent');
    assert.deepEqual({ ...error!.payload, message: '' }, { code: 'origin_not_allowed', message: '', fatal: true, recoverable_via: null });
    const app = server.sandbox.application_id;
    assert.match(
      (error!.payload as { message: string }).message,
      new RegExp(
        `https://evil\\.example is not an allowed origin of application ${app}\\. Allow it with \`svc origins add https://evil\\.example --app ${app}\``,
      ),
    );
    assert.deepEqual(
      runFrameScript(html, 'framed').map((p) => p.target),
      ['https://evil.example'],
    );

    // An allowed origin, or no Referer at all (the old behaviour: the browser's frame-ancestors decide): the page.
    for (const referer of ['https://shop.example/cart', undefined]) {
      const page = await fetch(d.embed_url, { headers: referer ? { referer } : {} });
      assert.equal(page.status, 200, String(referer));
      assert.equal(dataOf(await page.text()).session_token, d.session_token);
    }
  });

  it('renders an expired or completed decision with its status, for the page to report at once', async () => {
    const done = await createConsent(server, { embed_origin: 'https://shop.example' });
    await grantStandard(server, done.session_token);
    const completed = await fetch(done.embed_url, { headers: { referer: 'https://shop.example/' } });
    assert.equal(completed.status, 200);
    assert.equal(dataOf(await completed.text()).status, 'fulfilled');

    const late = await createConsent(server, { embed_origin: 'https://shop.example' });
    server.advance(24 * 3600);
    const expired = dataOf(await (await fetch(late.embed_url, { headers: { referer: 'https://shop.example/' } })).text());
    assert.equal(expired.status, 'expired');
    assert.equal(expired.target_origin, 'https://shop.example');
  });

  it('serves frame-messages.js with an ETag, from the server itself', async () => {
    const res = await fetch(`${server.url}/assets/frame-messages.js`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.equal(await res.text(), FRAME_MESSAGES_JS);
    const etag = res.headers.get('etag')!;
    assert.equal((await fetch(`${server.url}/assets/frame-messages.js`, { headers: { 'if-none-match': etag } })).status, 304);
    assert.ok(!FRAME_MESSAGES_JS.includes("'*'") || FRAME_MESSAGES_JS.includes("!== '*'"));
  });

  it('serves decision-page.js with a strong ETag and answers 304 when it has not changed', async () => {
    const first = await fetch(`${server.url}/assets/decision-page.js`);
    if (first.status === 404) return; // not built in this checkout
    assert.equal(first.status, 200);
    const etag = first.headers.get('etag');
    assert.match(etag ?? '', /^"[A-Za-z0-9_-]+"$/);
    assert.equal(first.headers.get('cache-control'), 'no-cache');
    await first.arrayBuffer();
    const again = await fetch(`${server.url}/assets/decision-page.js`, { headers: { 'if-none-match': etag! } });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('etag'), etag);
    assert.equal(await again.text(), '');
    const weak = await fetch(`${server.url}/assets/decision-page.js`, { headers: { 'if-none-match': `"other", W/${etag}` } });
    assert.equal(weak.status, 304);
    const stale = await fetch(`${server.url}/assets/decision-page.js`, { headers: { 'if-none-match': '"stale"' } });
    assert.equal(stale.status, 200);
    assert.ok((await stale.arrayBuffer()).byteLength > 0);
  });

  it('serves page.css and refuses unknown assets', async () => {
    const css = await fetch(`${server.url}/assets/page.css`);
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
    const cssEtag = css.headers.get('etag');
    assert.ok(cssEtag);
    assert.equal((await fetch(`${server.url}/assets/page.css`, { headers: { 'if-none-match': cssEtag } })).status, 304);
    for (const name of ['nope.js', '..%2Fpackage.json', '%2E%2E%2F%2E%2E%2Fsvc.sqlite']) {
      assert.equal((await fetch(`${server.url}/assets/${name}`)).status, 404, name);
    }
  });
});

describe('hosted flow page /accord/{flow_id}', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  it('opens a redirect-mode decision on an active flow and sends the browser to it', async () => {
    const back = `${server.url}/back`;
    const res = await fetch(`${server.url}/accord/${server.sandbox.flow_id}?redirect_uri=${encodeURIComponent(back)}`, {
      redirect: 'manual',
    });
    assert.equal(res.status, 303);
    const location = res.headers.get('location') ?? '';
    assert.match(location, /^\/decisions\/dts_us_[A-Za-z0-9_-]{43}$/);
    const data = dataOf(await (await fetch(server.url + location)).text());
    assert.equal(data.mode, 'redirect');
    assert.equal(data.redirect_uri, back);
    assert.equal(data.redirect_uri_denied, `${back}?error=access_denied`);
    const token = location.split('/').pop()!;
    const { decision } = (await (await server.api(`/api/v1/decisions/${token}`)).json()) as {
      decision: { delivery_mode: string; flow_id: string };
    };
    assert.deepEqual([decision.delivery_mode, decision.flow_id], ['redirect', server.sandbox.flow_id]);
  });

  it('works without redirect_uri (the page shows the outcome)', async () => {
    const res = await fetch(`${server.url}/accord/${server.sandbox.flow_id}`, { redirect: 'manual' });
    assert.equal(res.status, 303);
  });

  it('is 404 for a draft flow and an unknown one (spec: Flow states)', async () => {
    const created = await server.api('/api/v1/flows', {
      method: 'POST',
      json: {
        flow: {
          pattern: 'standard',
          title: 'Draft',
          config: { purposes: [{ key: 'x', label: 'X', basis: 'consent', mechanism: 'explicit' }] },
        },
      },
    });
    const { flow } = (await created.json()) as { flow: { id: string } };
    for (const id of [flow.id, 'flw_dev_unknown', '..%2F..']) {
      const res = await fetch(`${server.url}/accord/${id}`, { redirect: 'manual' });
      assert.equal(res.status, 404, id);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    }
  });

  it('refuses a redirect_uri that is not on an allowed origin (no open redirect) or not http(s)', async () => {
    for (const uri of ['https://evil.example/', 'javascript:alert(1)', 'not a url']) {
      const res = await fetch(`${server.url}/accord/${server.sandbox.flow_id}?redirect_uri=${encodeURIComponent(uri)}`, {
        redirect: 'manual',
      });
      assert.equal(res.status, 400, uri);
    }
  });
});

describe('playground', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  it('serves GET / with the sandbox flows and a strict policy that only frames the service itself', async () => {
    const res = await fetch(`${server.url}/`);
    assert.equal(res.status, 200);
    const policy = csp(res);
    assert.equal(policy.get('frame-src'), "'self'");
    assert.equal(policy.get('script-src'), "'self'");
    const html = await res.text();
    const data = dataOf(html, 'svc-playground-data') as unknown as {
      flows: { standard: string; informed: string };
      service_origin: string;
    };
    assert.equal(data.flows.standard, server.sandbox.flow_id);
    assert.equal(data.flows.informed, server.sandbox.informed_flow_id);
    assert.ok(!html.includes(server.sandbox.api_token), 'the API token never reaches the browser');
  });

  it('creates decisions with the sandbox credentials for same-origin calls only', async () => {
    const call = (headers: Record<string, string>, body: unknown) =>
      fetch(`${server.url}/playground/decisions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const res = await call({ origin: server.url }, { kind: 'consent', flow: 'informed' });
    assert.equal(res.status, 201);
    const { decision } = (await res.json()) as { decision: { flow_id: string; embed_origin: string } };
    assert.equal(decision.flow_id, server.sandbox.informed_flow_id);
    assert.equal(decision.embed_origin, server.url);
    assert.equal((await call({ origin: 'https://evil.example' }, { kind: 'consent' })).status, 403);
    assert.equal((await call({}, { kind: 'consent', extra: true })).status, 422);
  });
});
