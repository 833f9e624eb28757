// The end-to-end subset in the engine SVC_ENGINE names (firefox or webkit; Chromium runs the whole Playwright
// suite): the decision completed by a person, embedded and in a popup, the consent field submitted in a form, the
// snippet with the service down, both elements under a strict Content-Security-Policy, a person in their trust center
// (signed in, records from two organisations, one purpose withdrawn, a credential presented with one chosen claim),
// and the script tag fetching only what a page shows. Each test drives the browser with real clicks and keys
// (./driver.ts) against the reference server and the organisation's site of ../pages. Run, after `pnpm run build`:
//   SVC_ENGINE=webkit node --import tsx --test e2e/engines/engines.test.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCaptureFlow, startOrgSite, startOwnService } from '../pages/org-site.js';
import { checkPresentation, issueConsentCredential } from '../credentials.fixtures.js';
import { openTab, type Engine, type Tab } from './driver.js';
import { type Api, grantConsent, recorded, startWorld, type World } from './world.js';

const engine = process.env.SVC_ENGINE as Engine;
if (engine !== 'firefox' && engine !== 'webkit') throw new Error('SVC_ENGINE must be firefox or webkit');

interface Seen {
  type: string;
  detail: Record<string, unknown>;
}

/** The svc events the checkout page (../pages/checkout.ts) recorded, once one of `type` is among them. */
const eventsUntil = (tab: Tab, type: string) =>
  tab.waitFor(
    `the page to see ${type}`,
    (t: string) => {
      const seen = (window as unknown as { svcEvents: Seen[] }).svcEvents;
      return seen.some((e) => e.type === t) && seen;
    },
    type,
  );

/**
 * An active flow titled `title` in the organisation `api` calls for, its purposes `letters` (labelled `letter`) and
 * `offers`, and a record on it for `email` with both granted; the record's id.
 */
async function recordIn(api: Api, title: string, letter: string, email: string): Promise<string> {
  const purpose = (key: string, label: string) => ({ key, label, description: `${label}.`, basis: 'consent', mechanism: 'explicit' });
  const config = {
    locale: 'en',
    policy_url: 'https://shop.example/privacy',
    consent_duration: 'P1Y',
    purposes: [purpose('letters', letter), purpose('offers', 'Partner offers')],
  };
  const flow = await api<{ flow: { id: string } }>('/api/v1/flows', {
    flow: { pattern: 'standard', title, description: `${title}.`, config },
  });
  assert.equal(flow.status, 201, JSON.stringify(flow.body));
  assert.equal((await api(`/api/v1/flows/${flow.body.flow.id}/activate`, {})).status, 200);
  const made = await api<{ consent_record: { id: string } }>('/api/v1/consent_records', {
    flow_id: flow.body.flow.id,
    subject: { email },
    decisions: { letters: { decision: 'granted' }, offers: { decision: 'granted' } },
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  return made.body.consent_record.id;
}

const detailOf = (seen: Seen[], type: string) => seen.find((e) => e.type === type)?.detail ?? {};

/** The files the page fetched from a service's `/sdk/v1/`, hashes cut off (`svc-lit`, not `svc-lit-Ab12Cd.js`). */
const sdkFetches = (tab: Tab) =>
  tab.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name).pathname)
      .filter((path) => path.startsWith('/sdk/v1/'))
      .map((path) => path.slice('/sdk/v1/'.length).replace(/(-[\w-]{6})?\.js$/, ''))
      .sort(),
  );

