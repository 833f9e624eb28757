// One look across the hosted pages, in Chromium: the decision, sign-in, device and inbox pages and the playground
// share the design tokens and the decision page's buttons (one primary action each, the same accent, the same font
// stack); a decision opened from the inbox offers "Back to inbox" once answered; the embedded page reports its
// shorter height once answered; the playground shows an empty state, not a spinner, before any decision exists.
// Screenshots of each page are written under test-results/look/ for a reviewer to open (never committed).
import type { Locator, Page } from '@playwright/test';
import { confirmByCode, expect, ofTypes, problems, test } from './fixtures.js';

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/look/${name}.png`, fullPage: true });

/** The computed look of a button: what the tokens decide. */
const lookOf = (button: Locator) =>
  button.evaluate((el) => {
    const style = getComputedStyle(el);
    return { background: style.backgroundColor, radius: style.borderRadius, font: style.fontFamily };
  });

test('every hosted page has the same primary button, font and tokens (screenshots in test-results/look/)', async ({ page, svc }) => {
  test.setTimeout(60_000);
  const seen = problems(page);
  page.on('response', (res) => {
    if (res.status() >= 400) seen.push(`${res.status()} ${res.url()}`);
  });
  const email = 'look.ada@example.com';
  const decision = await svc.createDecision({
    kind: 'approval',
    subject_ref: 'order-77',
    scope: 'refunds:write',
    delivery_mode: 'redirect',
    addressee: { email },
  });
  const looks: Record<string, Awaited<ReturnType<typeof lookOf>>> = {};

  await page.goto(`${svc.origin}/oauth/device`);
  await expect(page.locator('button.primary')).toHaveCount(1);
  looks.device = await lookOf(page.getByRole('button', { name: 'Continue' }));
  await shot(page, 'device');

  await page.goto(`${svc.origin}/inbox`);
  looks.inboxSignIn = await lookOf(page.getByRole('button', { name: 'Sign in' }));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByLabel('Email address')).toBeVisible();
  looks.signIn = await lookOf(page.getByRole('button', { name: 'Continue' }));
  await shot(page, 'sign-in');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Code').fill((await page.locator('svc-oauth-page .sandbox code').textContent())!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(`${svc.origin}/inbox`);
  await expect(page.locator('button.primary')).toHaveCount(1);
  looks.inbox = await lookOf(page.getByRole('button', { name: 'Apply' }));
  await shot(page, 'inbox');

  // The row says where it came from; answered, the page leads back there.
  await page.locator(`a[href^="${svc.origin}/decisions/${decision.session_token}?from="]`).click();
  await expect(page).toHaveURL(`${svc.origin}/decisions/${decision.session_token}?from=%2Finbox`);
  const approve = page.getByRole('button', { name: 'Approve' });
  if (!(await approve.isVisible())) await confirmByCode(page);
  looks.decision = await lookOf(approve);
  await shot(page, 'decision');
  await approve.click();
  await expect(page.getByRole('heading', { level: 2, name: 'Approved' })).toBeVisible();
  await shot(page, 'decision-answered');
  await page.getByRole('link', { name: 'Back to inbox' }).click();
  await expect(page).toHaveURL(`${svc.origin}/inbox`);
  await expect(page.getByRole('heading', { level: 2, name: 'Nothing waits for you' })).toBeVisible();

  for (const [name, look] of Object.entries(looks)) {
    expect(look, name).toEqual(looks.decision);
    expect(look.font, name).toMatch(/system-ui/);
  }
  expect(seen).toEqual([]);
});

test('a return place on another origin is ignored: no way back is offered', async ({ page, svc }) => {
  const decision = await svc.createDecision({ kind: 'approval', subject_ref: 'order-78', delivery_mode: 'popup' });
  await page.goto(`${svc.origin}/decisions/${decision.session_token}?from=${encodeURIComponent('https://evil.example/inbox')}`);
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Approved' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to inbox' })).toHaveCount(0);
  await expect(page.locator('a[href*="evil.example"]')).toHaveCount(0);
});

test('the embedded page reports its shorter height once answered', async ({ page, svc, host, messages }) => {
  const decision = await svc.createDecision({
    kind: 'approval',
    subject_ref: 'order-79',
    delivery_mode: 'embed',
    embed_origin: host.origin,
  });
  await page.goto(host.embedPage(decision.embed_url));
  const frame = page.frameLocator('#svc');
  await frame.getByRole('button', { name: 'Approve' }).click();
  await expect(frame.getByRole('heading', { level: 2, name: 'Approved' })).toBeVisible();
  await expect
    .poll(async () => {
      const heights = ofTypes(await messages(page), 'svc:resize').map((m) => m.data.payload.height as number);
      return heights.at(-1)! < Math.max(...heights);
    })
    .toBe(true);
  const last = ofTypes(await messages(page), 'svc:resize').at(-1)!.data.payload.height as number;
  const content = await frame.locator('svc-decision-page').evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
  expect(last).toBe(content);
});

test('the playground shows an empty state, not a spinner, before any decision exists', async ({ page, svc }) => {
  await page.goto(`${svc.origin}/`);
  await expect(page.getByText('No decision yet — create one.')).toBeVisible();
  await expect(page.locator('svc-decision')).toBeHidden();
  await shot(page, 'playground');
  await page.getByRole('button', { name: 'Create a decision' }).click();
  await expect(page.locator('svc-decision')).toBeVisible();
  await expect(page.getByText('No decision yet — create one.')).toBeHidden();
});
