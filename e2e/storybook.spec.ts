// The static Storybook build (`pnpm build-storybook`, which CI runs before the tests) served as a plain static site
// on a loopback port: six stories open from it (a decision state, the real hosted decision page clicked through to
// completion, a signed signature request, a consent field appearance, a right-to-left locale, an inbox whose row
// opens in a popup), each rendering the real element with no console error and no page error. A missing build fails
// loudly.
import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const root = join(import.meta.dirname, '..', 'storybook-static');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};

let server: Server;
let origin: string;

/** A static host: files as they are, a folder's index.html for the folder (as any static host serves them). */
function serveStatic(): Promise<Server> {
  const http = createServer((req, res) => {
    let path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    // Chromium asks every page for /favicon.ico; the build has an SVG one.
    if (path === '/favicon.ico') path = '/favicon.svg';
    let file = normalize(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) return void res.writeHead(403).end();
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file) || !statSync(file).isFile()) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) => http.listen(0, '127.0.0.1', () => resolve(http)));
}

test.beforeAll(async () => {
  if (!existsSync(join(root, 'iframe.html')) || !existsSync(join(root, 'index.json'))) {
    throw new Error(`No static Storybook build in ${root}: run \`pnpm build-storybook\` first (CI runs it after \`pnpm run build\`).`);
  }
  server = await serveStatic();
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

/** Opens one story of the static build, collecting console errors and page errors. */
async function openStory(page: Page, id: string): Promise<{ errors: string[] }> {
  const index = JSON.parse(readFileSync(join(root, 'index.json'), 'utf8')) as { entries: Record<string, unknown> };
  expect(Object.keys(index.entries), `story ${id} is in the build`).toContain(id);
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  // Chromium's console line for a failed load does not name the URL; this does.
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.goto(`${origin}/iframe.html?id=${id}&viewMode=story`);
  return { errors };
}

/** Waits until the story's modules defined the element (the story renders before they may have). */
async function defined(page: Page, tag: string): Promise<void> {
  await page.waitForFunction((name) => customElements.get(name) !== undefined, tag, { timeout: 10_000 });
}

test('a decision story: consent step 2 shows the hosted page through the real <svc-decision>', async ({ page }) => {
  const { errors } = await openStory(page, 'elements-svc-decision--consent-step-2');
  const element = page.locator('svc-decision');
  await expect(element).toBeAttached();
  await defined(page, 'svc-decision');
  // The hosted page posted svc:ready, which the element accepted (its origin check passed): status `ready`.
  await expect.poll(() => element.evaluate((el) => (el as HTMLElement & { status: string }).status)).toBe('ready');
  await expect(element.locator('iframe[part="frame"]')).toHaveAttribute('title', 'Consent request from Northwind Clinic');
  const frame = page.frameLocator('svc-decision >> iframe[part="frame"]');
  await expect(frame.getByRole('heading', { name: 'What you agree to' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Events the element dispatched' })).toContainText('svc-ready');
  expect(errors).toEqual([]);
});

test('a decision story embeds the real hosted page, which a person clicks through to svc-complete (screenshots in test-results/look/)', async ({
  page,
}) => {
  // Three stories and a click-through: more than one story's time.
  test.setTimeout(90_000);
  const { errors } = await openStory(page, 'elements-svc-decision--consent-step-1');
  const element = page.locator('svc-decision');
  await defined(page, 'svc-decision');
  await expect.poll(() => element.evaluate((el) => (el as HTMLElement & { status: string }).status)).toBe('ready');
  const iframe = element.locator('iframe[part="frame"]');
  const frame = page.frameLocator('svc-decision >> iframe[part="frame"]');
  // The service's own page: its element, its heading, its stylesheet and data block, the latter aimed at this origin.
  await expect(frame.locator('svc-decision-page')).toBeAttached();
  await expect(frame.getByRole('heading', { level: 1, name: 'Appointment reminders' })).toBeVisible();
  const hosted = (await (await iframe.elementHandle())!.contentFrame())!;
  const shell = await hosted.evaluate(() => ({
    defined: customElements.get('svc-decision-page') !== undefined,
    css: document.querySelector<HTMLLinkElement>('link[rel="stylesheet"]')?.getAttribute('href'),
    targetOrigin: (JSON.parse(document.getElementById('svc-decision-data')!.textContent!) as { target_origin: string }).target_origin,
  }));
  expect(shell).toEqual({ defined: true, css: '/svc/assets/page.css', targetOrigin: origin });
  await page.screenshot({ path: 'test-results/look/storybook-consent.png', fullPage: true });

  await frame.getByRole('button', { name: 'Continue' }).click();
  await expect(frame.getByRole('heading', { name: 'What you agree to' })).toBeVisible();
  await frame.getByRole('button', { name: 'I have read this' }).click();
  await frame.getByRole('checkbox', { name: /Appointment reminders by email/ }).check();
  await frame.getByRole('button', { name: 'Agree', exact: true }).click();
  await expect(frame.getByRole('heading', { name: 'Thank you' })).toBeVisible();
  const log = page.getByRole('list', { name: 'Events the element dispatched' });
  await expect(log).toContainText('svc-complete');
  await expect(log).toContainText('"outcome":"granted"');
  await expect.poll(() => element.evaluate((el) => (el as HTMLElement & { status: string }).status)).toBe('complete');

  // One look at each other kind, as the page shows it.
  for (const [id, kind, heading] of [
    ['elements-svc-decision--approval', 'approval', 'Approval requested'],
    ['elements-svc-decision--signature-request', 'signature', 'Reminder devices supply agreement'],
  ] as const) {
    await page.goto(`${origin}/iframe.html?id=${id}&viewMode=story`);
    await expect(frame.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await page.screenshot({ path: `test-results/look/storybook-${kind}.png`, fullPage: true });
  }
  expect(errors).toEqual([]);
});

test('a signature request story: the real <svc-decision> names the signing session and hears it signed', async ({ page }) => {
  const { errors } = await openStory(page, 'elements-svc-decision--signature-signed');
  const element = page.locator('svc-decision');
  await defined(page, 'svc-decision');
  await expect(element.locator('iframe[part="frame"]')).toHaveAttribute('title', 'Signature request from Northwind Clinic');
  // The story clicks Sign in the page: svc:complete of kind signature_request, outcome signed.
  await expect
    .poll(() =>
      element.evaluate((el) => {
        const decision = el as HTMLElement & { status: string; kind?: string; outcome?: string };
        return [decision.status, decision.kind, decision.outcome];
      }),
    )
    .toEqual(['complete', 'signature_request', 'signed']);
  expect(errors).toEqual([]);
});

test('a consent field story: every appearance key applies to the real <svc-consent-field>', async ({ page }) => {
  const { errors } = await openStory(page, 'elements-svc-consent-field--appearance-every-key');
  const field = page.locator('svc-consent-field');
  await defined(page, 'svc-consent-field');
  await expect(field.getByRole('group', { name: 'Stay in touch with Northwind' })).toBeVisible();
  await expect(field.getByRole('checkbox', { name: 'Send me the monthly newsletter' })).not.toBeChecked();
  await expect(field.getByRole('checkbox', { name: 'Check my sign-up for fraud' })).toBeChecked();
  const accent = await field.evaluate((el) => getComputedStyle(el).getPropertyValue('--svc-accent').trim());
  expect(accent).toBe('#6d28d9');
  const legendFont = await field.locator('legend').evaluate((el) => getComputedStyle(el).fontFamily);
  expect(legendFont).toContain('Georgia');
  expect(errors).toEqual([]);
});

test('a right-to-left story: the Arabic consent field renders right to left', async ({ page }) => {
  const { errors } = await openStory(page, 'elements-svc-consent-field--locale-arabic-rtl');
  const field = page.locator('svc-consent-field');
  await defined(page, 'svc-consent-field');
  const fieldset = field.locator('fieldset[part="base"]');
  await expect(fieldset).toHaveAttribute('dir', 'rtl');
  await expect(fieldset).toHaveAttribute('lang', 'ar');
  await expect(field.getByRole('group', { name: 'ابقَ على تواصل مع نورثويند' })).toBeVisible();
  await expect(field.getByText('مسجّل بواسطة svc')).toBeVisible();
  expect(await fieldset.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
  expect(errors).toEqual([]);
});

test('an inbox story: the real <svc-inbox> lists its rows and opens one in a <svc-decision> popup, whose completion passes through', async ({
  page,
}) => {
  const { errors } = await openStory(page, 'elements-svc-inbox--list');
  const inbox = page.locator('svc-inbox');
  await defined(page, 'svc-inbox');
  await expect.poll(() => inbox.evaluate((el) => (el as HTMLElement & { status: string }).status)).toBe('ready');
  await expect(inbox.locator('[part="row"]')).toHaveCount(3);
  const popup = page.waitForEvent('popup');
  await inbox.getByRole('button', { name: 'Pay the flight to Paris (240 EUR)' }).click();
  const window = await popup;
  await window.getByRole('button', { name: 'Approve' }).click();
  const log = page.getByRole('list', { name: 'Events the element dispatched' });
  await expect(log).toContainText('svc-inbox-open');
  await expect(log).toContainText('"outcome":"approved"');
  expect(errors).toEqual([]);
});
