// Modules and governance against a real server: the six modules enabled from the start and paged; an admin disables
// and enables one (a disabled comply refuses new clean rooms and meeting consents); governance settings with their
// defaults, changed by an admin only, each change logged with its actor and from/to; the same in every cell; another
// account sees its own.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { personAccessToken } from '../../platform/oauth/test-support.js';
import { startTestCells, startTestServer, type TestCells, type TestServer } from '../../testing.js';
import { call, expect, otherAccount, tokenWith } from './test-support.js';

describe('comply: modules', () => {
  let server: TestServer;
  let read: string;
  let write: string;
  before(async () => {
    server = await startTestServer();
    read = await tokenWith(server, ['read']);
    write = await tokenWith(server, ['read', 'write']);
  });
  after(() => server.dispose());

  it('lists the six modules, every one enabled since the account was created, in pages', async () => {
    const all = await expect(server, '/api/v1/modules', 200, { token: read });
    assert.deepEqual(
      all.modules.map((m: { key: string }) => m.key),
      ['connect', 'verify', 'protect', 'agree', 'delegate', 'comply'],
    );
    assert.equal(all.next_cursor, null);
    for (const m of all.modules) {
      assert.equal(m.enabled, true);
      assert.ok(Date.parse(m.enabled_at) > 0);
      assert.equal(m.disabled_at, null);
      assert.ok(m.surfaces.length > 0 && m.name && m.description);
    }
    assert.ok(all.modules.find((m: { key: string }) => m.key === 'comply').surfaces.includes('/clean_rooms'));

    const first = await expect(server, '/api/v1/modules?limit=4', 200);
    assert.equal(first.modules.length, 4);
    assert.ok(first.next_cursor);
    const second = await expect(server, `/api/v1/modules?limit=4&cursor=${first.next_cursor}`, 200);
    assert.deepEqual(
      second.modules.map((m: { key: string }) => m.key),
      ['delegate', 'comply'],
    );
    assert.equal(second.next_cursor, null);
    await expect(server, '/api/v1/modules?cursor=bogus', 400);
    await expect(server, '/api/v1/modules/comply', 200, { token: read });
    await expect(server, '/api/v1/modules/billing', 404);
  });

  it('an admin disables comply: new clean rooms and meeting consents are refused until it is enabled again', async () => {
    await expect(server, '/api/v1/modules/comply', 403, {
      method: 'PATCH',
      token: write,
      json: { module: { enabled: false } },
      code: 'insufficient_permissions',
    });
    const disabled = await expect(server, '/api/v1/modules/comply', 200, { method: 'PATCH', json: { module: { enabled: false } } });
    assert.equal(disabled.module.enabled, false);
    assert.equal(disabled.module.enabled_at, null);
    assert.ok(disabled.module.disabled_at);
    // The same value again changes nothing, and logs nothing.
    const again = await expect(server, '/api/v1/modules/comply', 200, { method: 'PATCH', json: { module: { enabled: false } } });
    assert.equal(again.module.disabled_at, disabled.module.disabled_at);

    await expect(server, '/api/v1/meeting_consents', 403, { method: 'POST', json: {}, code: 'module_disabled' });
    await expect(server, '/api/v1/clean_rooms', 403, {
      method: 'POST',
      json: { agreement_id: 'agr_us_AAAAAAAAAAAAAAAAAAAA', participants: [server.sandbox.application_id] },
      code: 'module_disabled',
    });
    // What exists stays readable.
    await expect(server, '/api/v1/meeting_consents', 200);

    server.advance(60);
    const enabled = await expect(server, '/api/v1/modules/comply', 200, { method: 'PATCH', json: { module: { enabled: true } } });
    assert.equal(enabled.module.enabled, true);
    assert.ok(enabled.module.enabled_at > disabled.module.disabled_at);
    assert.equal(enabled.module.disabled_at, disabled.module.disabled_at);
    await expect(server, '/api/v1/meeting_consents', 201, { method: 'POST', json: {} });

    const changes = (await expect(server, '/api/v1/governance/changes', 200)).governance_changes;
    assert.deepEqual(
      changes.map((c: { type: string }) => c.type),
      ['module.disabled', 'module.enabled'],
    );
    assert.deepEqual(changes[0].changes, { 'modules.comply.enabled': { from: true, to: false } });
    assert.equal(changes[0].actor.kind, 'api_token');
  });

  it('refuses bodies that are not {module: {enabled}}', async () => {
    await expect(server, '/api/v1/modules/comply', 422, { method: 'PATCH', json: { enabled: false } });
    await expect(server, '/api/v1/modules/comply', 422, { method: 'PATCH', json: { module: { enabled: 'no' } } });
    await expect(server, '/api/v1/modules/comply', 422, { method: 'PATCH', json: { module: { enabled: true, key: 'x' } } });
    await expect(server, '/api/v1/modules/billing', 404, { method: 'PATCH', json: { module: { enabled: true } } });
  });

  it("refuses publishable keys and a person's access token", async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/modules'],
      ['PATCH', '/api/v1/modules/comply'],
      ['GET', '/api/v1/governance'],
      ['PATCH', '/api/v1/governance'],
    ]) {
      const res = await fetch(`${server.url}${path!}`, {
        method,
        headers: { 'x-publishable-key': server.sandbox.publishable_key, 'content-type': 'application/json' },
        body: method === 'PATCH' ? '{}' : null,
      });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(((await res.json()) as { code: string }).code, 'publishable_key_not_allowed');
    }
    const person = await personAccessToken(server, 'ada@example.com');
    await expect(server, '/api/v1/modules', 403, { token: person, code: 'person_token_not_allowed' });
    await expect(server, '/api/v1/governance', 403, { token: person, code: 'person_token_not_allowed' });
    await expect(server, '/api/v1/governance', 403, { method: 'PATCH', token: person, json: { governance: { dsar_due_days: 10 } } });
  });
});

