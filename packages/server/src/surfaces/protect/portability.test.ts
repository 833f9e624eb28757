// Portability transfers over HTTP: opened under a person's portability policy between two applications of the
// account; the source declares the package's SHA-256 when it marks it ready; the destination's confirmation with
// another digest is refused (422 data_hash_mismatch) and counted; pending -> ready -> confirmed, cancelled.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { portabilityTransferEnvelope, portabilityTransferList } from '@svc/schemas';
import type { TestServer } from '../../testing.js';
import { expect, otherAccount, policy, refusal, secondApplication, startWithPeople, type Person } from './test-support.js';

const PACKAGE = JSON.stringify({ orders: [{ id: 1, total: 42 }], contact: { email: 'ada@example.com' } });
const DIGEST = createHash('sha256').update(PACKAGE).digest('hex');

describe('protect: portability transfers', () => {
  let server: TestServer;
  let ada: Person;
  let bob: Person;
  let reader: string;
  let source: string;
  let destination: string;
  let portability: string;
  const open = async (token?: string, extra: Record<string, unknown> = {}) =>
    portabilityTransferEnvelope.parse(
      await expect(server, 201, '/api/v1/portability_transfers', {
        ...(token ? { token } : {}),
        json: { policy_id: portability, source_application_id: source, destination_application_id: destination, ...extra },
      }),
    ).portability_transfer;
  before(async () => {
    ({ server, ada, bob, reader } = await startWithPeople());
    source = server.sandbox.application_id;
    destination = await secondApplication(server);
    portability = (
      await policy(server, ada.token, {
        template_id: 'portability',
        config: { data_categories: ['orders', 'contact'], formats: ['json', 'text/csv'] },
      })
    ).id;
  });
  after(() => server.dispose());

  it('is opened by the person under their portability policy (or by the organisation), pending, in the first format by default', async () => {
    const res = await server.api('/api/v1/portability_transfers', {
      method: 'POST',
      headers: { authorization: `Bearer ${ada.token}` },
      json: { policy_id: portability, source_application_id: source, destination_application_id: destination },
    });
    assert.equal(res.status, 201);
    const transfer = portabilityTransferEnvelope.parse(await res.json()).portability_transfer;
    assert.equal(res.headers.get('location'), `/api/v1/portability_transfers/${transfer.id}`);
    assert.match(transfer.id, /^ptr_us_/);
    assert.deepEqual(
      [transfer.status, transfer.negotiated_format, transfer.person_id, transfer.data_hash, transfer.mismatch_count, transfer.home_country],
      ['pending', 'json', ada.id, null, 0, 'US'],
    );
    const byOrg = await open(undefined, { negotiated_format: 'text/csv' });
    assert.deepEqual([byOrg.negotiated_format, byOrg.person_id], ['text/csv', ada.id]);
  });

  it("refuses what cannot be moved: another format, the same application, a policy that is not a person's portability policy", async () => {
    const path = '/api/v1/portability_transfers';
    const base = { policy_id: portability, source_application_id: source, destination_application_id: destination };
    await refusal(server, 422, 'format_not_offered', path, { token: ada.token, json: { ...base, negotiated_format: 'xml' } });
    await refusal(server, 422, 'same_application', path, { token: ada.token, json: { ...base, destination_application_id: source } });
    await refusal(server, 422, 'application_not_found', path, {
      token: ada.token,
      json: { ...base, destination_application_id: otherAccount(server).applicationId },
    });
    const retention = await policy(server, ada.token, { template_id: 'retention', config: { data_categories: ['x'], retention_days: 1 } });
    await refusal(server, 422, 'policy_not_portability', path, { token: ada.token, json: { ...base, policy_id: retention.id } });
    const account = await policy(server, undefined, { template_id: 'portability', config: { data_categories: ['x'] } });
    await refusal(server, 422, 'policy_not_personal', path, { json: { ...base, policy_id: account.id } });
    await refusal(server, 422, 'policy_not_found', path, { token: bob.token, json: base });
    // This server runs no DE cell, so a DE id names nothing (another cell's is the 421: protect/cells.test.ts).
    await refusal(server, 422, 'policy_not_found', path, { json: { ...base, policy_id: 'pol_de_AAAAAAAAAAAAAAAAAAAA' } });
    const revoked = await policy(server, ada.token, { template_id: 'portability', config: { data_categories: ['x'] } });
    await expect(server, 200, `/api/v1/policies/${revoked.id}/revoke`, { token: ada.token, method: 'POST' });
    await refusal(server, 422, 'policy_not_active', path, { token: ada.token, json: { ...base, policy_id: revoked.id } });
  });

  it('is confirmed by the destination with the digest the source declared; another digest is refused and counted', async () => {
    const transfer = await open(ada.token);
    const early = await refusal(server, 409, 'illegal_transition', '/api/v1/portability_transfers/confirm', {
      json: { transfer_id: transfer.id, data_hash: `sha256:${DIGEST}` },
    });
    assert.match(early.message, /from pending to confirmed/);
    const ready = portabilityTransferEnvelope.parse(
      await expect(server, 200, `/api/v1/portability_transfers/${transfer.id}/ready`, { json: { data_hash: DIGEST.toUpperCase() } }),
    ).portability_transfer;
    assert.deepEqual([ready.status, ready.data_hash], ['ready', `sha256:${DIGEST}`]);
    assert.ok(ready.ready_at);
    await refusal(server, 409, 'illegal_transition', `/api/v1/portability_transfers/${transfer.id}/ready`, { json: { data_hash: DIGEST } });

    const tampered = createHash('sha256').update(`${PACKAGE} `).digest('hex');
    const mismatch = await refusal(server, 422, 'data_hash_mismatch', '/api/v1/portability_transfers/confirm', {
      json: { transfer_id: transfer.id, data_hash: `sha256:${tampered}` },
    });
    assert.equal(mismatch.errors[0].path, 'data_hash');
    await refusal(server, 422, 'data_hash_required', '/api/v1/portability_transfers/confirm', { json: { transfer_id: transfer.id } });
    const after = portabilityTransferEnvelope.parse(
      await expect(server, 200, `/api/v1/portability_transfers/${transfer.id}`, { token: ada.token }),
    ).portability_transfer;
    assert.deepEqual([after.status, after.mismatch_count], ['ready', 1]);

    const confirmed = portabilityTransferEnvelope.parse(
      await expect(server, 200, '/api/v1/portability_transfers/confirm', {
        json: { transfer_id: transfer.id, data_hash: `sha256:${DIGEST}` },
      }),
    ).portability_transfer;
    assert.deepEqual([confirmed.status, confirmed.mismatch_count], ['confirmed', 1]);
    assert.ok(confirmed.confirmed_at);
    assert.match(
      (
        await refusal(server, 409, 'illegal_transition', '/api/v1/portability_transfers/confirm', {
          json: { transfer_id: transfer.id, data_hash: DIGEST },
        })
      ).message,
      /confirmed is final/,
    );
    await refusal(server, 409, 'illegal_transition', `/api/v1/portability_transfers/${transfer.id}/cancel`, {
      token: ada.token,
      method: 'POST',
    });
    await refusal(server, 404, 'not_found', '/api/v1/portability_transfers/confirm', {
      json: { transfer_id: 'ptr_us_AAAAAAAAAAAAAAAAAAAA', data_hash: DIGEST },
    });
    await refusal(server, 404, 'not_found', '/api/v1/portability_transfers/confirm', {
      json: { transfer_id: 'ptr_de_AAAAAAAAAAAAAAAAAAAA', data_hash: DIGEST },
    });
  });

  it('is cancelled by the person or the organisation while pending or ready; cancelled is final', async () => {
    const a = await open(ada.token);
    assert.equal(
      (await expect(server, 200, `/api/v1/portability_transfers/${a.id}/cancel`, { token: ada.token, method: 'POST' })).portability_transfer
        .status,
      'cancelled',
    );
    await refusal(server, 409, 'illegal_transition', `/api/v1/portability_transfers/${a.id}/ready`, { json: { data_hash: DIGEST } });
    const b = await open(ada.token);
    await expect(server, 200, `/api/v1/portability_transfers/${b.id}/ready`, { json: { data_hash: DIGEST } });
    const cancelled = await expect(server, 200, `/api/v1/portability_transfers/${b.id}/cancel`, { method: 'POST' });
    assert.ok(cancelled.portability_transfer.cancelled_at);
    await refusal(server, 409, 'illegal_transition', '/api/v1/portability_transfers/confirm', {
      json: { transfer_id: b.id, data_hash: DIGEST },
    });
  });

  it('lists with pagination; the person sees their own; only the organisation marks ready and confirms', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = portabilityTransferList.parse(
        await expect(server, 200, `/api/v1/portability_transfers?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: ada.token }),
      );
      seen.push(...page.portability_transfers.map((t) => t.id));
      cursor = page.next_cursor;
    } while (cursor);
    assert.ok(seen.length >= 5);
    assert.equal(new Set(seen).size, seen.length);
    assert.deepEqual(
      portabilityTransferList.parse(await expect(server, 200, '/api/v1/portability_transfers', { token: bob.token })).portability_transfers,
      [],
    );
    const confirmed = portabilityTransferList.parse(
      await expect(server, 200, '/api/v1/portability_transfers?status=confirmed', { token: reader }),
    ).portability_transfers;
    assert.equal(confirmed.length, 1);

    const t = await open(ada.token);
    await refusal(server, 403, 'person_token_not_allowed', `/api/v1/portability_transfers/${t.id}/ready`, {
      token: ada.token,
      json: { data_hash: DIGEST },
    });
    await refusal(server, 403, 'person_token_not_allowed', '/api/v1/portability_transfers/confirm', {
      token: ada.token,
      json: { transfer_id: t.id, data_hash: DIGEST },
    });
    await refusal(server, 403, 'insufficient_permissions', `/api/v1/portability_transfers/${t.id}/ready`, {
      token: reader,
      json: { data_hash: DIGEST },
    });
    await refusal(server, 404, 'not_found', `/api/v1/portability_transfers/${t.id}`, { token: bob.token });
    await refusal(server, 404, 'not_found', `/api/v1/portability_transfers/${t.id}/cancel`, { token: bob.token, method: 'POST' });
    const other = otherAccount(server);
    await refusal(server, 404, 'not_found', `/api/v1/portability_transfers/${t.id}`, { token: other.token });
    await refusal(server, 404, 'not_found', '/api/v1/portability_transfers/confirm', {
      token: other.token,
      json: { transfer_id: t.id, data_hash: DIGEST },
    });
    const pk = await server.api('/api/v1/portability_transfers', { headers: { 'x-publishable-key': server.sandbox.publishable_key } });
    assert.equal(pk.status, 403);
  });
});
