// Who may answer a decision addressed to a person, in a real browser on the hosted page: the organisation holding
// the session token and another person signed in on the trust URL are both refused; the addressee answers once they
// have shown it is them (their session, or the page's code).
import type { Page } from '@playwright/test';
import { audit, confirmByCode, expect, problems, signInOnTrustUrl, test, type Decision, type Service } from './fixtures.js';

const ADA = 'answering.ada@example.com';

/** An approval addressed to Ada, opened in its own window (popup mode) the way a link in her inbox opens it. */
async function approvalForAda(svc: Service, ref: string): Promise<Decision> {
  return svc.createDecision({
    kind: 'approval',
    subject_ref: ref,
    scope: 'payments:write',
    state: 'Pay 5,000.00 EUR for a car',
    delivery_mode: 'popup',
    addressee: { email: ADA },
  });
}

/** What the page's own participant API answers this browser when it sends `approve` directly (what a script on the page could do). */
async function forceApprove(page: Page, token: string): Promise<{ status: number; code: string }> {
  return page.evaluate(async (t) => {
    const res = await fetch(`/decisions/${t}/transitions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'approve' }),
    });
    const body = (await res.json()) as { code: string };
    return { status: res.status, code: body.code };
  }, token);
}

const statusOf = async (svc: Service, token: string) =>
  (await svc.api<{ decision: { status: string } }>(`/api/v1/decisions/${token}`)).body.decision.status;

test.describe('an approval addressed to a person is answered by that person alone', () => {
  test('the organisation, holding the session token, only sees how the addressee confirms it is them; forcing an answer is refused', async ({
    page,
    svc,
  }) => {
    const seen = problems(page);
    const decision = await approvalForAda(svc, 'car-1');
    await page.goto(decision.url);
    await expect(page.getByRole('heading', { level: 3, name: 'Confirm it is you' })).toBeVisible();
    await expect(page.getByText(`Only ${ADA} can answer this request.`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
    expect(await forceApprove(page, decision.session_token)).toEqual({ status: 403, code: 'sign_in_required' });
    await page.reload();
    await expect(page.getByRole('button', { name: 'Email me a code' })).toBeVisible();
    expect(await statusOf(svc, decision.session_token)).toBe('pending');
    await audit(page, 'approval: confirm it is you');
    expect(seen.filter((line) => !line.includes('403'))).toEqual([]);
  });

  test('another person signed in on the trust URL is told it is not theirs and cannot answer', async ({ page, svc }) => {
    const decision = await approvalForAda(svc, 'car-2');
    await signInOnTrustUrl(page, svc, 'answering.mallory@example.com');
    await page.goto(decision.url);
    await expect(page.getByRole('note')).toHaveText(
      `You are signed in as answering.mallory@example.com. This request is for ${ADA}: only they can answer it.`,
    );
    await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
    expect(await forceApprove(page, decision.session_token)).toEqual({ status: 403, code: 'not_addressee' });
    expect(await statusOf(svc, decision.session_token)).toBe('pending');
  });

  test('the addressee signed in on the trust URL answers at once', async ({ page, svc }) => {
    const decision = await approvalForAda(svc, 'car-3');
    await signInOnTrustUrl(page, svc, ADA);
    await page.goto(decision.url);
    await expect(page.getByRole('heading', { level: 3, name: 'Confirm it is you' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Approved' })).toBeVisible();
    expect(await statusOf(svc, decision.session_token)).toBe('approved');
  });

  test('the addressee not signed in confirms with the code sent to their address, then answers', async ({ page, svc }) => {
    const decision = await approvalForAda(svc, 'car-4');
    await page.goto(decision.url);
    await confirmByCode(page);
    await page.getByRole('button', { name: 'Deny' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Denied' })).toBeVisible();
    expect(await statusOf(svc, decision.session_token)).toBe('denied');
  });
});