describe('comply: governance', () => {
  let server: TestServer;
  let write: string;
  before(async () => {
    server = await startTestServer();
    write = await tokenWith(server, ['read', 'write']);
  });
  after(() => server.dispose());

  it('answers the defaults before anything is set', async () => {
    const { governance } = await expect(server, '/api/v1/governance', 200);
    assert.deepEqual(governance, {
      api_token_approvals_required: 0,
      default_retention_days: null,
      allowed_countries: null,
      dsar_due_days: 30,
      clean_room_min_cohort: 10,
      clean_room_epsilon_budget: 10,
      clean_room_require_noise: false,
      default_meeting_template: null,
      updated_at: null,
      updated_by: null,
    });
  });

  it('changes what an admin names, keeps the rest, and logs each change with its actor, from and to', async () => {
    await expect(server, '/api/v1/governance', 403, { method: 'PATCH', token: write, json: { governance: { dsar_due_days: 14 } } });
    const { governance } = await expect(server, '/api/v1/governance', 200, {
      method: 'PATCH',
      json: { governance: { dsar_due_days: 14, allowed_countries: ['US'], clean_room_min_cohort: 5, default_retention_days: 365 } },
    });
    assert.equal(governance.dsar_due_days, 14);
    assert.deepEqual(governance.allowed_countries, ['US']);
    assert.equal(governance.clean_room_min_cohort, 5);
    assert.equal(governance.default_retention_days, 365);
    assert.equal(governance.api_token_approvals_required, 0);
    assert.ok(governance.updated_at);
    assert.match(governance.updated_by, /^api_token:api_token_/);

    // Setting a value it already has changes nothing and logs nothing.
    await expect(server, '/api/v1/governance', 200, {
      method: 'PATCH',
      json: { governance: { dsar_due_days: 14, default_meeting_template: server.sandbox.flow_id } },
    });
    const { governance_changes: changes } = await expect(server, '/api/v1/governance/changes', 200);
    assert.equal(changes.length, 2);
    assert.equal(changes[0].type, 'governance.updated');
    assert.deepEqual(changes[0].changes, {
      dsar_due_days: { from: 30, to: 14 },
      allowed_countries: { from: null, to: ['US'] },
      clean_room_min_cohort: { from: 10, to: 5 },
      default_retention_days: { from: null, to: 365 },
    });
    assert.deepEqual(changes[1].changes, { default_meeting_template: { from: null, to: server.sandbox.flow_id } });
    assert.match(changes[0].id, /^gch_/);

    const page = await expect(server, '/api/v1/governance/changes?limit=1', 200);
    assert.equal(page.governance_changes.length, 1);
    const next = await expect(server, `/api/v1/governance/changes?limit=1&cursor=${page.next_cursor}`, 200);
    assert.equal(next.governance_changes[0].id, changes[1].id);
    assert.equal(next.next_cursor, null);
  });

  it('refuses what the settings cannot hold: unknown countries, templates that are not active flows, values out of range, empty changes', async () => {
    await expect(server, '/api/v1/governance', 422, {
      method: 'PATCH',
      json: { governance: { allowed_countries: ['DE'] } },
      code: 'validation_failed',
    });
    await expect(server, '/api/v1/governance', 422, { method: 'PATCH', json: { governance: { allowed_countries: ['us'] } } });
    await expect(server, '/api/v1/governance', 422, {
      method: 'PATCH',
      json: { governance: { default_meeting_template: 'flw_dev_nope' } },
      code: 'template_not_found',
    });
    const draft = await expect(server, '/api/v1/flows', 201, { method: 'POST', json: { flow: { pattern: 'standard', title: 'Draft' } } });
    await expect(server, '/api/v1/governance', 422, {
      method: 'PATCH',
      json: { governance: { default_meeting_template: draft.flow.id } },
      code: 'template_not_active',
    });
    await expect(server, '/api/v1/governance', 422, { method: 'PATCH', json: { governance: {} } });
    await expect(server, '/api/v1/governance', 422, { method: 'PATCH', json: { governance: { dsar_due_days: 0 } } });
    await expect(server, '/api/v1/governance', 422, { method: 'PATCH', json: { governance: { clean_room_min_cohort: 1 } } });
    await expect(server, '/api/v1/governance', 422, { method: 'PATCH', json: { governance: { clean_room_epsilon_budget: 1.0001 } } });
    await expect(server, '/api/v1/governance', 422, { method: 'PATCH', json: { governance: { sso_required: true } } });
    await expect(server, '/api/v1/governance', 422, { method: 'PATCH', json: { dsar_due_days: 10 } });
  });

  it("another account's token reads its own governance and log, not this account's", async () => {
    const other = otherAccount(server);
    const { governance } = await expect(server, '/api/v1/governance', 200, { token: other.token });
    assert.equal(governance.dsar_due_days, 30);
    assert.deepEqual((await expect(server, '/api/v1/governance/changes', 200, { token: other.token })).governance_changes, []);
    assert.equal((await call(server, '/api/v1/governance')).body.governance.dsar_due_days, 14);
  });
});

describe('comply: governance and modules are the same in every cell (control plane)', () => {
  let cells: TestCells;
  before(async () => {
    cells = await startTestCells();
  });
  after(() => cells.dispose());

  it('a change made through one cell is read through the other', async () => {
    const { US: us, DE: de } = cells.cells as Record<'US' | 'DE', TestServer>;
    await expect(us, '/api/v1/governance', 200, {
      method: 'PATCH',
      json: { governance: { allowed_countries: ['DE', 'US'], dsar_due_days: 20 } },
    });
    await expect(de, '/api/v1/modules/protect', 200, { method: 'PATCH', json: { module: { enabled: false } } });
    const seen = (await expect(de, '/api/v1/governance', 200)).governance;
    assert.deepEqual([seen.allowed_countries, seen.dsar_due_days], [['DE', 'US'], 20]);
    assert.equal((await expect(us, '/api/v1/modules/protect', 200)).module.enabled, false);
    assert.deepEqual(
      (await expect(us, '/api/v1/governance/changes', 200)).governance_changes.map((c: { type: string }) => c.type),
      ['governance.updated', 'module.disabled'],
    );
  });
});
