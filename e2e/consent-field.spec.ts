// <svc-consent-field> on an organisation's plain HTML page (script tag, no build step) on another loopback origin,
// posting to the organisation's own backend, which commits the capture token through `authorize`.
import AxeBuilder from '@axe-core/playwright';
import { cspConsole, expect, recorded, test } from './pages/capture-test.js';
import { arabicFlowConfig, createCaptureFlow, startOrgSite, startOwnService } from './pages/org-site.js';

test.describe('consent field on the organisation’s form', () => {
  for (const csp of [false, true]) {
    test(`ends in a record with channel embedded_field${csp ? ', under a strict Content-Security-Policy' : ''}`, async ({
      page,
      svc,
      org,
      flowId,
    }) => {
      const violations = cspConsole(page);
      const response = await page.goto(org.page('consent-field.html', { flow: flowId, csp }));
      if (csp) expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
      const newsletter = page.getByRole('checkbox', { name: 'Email newsletter' });
      const analytics = page.getByRole('checkbox', { name: 'Product analytics' });
      await expect(newsletter).toBeVisible();
      await expect(newsletter).not.toBeChecked();
      await expect(analytics).toBeChecked();
      await expect(page.getByText('Recorded by svc')).toBeVisible();
      await expect(page.getByText('Processing your account data to provide what you signed up for.')).toBeVisible();

      await page.getByLabel('Email address').fill('ada@example.com');
      await newsletter.check();
      await page.getByRole('button', { name: 'Sign up' }).click();
      await expect(page.locator('#outcome')).toHaveText(/^recorded embedded_field /);

      const submission = org.submissions.at(-1)!;
      expect(submission.fields.consent).toEqual([submission.token]);
      expect(submission.fields.email).toEqual(['ada@example.com']);
      expect(submission.authorize!.status).toBe(200);
      const decision = submission.authorize!.body.decision!;
      expect(decision).toMatchObject({ channel: 'embedded_field', status: 'fulfilled', wording_verdict: 'match' });
      expect(decision.purposes).toEqual([
        { key: 'newsletter', outcome: 'granted', basis: 'consent' },
        { key: 'analytics', outcome: 'noticed', basis: 'legitimate_interest' },
        { key: 'service', outcome: 'noticed', basis: 'contract' },
      ]);
      const record = await svc.api<{ consent_record: { channel: string; status: string } }>(
        `/api/v1/consent_records/${decision.record_id}`,
      );
      expect(record.status).toBe(200);
      expect(record.body.consent_record).toMatchObject({ channel: 'embedded_field', status: 'fulfilled' });

      const events = await recorded(page);
      expect(events.map((e) => `${e.type}:${e.target}`)).toEqual(['svc-capture:svc-consent-field']);
      expect(events[0]!.detail.session_token).toBe(submission.token);
      expect(violations).toEqual([]);
    });
  }

  test('records an objection and a decline, and the page passes an axe audit', async ({ page, org, flowId }) => {
    await page.goto(org.page('consent-field.html', { flow: flowId }));
    await expect(page.getByRole('checkbox', { name: 'Product analytics' })).toBeChecked();
    const audit = await new AxeBuilder({ page }).include('svc-consent-field').analyze();
    expect(audit.violations.map((v) => v.id)).toEqual([]);
    await page.getByLabel('Email address').fill('grace@example.com');
    // Keyboard only: from the email field into the shadow tree, untick the right-to-object box, submit with Enter.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('checkbox', { name: 'Email newsletter' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('checkbox', { name: 'Product analytics' })).toBeFocused();
    await page.keyboard.press('Space');
    await page.getByLabel('Email address').press('Enter');
    await expect(page.locator('#outcome')).toHaveText(/^recorded embedded_field /);
    expect(org.submissions.at(-1)!.authorize!.body.decision!.purposes.map((p) => `${p.key}:${p.outcome}`)).toEqual([
      'newsletter:declined',
      'analytics:objected',
      'service:noticed',
    ]);
  });

  test('lays out right to left for a flow worded in Arabic', async ({ page, svc, org }) => {
    const flowId = await createCaptureFlow(svc.server.url, svc.server.sandbox.api_token, 'نشرة نورثويند', arabicFlowConfig);
    await page.goto(org.page('consent-field-rtl.html', { flow: flowId }));
    const box = page.getByRole('checkbox', { name: 'النشرة البريدية' });
    await expect(box).toBeVisible();
    await expect(page.locator('svc-consent-field fieldset')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByText('مسجّل بواسطة svc')).toBeVisible();
    const boxAt = (await box.boundingBox())!;
    const labelAt = (await page.locator('svc-consent-field label').first().boundingBox())!;
    expect(boxAt.x, 'the box sits right of its label').toBeGreaterThan(labelAt.x + labelAt.width - 1);
    const audit = await new AxeBuilder({ page }).include('svc-consent-field').analyze();
    expect(audit.violations.map((v) => v.id)).toEqual([]);
    await page.getByLabel('البريد الإلكتروني').fill('layla@example.com');
    await box.check();
    await page.getByRole('button', { name: 'اشترك' }).click();
    await expect(page.locator('#outcome')).toHaveText(/^recorded embedded_field /);
    expect(org.submissions.at(-1)!.authorize!.body.decision!.purposes.map((p) => `${p.key}:${p.outcome}`)).toEqual([
      'newsletter:granted',
      'analytics:noticed',
    ]);
  });

  test('a second field for the same flow renders nothing and fires svc-error duplicate_field', async ({ page, org, flowId }) => {
    await page.goto(org.page('consent-field.html', { flow: flowId }));
    await expect(page.getByRole('checkbox', { name: 'Email newsletter' })).toBeVisible();
    await page.evaluate(() => {
      const second = document.createElement('svc-consent-field');
      for (const name of ['flow', 'publishable-key', 'base-url'])
        second.setAttribute(name, document.querySelector('svc-consent-field')!.getAttribute(name)!);
      second.setAttribute('name', 'consent2');
      document.querySelector('button')!.before(second);
    });
    await expect.poll(async () => (await recorded(page)).map((e) => e.detail.code)).toEqual(['duplicate_field']);
    await expect(page.getByRole('checkbox', { name: 'Email newsletter' })).toHaveCount(1);
  });
});

