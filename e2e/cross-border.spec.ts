// Minimised proofs cross borders instead of data: a person consents in the German cell, the consent becomes an
// SD-JWT credential issued there, and the person presents one claim of it in the US cell, which verifies it with
// Germany's published key and answers from Germany's status list, never reading the record itself.
import { createClient, type SvcClient } from '@svc/client';
import { presentCredential } from '@svc/client/credentials';
import { expect, grantConsent, test } from './fixtures.js';

test.describe('cross-border credentials', () => {
  test('a consent in DE, a credential issued there, one claim presented in US, revoked and refused after the status list refreshes', async ({
    page,
    svc,
    host,
  }) => {
    const us = svc.server.cells.US!;
    const de = svc.server.cells.DE!;
    const apiToken = svc.server.sandbox.api_token;

    // A German shop: its people's records are homed in DE. Organisation configuration is one control plane, so
    // the application, its origin and its flow are made through the US cell and work in DE.
    const made = await svc.api<{ application: { id: string; home_country: string } }>('/api/v1/applications', {
      json: { application: { name: 'Berliner Laden', home_country: 'DE' } },
    });
    expect(made.status).toBe(201);
    const applicationId = made.body.application.id;
    expect(
      (await svc.api(`/api/v1/applications/${applicationId}/allowed_origins`, { json: { allowed_origin: { origin: host.origin } } }))
        .status,
    ).toBe(201);
    const sandboxFlow = await svc.api<{ flow: { config: Record<string, unknown> } }>(`/api/v1/flows/${svc.server.sandbox.flow_id}`);
    const flow = await svc.api<{ flow: { id: string } }>('/api/v1/flows', {
      json: {
        flow: {
          pattern: 'standard',
          title: 'Newsletter',
          description: 'Our monthly letter.',
          config: sandboxFlow.body.flow.config,
          application_id: applicationId,
        },
      },
    });
    expect(flow.status, JSON.stringify(flow.body)).toBe(201);
    expect((await svc.api(`/api/v1/flows/${flow.body.flow.id}/activate`, { json: {} })).status).toBe(200);

    // The shop's server knows only the US URL: the client follows the 421 to the decision's home, DE.
    const followed: string[] = [];
    const shop: SvcClient = createClient({
      baseUrl: us.url,
      apiToken,
      onMisdirected: ({ homeCountry }) => void followed.push(homeCountry),
    });
    const decision = await shop.decisions.create({
      kind: 'consent',
      subject_ref: flow.body.flow.id,
      delivery_mode: 'embed',
      embed_origin: host.origin,
    });
    expect(followed).toEqual(['DE']);
    expect(decision.session_token).toMatch(/^dts_de_/);
    expect(new URL(decision.embed_url!).origin).toBe(new URL(de.url).origin);

    // The person decides in the German cell's hosted page, embedded in the shop.
    await page.goto(host.embedPage(decision.embed_url!));
    const frame = page.frameLocator('#svc');
    await grantConsent(frame, 'greta@example.de');
    await expect(frame.getByRole('heading', { level: 2, name: 'Thank you' })).toBeVisible();

    const fulfilled = await shop.decisions.get(decision.session_token);
    expect(fulfilled.status).toBe('fulfilled');
    const recordId = fulfilled.record_id!;
    expect(recordId).toMatch(/^cr_de_/);
    // The record is DE's alone: the US cell answers where it lives, and nothing of it.
    const direct = await fetch(`${us.url}/api/v1/consent_records/${recordId}`, { headers: { authorization: `Bearer ${apiToken}` } });
    expect(direct.status).toBe(421);
    expect(await direct.json()).toEqual({ message: expect.any(String), code: 'wrong_country', home_country: 'DE' });
    const receipt = await shop.receipts.get(recordId);
    expect(JSON.stringify(receipt)).toContain('"storage_locations":["DE"]');

    // The credential is issued in DE (the shop still calls the US URL and is sent there).
    const credential = await shop.credentials.create({
      consent_transaction_id: fulfilled.consent_transaction_id!,
      credential_type: 'NewsletterConsent',
    });
    expect(credential.id).toMatch(/^cred_de_/);
    expect(credential.home_country).toBe('DE');

    // The person's wallet discloses one claim: that the newsletter was granted. Not the email, not the ids.
    const presentation = await presentCredential(credential.credential, { disclose: ['purposes.newsletter'] });
    const verifier = createClient({ baseUrl: us.url, apiToken, discoverCountries: false });
    const verified = await verifier.presentations.verify({ presentation, application_id: applicationId });
    expect(verified).toMatchObject({ valid: true, revoked: false, issuer_country: 'DE', credential_type: 'NewsletterConsent' });
    expect(JSON.stringify(verified.disclosed_claims)).toContain('newsletter');
    expect(JSON.stringify(verified.disclosed_claims)).not.toContain('greta@example.de');
    expect(verified.undisclosed_count).toBeGreaterThan(0);

    // What crossed the border is on the register: a proof, DE to US, with its basis, and no personal data.
    const register = await verifier.transferRegister.list({ application_id: applicationId });
    const transfers = [];
    for await (const entry of register) transfers.push(entry);
    expect(transfers).toEqual([
      expect.objectContaining({ category: 'credential_presentation', from_country: 'DE', to_country: 'US', adequacy: 'adequacy_decision' }),
    ]);
    expect(JSON.stringify(transfers)).not.toContain('greta');

    // Revoked in DE. The US cell answers from the status list it fetched until that list's ttl runs out.
    await shop.credentials.revoke(credential.id);
    expect((await verifier.presentations.verify({ presentation })).revoked).toBe(false);
    await svc.advance(301);
    const refused = await verifier.presentations.verify({ presentation });
    expect(refused).toMatchObject({ valid: false, revoked: true, issuer_country: 'DE' });
  });
});
