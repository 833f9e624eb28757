// Signature requests end to end (issue #17), in Chromium against the reference server: an organisation (its sandbox
// API token, through @svc/client) creates an agreement with three parties in two countries (two in DE, one in US)
// and a quorum of two, delivered for its letting site's origin. Each party's signing session is shown on the site's
// signing page in <svc-decision> loaded from the service's /sdk/v1/svc.js, under the site's own CSP: the first party
// signs embedded (reads the document, enters the sandbox code shown, types their name, Sign), the second counters in
// a popup, the third signs in a popup. The agreement goes pending -> partially_signed -> active at the second
// signature; the site's webhook receiver gets signature.signed twice and signature.countered once, each exactly once
// and verified with verifyWebhook; the agreement's receipt (the bundle of signatures) verifies offline with
// verifyAgreementReceipt against the JWKS and fails once any one character of the signed receipt changes, in the
// bundle or inside a signature's JWS.
// An agreement has one delivery mode for all its parties: it is created `embed` for the site's origin, and the
// popups work because the hosted page outside a frame is in popup mode and posts to that same embed_origin
// (decisions/targets.ts; without an embed_origin a popup would post to its opener's origin from the Referer).
import {
  createClient,
  SvcAgreementVerificationError,
  verifyAgreementReceipt,
  verifyWebhook,
  type SvcClient,
  type WebhookEvent,
} from '@svc/client';
import type { Agreement, AgreementParty, Decision } from '@svc/client/schemas';
import type { FrameLocator, Page } from '@playwright/test';
import { CompactSign, compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { createHash } from 'node:crypto';
import {
  expect,
  problems,
  recordViolations,
  startHookReceiver,
  test,
  violations,
  type LettingSite,
  type SeenEvent,
} from './signature.fixtures.js';
import type { Service } from './fixtures.js';

const TITLE = 'Tenancy agreement: Lindenstraße 5, Berlin';
const TEXT = `Tenancy agreement

1. The flat at Lindenstraße 5, 10969 Berlin, is let from 1 March.
2. The tenant pays 1,200 EUR rent on the first working day of each month.
3. Either party may end the tenancy with three months\u2019 notice.
4. The landlord's agent in the United States signs for the owner.
`;
const SHA256 = createHash('sha256').update(TEXT, 'utf8').digest('hex');
const COUNTER = 'Two months\u2019 notice instead of three, and rent due on the third working day.';
const SIGNATURE_EVENTS = ['signature.signed', 'signature.declined', 'signature.expired', 'signature.countered'] as const;

const types = (events: SeenEvent[], ...only: string[]) =>
  events.filter((e) => only.length === 0 || only.includes(e.type)).map((e) => e.type);
const detailOf = (events: SeenEvent[], type: string) => events.find((e) => e.type === type)?.detail ?? {};

/** Waits until the host page has seen an event of `type`, then returns everything it saw. */
async function until(page: Page, events: (page: Page) => Promise<SeenEvent[]>, type: string): Promise<SeenEvent[]> {
  await expect.poll(async () => types(await events(page)), { timeout: 10_000 }).toContain(type);
  return events(page);
}

/** The `<dd>` after the `<dt>` named `term` on the hosted page. */
const answer = (ui: FrameLocator | Page, term: string) =>
  ui.locator('dl > dt').getByText(term, { exact: true }).locator('xpath=following-sibling::dd[1]');

/**
 * The hosted signing page's first screen: the document as plain text with its SHA-256, who signs, where, and how
 * far the quorum is; then Continue, and the 6-digit code the sandbox shows on the page, and Verify.
 */
async function readAndSignIn(ui: FrameLocator | Page, party: AgreementParty, signedSoFar: number, country: string): Promise<void> {
  await expect(ui.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
  await expect(ui.getByRole('heading', { level: 2, name: 'Read the document' })).toBeVisible();
  const document = ui.getByRole('region', { name: `Document: ${TITLE}` });
  await expect(document).toBeVisible();
  expect(await document.textContent()).toBe(TEXT);
  await expect(answer(ui, 'SHA-256')).toHaveText(SHA256);
  await expect(answer(ui, 'Signing as')).toHaveText(party.name ? `${party.name}, ${party.email}` : party.email);
  await expect(answer(ui, 'Home country')).toHaveText(country);
  await expect(answer(ui, 'Signatures')).toHaveText(`${signedSoFar} of the 2 needed (3 parties)`);
  await ui.getByRole('button', { name: 'Continue' }).click();

  await expect(ui.getByRole('heading', { level: 2, name: 'Confirm it is you' })).toBeVisible();
  await expect(ui.getByText(`Enter the 6-digit code we sent to ${party.email}.`)).toBeVisible();
  const code = (await ui.locator('.sandbox code').textContent())!;
  expect(code).toMatch(/^\d{6}$/);
  await ui.getByLabel('Code').fill(code);
  await ui.getByRole('button', { name: 'Verify' }).click();
  await expect(ui.getByRole('heading', { level: 2, name: 'Sign the document' })).toBeVisible();
}

/** Types the name and signs. */
async function sign(ui: FrameLocator | Page, name: string): Promise<void> {
  await ui.getByLabel('Type your full name to sign').fill(name);
  await ui.getByRole('button', { name: 'Sign', exact: true }).click();
  await expect(ui.getByRole('heading', { level: 2, name: 'Signed' })).toBeVisible();
}

/** Opens the session's popup from the element's button. */
async function openPopup(page: Page, party: AgreementParty): Promise<Page> {
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Open the request' }).click()]);
  await expect(popup).toHaveURL(party.url);
  return popup;
}

/** Closes the popup as the person would, with the page's own Close window button. */
async function closePopup(popup: Page): Promise<void> {
  const closed = popup.waitForEvent('close');
  // The window may close before the click returns: only that is an expected failure of the click.
  const clicked = popup
    .getByRole('button', { name: 'Close window' })
    .click()
    .then(
      () => null,
      (error: unknown) => error,
    );
  await closed;
  const error = await clicked;
  if (error && !/has been closed/.test(String(error))) throw error;
}

/** The site's backend confirmed `outcome` with the service, and the page shows it. */
async function confirmed(page: Page, lettings: LettingSite, party: AgreementParty, outcome: string): Promise<Record<string, unknown>> {
  await expect(page.getByRole('status').filter({ hasText: 'Confirmed' })).toHaveText(`Confirmed by the service: ${outcome}`);
  const confirmations = lettings.confirmations.filter((c) => c.sessionToken === party.session_token);
  expect(confirmations.map((c) => [c.status, c.outcome])).toEqual([[200, outcome]]);
  return confirmations[0]!.claims!;
}

/** The agreement as the organisation reads it now. */
async function statusOf(org: SvcClient, id: string) {
  const now = await org.agreements.get(id);
  return {
    status: now.status,
    quorum_status: now.quorum_status,
    parties: now.party_details.map((p) => [p.status, p.vote]),
    activated_at: now.activated_at,
  };
}

/** RFC 8785 bytes of the JSON the receipt holds (objects, arrays, strings, integers, booleans, null). */
const jcs = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${jcs((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
};

/** A detached JWS over `receipt` made with the service's own key: a bundle whose outer signature is valid. */
async function resign(svc: Service, receipt: unknown): Promise<string> {
  const { privateKey, kid } = svc.server.context.keys;
  const [header, , signature] = (
    await new CompactSign(new TextEncoder().encode(jcs(receipt))).setProtectedHeader({ alg: 'ES256', kid }).sign(privateKey)
  ).split('.');
  return `${header}..${signature}`;
}

/** `text` with the character at `index` replaced by another one. */
const flip = (text: string, index: number) => text.slice(0, index) + (text[index] === 'A' ? 'B' : 'A') + text.slice(index + 1);

/** Runs `verify` with the network cut off, so it can only succeed offline. */
async function offline<T>(verify: () => Promise<T>): Promise<T> {
  const real = globalThis.fetch;
  globalThis.fetch = () => Promise.reject(new Error('offline: no network while verifying'));
  try {
    return await verify();
  } finally {
    globalThis.fetch = real;
  }
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

test.describe('signature requests, end to end in the browser', () => {
  test('three parties in DE and US, quorum two: sign embedded, counter and sign in popups; active at the second signature; webhooks once each; the receipt verifies offline', async ({
    page,
    context,
    svc,
    lettings,
    events,
  }) => {
    test.setTimeout(90_000);
    await recordViolations(context);
    const seen = problems(context);
    const applicationId = svc.server.sandbox.application_id;
    const org = createClient({ baseUrl: svc.server.url, apiToken: svc.server.sandbox.api_token });

    // The organisation's webhook receiver, subscribed to the signature events.
    const receiver = await startHookReceiver();
    const endpoint = await org.webhookEndpoints.create(applicationId, { url: receiver.url, events: [...SIGNATURE_EVENTS] });
    try {
      // 1. The organisation creates the agreement: the document and its SHA-256, three parties in two countries, a
      //    quorum of two, each party's session delivered for the site's origin.
      const agreement: Agreement = await org.agreements.create({
        agreement: {
          title: TITLE,
          document: { text: TEXT, sha256: SHA256 },
          parties: [
            { email: 'Anna.Schmidt@example.de', home_country: 'DE', name: 'Anna Schmidt' },
            { email: 'bob.miller@example.com', home_country: 'US' },
            { email: 'clara.weber@example.de', home_country: 'DE' },
          ],
          quorum: 2,
          delivery_mode: 'embed',
          embed_origin: lettings.origin,
        },
      });
      expect([agreement.status, agreement.quorum_status, agreement.quorum, agreement.document_sha256, agreement.activated_at]).toEqual([
        'pending',
        'open',
        2,
        SHA256,
        null,
      ]);
      expect(agreement.party_details.map((p) => [p.email, p.home_country, p.status])).toEqual([
        ['anna.schmidt@example.de', 'DE', 'pending'],
        ['bob.miller@example.com', 'US', 'pending'],
        ['clara.weber@example.de', 'DE', 'pending'],
      ]);
      const [anna, bob, clara] = agreement.party_details as [AgreementParty, AgreementParty, AgreementParty];
      for (const party of agreement.party_details) {
        const read = await svc.api<{ decision: Decision & { embed_origin: string | null; agreement_id: string } }>(
          `/api/v1/decisions/${party.session_token}`,
        );
        expect([
          read.body.decision.kind,
          read.body.decision.status,
          read.body.decision.delivery_mode,
          read.body.decision.embed_origin,
          read.body.decision.agreement_id,
        ]).toEqual(['signature_request', 'pending', 'embed', lettings.origin, agreement.id]);
      }

      // 2. Party 1 (DE) signs in the embedded <svc-decision>.
      await page.goto(lettings.signingPage(anna.session_token, 'embed'));
      await expect(page.getByRole('heading', { level: 1, name: 'Sign your tenancy agreement' })).toBeVisible();
      const frame = page.frameLocator('svc-decision iframe');
      await until(page, events, 'svc-ready');
      await expect(page.locator('svc-decision iframe')).toHaveAttribute('title', 'Signature request from Sandbox application');
      expect(detailOf(await events(page), 'svc-ready')).toMatchObject({
        kind: 'signature_request',
        session_token: anna.session_token,
        mode: 'embed',
      });
      await readAndSignIn(frame, anna, 0, 'Germany (DE)');
      await sign(frame, 'Anna Schmidt');
      let seenByHost = await until(page, events, 'svc-complete');
      expect(seenByHost.every((e) => e.target === 'svc-decision' && e.detail.kind === 'signature_request')).toBe(true);
      expect(types(seenByHost)).toEqual(['svc-ready', 'svc-state', 'svc-state', 'svc-state', 'svc-complete']);
      expect(seenByHost.filter((e) => e.type === 'svc-state').map((e) => [e.detail.from, e.detail.to])).toEqual([
        ['pending', 'verifying'],
        ['verifying', 'reviewing'],
        ['reviewing', 'signed'],
      ]);
      expect(detailOf(seenByHost, 'svc-state').kind_payload).toMatchObject({ agreement_id: agreement.id, party_id: anna.id });
      expect(detailOf(seenByHost, 'svc-complete')).toMatchObject({ kind: 'signature_request', outcome: 'signed' });
      const annaClaims = await confirmed(page, lettings, anna, 'signed');
      expect(annaClaims).toMatchObject({
        kind: 'signature_request',
        agreement_id: agreement.id,
        party_id: anna.id,
        signed_name: 'Anna Schmidt',
        home_country: 'DE',
      });
      expect(await statusOf(org, agreement.id)).toEqual({
        status: 'partially_signed',
        quorum_status: 'open',
        activated_at: null,
        parties: [
          ['signed', 'approve'],
          ['pending', null],
          ['pending', null],
        ],
      });
      expect(await violations(page)).toEqual([]);

      // 3. Party 2 (US) counters in a popup opened by <svc-decision mode="popup">.
      await page.goto(lettings.signingPage(bob.session_token, 'popup'));
      const bobPopup = await openPopup(page, bob);
      expect(detailOf(await until(page, events, 'svc-ready'), 'svc-ready')).toMatchObject({
        kind: 'signature_request',
        session_token: bob.session_token,
        mode: 'popup',
      });
      await expect(page.getByRole('status').filter({ hasText: 'another window' })).toHaveText('The request is open in another window.');
      await readAndSignIn(bobPopup, bob, 1, 'United States (US)');
      await bobPopup.getByRole('button', { name: 'Counter…' }).click();
      await expect(bobPopup.getByRole('heading', { level: 2, name: 'Make a counter-proposal' })).toBeFocused();
      await bobPopup.getByLabel('Your counter-proposal').fill(COUNTER);
      await bobPopup.getByRole('button', { name: 'Send counter-proposal' }).click();
      await expect(bobPopup.getByRole('heading', { level: 2, name: 'Counter-proposal sent' })).toBeVisible();
      seenByHost = await until(page, events, 'svc-complete');
      expect(types(seenByHost, 'svc-complete')).toEqual(['svc-complete']);
      expect(detailOf(seenByHost, 'svc-complete')).toMatchObject({ kind: 'signature_request', outcome: 'countered' });
      const bobClaims = await confirmed(page, lettings, bob, 'countered');
      expect(bobClaims).toMatchObject({
        party_id: bob.id,
        home_country: 'US',
        counter_proposal: COUNTER,
        signature: null,
        signed_name: null,
      });
      expect(await violations(bobPopup)).toEqual([]);
      await closePopup(bobPopup);
      expect(await statusOf(org, agreement.id)).toEqual({
        status: 'partially_signed',
        quorum_status: 'open',
        activated_at: null,
        parties: [
          ['signed', 'approve'],
          ['countered', 'deny'],
          ['pending', null],
        ],
      });
      expect(types(await events(page), 'svc-cancel', 'svc-error')).toEqual([]);
      expect(await violations(page)).toEqual([]);

      // 4. Party 3 (DE) signs in a popup: the second signature reaches the quorum and the agreement is active.
      await page.goto(lettings.signingPage(clara.session_token, 'popup'));
      const claraPopup = await openPopup(page, clara);
      expect(detailOf(await until(page, events, 'svc-ready'), 'svc-ready')).toMatchObject({
        session_token: clara.session_token,
        mode: 'popup',
      });
      await readAndSignIn(claraPopup, clara, 1, 'Germany (DE)');
      await sign(claraPopup, 'Clara Weber');
      seenByHost = await until(page, events, 'svc-complete');
      expect(detailOf(seenByHost, 'svc-complete')).toMatchObject({ kind: 'signature_request', outcome: 'signed' });
      const claraClaims = await confirmed(page, lettings, clara, 'signed');
      expect(claraClaims).toMatchObject({ party_id: clara.id, signed_name: 'Clara Weber', home_country: 'DE' });
      expect(await violations(claraPopup)).toEqual([]);
      await closePopup(claraPopup);
      const active = await statusOf(org, agreement.id);
      expect(active).toMatchObject({
        status: 'active',
        quorum_status: 'reached',
        parties: [
          ['signed', 'approve'],
          ['countered', 'deny'],
          ['signed', 'approve'],
        ],
      });
      expect(Date.parse(active.activated_at!)).not.toBeNaN();
      expect(types(await events(page), 'svc-cancel', 'svc-error')).toEqual([]);
      expect(await violations(page)).toEqual([]);
      expect((await org.agreements.quorumVotes(agreement.id)).map((v) => [v.party_id, v.vote, v.comment])).toEqual([
        [anna.id, 'approve', null],
        [bob.id, 'deny', COUNTER],
        [clara.id, 'approve', null],
      ]);

      // 5. The webhooks: signature.signed twice and signature.countered once, each delivered exactly once (every
      //    delivery acknowledged at its first attempt, so none is sent again), each verified with the endpoint's secret.
      await expect
        .poll(
          async () =>
            (await org.webhookEndpoints.deliveries(applicationId, endpoint.id).page()).items
              .map((d) => [d.event_type, d.status, d.attempt_count])
              .sort(),
          { timeout: 15_000 },
        )
        .toEqual([
          ['signature.countered', 'acknowledged', 1],
          ['signature.signed', 'acknowledged', 1],
          ['signature.signed', 'acknowledged', 1],
        ]);
      expect(receiver.received).toHaveLength(3);
      const hooks: WebhookEvent[] = [];
      for (const request of receiver.received) {
        hooks.push(await verifyWebhook(request.body, request.headers, endpoint.secret, { now: svc.server.context.clock.now() }));
      }
      expect(new Set(hooks.map((e) => e.id)).size).toBe(3);
      expect(new Set(receiver.received.map((r) => r.headers['x-svc-event-id'])).size).toBe(3);
      const deliveries = (await org.webhookEndpoints.deliveries(applicationId, endpoint.id).page()).items;
      expect(deliveries.map((d) => d.event_id).sort()).toEqual(hooks.map((e) => e.id).sort());
      const byParty = new Map(
        hooks.map((e) => [(e.data as { party_id: string }).party_id, e as WebhookEvent & { data: Record<string, unknown> }]),
      );
      expect(byParty.size).toBe(3);
      expect([anna, bob, clara].map((p) => [byParty.get(p.id)?.type, byParty.get(p.id)?.data.agreement_id])).toEqual([
        ['signature.signed', agreement.id],
        ['signature.countered', agreement.id],
        ['signature.signed', agreement.id],
      ]);
      expect(byParty.get(anna.id)!.data).toMatchObject({
        party_email: 'anna.schmidt@example.de',
        home_country: 'DE',
        outcome: 'signed',
        vote: 'approve',
        document_sha256: SHA256,
        agreement_status: 'partially_signed',
        quorum_status: 'open',
        signatures: 1,
        quorum: 2,
        signature: annaClaims.signature,
      });
      expect(byParty.get(bob.id)!.data).toMatchObject({
        party_email: 'bob.miller@example.com',
        home_country: 'US',
        outcome: 'countered',
        vote: 'deny',
        counter_proposal: COUNTER,
        signature: null,
        agreement_status: 'partially_signed',
        quorum_status: 'open',
        signatures: 1,
      });
      expect(byParty.get(clara.id)!.data).toMatchObject({
        party_email: 'clara.weber@example.de',
        home_country: 'DE',
        outcome: 'signed',
        vote: 'approve',
        agreement_status: 'active',
        quorum_status: 'reached',
        signatures: 2,
        quorum: 2,
        signature: claraClaims.signature,
      });

      // 6. The receipt, the bundle of signatures, exactly as served, verifies offline against the JWKS.
      const jwks = (await (await fetch(`${svc.server.url}/.well-known/jwks.json`)).json()) as JSONWebKeySet;
      const served = await fetch(`${svc.server.url}/api/v1/agreements/${agreement.id}/receipt`, {
        headers: { authorization: `Bearer ${svc.server.sandbox.api_token}` },
      });
      expect(served.status).toBe(200);
      const bundle = await served.text();
      const verified = await offline(() => verifyAgreementReceipt(bundle, jwks));
      expect([verified.agreement_id, verified.title, verified.document_sha256, verified.quorum, verified.status]).toEqual([
        agreement.id,
        TITLE,
        SHA256,
        2,
        'active',
      ]);
      expect(verified.signatures.map((s) => s.party_id)).toEqual([anna.id, clara.id]);
      expect(verified.signed.map((s) => [s.party_id, s.party_email, s.signed_name, s.document_sha256])).toEqual([
        [anna.id, 'anna.schmidt@example.de', 'Anna Schmidt', SHA256],
        [clara.id, 'clara.weber@example.de', 'Clara Weber', SHA256],
      ]);
      expect(verified.signatures.map((s) => s.jws)).toEqual([annaClaims.signature, claraClaims.signature]);

      // Any one character of the signed receipt changed, wherever it is, and the bundle no longer verifies.
      const parsed = JSON.parse(bundle) as { agreement_receipt: { signatures: { jws: string }[] }; signature: string };
      const start = bundle.indexOf('"agreement_receipt":') + '"agreement_receipt":'.length;
      const end = start + JSON.stringify(parsed.agreement_receipt).length;
      expect(JSON.parse(bundle.slice(start, end))).toEqual(parsed.agreement_receipt);
      const checks = new Map<string, number>();
      for (let index = start; index < end; index += 1) {
        const error = await rejection(verifyAgreementReceipt(flip(bundle, index), jwks));
        expect(error, `a change at ${index} (${JSON.stringify(bundle.slice(index - 8, index + 8))})`).toBeInstanceOf(
          SvcAgreementVerificationError,
        );
        const check = (error as SvcAgreementVerificationError).check;
        checks.set(check, (checks.get(check) ?? 0) + 1);
      }
      expect([...checks.keys()].sort()).toEqual(['format', 'signature']);
      // A changed value is the bundle's signature failing; so is one changed character of the signature itself.
      const inTitle = bundle.indexOf('Lindenstra');
      expect(await rejection(verifyAgreementReceipt(flip(bundle, inTitle), jwks))).toMatchObject({
        check: 'signature',
        message: 'The signature does not match the agreement receipt.',
      });
      const inSignature = bundle.indexOf(parsed.signature) + parsed.signature.length - 20;
      expect(await rejection(verifyAgreementReceipt(flip(bundle, inSignature), jwks))).toMatchObject({ check: 'signature' });

      // Separately, one character changed inside one signature's JWS (its payload, then its signature part).
      const jws = parsed.agreement_receipt.signatures[0]!.jws;
      const [head, payload] = jws.split('.') as [string, string, string];
      for (const at of [head.length + 1 + Math.floor(payload.length / 2), jws.length - 20]) {
        const tampered = structuredClone(parsed);
        tampered.agreement_receipt.signatures[0]!.jws = flip(jws, at);
        // In the bundle as served, the bundle's own signature catches it first.
        expect(await rejection(verifyAgreementReceipt(tampered, jwks))).toMatchObject({ check: 'signature' });
        // With the bundle signed again over the changed content (the service's own key, so the outer check passes),
        // the JWS itself fails; the same bundle signed again unchanged still verifies, so the re-signing is sound.
        await expect(compactVerify(tampered.agreement_receipt.signatures[0]!.jws, createLocalJWKSet(jwks))).rejects.toThrow();
        tampered.signature = await resign(svc, tampered.agreement_receipt);
        const inner = await rejection(verifyAgreementReceipt(tampered, jwks));
        expect(inner).toBeInstanceOf(SvcAgreementVerificationError);
        expect(inner).toMatchObject({ check: 'signature', message: expect.stringMatching(/^Signature 0 does not verify/) });
      }
      const resigned = { ...parsed, signature: await resign(svc, parsed.agreement_receipt) };
      expect((await verifyAgreementReceipt(resigned, jwks)).signed).toHaveLength(2);

      // Nothing more was delivered meanwhile, and no page logged an error or broke its policy.
      expect(receiver.received).toHaveLength(3);
      expect(seen).toEqual([]);
    } finally {
      await org.webhookEndpoints.delete(applicationId, endpoint.id);
      await receiver.close();
    }
  });
});