test.describe('consent field with the service stopped', () => {
  test('the form still posts, without a token, and svc-error fired', async ({ page }) => {
    const own = await startOwnService();
    const { sandbox } = own;
    const flowId = await createCaptureFlow(own.url, sandbox.api_token);
    const site = await startOrgSite(
      { baseUrl: own.url, publishableKey: sandbox.publishable_key, apiToken: sandbox.api_token },
      sandbox.application_id,
    );
    try {
      // The script tag comes from the organisation's copy, so the page still loads it once the service is gone.
      await page.goto(site.page('consent-field.html', { flow: flowId, csp: true }));
      await expect(page.getByRole('checkbox', { name: 'Email newsletter' })).toBeVisible();
      await own.stop();
      await page.getByLabel('Email address').fill('ada@example.com');
      await page.getByRole('checkbox', { name: 'Email newsletter' }).check();
      await page.getByRole('button', { name: 'Sign up' }).click();
      await expect(page.locator('#outcome')).toHaveText('no capture token');
      expect(site.submissions.at(-1)!.fields.email).toEqual(['ada@example.com']);
      const events = await recorded(page);
      expect(events.filter((e) => e.type !== 'csp').map((e) => [e.type, e.detail.code, e.detail.phase])).toEqual([
        ['svc-error', 'network', 'capture'],
      ]);

      // Loaded while the service is down: nothing to show, and the form still posts.
      await page.evaluate(() => sessionStorage.clear());
      await page.goto(site.page('consent-field.html', { flow: flowId, csp: true }));
      await expect(page.locator('svc-consent-field').getByText('Your consent choices could not be loaded.')).toBeVisible();
      await page.getByLabel('Email address').fill('ada@example.com');
      await page.getByRole('button', { name: 'Sign up' }).click();
      await expect(page.locator('#outcome')).toHaveText('no capture token');
      expect((await recorded(page)).filter((e) => e.type === 'svc-error').map((e) => [e.detail.code, e.detail.phase])).toEqual([
        ['network', 'render'],
        ['not_rendered', 'capture'],
      ]);
    } finally {
      await site.close();
      await own.stop();
    }
  });
});
