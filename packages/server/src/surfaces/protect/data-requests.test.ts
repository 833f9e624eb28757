// Data requests (DSAR) over HTTP: the person files one with their token, the organisation processes it with its API
// token; due 30 days after receipt on the server clock (overdue past it), extended once before it is due; the state
// machine refuses illegal moves with 409; a completed access request carries the export of what the service holds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dataRequestEnvelope, dataRequestList } from '@svc/schemas';
import { createActiveFlow, createRecord, grantAll } from '../../consent/records/test-support.js';
import type { TestServer } from '../../testing.js';
import { expect, otherAccount, policy, refusal, startWithPeople, type Person } from './test-support.js';

const DAY = 86_400;
const days = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / (DAY * 1000);

describe('protect: data requests', () => {
  let server: TestServer;
  let ada: Person;
  let bob: Person;
  let reader: string;
  let app: string;
  const file = (person: Person, body: Record<string, unknown>) =>
    expect(server, 201, '/api/v1/data_requests', { token: person.token, json: { application_id: app, ...body } }).then(
      (b) => dataRequestEnvelope.parse(b).data_request,
    );
  before(async () => {
    ({ server, ada, bob, reader } = await startWithPeople());
    app = server.sandbox.application_id;
  });
  after(() => server.dispose());

  it('is filed by the person with their token: received, due in 30 days; an API token cannot file one', async () => {
    const res = await server.api('/api/v1/data_requests', {
      method: 'POST',
      headers: { authorization: `Bearer ${ada.token}` },
      json: { application_id: app, dsar_type: 'erasure', scope: ['marketing', 'orders'] },
    });
    assert.equal(res.status, 201);
    const request = dataRequestEnvelope.parse(await res.json()).data_request;
    assert.equal(res.headers.get('location'), `/api/v1/data_requests/${request.id}`);
    assert.match(request.id, /^dsar_us_/);
    assert.deepEqual(
      [request.status, request.dsar_type, request.person_id, request.application_id, request.overdue, request.extended, request.export],
      ['received', 'erasure', ada.id, app, false, false, null],
    );
    assert.deepEqual(request.scope, ['marketing', 'orders']);
    assert.equal(days(request.received_at, request.due_date), 30);
    assert.equal(request.original_due_date, request.due_date);

    assert.equal((await file(ada, { dsar_type: 'rectification', scope: 'my postal address' })).scope, 'my postal address');
    assert.deepEqual((await file(ada, { dsar_type: 'portability', scope: { categories: ['orders'], format: 'csv' } })).scope, {
      categories: ['orders'],
      format: 'csv',
    });
    assert.equal((await file(ada, { dsar_type: 'access' })).scope, null);

    await refusal(server, 403, 'person_token_required', '/api/v1/data_requests', { json: { application_id: app, dsar_type: 'access' } });
    await refusal(server, 422, 'application_not_found', '/api/v1/data_requests', {
      token: ada.token,
      json: { application_id: otherAccount(server).applicationId, dsar_type: 'access' },
    });
    await refusal(server, 422, 'validation_failed', '/api/v1/data_requests', {
      token: ada.token,
      json: { application_id: app, dsar_type: 'objection' },
    });
  });

  it('moves received -> in_progress -> completed and refuses the moves the state machine does not allow (409, named)', async () => {
    const request = await file(ada, { dsar_type: 'erasure' });
    const at = (action: string) => `/api/v1/data_requests/${request.id}/${action}`;
    const early = await refusal(server, 409, 'illegal_transition', at('complete'), { method: 'POST' });
    assert.match(early.message, /from received to completed/);
    assert.equal(early.errors[0].code, 'illegal_transition');
    const started = await expect(server, 200, at('start'), { method: 'POST' });
    assert.equal(started.data_request.status, 'in_progress');
    assert.ok(started.data_request.started_at);
    assert.match(
      (await refusal(server, 409, 'illegal_transition', at('start'), { method: 'POST' })).message,
      /from in_progress to in_progress/,
    );
    const done = await expect(server, 200, at('complete'), { json: { note: 'Erased from the CRM and the mailing tool.' } });
    assert.deepEqual(
      [done.data_request.status, done.data_request.completion_note, done.data_request.export],
      ['completed', 'Erased from the CRM and the mailing tool.', null],
    );
    for (const action of ['start', 'complete']) {
      assert.match((await refusal(server, 409, 'illegal_transition', at(action), { method: 'POST' })).message, /completed is final/);
    }
    await refusal(server, 409, 'illegal_transition', at('reject'), { json: { reason: 'late' } });
    await refusal(server, 409, 'illegal_transition', at('extend'), { json: { reason: 'late' } });
  });

  it('is rejected from received or in progress, with the reason', async () => {
    const first = await file(ada, { dsar_type: 'rectification' });
    const rejected = await expect(server, 200, `/api/v1/data_requests/${first.id}/reject`, { json: { reason: 'We hold no such data.' } });
    assert.deepEqual([rejected.data_request.status, rejected.data_request.rejection_reason], ['rejected', 'We hold no such data.']);
    await refusal(server, 409, 'illegal_transition', `/api/v1/data_requests/${first.id}/start`, { method: 'POST' });
    await refusal(server, 422, 'validation_failed', `/api/v1/data_requests/${first.id}/reject`, { json: {} });
    const second = await file(ada, { dsar_type: 'rectification' });
    await expect(server, 200, `/api/v1/data_requests/${second.id}/start`, { method: 'POST' });
    assert.equal(
      (await expect(server, 200, `/api/v1/data_requests/${second.id}/reject`, { json: { reason: 'Manifestly unfounded.' } })).data_request
        .status,
      'rejected',
    );
  });

  it('runs on the server clock: overdue after 30 days; extended once, before the due date, by at most 60 days', async () => {
    const late = await file(ada, { dsar_type: 'access' });
    const extendable = await file(ada, { dsar_type: 'access' });
    server.advance(20 * DAY);
    const extended = dataRequestEnvelope.parse(
      await expect(server, 200, `/api/v1/data_requests/${extendable.id}/extend`, {
        json: { reason: 'Records are spread over three systems.', days: 45 },
      }),
    ).data_request;
    assert.deepEqual(
      [extended.extended, extended.extension_reason, extended.status],
      [true, 'Records are spread over three systems.', 'received'],
    );
    assert.equal(days(extended.original_due_date, extended.due_date), 45);
    assert.equal(extended.original_due_date, extendable.due_date);
    const twice = await refusal(server, 409, 'already_extended', `/api/v1/data_requests/${extendable.id}/extend`, {
      json: { reason: 'Again' },
    });
    assert.match(twice.message, /extended once/);
    await refusal(server, 422, 'validation_failed', `/api/v1/data_requests/${late.id}/extend`, { json: { reason: 'Too long', days: 61 } });

    server.advance(11 * DAY);
    const overdue = dataRequestEnvelope.parse(await expect(server, 200, `/api/v1/data_requests/${late.id}`)).data_request;
    assert.equal(overdue.overdue, true);
    assert.equal((await expect(server, 200, `/api/v1/data_requests/${extendable.id}`)).data_request.overdue, false);
    await refusal(server, 409, 'due_date_passed', `/api/v1/data_requests/${late.id}/extend`, { json: { reason: 'Too late now' } });
    const overdueOnly = dataRequestList.parse(
      await expect(server, 200, `/api/v1/data_requests?status=received&dsar_type=access&limit=100`),
    );
    assert.ok(overdueOnly.data_requests.some((r) => r.id === late.id && r.overdue));
    // Answering it ends the overdue state.
    await expect(server, 200, `/api/v1/data_requests/${late.id}/start`, { method: 'POST' });
    const answered = await expect(server, 200, `/api/v1/data_requests/${late.id}/complete`, { method: 'POST' });
    assert.equal(answered.data_request.overdue, false);
  });

  it('completes an access request with an export of what the service holds about the person', async () => {
    // A consent record of Ada's, made through the Record API with her email.
    const flow = await createActiveFlow(server);
    const record = await createRecord(server, { flow_id: flow, subject: { email: 'ada@example.com' }, decisions: grantAll });
    const held = await expect(server, 201, '/api/v1/policies', {
      token: ada.token,
      json: { template_id: 'retention', config: { data_categories: ['orders'], retention_days: 90 } },
    });
    const request = await file(ada, { dsar_type: 'access', scope: 'everything' });
    await expect(server, 200, `/api/v1/data_requests/${request.id}/start`, { method: 'POST' });
    const done = dataRequestEnvelope.parse(
      await expect(server, 200, `/api/v1/data_requests/${request.id}/complete`, { method: 'POST' }),
    ).data_request;
    const exported = done.export!;
    assert.ok(exported);
    assert.deepEqual(exported.person, { id: ada.id, email: 'ada@example.com' });
    assert.ok(exported.policy_ids.includes(held.policy.id));
    assert.ok(exported.data_request_ids.includes(request.id));
    assert.deepEqual(
      exported.consent_records.map((r) => [r.id, r.flow_id, r.application_id]),
      [[record.id, flow, app]],
    );
    assert.deepEqual(exported.receipt_ids, [record.id]);
    // The person reads the answer with their own token.
    const own = dataRequestEnvelope.parse(
      await expect(server, 200, `/api/v1/data_requests/${request.id}`, { token: ada.token }),
    ).data_request;
    assert.deepEqual(own.export, exported);
  });

  it('lists with pagination; a person sees only their own; only an API token with write processes', async () => {
    for (let i = 0; i < 3; i += 1) await file(bob, { dsar_type: 'access' });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = dataRequestList.parse(
        await expect(server, 200, `/api/v1/data_requests?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: bob.token }),
      );
      seen.push(...page.data_requests.map((r) => r.id));
      assert.ok(page.data_requests.every((r) => r.person_id === bob.id));
      cursor = page.next_cursor;
    } while (cursor);
    assert.equal(seen.length, 3);
    const org = dataRequestList.parse(await expect(server, 200, `/api/v1/data_requests?limit=100`, { token: reader }));
    assert.ok(org.data_requests.length > 3);
    assert.ok(org.data_requests.some((r) => r.person_id === ada.id));

    await refusal(server, 404, 'not_found', `/api/v1/data_requests/${seen[0]}`, { token: ada.token });
    await refusal(server, 403, 'person_token_not_allowed', `/api/v1/data_requests/${seen[0]}/start`, { token: bob.token, method: 'POST' });
    await refusal(server, 403, 'insufficient_permissions', `/api/v1/data_requests/${seen[0]}/start`, { token: reader, method: 'POST' });
    const other = otherAccount(server);
    await refusal(server, 404, 'not_found', `/api/v1/data_requests/${seen[0]}`, { token: other.token });
    await refusal(server, 404, 'not_found', `/api/v1/data_requests/${seen[0]}/start`, { token: other.token, method: 'POST' });
    const pk = await server.api('/api/v1/data_requests', { headers: { 'x-publishable-key': server.sandbox.publishable_key } });
    assert.equal(pk.status, 403);
    // An unrelated policy does not leak into a request's reads.
    assert.ok(await policy(server, bob.token, { template_id: 'retention', config: { data_categories: ['x'], retention_days: 1 } }));
  });
});
