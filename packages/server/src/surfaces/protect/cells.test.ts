// Protect across country cells: a person signed in at the DE cell makes a policy, files a data request, drafts an
// offer and opens a transfer there; their ids name DE, the US cell answers 421 (home_country DE, nothing of the
// resource) for each, in a path or in a body, lists only its own, and the DE cell answers them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestCells, type TestCells, type TestServer } from '../../testing.js';
import { agreement, expect, signIn, type Person } from './test-support.js';

describe('protect: country cells', () => {
  let cells: TestCells;
  let us: TestServer;
  let de: TestServer;
  let ada: Person;
  const ids: Record<string, string> = {};
  before(async () => {
    cells = await startTestCells(['US', 'DE']);
    us = cells.cells.US!;
    de = cells.cells.DE!;
    ada = await signIn(de, 'ada@example.de');
    const app = de.sandbox.application_id;
    const second = (
      await expect(de, 201, '/api/v1/applications', { json: { application: { name: 'DE destination', home_country: 'DE' } } })
    ).application.id as string;
    ids.policy = (
      await expect(de, 201, '/api/v1/policies', {
        token: ada.token,
        json: { template_id: 'portability', config: { data_categories: ['orders'] } },
      })
    ).policy.id;
    ids.deal = (
      await expect(de, 201, '/api/v1/policies', {
        token: ada.token,
        json: { template_id: 'data_offer', config: { data_categories: ['steps'] } },
      })
    ).policy.id;
    ids.request = (
      await expect(de, 201, '/api/v1/data_requests', { token: ada.token, json: { application_id: app, dsar_type: 'erasure' } })
    ).data_request.id;
    ids.offer = (
      await expect(de, 201, '/api/v1/data_offers', { token: ada.token, json: { policy_id: ids.deal, application_id: app, terms: {} } })
    ).data_offer.id;
    ids.transfer = (
      await expect(de, 201, '/api/v1/portability_transfers', {
        token: ada.token,
        json: { policy_id: ids.policy, source_application_id: app, destination_application_id: second },
      })
    ).portability_transfer.id;
    ids.agreement = await agreement(de);
    ids.license = (await expect(de, 201, '/api/v1/data_licenses', { json: { agreement_id: ids.agreement } })).data_license.id;
  });
  after(() => cells.dispose());

  it('homes every Protect resource in the cell that made it', () => {
    for (const [name, id] of Object.entries(ids)) assert.match(id, /^[a-z]+_de_/, `${name} ${id}`);
  });

  it('answers 421 with home_country DE at the US cell, and nothing of the resource', async () => {
    for (const path of [
      `/api/v1/policies/${ids.policy}`,
      `/api/v1/data_requests/${ids.request}`,
      `/api/v1/data_offers/${ids.offer}`,
      `/api/v1/portability_transfers/${ids.transfer}`,
      `/api/v1/data_licenses/${ids.license}`,
      `/api/v1/data_licenses/${ids.license}/accesses`,
    ]) {
      const res = await us.api(path);
      assert.equal(res.status, 421, path);
      assert.deepEqual(Object.keys((await res.json()) as object).sort(), ['code', 'home_country', 'message']);
    }
    const moved = await us.api(`/api/v1/data_requests/${ids.request}/start`, { method: 'POST' });
    assert.equal(moved.status, 421);
  });

  it("answers 421 for another cell's ids named in a request body", async () => {
    const body = async (path: string, json: unknown) => {
      const res = await us.api(path, { method: 'POST', json });
      assert.equal(res.status, 421, path);
      assert.equal(((await res.json()) as { home_country: string }).home_country, 'DE');
    };
    await body('/api/v1/data_licenses', { agreement_id: ids.agreement });
    await body('/api/v1/portability_transfers/confirm', { transfer_id: ids.transfer, data_hash: 'a'.repeat(64) });
    await body('/api/v1/portability_transfers', {
      policy_id: ids.policy,
      source_application_id: us.sandbox.application_id,
      destination_application_id: us.sandbox.application_id,
    });
  });

  it('counts the Protect rows in the residency posture of the cell that holds them, all homed there', async () => {
    const posture = await expect(us, 200, '/api/v1/residency_posture');
    const cell = (country: string) =>
      (posture.residency_posture ?? posture).countries.find((c: { country: string }) => c.country === country);
    const before = cell('DE');
    assert.equal(before.assurance, 'verified');
    // Two policies, the request, the offer, the transfer and the license (besides the person, agreements and decisions).
    const more = await expect(de, 201, '/api/v1/policies', {
      token: ada.token,
      json: { template_id: 'retention', config: { data_categories: ['x'], retention_days: 1 } },
    });
    assert.match(more.policy.id, /^pol_de_/);
    const after = (await expect(de, 200, '/api/v1/residency_posture')) as typeof posture;
    const de2 = (after.residency_posture ?? after).countries.find((c: { country: string }) => c.country === 'DE');
    assert.equal(de2.rows_checked, before.rows_checked + 1);
    assert.equal(de2.rows_homed_elsewhere, 0);
  });

  it('lists per cell, and the home cell answers', async () => {
    assert.deepEqual((await expect(us, 200, '/api/v1/data_requests')).data_requests, []);
    assert.deepEqual((await expect(us, 200, '/api/v1/policies')).policies, []);
    assert.deepEqual(
      (await expect(de, 200, '/api/v1/data_requests')).data_requests.map((r: { id: string }) => r.id),
      [ids.request],
    );
    const request = await expect(de, 200, `/api/v1/data_requests/${ids.request}`);
    assert.equal(request.data_request.home_country, 'DE');
    assert.equal((await expect(de, 200, `/api/v1/data_offers/${ids.offer}`, { token: ada.token })).data_offer.home_country, 'DE');
  });
});
