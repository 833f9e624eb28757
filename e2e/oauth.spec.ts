// The service as an OpenID provider, in Chromium: the playground's OAuth client pushes its request (PAR, PKCE), the
// person signs in and consents on the hosted Lit pages (keyboard only, axe-clean, no CSP violation), the
// playground's server verifies the ID token against the JWKS and calls userinfo and /api/v1/me, then refreshes and
// revokes.
import { audit, expect, problems, test } from './fixtures.js';

test('the playground signs a person in with PAR + PKCE, then refreshes and revokes', async ({ page, svc }) => {
  const seen = problems(page);
  await page.goto(`${svc.origin}/`);
  await page.getByRole('button', { name: 'Sign in with the service' }).click();

  // Sign-in: the email field has the focus; the keyboard does the rest.
  await expect(page.getByRole('heading', { name: /Sign in to continue to Sandbox playground/ })).toBeVisible();
  const csp = (await page.request.get(page.url())).headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  await audit(page, 'email step');
  await page.keyboard.type('Ada@Example.com');
  await page.keyboard.press('Enter');

  await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
  await audit(page, 'code step');
  const code = (await page.locator('svc-oauth-page .sandbox code').textContent())!;
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');

  await expect(page.getByRole('heading', { name: 'Allow Sandbox playground to act for you?' })).toBeVisible();
  await expect(page.getByText('See your email address')).toBeVisible();
  await audit(page, 'consent step');
  await page.getByRole('button', { name: 'Allow' }).focus();
  await page.keyboard.press('Enter');

  await expect(page.getByRole('heading', { name: 'Signed in' })).toBeVisible();
  await expect(page.getByText("The ID token's signature verified")).toBeVisible();
  await expect(page.locator('#oauth-sub')).toHaveText(/^prs_/);
  await expect(page.locator('#oauth-email')).toHaveText('ada@example.com');
  await expect(page.locator('#oauth-me')).toHaveText('200 person ada@example.com');
  await expect(page.locator('#oauth-refresh')).toHaveText('issued');

  await page.getByRole('button', { name: 'Refresh the tokens' }).click();
  await expect(page.getByRole('heading', { name: 'Refreshed' })).toBeVisible();
  await expect(page.locator('#oauth-me')).toHaveText('200 ada@example.com');

  await page.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByRole('heading', { name: 'Revoked' })).toBeVisible();
  await expect(page.locator('#oauth-me')).toHaveText('401');
  expect(seen).toEqual([]);
});

test('a wrong code is refused on the page, and denying ends at the client with access_denied', async ({ page, svc }) => {
  await page.goto(`${svc.origin}/`);
  await page.getByRole('button', { name: 'Sign in with the service' }).click();
  await page.getByLabel('Email address').fill('grace@example.com');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Code').fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  // A wrong guess of the shown code is possible (one in a million); the shown code then works.
  const shown = await page.locator('svc-oauth-page .sandbox code').count();
  if (!shown) await expect(page.getByRole('alert')).toHaveText(/not the one we sent/);
  await page.getByRole('button', { name: 'Send a new code' }).click();
  const code = (await page.locator('svc-oauth-page .sandbox code').textContent())!;
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByRole('heading', { name: 'Sign-in did not finish' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(/access_denied/);
});
