// Accessibility: axe-core at WCAG 2.2 AA on both elements in an organisation's page and on every hosted decision
// page (no rule disabled), and a consent decision and a consent field completed with the keyboard alone (Tab,
// Shift+Tab, Space, Enter: no clicks), checking after every key that the focused control shows a focus indicator.
import type { Frame, Page } from '@playwright/test';
import { expect, test } from './examples.fixtures.js';
import { audit } from './fixtures.js';

interface Focused {
  tag: string;
  text: string;
  visible: boolean;
  indicator: string;
}

/** The focused element, through shadow roots, with whether it shows a focus indicator (outline or box-shadow). */
async function focused(where: Page | Frame): Promise<Focused> {
  return where.evaluate(() => {
    let el: Element | null = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body) return { tag: 'body', text: '', visible: true, indicator: 'none (nothing focused)' };
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const shadow = style.boxShadow !== 'none' && style.boxShadow !== '';
    const input = el as HTMLInputElement;
    const label = input.labels?.[0]?.textContent ?? el.getAttribute('aria-label') ?? '';
    return {
      tag: el.localName,
      text: `${label} ${el.localName === 'input' ? '' : (el.textContent ?? '')}`.replace(/\s+/g, ' ').trim(),
      visible: outline || shadow,
      indicator: outline
        ? `outline ${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`
        : shadow
          ? `box-shadow ${style.boxShadow}`
          : 'none',
    };
  });
}

/**
 * Presses Tab (or Shift+Tab) until the focused control's text matches `target`, checking the focus indicator of
 * every control it passes on the way.
 */
async function tabTo(page: Page, target: RegExp, options: { where?: Page | Frame; back?: boolean } = {}): Promise<Focused> {
  const where = options.where ?? page;
  for (let i = 0; i < 30; i += 1) {
    await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
    const now = await focused(where);
    if (now.tag !== 'body') expect(now.visible, `focus indicator on <${now.tag}> "${now.text}": ${now.indicator}`).toBe(true);
    if (target.test(now.text)) return now;
  }
  throw new Error(`never reached ${target} with the keyboard`);
}

test.describe('axe at WCAG 2.2 AA', () => {
  test('the consent field in a plain form', async ({ page, examples }) => {
    await page.goto(examples.url('/consent-field.html'));
    await expect(page.getByRole('checkbox', { name: 'Email newsletter' })).toBeVisible();
    await audit(page, 'consent field');
  });

  test('the decision element with its embedded page, at every step (axe scans into the frame)', async ({ page, examples }) => {
    // Five full scans, each into the frame: on a loaded two-core machine they outlast the default 30 s.
    test.slow();
    await page.goto(examples.url('/embed.html'));
    const frame = page.frameLocator('svc-decision iframe');
    await expect(frame.getByRole('button', { name: 'Continue' })).toBeVisible();
    await audit(page, 'intro');
    await frame.getByRole('button', { name: 'Continue' }).click();
    await expect(frame.getByLabel('Email address')).toBeVisible();
    await audit(page, 'sign-in');
    await frame.getByLabel('Email address').fill('ada@example.com');
    await frame.getByRole('button', { name: 'Continue' }).click();
    const code = (await frame.locator('.sandbox code').textContent())!;
    await audit(page, 'code');
    await frame.getByLabel('Code').fill(code);
    await frame.getByRole('button', { name: 'Verify' }).click();
    await expect(frame.getByRole('checkbox', { name: /Email newsletter/ })).toBeVisible();
    await audit(page, 'review');
    await frame.getByRole('button', { name: 'Agree' }).click();
    await expect(page.locator('#result')).toHaveText(/^Verified/);
    await audit(page, 'completed');
  });

  test('the hosted pages: /decisions/{token}, /decisions/{token}/embed, /accord/{flow_id} and an unknown token', async ({ page, svc }) => {
    test.slow(); // four full scans
    const decision = await svc.createDecision({ kind: 'consent', subject_ref: svc.server.sandbox.flow_id, delivery_mode: 'popup' });
    await page.goto(decision.url);
    await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
    await audit(page, '/decisions/{token}');
    await page.goto(decision.embed_url);
    await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
    await audit(page, '/decisions/{token}/embed');
    await page.goto(`${svc.server.url}/accord/${svc.server.sandbox.flow_id}`);
    await expect(page).toHaveURL(/\/decisions\/dts_/);
    await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
    await audit(page, '/accord/{flow_id}');
    await page.goto(`${svc.server.url}/decisions/dts_unknown`);
    await audit(page, 'unknown decision');
  });

  test('the expired page', async ({ page, svc }) => {
    const decision = await svc.createDecision({ kind: 'consent', subject_ref: svc.server.sandbox.flow_id, delivery_mode: 'popup' });
    // Just past its deadline (the server is shared by the whole run: move its clock no further than needed).
    await svc.advance(Math.ceil((Date.parse(decision.deadline_at) - Date.now()) / 1000) + 5);
    await page.goto(decision.url);
    await expect(page.getByText(/expired/i).first()).toBeVisible();
    await audit(page, 'expired decision');
  });
});

