// An evidence package of another cell is routed like every other homed resource: the 421 naming its home comes before
// any credential is read (the answer holds only what the path already says), so a cell never judges a credential for
// a resource it does not keep.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestCells, type TestCells } from '../../../testing.js';

describe('evidence packages of another cell', () => {
  let server: TestCells;
  before(async () => {
    server = await startTestCells(['US', 'DE']);
  });
  after(() => server.dispose());

  const get = (credential: string | null, id: string, origin?: string) =>
    fetch(`${server.cells.US!.url}/api/v1/evidence_packages/${id}`, {
      headers: { ...(credential ? { authorization: `Bearer ${credential}` } : {}), ...(origin ? { origin } : {}) },
    });

  for (const [name, credential] of [
    ['no credential', null],
    ['a forged bearer', 'forged'],
    ['the API token', 'sandbox'],
  ] as const) {
    it(`answers 421 home_country DE with ${name}`, async () => {
      const res = await get(credential === 'sandbox' ? server.first.sandbox.api_token : credential, 'evp_de_AAAAAAAAAAAAAAAAAAAA');
      assert.equal(res.status, 421);
      assert.deepEqual(await res.json(), {
        message: 'This resource is served from its home country, DE. Re-issue the request there.',
        code: 'wrong_country',
        home_country: 'DE',
      });
    });
  }

  it('a package drawn in DE is read in DE and is the 421 through US', async () => {
    const drawn = await server.cells.DE!.api('/api/v1/residency_posture/evidence_package', { method: 'POST', json: {} });
    assert.equal(drawn.status, 201, await drawn.clone().text());
    const { evidence_package_id: id } = (await drawn.json()) as { evidence_package_id: string };
    assert.match(id, /^evp_de_/);
    assert.equal((await server.cells.DE!.api(`/api/v1/evidence_packages/${id}`)).status, 200);
    assert.equal((await get(null, id)).status, 421);
  });

  it('a package id of a country no cell serves needs a credential and is then 404', async () => {
    assert.equal((await get(null, 'evp_zz_AAAAAAAAAAAAAAAAAAAA')).status, 401);
    assert.equal((await get(server.first.sandbox.api_token, 'evp_zz_AAAAAAAAAAAAAAAAAAAA')).status, 404);
  });
});
