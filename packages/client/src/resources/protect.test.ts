// Protect through the typed client against a running reference server: a person (their access token) makes policies,
// files a data request, drafts and negotiates a data offer and opens a portability transfer; the organisation (its API
// token) processes the request, counters and accepts, issues a license under an active agreement and counts its
// accesses, marks the package ready and confirms it. Every answer is parsed by the client's schemas.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createClient, type SvcClient } from '../lib/client.js';
import { SvcHttpError, SvcPermissionError, SvcValidationError } from '../lib/errors.js';
import { signInPerson } from '../testing/oauth.test.helper.js';
import { signAsParty } from '../testing/participant.test.helper.js';
import { rejection } from '../testing/rejection.test.helper.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';

const TEXT = 'We license the listed data.\n';
const SHA = createHash('sha256').update(TEXT).digest('hex');

describe('protect against the reference server', () => {
  let server: TestServer;
  let org: SvcClient;
  let ada: SvcClient;

  before(async () => {
    server = await startTestServer();
    org = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
    ada = createClient({ baseUrl: server.url, accessToken: (await signInPerson(server, 'ada@example.com', 'openid')).access_token });
  });
  after(() => server.dispose());

  it("lists the template catalogue and makes a person's policy", async () => {
    const templates = [];
    for await (const t of ada.policyTemplates.list({ limit: 2 })) templates.push(t.id);
    assert.deepEqual(templates, ['data_license', 'data_offer', 'bounty', 'broadcast', 'retention', 'portability']);
    assert.equal((await org.policyTemplates.get('retention')).deal, false);
    const policy = await ada.policies.create({ template_id: 'retention', config: { data_categories: ['orders'], retention_days: 30 } });
    assert.deepEqual([policy.owner_type, policy.config.action], ['person', 'delete']);
    assert.equal((await org.policies.get(policy.id)).id, policy.id);
    const invalid = await rejection(org.policies.create({ template_id: 'bounty', config: { data_categories: ['x'] } }), SvcValidationError);
    assert.equal(invalid.reason, 'invalid_config');
    assert.equal((await ada.policies.revoke(policy.id)).status, 'revoked');
  });

  it('files a data request as the person and processes it as the organisation', async () => {
    const request = await ada.dataRequests.create({
      application_id: server.sandbox.application_id,
      dsar_type: 'access',
      scope: 'all of it',
    });
    assert.equal(request.status, 'received');
    await rejection(org.dataRequests.create({ application_id: server.sandbox.application_id, dsar_type: 'access' }), SvcPermissionError);
    await org.dataRequests.start(request.id);
    const extended = await org.dataRequests.extend(request.id, { reason: 'Backups', days: 10 });
    assert.equal(extended.extended, true);
    const done = await org.dataRequests.complete(request.id);
    assert.equal(done.export?.person.email, 'ada@example.com');
    const illegal = await rejection(org.dataRequests.reject(request.id, { reason: 'late' }), SvcHttpError);
    assert.deepEqual([illegal.status, illegal.reason], [409, 'illegal_transition']);
    const mine = [];
    for await (const r of ada.dataRequests.list()) mine.push(r.id);
    assert.deepEqual(mine, [request.id]);
  });

  it('negotiates a data offer to acceptance, recorded on the policy', async () => {
    const policy = await ada.policies.create({
      template_id: 'data_offer',
      config: { data_categories: ['steps'], price: { amount: 900, currency: 'EUR' } },
    });
    const draft = await ada.dataOffers.create({
      policy_id: policy.id,
      application_id: server.sandbox.application_id,
      terms: { price: 900 },
    });
    await ada.dataOffers.offer(draft.id);
    await org.dataOffers.counter(draft.id, { terms: { price: 600 } });
    await ada.dataOffers.revise(draft.id, { terms: { price: 750 } });
    await org.dataOffers.counter(draft.id, { terms: { price: 700 } });
    const accepted = await ada.dataOffers.accept(draft.id);
    assert.deepEqual([accepted.status, accepted.counter_count, accepted.terms], ['accepted', 2, { price: 700 }]);
    const held = await ada.policies.get(policy.id);
    assert.deepEqual([held.acceptance?.accepted_by, held.acceptance?.terms], ['person', { price: 700 }]);
    const late = await rejection(org.dataOffers.decline(draft.id, { reason: 'changed our mind' }), SvcHttpError);
    assert.equal(late.reason, 'illegal_transition');
  });

  it('counts license accesses up to the maximum', async () => {
    const created = await org.agreements.create({
      agreement: {
        title: 'License',
        document: { text: TEXT, sha256: SHA },
        quorum: 1,
        parties: [{ email: 'lena@example.com', home_country: 'US' }],
      },
    });
    await signAsParty(server.url, created.party_details[0]!.session_token, 'Lena');
    const license = await org.dataLicenses.create({ agreement_id: created.id, max_access_count: 2 });
    assert.equal((await org.dataLicenses.recordAccess(license.id, { purpose: 'report' })).remaining_accesses, 1);
    assert.equal((await org.dataLicenses.recordAccess(license.id)).remaining_accesses, 0);
    const refused = await rejection(org.dataLicenses.recordAccess(license.id), SvcHttpError);
    assert.deepEqual([refused.status, refused.reason], [409, 'max_access_count_reached']);
    const accesses = [];
    for await (const a of org.dataLicenses.listAccesses(license.id)) accesses.push(a.sequence);
    assert.deepEqual(accesses, [1, 2]);
    assert.equal((await org.dataLicenses.get(license.id)).status, 'exhausted');
  });

  it('moves a portability transfer to confirmed with the declared hash, refusing another', async () => {
    const policy = await ada.policies.create({ template_id: 'portability', config: { data_categories: ['orders'] } });
    const destination = await org.applications.create({ name: 'New shop' });
    const transfer = await ada.portabilityTransfers.create({
      policy_id: policy.id,
      source_application_id: server.sandbox.application_id,
      destination_application_id: destination.application.id,
    });
    const digest = createHash('sha256').update('the package').digest('hex');
    await org.portabilityTransfers.markReady(transfer.id, { data_hash: `sha256:${digest}` });
    const mismatch = await rejection(
      org.portabilityTransfers.confirm({ transfer_id: transfer.id, data_hash: 'f'.repeat(64) }),
      SvcValidationError,
    );
    assert.equal(mismatch.reason, 'data_hash_mismatch');
    const confirmed = await org.portabilityTransfers.confirm({ transfer_id: transfer.id, data_hash: digest });
    assert.deepEqual([confirmed.status, confirmed.mismatch_count], ['confirmed', 1]);
  });
});
