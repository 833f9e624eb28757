// The playground at `/`: both elements from the script tag, against the sandbox. A consent decision created
// server-side is completed in <svc-decision> and exchanged and verified by the server; the sign-up form's
// <svc-consent-field> capture is committed by the server through authorize. No CSP violation, no console error.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';

/**
 * Every console error and CSP violation the page (or a popup it opens) reports. A failed load is reported with
 * its URL; the browser's own favicon request (the JSON receipt has no icon link) is not the page's doing.
 */
function problems(page: Page): string[] {
  const seen: string[] = [];
  const watch = (p: Page) => {
    p.on('console', (m) => {
      if (/^Failed to load resource/.test(m.text()) && /\/favicon\.ico$/.test(m.location().url)) return;
      if (m.type() === 'error' || /Content Security Policy|Refused to/i.test(m.text()))
        seen.push(`${m.type()}: ${m.text()} ${m.location().url}`);
    });
    p.on('pageerror', (e) => seen.push(`pageerror: ${e.message}`));
  };
  watch(page);
  page.context().on('page', watch);
  return seen;
}

test('completes an informed consent in <svc-decision> and the server confirms it', async ({ page, svc }) => {
  const seen = problems(page);
  const response = await page.goto(`${svc.origin}/`);
  const csp = response!.headers()['content-security-policy']!;
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("style-src 'self'");
  await expect(page.getByText('Browser messages prove nothing.')).toBeVisible();
  await page.getByRole('radio', { name: 'Informed consent' }).check();
  await page.getByRole('button', { name: 'Create a decision' }).click();
  const frame = page.locator('svc-decision').frameLocator('iframe');
  await frame.getByRole('button', { name: 'Continue' }).click();
  await frame.getByRole('button', { name: 'I have read this' }).click();
  await frame.getByRole('radio', { name: 'Yes, at any time' }).check();
  await frame.getByRole('button', { name: 'Check answer' }).click();
  await frame.getByRole('checkbox', { name: /research study/ }).check();
  await frame.getByRole('button', { name: 'Agree' }).click();

  const result = page.locator('#decision-result');
  await expect(result.getByRole('heading', { name: 'Confirmed by the server' })).toBeVisible();
  await expect(page.locator('#result-outcome')).toHaveText('granted');
  await expect(page.locator('#result-valid')).toHaveText('true');
  const log = page.getByRole('log', { name: 'Events of the element' });
  await expect(log).toContainText('svc-ready');
  await expect(log).toContainText('svc-complete');
  const recordId = (await page.locator('#result-record').textContent())!;
  expect(recordId).toMatch(/^cr_/);
  const record = await svc.api<{ consent_record: { status: string } }>(`/api/v1/consent_records/${recordId}`);
  expect(record.status).toBe(200);
  expect(record.body.consent_record.status).toBe('fulfilled');
  expect(seen).toEqual([]);
});

test('shows a standard-path decision in a popup through the element', async ({ page, svc }) => {
  const seen = problems(page);
  await page.goto(`${svc.origin}/`);
  await page.getByRole('radio', { name: 'Popup' }).check();
  await page.getByRole('button', { name: 'Create a decision' }).click();
  await expect(page.locator('#decision-status')).toHaveText(/Decision created/);
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.locator('svc-decision').getByRole('button').click()]);
  await expect(popup.getByRole('heading').first()).toBeVisible();
  await popup.close();
  await expect(page.getByRole('log', { name: 'Events of the element' })).toContainText('svc-cancel');
  expect(seen).toEqual([]);
});

test('the sign-up form captures consent with <svc-consent-field> and the server commits it', async ({ page, svc }) => {
  const seen = problems(page);
  await page.goto(`${svc.origin}/`);
  const newsletter = page.getByRole('checkbox', { name: 'Email newsletter' });
  await expect(newsletter).toBeVisible();
  await page.getByLabel('Email address').fill('ada@example.com');
  await newsletter.check();
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Recorded' })).toBeVisible();
  const recordId = (await page.locator('#record-id').textContent())!;
  const record = await svc.api<{ consent_record: { channel: string; status: string } }>(`/api/v1/consent_records/${recordId}`);
  expect(record.status).toBe(200);
  expect(record.body.consent_record).toMatchObject({ channel: 'embedded_field', status: 'fulfilled' });
  await page.getByRole('link', { name: `/playground/receipts/${recordId}` }).click();
  await expect(page.locator('body')).toContainText(recordId);
  expect(seen).toEqual([]);
});