describe(`${engine}: end to end`, () => {
  let world: World;
  let tab: Tab;
  before(async () => {
    [world, tab] = await Promise.all([startWorld(), openTab(engine)]);
  });
  after(async () => {
    await tab?.close();
    await world?.stop();
  });

  it('embeds a decision; the person completes it, the page gets svc-complete and its server exchanges it', async () => {
    const token = await world.decision('embed');
    await tab.goto(world.site.checkout(token));
    const ready = await eventsUntil(tab, 'svc-ready');
    assert.deepEqual(detailOf(ready, 'svc-ready'), {
      kind: 'consent',
      session_token: token,
      deadline_at: detailOf(ready, 'svc-ready').deadline_at,
      branding: { name: 'Sandbox application' },
      mode: 'embed',
      locale: 'en',
    });
    await tab.inFrame(
      () => grantConsent(tab),
      () => document.querySelector('svc-decision')?.shadowRoot?.querySelector('iframe'),
    );
    const seen = await eventsUntil(tab, 'svc-complete');
    const complete = detailOf(seen, 'svc-complete');
    assert.equal(complete.outcome, 'granted');
    assert.deepEqual(
      await tab.evaluate(() => {
        const element = document.querySelector('svc-decision') as unknown as { status: string; outcome: string };
        return [element.status, element.outcome];
      }),
      ['complete', 'granted'],
    );
    // The event proves nothing by itself: the organisation's server exchanges the token with the service.
    const exchanged = await world.api<{ claims: { purposes_granted: string[] } }>(`/api/v1/decisions/${token}/exchange`, {
      exchange_token: complete.exchange_token,
    });
    assert.equal(exchanged.status, 200);
    assert.deepEqual(exchanged.body.claims.purposes_granted, ['newsletter']);
  });

  it('popup mode: the button opens the page, the popup’s messages arrive, and closing an undecided one is a cancel', async () => {
    await tab.goto(world.site.checkout(await world.decision('popup'), 'popup'));
    const popup = await tab.popup(() => tab.click((q) => q.button('Open the request')));
    assert.equal(detailOf(await eventsUntil(tab, 'svc-ready'), 'svc-ready').mode, 'popup');
    await popup.within(() => grantConsent(tab));
    assert.deepEqual(detailOf(await eventsUntil(tab, 'svc-complete'), 'svc-complete').outcome, 'granted');
    await popup.close();

    await tab.goto(world.site.checkout(await world.decision('popup'), 'popup'));
    const undecided = await tab.popup(() => tab.click((q) => q.button('Open the request')));
    await eventsUntil(tab, 'svc-ready');
    await undecided.close();
    assert.deepEqual(detailOf(await eventsUntil(tab, 'svc-cancel'), 'svc-cancel'), {
      reason: 'popup_closed',
      cancelled_by: 'user',
      kind: 'consent',
    });
  });

  it('submits the consent field inside the form: the backend commits the capture token to an embedded_field record', async () => {
    await tab.goto(world.site.page('consent-field.html', { flow: world.flowId }));
    await tab.type('ada@example.com', (q) => q.field('Email address'));
    await tab.click((q) => q.field('Email newsletter'));
    await tab.click((q) => q.button('Sign up'));
    assert.match(await tab.text((q) => q.all('#outcome')[0]), /^recorded embedded_field /);
    const submission = world.site.submissions.at(-1)!;
    assert.deepEqual(submission.fields.consent, [submission.token]);
    assert.equal(submission.authorize?.body.decision?.channel, 'embedded_field');
    assert.deepEqual(
      submission.authorize?.body.decision?.purposes.map((p) => `${p.key} ${p.outcome}`),
      ['newsletter granted', 'analytics noticed', 'service noticed'],
    );
    assert.deepEqual(
      (await recorded(tab)).map((e) => `${e.type}:${e.target}`),
      ['svc-capture:svc-consent-field'],
    );
  });

  it('the snippet with the service down: the form still posts, without a token, and svc-error said network', async () => {
    const own = await startOwnService();
    const flowId = await createCaptureFlow(own.url, own.sandbox.api_token);
    const site = await startOrgSite(
      { baseUrl: own.url, publishableKey: own.sandbox.publishable_key, apiToken: own.sandbox.api_token },
      own.sandbox.application_id,
    );
    try {
      await tab.goto(site.page('snippet.html', { flow: flowId, csp: true }));
      await tab.evaluate(() => sessionStorage.clear());
      // Attached: the loader's autoAttach ran on the capture chunk before this later wait for the same chunk.
      await tab.waitFor('the loader', () => document.readyState === 'complete' && 'Svc' in window);
      await tab.evaluate(() =>
        (window as unknown as { Svc: { load(part: string): Promise<unknown> } }).Svc.load('svc-capture').then(() => true),
      );
      await own.stop();
      await tab.type('ada@example.com', (q) => q.field('Email address'));
      await tab.click((q) => q.field('Email newsletter'));
      await tab.click((q) => q.button('Create account'));
      assert.equal(await tab.text((q) => q.all('#outcome')[0]), 'no capture token');
      assert.deepEqual(site.submissions.at(-1)!.fields.newsletter, ['yes']);
      assert.deepEqual(
        (await recorded(tab)).filter((e) => e.type === 'svc-error').map((e) => e.detail.code),
        ['network'],
      );
    } finally {
      await site.close();
      await own.stop();
    }
  });

  it('both elements work under a strict Content-Security-Policy with the script tag self-hosted, and no violation', async () => {
    const token = await world.decision('embed');
    await tab.goto(world.site.page('strict-checkout.html', { flow: world.flowId, token, csp: true }));
    await tab.evaluate(() => sessionStorage.clear());
    // The hosted page said hello: it is ready for a person.
    await tab.waitFor('svc-ready', () => (document.querySelector('svc-decision') as unknown as { status: string }).status === 'ready');
    await tab.inFrame(
      () => grantConsent(tab),
      () => document.querySelector('svc-decision')?.shadowRoot?.querySelector('iframe'),
    );
    await tab.waitFor('svc-complete', () => (sessionStorage.getItem('svcEvents') ?? '').includes('svc-complete'));
    await tab.type('grace@example.com', (q) => q.field('Email address'));
    await tab.click((q) => q.field('Email newsletter'));
    await tab.click((q) => q.button('Sign up'));
    assert.match(await tab.text((q) => q.all('#outcome')[0]), /^recorded embedded_field /);
    assert.deepEqual(
      (await recorded(tab)).map((e) => e.type),
      ['svc-complete', 'svc-capture'],
    );
  });

  it('a person signs in to their trust center, sees records from two organisations, withdraws one purpose (person_records on the receipt) and presents a credential with the claims they chose', async () => {
    const email = `${engine}.grace@example.com`;
    const letters = await recordIn(world.api, 'Engine letters', 'Monthly letter', email);
    await recordIn(world.organisation(`${engine} hardware store`), 'Hardware club', 'Club letter', email);

    await tab.goto(`${world.service.url}/decisions`);
    await tab.click((q) => q.button('Sign in'));
    await tab.type(email, (q) => q.field('Email address'));
    await tab.click((q) => q.button('Continue'));
    const code = (await tab.text((q) => q.all('.sandbox code')[0])).trim();
    await tab.type(code, (q) => q.field('Code'));
    await tab.click((q) => q.button('Verify'));
    await tab.waitFor('the trust center', async () => new URL(location.href).pathname === '/decisions');
    const organisations = await tab.waitFor('both organisations’ records', () => {
      const names = [...(document.querySelector('svc-records')?.shadowRoot?.querySelectorAll('[part=organisation]') ?? [])];
      return names.length === 2 && names.map((el) => el.textContent?.trim() ?? '');
    });
    const sandbox = (await world.api<{ account: { name: string } }>('/api/v1/me')).body.account.name;
    assert.deepEqual([...organisations].sort(), [`${engine} hardware store`, sandbox].sort());
    await tab.click((q) => q.button('Withdraw: Monthly letter'));
    await tab.click((q) => q.button('Yes, withdraw'));
    const said = await tab.text((q) => q.all('[part=status]').find((el) => el.textContent?.includes('Withdrawn from')));
    assert.match(said, /Monthly letter/);

    const receipt = await world.api<{ consent_receipt: { event: { purpose_id?: string; event_channel?: string }[] } }>(
      `/api/v1/consent_receipts/${letters}`,
    );
    const appended = receipt.body.consent_receipt.event.filter((e) => e.event_channel !== undefined);
    assert.deepEqual(
      appended.map((e) => [e.purpose_id, e.event_channel]),
      [['letters', 'person_records']],
    );

    // The organisation issues a credential; the person presents their email only, and a verifier finds just that.
    const { sandbox: own } = world.service;
    const issuer = { baseUrl: world.service.url, apiToken: own.api_token, flowId: own.flow_id! };
    await issueConsentCredential(issuer, email);
    await tab.click((q) => q.all('a').find((a) => a.textContent?.trim() === 'Your credentials'));
    await tab.click((q, name) => q.button(name), `Present: Consent credential from ${sandbox}`);
    await tab.type('Corner bank', (q) => q.field('Who is it for?'));
    await tab.click((q) =>
      q
        .all('[part=choice]')
        .find((label) => label.textContent?.trim() === 'Email')
        ?.querySelector('input'),
    );
    await tab.click((q) => q.button('Present'));
    const presentation = await tab.waitFor(
      'the presentation',
      () => document.querySelector('svc-credentials')?.shadowRoot?.querySelector<HTMLTextAreaElement>('[part=presentation]')?.value,
    );
    const checked = await checkPresentation(issuer, presentation);
    assert.deepEqual(checked, {
      disclosed: ['email'],
      signedByService: true,
      verification: { valid: true, revoked: false, claims: { email, home_country: 'US', purposes: {} }, undisclosed: 6 },
    });
  });

  it("an organisation's console admin signs in, creates an API token shown once, allows an origin and verifies the audit chain", async () => {
    const { url, sandbox } = world.service;
    await tab.goto(`${url}/applications`);
    // Another test may have signed a person in: the console refuses them, and they sign out here.
    const signedIn = await tab.evaluate(() => [...document.querySelectorAll('button')].some((b) => b.textContent?.trim() === 'Sign out'));
    if (signedIn) await tab.click((q) => q.button('Sign out'));
    await tab.click((q) => q.button('Sign in'));
    await tab.type(sandbox.console_email!, (q) => q.field('Email address'));
    await tab.click((q) => q.button('Continue'));
    const code = (await tab.text((q) => q.all('.sandbox code')[0])).trim();
    await tab.type(code, (q) => q.field('Code'));
    await tab.click((q) => q.button('Verify'));
    await tab.waitFor('the console', async () => new URL(location.href).pathname === '/applications');

    await tab.click((q) => q.button('Create an API token'));
    await tab.type(`${engine} deploy`, (q) => q.field('Name'));
    // `read` is chosen to begin with.
    await tab.click((q) => q.button('Create token'));
    const value = (await tab.text((q) => q.all('[part~=secret-value]')[0])).trim();
    assert.equal((await fetch(`${url}/api/v1/me`, { headers: { authorization: `Bearer ${value}` } })).status, 200);
    await tab.click((q) => q.button('I have copied it'));
    await tab.waitFor(
      'the value forgotten',
      () => !document.querySelector('svc-applications[view=api_tokens]')?.shadowRoot?.querySelector('[part~=secret-value]'),
    );

    await tab.type(`https://${engine}.shop.example`, (q) => q.field('Origin to allow'));
    await tab.click((q) => q.button('Allow origin'));
    const said = await tab.text((q) => q.all('[part=status]').find((el) => el.textContent?.includes('may now call the service')));
    assert.match(said, new RegExp(`https://${engine}\\.shop\\.example may now call the service`));

    await tab.goto(`${url}/governance`);
    await tab.click((q) => q.button('Verify the chain'));
    const verdict = await tab.waitFor('the chain check', () => {
      const found = document.querySelector('svc-governance[view=audit]')?.shadowRoot?.querySelector('[part~=verdict]')?.textContent ?? '';
      return /verifies|breaks|could not/.test(found) && found;
    });
    assert.match(String(verdict), /^The chain of \d+ events verifies/);
  });

  it('the script tag fetches only what a page shows: a form page the field and Lit, a checkout the decision and Lit', async () => {
    await tab.goto(world.site.page('consent-field.html', { flow: world.flowId }));
    await tab.waitFor(
      'the field rendered',
      () => document.querySelector('svc-consent-field')?.shadowRoot?.querySelector('input[type=checkbox]') != null,
    );
    assert.deepEqual(await sdkFetches(tab), ['svc', 'svc-consent-field', 'svc-lit']);

    await tab.goto(world.site.checkout(await world.decision('embed')));
    await eventsUntil(tab, 'svc-ready');
    assert.deepEqual(await sdkFetches(tab), ['svc', 'svc-decision', 'svc-lit']);
  });
});
