// The snippet without code: the organisation's own checkboxes (`data-svc-purpose`) in a `<form data-svc-flow>` on a
// plain HTML page with the script tag; the organisation's backend commits the token through `authorize`.
import { cspConsole, expect, recorded, test } from './pages/capture-test.js';
import { createCaptureFlow, startOrgSite, startOwnService } from './pages/org-site.js';

test.describe('snippet over the organisation’s own controls', () => {
  for (const csp of [false, true]) {
    test(`ends in a record with channel form_capture${csp ? ', under a strict Content-Security-Policy' : ''}`, async ({
      page,
      svc,
      org,
      flowId,
    }) => {
      const violations = cspConsole(page);
      await page.goto(org.page('snippet.html', { flow: flowId, csp }));
      await page.getByLabel('Email address').fill('ada@example.com');
      await page.getByRole('checkbox', { name: 'Email newsletter' }).check();
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect(page.locator('#outcome')).toHaveText(/^recorded form_capture /);

      const submission = org.submissions.at(-1)!;
      expect(submission.fields.newsletter).toEqual(['yes']);
      const decision = submission.authorize!.body.decision!;
      expect(decision).toMatchObject({ channel: 'form_capture', status: 'fulfilled', wording_verdict: 'match' });
      expect(decision.purposes.map((p) => `${p.key}:${p.outcome}`)).toEqual(['newsletter:granted', 'analytics:noticed', 'service:noticed']);
      const record = await svc.api<{ consent_record: { channel: string } }>(`/api/v1/consent_records/${decision.record_id}`);
      expect(record.body.consent_record.channel).toBe('form_capture');
      const events = await recorded(page);
      expect(events.map((e) => `${e.type}:${e.target}`)).toEqual(['svc-capture:form']);
      expect(violations).toEqual([]);
    });
  }

  test('a consent checkbox ticked by default is refused by name, and the form still posts', async ({ page, org, flowId }) => {
    await page.goto(org.page('snippet-default-ticked.html', { flow: flowId }));
    await expect(page.getByRole('checkbox', { name: 'Email newsletter' })).toBeChecked();
    await page.getByLabel('Email address').fill('ada@example.com');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.locator('#outcome')).toHaveText('no capture token');
    const [error] = (await recorded(page)).filter((e) => e.type === 'svc-error');
    expect(error!.detail).toMatchObject({ code: 'http_422', status: 422 });
    const body = error!.detail.body as { code: string; errors: { path: string; code: string }[] };
    expect(body.code).toBe('attestation_refused');
    expect(body.errors).toContainEqual(expect.objectContaining({ path: 'decisions.newsletter', code: 'default_checked' }));
    expect(org.submissions.at(-1)!.token).toBeNull();
  });

  test('with the service stopped the form still posts and svc-error fired', async ({ page }) => {
    const own = await startOwnService();
    const { sandbox } = own;
    const flowId = await createCaptureFlow(own.url, sandbox.api_token);
    const site = await startOrgSite(
      { baseUrl: own.url, publishableKey: sandbox.publishable_key, apiToken: sandbox.api_token },
      sandbox.application_id,
    );
    try {
      await page.goto(site.page('snippet.html', { flow: flowId, csp: true }));
      await expect(page.getByRole('checkbox', { name: 'Email newsletter' })).toBeVisible();
      await own.stop();
      await page.getByLabel('Email address').fill('ada@example.com');
      await page.getByRole('checkbox', { name: 'Email newsletter' }).check();
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect(page.locator('#outcome')).toHaveText('no capture token');
      expect(site.submissions.at(-1)!.fields.newsletter).toEqual(['yes']);
      expect((await recorded(page)).filter((e) => e.type === 'svc-error').map((e) => e.detail.code)).toEqual(['network']);
    } finally {
      await site.close();
      await own.stop();
    }
  });
});

test.describe('snippet on a misconfigured form', () => {
  test('a purpose marked on a text field fails at once with invalid_control, and a real click still posts the form', async ({
    page,
    org,
    flowId,
  }) => {
    await page.goto(org.page('snippet-invalid.html', { flow: flowId }));
    await page.getByLabel('Email address').fill('ada@example.com');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.locator('#outcome')).toHaveText('no capture token');
    expect((await recorded(page)).filter((e) => e.type === 'svc-error').map((e) => e.detail.code)).toEqual(['invalid_control']);
  });
});
