// The Comply resources through the client against a running reference server: modules and governance, a clean room
// under an active agreement with its queries, meeting consents and a decision naming one; refusals as typed errors.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createClient, type SvcClient } from '../lib/client.js';
import { SvcHttpError, SvcNotFoundError, SvcPermissionError, SvcValidationError } from '../lib/errors.js';
import { signAsParty } from '../testing/participant.test.helper.js';
import { rejection } from '../testing/rejection.test.helper.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { listModules } from './comply.js';

const TEXT = 'We share aggregate consent counts.\n';

describe('comply resources against the reference server', () => {
  let server: TestServer;
  let svc: SvcClient;

  before(async () => {
    server = await startTestServer();
    svc = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
  });
  after(() => server.dispose());

  it('lists, disables and enables modules; reads and changes governance; walks its change log', async () => {
    const modules: string[] = [];
    for await (const m of svc.modules.list({ limit: 2 })) modules.push(m.key);
    assert.deepEqual(modules, ['connect', 'verify', 'protect', 'agree', 'delegate', 'comply']);
    assert.equal((await listModules(svc, { limit: 1 }).page()).nextCursor !== null, true);
    assert.equal((await svc.modules.disable('verify')).enabled, false);
    assert.equal((await svc.modules.get('verify')).enabled, false);
    assert.equal((await svc.modules.enable('verify')).enabled, true);

    assert.equal((await svc.governance.get()).dsar_due_days, 30);
    const changed = await svc.governance.update({ dsar_due_days: 21, clean_room_min_cohort: 3 });
    assert.deepEqual([changed.dsar_due_days, changed.clean_room_min_cohort], [21, 3]);
    const log = [];
    for await (const change of svc.governance.changes()) log.push(change.type);
    assert.deepEqual(log, ['module.disabled', 'module.enabled', 'governance.updated']);
    assert.equal((await rejection(svc.governance.update({ allowed_countries: ['ZZ'] }), SvcValidationError)).status, 422);
    const reader = createClient({
      baseUrl: server.url,
      apiToken: (
        (await (
          await server.api('/api/v1/api_tokens', { method: 'POST', json: { api_token: { name: 'r', permissions: ['read'] } } })
        ).json()) as { api_token: { token: string } }
      ).api_token.token,
    });
    await rejection(reader.governance.update({ dsar_due_days: 5 }), SvcPermissionError);
  });

  it('opens a clean room, queries it, lists its queries, closes it', async () => {
    const agreement = await svc.agreements.create({
      agreement: {
        title: 'Data collaboration',
        document: { text: TEXT, sha256: createHash('sha256').update(TEXT).digest('hex') },
        quorum: 1,
        parties: [{ email: 'lena@example.com', home_country: 'US' }],
      },
    });
    const token = agreement.party_details[0]!.session_token;
    await signAsParty(server.url, token, 'Lena');

    const room = await svc.cleanRooms.create({ agreement_id: agreement.id, participants: [server.sandbox.application_id] });
    assert.equal(room.status, 'active');
    assert.equal((await svc.cleanRooms.get(room.id)).id, room.id);
    const rooms = await svc.cleanRooms.list({ status: 'active' }).page();
    assert.deepEqual(
      rooms.items.map((r) => r.id),
      [room.id],
    );

    const exact = await svc.cleanRooms.query(room.id, { computation_type: 'count', query_definition: {} });
    assert.equal(exact.status, 'completed');
    assert.equal(exact.result?.noise, null);
    const noisy = await svc.cleanRooms.query(room.id, {
      computation_type: 'count_by_purpose',
      query_definition: {},
      privacy_parameters: { epsilon: 1 },
    });
    assert.equal(noisy.result?.noise?.mechanism, 'geometric');
    assert.equal((await svc.cleanRooms.getQuery(room.id, noisy.id)).id, noisy.id);
    const ids = [];
    for await (const q of svc.cleanRooms.queries(room.id, { limit: 1 })) ids.push(q.id);
    assert.deepEqual(ids, [exact.id, noisy.id]);

    assert.equal((await svc.cleanRooms.close(room.id)).status, 'closed');
    const refused = await rejection(svc.cleanRooms.query(room.id, { computation_type: 'count', query_definition: {} }), SvcHttpError);
    assert.deepEqual([refused.status, refused.reason], [409, 'clean_room_closed']);
    await rejection(svc.cleanRooms.get('clr_us_AAAAAAAAAAAAAAAAAAAA'), SvcNotFoundError);
  });

  it('creates, lists, reads and cancels meeting consents; a decision names one', async () => {
    const meeting = await svc.meetingConsents.create({ title: 'Design review', duration_minutes: 30 });
    assert.equal(meeting.duration_minutes, 30);
    assert.equal(meeting.template, server.sandbox.flow_id);
    assert.equal((await svc.meetingConsents.get(meeting.id)).title, 'Design review');
    const decision = await svc.decisions.create({
      kind: 'consent',
      subject_ref: meeting.template,
      delivery_mode: 'redirect',
      meeting_id: meeting.id,
    });
    assert.equal(decision.meeting_id, meeting.id);
    const listed = [];
    for await (const m of svc.meetingConsents.list({ status: 'in_progress' })) listed.push(m.id);
    assert.deepEqual(listed, [meeting.id]);
    assert.equal((await svc.meetingConsents.cancel(meeting.id)).status, 'cancelled');
    const refused = await rejection(
      svc.decisions.create({ kind: 'consent', subject_ref: meeting.template, delivery_mode: 'redirect', meeting_id: meeting.id }),
      SvcHttpError,
    );
    assert.deepEqual([refused.status, refused.reason], [409, 'meeting_closed']);
    await rejection(svc.meetingConsents.create({ duration_minutes: 0 }), SvcValidationError);
  });
});
