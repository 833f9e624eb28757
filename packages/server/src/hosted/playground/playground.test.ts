import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../testing.js';

describe('playground page and sign-up endpoint', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  it('serves both elements from the script tag, with no inline script or style', async () => {
    const res = await fetch(`${server.url}/`);
    assert.equal(res.status, 200);
    const policy = res.headers.get('content-security-policy') ?? '';
    assert.match(policy, /script-src 'self';/);
    assert.match(policy, /style-src 'self';/);
    const html = await res.text();
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    assert.ok(scripts.some((tag) => tag.includes('src="/sdk/v1/svc.js"')));
    for (const tag of scripts) assert.match(tag, /type="application\/json"|src="\//, tag);
    assert.ok(!/<style|\sstyle=/.test(html), 'no inline style');
    assert.match(html, /<svc-decision id="decision"[^>]* hidden>/, 'no element (and no spinner) before a decision exists');
    assert.match(html, /No decision yet — create one\./, 'an empty state says what to do instead');
    assert.match(html, /<link rel="stylesheet" href="\/assets\/page.css">/, 'the shared tokens and buttons');
    assert.equal((html.match(/class="primary"/g) ?? []).length, 1, 'one primary action');
    assert.ok(html.includes(`flow="${server.sandbox.capture_flow_id}"`));
    assert.ok(html.includes(`publishable-key="${server.sandbox.publishable_key}"`));
    assert.ok(!html.includes(server.sandbox.api_token), 'the API token never reaches the browser');
    const css = await fetch(`${server.url}/playground/playground.css`);
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
    const sheet = await css.text();
    assert.match(sheet, /svc-decision\[hidden\] \{ display: none; \}/, 'the hidden element really is hidden');
    assert.doesNotMatch(sheet, /#1d4ed8/, 'no colour of its own for buttons and links');
  });

  it('commits a capture only for its own page, and says why nothing was recorded', async () => {
    const post = (headers: Record<string, string>, body: string) =>
      fetch(`${server.url}/playground/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body,
      });
    assert.equal(
      (await post({ 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }, 'email=a%40b.example&svc_capture_token=x')).status,
      403,
    );
    assert.equal((await post({}, 'email=a%40b.example&svc_capture_token=x')).status, 403);
    const missing = await post({ 'sec-fetch-site': 'same-origin' }, 'email=a%40b.example');
    assert.equal(missing.status, 400);
    assert.match(await missing.text(), /without a capture token/);
    const unknown = await post({ origin: new URL(server.url).origin }, 'email=a%40b.example&svc_capture_token=dts_nope');
    assert.equal(unknown.status, 404);
    assert.match(unknown.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  });

  it('shows no receipt it did not commit', async () => {
    assert.equal((await fetch(`${server.url}/playground/receipts/cr_unknown`)).status, 404);
  });
});
