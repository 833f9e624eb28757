// Data licenses over HTTP: issued under an active agreement of the account only; every access counted atomically,
// never past max_access_count (several accesses racing for the last allowance: exactly one passes); revocation once;
// the organisation's alone (a person's token, a publishable key and another account are refused).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dataLicenseAccessEnvelope, dataLicenseAccessList, dataLicenseEnvelope, dataLicenseList } from '@svc/schemas';
import { startTestServer, type TestServer } from '../../testing.js';
import { agreement, apiToken, call, expect, otherAccount, refusal, secondApplication, signIn, type Person } from './test-support.js';

describe('protect: data licenses', () => {
  let server: TestServer;
  let active: string;
  let reader: string;
  let ada: Person;
  const issue = async (json: Record<string, unknown>) =>
    dataLicenseEnvelope.parse(await expect(server, 201, '/api/v1/data_licenses', { json })).data_license;
  before(async () => {
    server = await startTestServer();
    active = await agreement(server);
    reader = await apiToken(server, ['read']);
    ada = await signIn(server, 'ada@example.com');
  });
  after(() => server.dispose());

  it("is issued under an active agreement of the account, with the agreement's application unless another is named", async () => {
    const res = await server.api('/api/v1/data_licenses', {
      method: 'POST',
      json: { agreement_id: active, max_access_count: 3, terms: { purpose: 'research', categories: ['steps'] } },
    });
    assert.equal(res.status, 201);
    const license = dataLicenseEnvelope.parse(await res.json()).data_license;
    assert.equal(res.headers.get('location'), `/api/v1/data_licenses/${license.id}`);
    assert.match(license.id, /^dlic_us_/);
    assert.deepEqual(
      [
        license.status,
        license.agreement_id,
        license.application_id,
        license.max_access_count,
        license.access_count,
        license.remaining_accesses,
        license.home_country,
      ],
      ['active', active, server.sandbox.application_id, 3, 0, 3, 'US'],
    );
    assert.deepEqual(license.terms, { purpose: 'research', categories: ['steps'] });

    const unlimited = await issue({ agreement_id: active });
    assert.deepEqual([unlimited.max_access_count, unlimited.remaining_accesses, unlimited.terms], [null, null, {}]);
    const other = await secondApplication(server, 'Research app');
    assert.equal((await issue({ agreement_id: active, application_id: other })).application_id, other);
  });

  it("refuses an agreement that is not active, unknown, another account's or another cell's", async () => {
    const pending = await agreement(server, false);
    const body = await refusal(server, 422, 'agreement_not_active', '/api/v1/data_licenses', { json: { agreement_id: pending } });
    assert.match(body.message, /is pending/);
    assert.equal(body.errors[0].path, 'agreement_id');
    await refusal(server, 422, 'agreement_not_found', '/api/v1/data_licenses', { json: { agreement_id: 'agr_us_AAAAAAAAAAAAAAAAAAAA' } });
    const other = otherAccount(server);
    await refusal(server, 422, 'agreement_not_found', '/api/v1/data_licenses', { token: other.token, json: { agreement_id: active } });
    // This server runs no DE cell, so a DE id names nothing (another cell's is the 421: protect/cells.test.ts).
    await refusal(server, 422, 'agreement_not_found', '/api/v1/data_licenses', { json: { agreement_id: 'agr_de_AAAAAAAAAAAAAAAAAAAA' } });
    await refusal(server, 422, 'application_not_found', '/api/v1/data_licenses', {
      json: { agreement_id: active, application_id: other.applicationId },
    });
  });

  it('counts each access and refuses once every allowed access is used (409 max_access_count_reached)', async () => {
    const license = await issue({ agreement_id: active, max_access_count: 2 });
    const path = `/api/v1/data_licenses/${license.id}/accesses`;
    const first = dataLicenseAccessEnvelope.parse(
      await expect(server, 201, path, { json: { purpose: 'weekly report', accessor: 'etl-job' } }),
    ).data_license_access;
    assert.deepEqual(
      [first.sequence, first.remaining_accesses, first.purpose, first.accessor, first.data_license_id],
      [1, 1, 'weekly report', 'etl-job', license.id],
    );
    // The body may be left out.
    const second = dataLicenseAccessEnvelope.parse(await expect(server, 201, path, { method: 'POST' })).data_license_access;
    assert.deepEqual([second.sequence, second.remaining_accesses, second.purpose], [2, 0, null]);
    const read = dataLicenseEnvelope.parse(await expect(server, 200, `/api/v1/data_licenses/${license.id}`)).data_license;
    assert.deepEqual([read.status, read.access_count, read.remaining_accesses], ['exhausted', 2, 0]);
    assert.ok(read.last_accessed_at);
    const refused = await refusal(server, 409, 'max_access_count_reached', path, { method: 'POST' });
    assert.match(refused.message, /allowed 2 accesses/);
    assert.equal((await expect(server, 200, `/api/v1/data_licenses/${license.id}`)).data_license.access_count, 2);

    const list = dataLicenseAccessList.parse(await expect(server, 200, `${path}?limit=1`));
    assert.equal(list.data_license_accesses.length, 1);
    assert.ok(list.next_cursor);
    const rest = dataLicenseAccessList.parse(await expect(server, 200, `${path}?cursor=${list.next_cursor}`));
    assert.deepEqual(
      [...list.data_license_accesses, ...rest.data_license_accesses].map((a) => a.sequence),
      [1, 2],
    );
    assert.equal(rest.next_cursor, null);
  });

  it('several accesses racing for the last allowance: exactly one passes, and the count never passes the maximum', async () => {
    const license = await issue({ agreement_id: active, max_access_count: 3 });
    const path = `/api/v1/data_licenses/${license.id}/accesses`;
    await expect(server, 201, path, { method: 'POST' });
    await expect(server, 201, path, { method: 'POST' });
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => call(server, path, { json: { accessor: `worker-${i}` } })));
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 409, 409, 409, 409, 409, 409, 409]);
    assert.ok(results.filter((r) => r.status === 409).every((r) => r.body.code === 'max_access_count_reached'));
    assert.equal(results.find((r) => r.status === 201)!.body.data_license_access.sequence, 3);
    const read = dataLicenseEnvelope.parse(await expect(server, 200, `/api/v1/data_licenses/${license.id}`)).data_license;
    assert.deepEqual([read.access_count, read.status], [3, 'exhausted']);
    const all = dataLicenseAccessList.parse(await expect(server, 200, `${path}?limit=100`));
    assert.deepEqual(
      all.data_license_accesses.map((a) => a.sequence),
      [1, 2, 3],
    );

    // Unlimited licenses count every one of a burst.
    const open = await issue({ agreement_id: active });
    const burst = await Promise.all(
      Array.from({ length: 10 }, () => call(server, `/api/v1/data_licenses/${open.id}/accesses`, { method: 'POST' })),
    );
    assert.ok(burst.every((r) => r.status === 201));
    assert.deepEqual(
      burst.map((r) => r.body.data_license_access.sequence).sort((a, b) => a - b),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    );
  });

  it('counts a retried access with the same Idempotency-Key once', async () => {
    const license = await issue({ agreement_id: active, max_access_count: 5 });
    const path = `/api/v1/data_licenses/${license.id}/accesses`;
    const first = await call(server, path, { json: { purpose: 'nightly' }, headers: { 'idempotency-key': 'access-2026-06-01' } });
    const retry = await call(server, path, { json: { purpose: 'nightly' }, headers: { 'idempotency-key': 'access-2026-06-01' } });
    assert.deepEqual([first.status, retry.status], [201, 201]);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(retry.body, first.body);
    assert.equal((await expect(server, 200, `/api/v1/data_licenses/${license.id}`)).data_license.access_count, 1);
  });

  it('is revoked once (active or exhausted -> revoked); a revoked license counts no access', async () => {
    const license = await issue({ agreement_id: active, max_access_count: 5 });
    const revoked = await expect(server, 200, `/api/v1/data_licenses/${license.id}/revoke`, { method: 'POST' });
    assert.equal(revoked.data_license.status, 'revoked');
    assert.ok(revoked.data_license.revoked_at);
    await refusal(server, 409, 'data_license_revoked', `/api/v1/data_licenses/${license.id}/accesses`, { method: 'POST' });
    assert.match(
      (await refusal(server, 409, 'illegal_transition', `/api/v1/data_licenses/${license.id}/revoke`, { method: 'POST' })).message,
      /from revoked to revoked/,
    );
    const used = await issue({ agreement_id: active, max_access_count: 1 });
    await expect(server, 201, `/api/v1/data_licenses/${used.id}/accesses`, { method: 'POST' });
    assert.equal((await expect(server, 200, `/api/v1/data_licenses/${used.id}/revoke`, { method: 'POST' })).data_license.status, 'revoked');
  });

  it('lists with pagination and filters', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = dataLicenseList.parse(
        await expect(server, 200, `/api/v1/data_licenses?limit=3${cursor ? `&cursor=${cursor}` : ''}`, { token: reader }),
      );
      assert.ok(page.data_licenses.length <= 3);
      seen.push(...page.data_licenses.map((l) => l.id));
      cursor = page.next_cursor;
    } while (cursor);
    assert.equal(new Set(seen).size, seen.length);
    assert.ok(seen.length >= 8);
    const revoked = dataLicenseList.parse(await expect(server, 200, '/api/v1/data_licenses?status=revoked&limit=100')).data_licenses;
    assert.equal(revoked.length, 2);
    const byAgreement = dataLicenseList.parse(
      await expect(server, 200, `/api/v1/data_licenses?agreement_id=${active}&limit=100`),
    ).data_licenses;
    assert.equal(byAgreement.length, seen.length);
  });

  it("refuses a read token's writes, a person's token, a publishable key, and another account (404)", async () => {
    const license = await issue({ agreement_id: active, max_access_count: 1 });
    await refusal(server, 403, 'insufficient_permissions', '/api/v1/data_licenses', { token: reader, json: { agreement_id: active } });
    await refusal(server, 403, 'insufficient_permissions', `/api/v1/data_licenses/${license.id}/accesses`, {
      token: reader,
      method: 'POST',
    });
    await refusal(server, 403, 'person_token_not_allowed', '/api/v1/data_licenses', { token: ada.token });
    await refusal(server, 403, 'person_token_not_allowed', `/api/v1/data_licenses/${license.id}/accesses`, {
      token: ada.token,
      method: 'POST',
    });
    const pk = await server.api(`/api/v1/data_licenses/${license.id}`, {
      headers: { 'x-publishable-key': server.sandbox.publishable_key },
    });
    assert.equal(pk.status, 403);
    const other = otherAccount(server);
    await refusal(server, 404, 'not_found', `/api/v1/data_licenses/${license.id}`, { token: other.token });
    await refusal(server, 404, 'not_found', `/api/v1/data_licenses/${license.id}/accesses`, { token: other.token, method: 'POST' });
    assert.equal((await expect(server, 200, `/api/v1/data_licenses/${license.id}`)).data_license.access_count, 0);
  });
});