test.describe('keyboard alone, with visible focus throughout', () => {
  test('a consent decision on the hosted page', async ({ page, svc }) => {
    const decision = await svc.createDecision({ kind: 'consent', subject_ref: svc.server.sandbox.flow_id, delivery_mode: 'popup' });
    await page.goto(decision.url);
    await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();

    await tabTo(page, /^Continue$/);
    await page.keyboard.press('Enter');
    await expect(page.getByLabel('Email address')).toBeVisible();
    await tabTo(page, /Email address/);
    await page.keyboard.type('ada@example.com');
    await tabTo(page, /^Continue$/);
    await page.keyboard.press('Enter');
    const code = (await page.locator('.sandbox code').textContent())!;
    await tabTo(page, /^Code/);
    await page.keyboard.type(code);
    await tabTo(page, /^Verify$/);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('checkbox', { name: /Email newsletter/ })).toBeVisible();
    await tabTo(page, /Email newsletter/);
    await page.keyboard.press('Space');
    await expect(page.getByRole('checkbox', { name: /Email newsletter/ })).toBeChecked();
    // Forward to Agree, back with Shift+Tab to the checkbox to check the reverse order works too, then on again.
    await tabTo(page, /^Agree$/);
    await tabTo(page, /Email newsletter/, { back: true });
    await tabTo(page, /^Agree$/);
    await page.keyboard.press('Enter');

    await expect
      .poll(
        async () => (await svc.api<{ decision: { status: string } }>(`/api/v1/decisions/${decision.session_token}`)).body.decision.status,
      )
      .toBe('fulfilled');
  });

  test('a consent decision embedded in the organisation’s page (Tab from the host page into the frame)', async ({ page, examples }) => {
    await page.goto(examples.url('/embed.html'));
    const frameLocator = page.frameLocator('svc-decision iframe');
    await expect(frameLocator.getByRole('button', { name: 'Continue' })).toBeVisible();
    const frame = page.frames().find((f) => f.url().includes('/decisions/'))!;
    const step = (target: RegExp) => tabTo(page, target, { where: frame });

    await step(/^Continue$/);
    await page.keyboard.press('Enter');
    await expect(frameLocator.getByLabel('Email address')).toBeVisible();
    await step(/Email address/);
    await page.keyboard.type('ada@example.com');
    await page.keyboard.press('Enter'); // submits the sign-in form
    await expect(frameLocator.getByLabel('Code')).toBeVisible();
    const code = (await frameLocator.locator('.sandbox code').textContent())!;
    await step(/^Code/);
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await expect(frameLocator.getByRole('checkbox', { name: /Email newsletter/ })).toBeVisible();
    await step(/Email newsletter/);
    await page.keyboard.press('Space');
    await step(/^Agree$/);
    await page.keyboard.press('Enter');
    await expect(page.locator('#result')).toHaveText('Verified: newsletter granted');
  });

  test('a consent field on a plain form', async ({ page, examples }) => {
    await page.goto(examples.url('/consent-field.html'));
    await expect(page.getByRole('checkbox', { name: 'Email newsletter' })).toBeVisible();
    await tabTo(page, /Email address/);
    await page.keyboard.type('ada@example.com');
    await tabTo(page, /Email newsletter/);
    await page.keyboard.press('Space');
    await expect(page.getByRole('checkbox', { name: 'Email newsletter' })).toBeChecked();
    await tabTo(page, /Product analytics/);
    await tabTo(page, /Email newsletter/, { back: true });
    await tabTo(page, /^Sign up$/);
    await page.keyboard.press('Enter');
    await expect(page.locator('#outcome')).toHaveText(/^recorded embedded_field /);
    expect(examples.log.signups.at(-1)).toMatchObject({ email: 'ada@example.com', channel: 'embedded_field' });
  });
});
