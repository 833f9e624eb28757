// Test support for the hosted decision page's participant API: the steps the page sends for a person, so a test can
// complete a decision (sign an agreement, give a consent) without a browser.
import assert from 'node:assert/strict';

/** One step as the hosted page sends it: `POST /decisions/{token}/transitions` from the service's origin; asserts 200. */
export async function participantStep(baseUrl: string, token: string, body: Record<string, unknown>): Promise<{ sandbox_code?: string }> {
  const res = await fetch(`${baseUrl}/decisions/${token}/transitions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as { sandbox_code?: string };
}

/** The person a decision is addressed to proves it is them: the code sent to their address (shown in the sandbox), verified. */
async function proveByCode(baseUrl: string, token: string): Promise<void> {
  const { sandbox_code } = await participantStep(baseUrl, token, { action: 'send_code' });
  await participantStep(baseUrl, token, { action: 'verify', code: sandbox_code });
}

/** The party of an agreement's signing session `token` signs as `name`: the sandbox code sent and verified, then the signature. */
export async function signAsParty(baseUrl: string, token: string, name: string): Promise<void> {
  await proveByCode(baseUrl, token);
  await participantStep(baseUrl, token, { action: 'sign', name });
}

/** `email` signs in on the consent decision `token` of the sandbox's standard flow and agrees, granting `newsletter`. */
export async function consentToNewsletter(baseUrl: string, token: string, email: string): Promise<void> {
  await participantStep(baseUrl, token, { action: 'begin' });
  const { sandbox_code } = await participantStep(baseUrl, token, { action: 'sign_in', email });
  await participantStep(baseUrl, token, { action: 'verify', code: sandbox_code });
  await participantStep(baseUrl, token, { action: 'agree', granted: ['newsletter'], objected: [] });
}

/**
 * The person an approval is addressed to (an escalation's principal) answers it on its hosted page, proving it is
 * them first as they would without a session: the code sent to their address (shown in the sandbox), then `verify`.
 */
export async function answerAsAddressee(baseUrl: string, token: string, action: 'approve' | 'deny'): Promise<void> {
  await proveByCode(baseUrl, token);
  await participantStep(baseUrl, token, { action });
}
