// Meeting consents against a real server: CreateMeetingConsentRequest with its defaults (duration 60 minutes setting
// the end, the default template), agents that must be the account's and active, reading and listing in pages, the
// status the clock gives (scheduled, in_progress, ended) and cancelling (legal and not); decisions opened for a
// meeting (meeting_id validated and shown), and the auth rules.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestCells, startTestServer, type TestCells, type TestServer } from '../../testing.js';
import { createApplication, createCapturableFlow, expect, otherAccount, tokenWith } from './test-support.js';

const HOUR = 3600;

describe('comply: meeting consents', () => {
  let server: TestServer;
  let read: string;
  let agentId: string;
  before(async () => {
    server = await startTestServer();
    read = await tokenWith(server, ['read']);
    agentId = (
      await expect(server, '/api/v1/agent_identities', 201, {
        method: 'POST',
        json: { display_name: 'Note taker', agent_type: 'assistant' },
      })
    ).agent_identity.id;
  });
  after(() => server.dispose());

  it('creates a meeting from an empty request: now for 60 minutes, the oldest active flow as template, in progress', async () => {
    const before = Date.now();
    const res = await server.api('/api/v1/meeting_consents', { method: 'POST', json: {} });
    assert.equal(res.status, 201);
    const { meeting_consent: m } = (await res.json()) as { meeting_consent: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.equal(res.headers.get('location'), `/api/v1/meeting_consents/${m.id}`);
    assert.match(m.id, /^mtg_[A-Za-z0-9]{20}$/);
    assert.equal(m.duration_minutes, 60);
    assert.equal(Date.parse(m.ends_at) - Date.parse(m.starts_at), 60 * 60_000);
    assert.ok(Date.parse(m.starts_at) >= before - 1000);
    assert.equal(m.scheduled_at, null);
    assert.equal(m.template, server.sandbox.flow_id);
    assert.deepEqual(m.agent_ids, []);
    assert.equal(m.status, 'in_progress');
    assert.deepEqual([m.title, m.description, m.platform, m.external_meeting_id, m.cancelled_at], [null, null, null, null, null]);
  });

  it('takes every field: scheduled_at and duration_minutes set the time, agents attend, the template is named', async () => {
    const flow = await createCapturableFlow(server, server.sandbox.application_id, 'Meeting recording');
    const scheduled = new Date(Date.now() + 24 * HOUR * 1000).toISOString();
    const { meeting_consent: m } = await expect(server, '/api/v1/meeting_consents', 201, {
      method: 'POST',
      json: {
        title: 'Quarterly review',
        description: 'Recorded, with an AI note taker.',
        platform: 'zoom',
        external_meeting_id: 'zoom-123',
        scheduled_at: scheduled,
        duration_minutes: 45,
        template: flow,
        agent_ids: [agentId],
      },
    });
    assert.deepEqual(
      [m.title, m.platform, m.external_meeting_id, m.template, m.duration_minutes, m.status],
      ['Quarterly review', 'zoom', 'zoom-123', flow, 45, 'scheduled'],
    );
    assert.equal(m.scheduled_at, scheduled);
    assert.equal(m.starts_at, scheduled);
    assert.equal(m.ends_at, new Date(Date.parse(scheduled) + 45 * 60_000).toISOString());
    assert.deepEqual(m.agent_ids, [agentId]);
    assert.deepEqual((await expect(server, `/api/v1/meeting_consents/${m.id}`, 200, { token: read })).meeting_consent, m);
  });

  it('refuses a bad duration, template or agent, and a meeting that would have ended', async () => {
    const post = (json: unknown, status: number, code?: string) =>
      expect(server, '/api/v1/meeting_consents', status, { method: 'POST', json, ...(code ? { code } : {}) });
    await post({ duration_minutes: 0 }, 422);
    await post({ duration_minutes: 1.5 }, 422);
    await post({ duration_minutes: '60' }, 422);
    await post({ duration_minutes: 24 * 60 + 1 }, 422);
    await post({ scheduled_at: 'tomorrow' }, 422);
    await post({ attendees: ['a@example.com'] }, 422);
    await post({ title: '' }, 422);
    await post({ scheduled_at: new Date(Date.now() - 2 * HOUR * 1000).toISOString(), duration_minutes: 60 }, 422, 'scheduled_at_invalid');
    await post({ template: 'flw_dev_nope' }, 422, 'template_not_found');
    const draft = await expect(server, '/api/v1/flows', 201, { method: 'POST', json: { flow: { pattern: 'standard', title: 'Draft' } } });
    await post({ template: draft.flow.id }, 422, 'template_not_active');
    await post({ agent_ids: ['agt_dev_nope'] }, 422, 'agent_not_found');
    await post({ agent_ids: [agentId, agentId] }, 422);
    const revoked = (await expect(server, '/api/v1/agent_identities', 201, { method: 'POST', json: { display_name: 'Old bot' } }))
      .agent_identity.id;
    await expect(server, `/api/v1/agent_identities/${revoked}/revoke`, 200, { method: 'POST' });
    await post({ agent_ids: [revoked] }, 422, 'agent_not_active');
    // Starting an hour ago for two hours is still running: allowed.
    const running = await post({ scheduled_at: new Date(Date.now() - HOUR * 1000).toISOString(), duration_minutes: 120 }, 201);
    assert.equal(running.meeting_consent.status, 'in_progress');
  });

  it('takes the governance default template when the request names none', async () => {
    const flow = await createCapturableFlow(server, server.sandbox.application_id, 'Default meeting template');
    await expect(server, '/api/v1/governance', 200, { method: 'PATCH', json: { governance: { default_meeting_template: flow } } });
    assert.equal((await expect(server, '/api/v1/meeting_consents', 201, { method: 'POST', json: {} })).meeting_consent.template, flow);
    await expect(server, '/api/v1/governance', 200, { method: 'PATCH', json: { governance: { default_meeting_template: null } } });
  });

  it('lists meetings in pages, oldest first, and by status', async () => {
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (await expect(server, `/api/v1/meeting_consents?limit=2${cursor ? `&cursor=${cursor}` : ''}`, 200, { token: read })) as {
        meeting_consents: { id: string }[];
        next_cursor: string | null;
      };
      assert.ok(page.meeting_consents.length <= 2);
      all.push(...page.meeting_consents.map((m) => m.id));
      cursor = page.next_cursor;
    } while (cursor);
    assert.equal(all.length, 4);
    assert.equal(new Set(all).size, 4);
    const scheduled = await expect(server, '/api/v1/meeting_consents?status=scheduled', 200);
    assert.equal(scheduled.meeting_consents.length, 1);
    assert.equal((await expect(server, '/api/v1/meeting_consents?status=in_progress', 200)).meeting_consents.length, 3);
    await expect(server, '/api/v1/meeting_consents?status=over', 400);
    await expect(server, '/api/v1/meeting_consents?limit=0', 400);
  });

  it('cancels a scheduled or running meeting once; an ended one cannot be cancelled', async () => {
    const scheduled = (
      await expect(server, '/api/v1/meeting_consents', 201, {
        method: 'POST',
        json: { scheduled_at: new Date(Date.now() + 3 * 24 * HOUR * 1000).toISOString() },
      })
    ).meeting_consent;
    const cancelled = (await expect(server, `/api/v1/meeting_consents/${scheduled.id}/cancel`, 200, { method: 'POST' })).meeting_consent;
    assert.equal(cancelled.status, 'cancelled');
    assert.ok(cancelled.cancelled_at);
    const again = await expect(server, `/api/v1/meeting_consents/${scheduled.id}/cancel`, 409, {
      method: 'POST',
      code: 'illegal_transition',
    });
    assert.match(again.message, /from cancelled to cancelled/);
    await expect(server, `/api/v1/meeting_consents/${scheduled.id}/cancel`, 403, { method: 'POST', token: read });

    const short = (await expect(server, '/api/v1/meeting_consents', 201, { method: 'POST', json: { duration_minutes: 1 } }))
      .meeting_consent;
    server.advance(120);
    assert.equal((await expect(server, `/api/v1/meeting_consents/${short.id}`, 200)).meeting_consent.status, 'ended');
    assert.ok(
      (await expect(server, '/api/v1/meeting_consents?status=ended', 200)).meeting_consents.some((m: { id: string }) => m.id === short.id),
    );
    const refused = await expect(server, `/api/v1/meeting_consents/${short.id}/cancel`, 409, {
      method: 'POST',
      code: 'illegal_transition',
    });
    assert.match(refused.message, /from ended to cancelled/);
  });

  it('opens decisions for a meeting: meeting_id must be an open meeting of the account, asked with its template', async () => {
    const m = (
      await expect(server, '/api/v1/meeting_consents', 201, {
        method: 'POST',
        json: { title: 'Stand-up', template: server.sandbox.flow_id, agent_ids: [agentId] },
      })
    ).meeting_consent;
    const consent = (extra: Record<string, unknown>) => ({
      kind: 'consent',
      subject_ref: server.sandbox.flow_id,
      delivery_mode: 'redirect',
      ...extra,
    });
    const { decision } = await expect(server, '/api/v1/decisions', 201, { method: 'POST', json: consent({ meeting_id: m.id }) });
    assert.equal(decision.meeting_id, m.id);
    assert.equal((await expect(server, `/api/v1/decisions/${decision.session_token}`, 200)).decision.meeting_id, m.id);
    // An approval of the organisation's own workflow may name the meeting too.
    await expect(server, '/api/v1/decisions', 201, {
      method: 'POST',
      json: { kind: 'approval', subject_ref: 'wf-recording-42', delivery_mode: 'redirect', meeting_id: m.id },
    });
    // A publishable key may open one for the meeting as well (the page of the meeting's own site).
    const pk = await fetch(`${server.url}/api/v1/decisions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-publishable-key': server.sandbox.publishable_key },
      body: JSON.stringify(consent({ meeting_id: m.id, delivery_mode: 'popup' })),
    });
    assert.equal(pk.status, 201, await pk.clone().text());

    await expect(server, '/api/v1/decisions', 422, { method: 'POST', json: consent({ meeting_id: 'm-1' }), code: 'meeting_not_found' });
    await expect(server, '/api/v1/decisions', 422, {
      method: 'POST',
      json: consent({ meeting_id: 'mtg_AAAAAAAAAAAAAAAAAAAA' }),
      code: 'meeting_not_found',
    });
    const other = await createCapturableFlow(server, server.sandbox.application_id, 'Another flow');
    await expect(server, '/api/v1/decisions', 422, {
      method: 'POST',
      json: consent({ meeting_id: m.id, subject_ref: other }),
      code: 'meeting_template_mismatch',
    });
    await expect(server, `/api/v1/meeting_consents/${m.id}/cancel`, 200, { method: 'POST' });
    await expect(server, '/api/v1/decisions', 409, { method: 'POST', json: consent({ meeting_id: m.id }), code: 'meeting_closed' });
  });

  it("keeps accounts apart: another account's meeting is a 404 and cannot be named by a decision", async () => {
    const mine = (await expect(server, '/api/v1/meeting_consents', 201, { method: 'POST', json: {} })).meeting_consent;
    const other = otherAccount(server);
    await expect(server, `/api/v1/meeting_consents/${mine.id}`, 404, { token: other.token });
    await expect(server, `/api/v1/meeting_consents/${mine.id}/cancel`, 404, { method: 'POST', token: other.token });
    assert.deepEqual((await expect(server, '/api/v1/meeting_consents', 200, { token: other.token })).meeting_consents, []);
    await expect(server, '/api/v1/meeting_consents', 422, { method: 'POST', token: other.token, json: {}, code: 'template_missing' });
    await expect(server, '/api/v1/meeting_consents', 422, { method: 'POST', token: other.token, json: { agent_ids: [agentId] } });
    await expect(server, '/api/v1/meeting_consents/mtg_AAAAAAAAAAAAAAAAAAAA', 404);
    await expect(server, '/api/v1/meeting_consents', 403, { method: 'POST', token: read, json: {}, code: 'insufficient_permissions' });
  });
});

describe("comply: a meeting consent made through one cell is named by a decision at the application's home cell", () => {
  let cells: TestCells;
  before(async () => {
    cells = await startTestCells();
  });
  after(() => cells.dispose());

  it('creates the meeting in US and opens its decision in DE', async () => {
    const { US: us, DE: de } = cells.cells as Record<'US' | 'DE', TestServer>;
    const application = await createApplication(us, 'Berlin office', 'DE');
    const flow = await createCapturableFlow(us, application, 'Berlin meetings');
    const m = (await expect(us, '/api/v1/meeting_consents', 201, { method: 'POST', json: { template: flow } })).meeting_consent;
    await expect(us, '/api/v1/decisions', 421, {
      method: 'POST',
      json: { kind: 'consent', subject_ref: flow, delivery_mode: 'redirect', meeting_id: m.id },
      code: 'wrong_country',
    });
    const { decision } = await expect(de, '/api/v1/decisions', 201, {
      method: 'POST',
      json: { kind: 'consent', subject_ref: flow, delivery_mode: 'redirect', meeting_id: m.id },
    });
    assert.equal(decision.meeting_id, m.id);
    assert.match(decision.session_token, /^dts_de_/);
    assert.equal((await expect(de, `/api/v1/meeting_consents/${m.id}`, 200)).meeting_consent.id, m.id);
  });
});
