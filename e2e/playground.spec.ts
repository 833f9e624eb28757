// The playground at `/`: a decision created with the sandbox credentials server-side, completed in the embedded
// hosted page, then exchanged and verified by the server.
import { expect, test } from './fixtures.js';

test('the playground completes a consent and shows the verified result', async ({ page, svc }) => {
  await page.goto(`${svc.origin}/`);
  await page.getByRole('button', { name: 'Consent: informed' }).click();
  const frame = page.frameLocator('iframe[title="Decision"]');
  await frame.getByRole('button', { name: 'Continue' }).click();
  await frame.getByRole('button', { name: 'I have read this' }).click();
  await frame.getByRole('radio', { name: 'Yes, at any time' }).check();
  await frame.getByRole('button', { name: 'Check answer' }).click();
  await frame.getByRole('checkbox', { name: /research study/ }).check();
  await frame.getByRole('button', { name: 'Agree' }).click();
  await expect(page.getByRole('heading', { name: 'Exchanged and verified on the server' })).toBeVisible();
  const result = JSON.parse((await page.locator('pre').textContent())!) as { verification: { valid: boolean; status: string }; exchange: { access_token: string } };
  expect(result.verification).toMatchObject({ valid: true, status: 'fulfilled' });
  expect(result.exchange.access_token).toBe('(hidden)');
  const log = page.getByRole('list', { name: 'Messages from the decision page' });
  await expect(log).toContainText('svc:ready');
  await expect(log).toContainText('svc:complete');
});

test('the playground shows an approval in a popup', async ({ page, svc }) => {
  await page.goto(`${svc.origin}/`);
  await page.getByRole('radio', { name: 'popup' }).check();
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Approval' }).click()]);
  await popup.getByRole('button', { name: 'Deny' }).click();
  await expect(popup.getByRole('heading', { level: 2, name: 'Denied' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Exchanged and verified on the server' })).toBeVisible();
  await expect(page.locator('pre')).toContainText('"outcome": "denied"');
});
