// One look across the hosted pages: the same tokens and buttons on every page and in `<svc-inbox>`, one primary
// action per page, the step counter shown and spoken alike, and "Back to inbox" only ever to this server's inbox.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { createConsent, createDecision } from '../../consent/decisions/test-support.js';
import { inboxPage, INBOX_CSS, signInPage } from '../../people/inbox/page.js';
import { deviceCodePage, deviceFormLostPage, deviceSuccessPage } from '../../platform/oauth/device-pages.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { decisionPageStyles } from './app/decision-page.styles.js';
import { ConsentView } from './app/consent-view.js';
import { type PageHost, stepAnnouncement } from './app/kind-view.js';
import type { PageData } from './page-data.js';
import { PAGE_CSS } from './render.js';
import { returnToOf } from './routes.js';
import { BUTTON_CSS, DARK_TOKENS, TOKENS } from './tokens.js';

function dataOf(html: string): PageData {
  const match = /<script type="application\/json" id="svc-decision-data">([^<]*)<\/script>/.exec(html);
  assert.ok(match, 'the page embeds its data');
  return JSON.parse(match[1]!) as PageData;
}

/** A device page as oidc-provider would have it rendered. */
function devicePage(render: (koa: KoaContextWithOIDC) => void): string {
  const koa = { set() {}, type: '', body: '', status: 200 } as unknown as KoaContextWithOIDC;
  render(koa);
  return String(koa.body);
}

const primaries = (html: string) => (html.match(/class="[^"]*\bprimary\b[^"]*"/g) ?? []).length;
const FORM = '<form action="/oauth/device/x" method="post"><input type="hidden" name="xsrf" value="t"></form>';

describe('one look: tokens and buttons', () => {
  it('declares every token, light and dark, in the document stylesheet and the decision page alike', () => {
    const shadow = decisionPageStyles.cssText;
    for (const [name, value] of [...Object.entries(TOKENS), ...Object.entries(DARK_TOKENS)]) {
      assert.ok(PAGE_CSS.includes(`${name}: ${value};`), `page.css declares ${name}`);
      assert.ok(shadow.includes(`${name}: ${value};`), `the decision page declares ${name}`);
    }
    assert.ok(PAGE_CSS.includes(BUTTON_CSS) && shadow.includes(BUTTON_CSS), 'one button style for both');
    assert.match(PAGE_CSS, /font-family: var\(--svc-font-family\)/);
  });

  it('styles the device pages with the shared stylesheet: one primary button on each', () => {
    const pages = [
      devicePage((koa) => deviceCodePage(koa, FORM)),
      devicePage((koa) => deviceCodePage(koa, FORM, undefined, { client: 'Shop', userCode: 'ABCD-EFGH' })),
    ];
    for (const html of pages) {
      assert.match(html, /<link rel="stylesheet" href="\/assets\/page.css">/);
      assert.equal(primaries(html), 1, html);
      assert.match(html, /<link rel="icon" href="data:,">/, 'no favicon request to answer 404');
    }
    assert.match(pages[1]!, /<button type="submit" name="abort" value="yes">Cancel<\/button>/, 'cancel is secondary');
    for (const html of [devicePage((koa) => deviceFormLostPage(koa)), devicePage((koa) => deviceSuccessPage(koa))]) {
      assert.match(html, /href="\/assets\/page.css"/);
      assert.ok(primaries(html) <= 1);
    }
  });

  it('styles the inbox page with the shared tokens and buttons, one primary action, no colours of its own', () => {
    const signedIn = inboxPage({
      email: 'a@example.com',
      query: { sort: 'deadline' },
      applications: [],
      decisions: [],
      nextCursor: null,
      now: 0,
    });
    for (const html of [signInPage({ sort: 'deadline' }, false), signedIn]) {
      assert.match(html, /href="\/assets\/page.css"/);
      assert.equal(primaries(html), 1);
    }
    assert.doesNotMatch(INBOX_CSS, /#[0-9a-f]{3,6}\b|LinkText|Highlight|\bbutton\b/i, 'colours and buttons come from page.css');
  });

  it('gives <svc-inbox> the same values as fallbacks and its own font stack on :host', () => {
    const source = readFileSync(new URL('../../../../elements/src/inbox/inbox.styles.ts', import.meta.url), 'utf8');
    for (const name of ['--svc-accent', '--svc-accent-text', '--svc-radius', '--svc-button-radius', '--svc-font-family'] as const) {
      assert.ok(source.includes(`var(${name}, ${TOKENS[name]})`), `<svc-inbox> falls back to ${name}: ${TOKENS[name]}`);
    }
    assert.match(
      source,
      /:host \{[^}]*font: var\(--svc-inbox-font, [^;]*var\(--svc-font-family,/,
      'the font is set on :host, not inherited',
    );
    assert.match(source, /::part\(button\)/, "the rows' buttons are restyled as secondary");
  });
});

describe('one look: the step counter', () => {
  it('speaks exactly what it shows ("Step 2 of 4"), never a count of its own', () => {
    const part = {
      title: 'Newsletter',
      purposes: [],
      screens: [{ type: 'intro' }, { type: 'sign_in' }, { type: 'verify' }, { type: 'review' }],
    } as unknown as ConstructorParameters<typeof ConsentView>[1];
    const host = { progress: { status: 'pending', step_index: 1, total_steps: 5 } } as unknown as PageHost;
    const view = new ConsentView(host, part);
    assert.equal(view.stepLabel(), 'Step 2 of 4');
    assert.equal(stepAnnouncement(view), `${view.stepLabel()}.`);
    assert.equal(stepAnnouncement({ title: 'Approve the payment', stepLabel: () => null }), 'Approve the payment.');
  });
});

describe('one look: back to the inbox', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  it('keeps a same-origin inbox path, with its filters', async () => {
    const d = await createConsent(server);
    const page = await fetch(`${d.url}?from=${encodeURIComponent('/inbox?kind=approval&sort=newest')}`);
    assert.equal(page.status, 200);
    assert.equal(dataOf(await page.text()).return_to, '/inbox?kind=approval&sort=newest');
    assert.equal(dataOf(await (await fetch(d.url)).text()).return_to, null, 'not opened from the inbox: no link');
  });

  it('ignores a return place on another origin, or anywhere but the inbox (no open redirect)', async () => {
    const d = await createDecision(server, { kind: 'approval', subject_ref: 'x', delivery_mode: 'redirect' });
    const hostile = [
      'https://evil.example/inbox',
      '//evil.example/inbox',
      '/\\evil.example/inbox',
      '\\\\evil.example/inbox',
      'javascript:alert(1)',
      '/inbox/../decisions',
      '/%2F%2Fevil.example/inbox',
      '/decisions/other',
      ' /inbox',
      `/inbox?${'x'.repeat(600)}`,
    ];
    for (const from of hostile) {
      const res = await fetch(`${server.url}/decisions/${d.session_token}?from=${encodeURIComponent(from)}`);
      const data = dataOf(await res.text());
      assert.equal(data.return_to, null, from);
    }
    for (const from of hostile) assert.equal(returnToOf(from), null, from);
    assert.equal(returnToOf('/inbox'), '/inbox');
  });
});
