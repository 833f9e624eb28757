// Clean rooms against a real server. Two applications of the account share consent records: A (the sandbox
// application) with 30 subjects, B (a partner application) with 20, 15 of them A's too. The rooms run under an active
// agreement; queries count subjects, per purpose, the overlap of A and B by hashed email, and a histogram by month:
// exact without privacy_parameters, small buckets suppressed, and with epsilon noisy (values differ, their mean near
// the truth) within the room's budget. No result carries a row-level value. Status: active -> closed | expired.
// The server draws its noise from a seeded source here, so noisy counts are the same on every run.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { personAccessToken } from '../../platform/oauth/test-support.js';
import { startTestCells, startTestServer, type TestCells, type TestServer } from '../../testing.js';
import { geometricNoise } from './noise.js';
import { seededUniform } from './seeded-uniform.js';
import {
  activeAgreement,
  createApplication,
  createCapturableFlow,
  expect,
  importRecords,
  otherAccount,
  pendingAgreement,
  tokenWith,
  type Row,
} from './test-support.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The tenth day, 10:00 UTC, of the month `back` months before the current one (as the server's clock reads it). */
function monthBack(server: TestServer, back: number): { at: string; month: string } {
  const now = new Date(server.context.clock.now());
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 10, 10));
  return { at: at.toISOString(), month: at.toISOString().slice(0, 7) };
}

const pad = (i: number) => String(i).padStart(2, '0');

describe('comply: clean rooms and their queries', () => {
  let server: TestServer;
  let read: string;
  let agreementId: string;
  let appA: string;
  let appB: string;
  let room: Json;
  let recordsA: Json[];
  let months: ReturnType<typeof monthBack>[];
  const emails: string[] = [];

  before(async () => {
    server = await startTestServer();
    server.context.noiseSource = seededUniform(1);
    read = await tokenWith(server, ['read']);
    agreementId = await activeAgreement(server);
    appA = server.sandbox.application_id;
    appB = await createApplication(server, 'Partner');
    const flowA = await createCapturableFlow(server, appA, 'Shop signup');
    const flowB = await createCapturableFlow(server, appB, 'Partner signup');
    months = [monthBack(server, 3), monthBack(server, 2), monthBack(server, 1)];
    const rowsA: Row[] = Array.from({ length: 30 }, (_, i) => ({
      email: `a${pad(i)}@example.com`,
      granted: i < 12 ? ['newsletter', 'research'] : ['newsletter'],
      captured_at: months[Math.floor(i / 10)]!.at,
    }));
    const rowsB: Row[] = [
      ...Array.from({ length: 15 }, (_, i) => ({
        email: `A${pad(i + 15)}@Example.com`,
        granted: ['newsletter'] as Row['granted'],
        captured_at: months[2]!.at,
      })),
      ...Array.from({ length: 5 }, (_, i) => ({
        email: `b${pad(i)}@example.com`,
        granted: (i < 3 ? ['newsletter', 'research'] : ['newsletter']) as Row['granted'],
        captured_at: months[2]!.at,
      })),
    ];
    emails.push(...rowsA.map((r) => r.email), ...rowsB.map((r) => r.email));
    recordsA = await importRecords(server, flowA, rowsA);
    await importRecords(server, flowB, rowsB);
  });
  after(() => server.dispose());

  const query = (roomId: string, json: unknown, status = 201, code?: string) =>
    expect(server, `/api/v1/clean_rooms/${roomId}/queries`, status, { method: 'POST', json, ...(code ? { code } : {}) });

  it('opens a room under the active agreement with two participants, homed in this cell', async () => {
    const res = await server.api('/api/v1/clean_rooms', {
      method: 'POST',
      json: { agreement_id: agreementId, participants: [appA, appB] },
    });
    assert.equal(res.status, 201, await res.clone().text());
    room = ((await res.json()) as Json).clean_room;
    assert.equal(res.headers.get('location'), `/api/v1/clean_rooms/${room.id}`);
    assert.match(room.id, /^clr_us_[A-Za-z0-9]{20}$/);
    assert.deepEqual(
      [room.agreement_id, room.participants, room.status, room.expires_at, room.ended_at, room.home_country, room.min_cohort],
      [agreementId, [appA, appB], 'active', null, null, 'US', 10],
    );
    assert.deepEqual(room.privacy_budget, { epsilon_total: 10, epsilon_spent: 0, epsilon_remaining: 10 });
    assert.deepEqual((await expect(server, `/api/v1/clean_rooms/${room.id}`, 200, { token: read })).clean_room, room);
  });

  it("refuses a room over an agreement that is not active, unknown or elsewhere, or with participants that are not the account's", async () => {
    const pending = await pendingAgreement(server, 'late@example.com');
    const refused = await expect(server, '/api/v1/clean_rooms', 409, {
      method: 'POST',
      json: { agreement_id: pending.id, participants: [appA] },
      code: 'agreement_not_active',
    });
    assert.match(refused.message, /pending/);
    await expect(server, '/api/v1/clean_rooms', 422, {
      method: 'POST',
      json: { agreement_id: 'agr_us_AAAAAAAAAAAAAAAAAAAA', participants: [appA] },
      code: 'agreement_not_found',
    });
    // This server runs no DE cell, so a DE id names nothing (another cell's is the 421: see the cells test below).
    await expect(server, '/api/v1/clean_rooms', 422, {
      method: 'POST',
      json: { agreement_id: 'agr_de_AAAAAAAAAAAAAAAAAAAA', participants: [appA] },
      code: 'agreement_not_found',
    });
    const other = otherAccount(server);
    const wrong = await expect(server, '/api/v1/clean_rooms', 422, {
      method: 'POST',
      json: { agreement_id: agreementId, participants: [appA, other.applicationId] },
      code: 'participant_not_found',
    });
    assert.equal(wrong.errors[0].path, 'participants.1');
    await expect(server, '/api/v1/clean_rooms', 422, { method: 'POST', json: { agreement_id: agreementId, participants: [] } });
    await expect(server, '/api/v1/clean_rooms', 422, { method: 'POST', json: { agreement_id: agreementId, participants: [appA, appA] } });
    await expect(server, '/api/v1/clean_rooms', 422, {
      method: 'POST',
      json: { agreement_id: agreementId, participants: [appA], expires_at: '2001-01-01T00:00:00Z' },
      code: 'expires_at_invalid',
    });
    await expect(server, '/api/v1/clean_rooms', 422, {
      method: 'POST',
      json: { agreement_id: agreementId, participants: [appA], expires_at: new Date(Date.now() + 400 * 86_400_000).toISOString() },
      code: 'expires_at_invalid',
    });
    // Another account cannot open a room over this account's agreement.
    await expect(server, '/api/v1/clean_rooms', 422, {
      method: 'POST',
      token: other.token,
      json: { agreement_id: agreementId, participants: [other.applicationId] },
      code: 'agreement_not_found',
    });
  });

  it('counts exactly without privacy_parameters: subjects, per purpose, the overlap, by month', async () => {
    const count = (await query(room.id, { computation_type: 'count', query_definition: {} })).query;
    assert.match(count.id, /^crq_us_/);
    assert.deepEqual([count.status, count.computation_type, count.clean_room_id], ['completed', 'count', room.id]);
    assert.ok(count.submitted_at && count.completed_at);
    assert.deepEqual(count.result.buckets, [{ key: 'subjects', count: 35, suppressed: false }]);
    assert.deepEqual(
      [count.result.noise, count.result.min_cohort, count.result.suppressed_buckets, count.result.home_country],
      [null, 10, 0, 'US'],
    );
    assert.deepEqual(count.result.participants, [appA, appB]);
    assert.equal(count.privacy_parameters, null);
    assert.deepEqual(count.query_definition, {});

    const onlyA = (await query(room.id, { computation_type: 'count', query_definition: { participants: [appA] } })).query;
    assert.equal(onlyA.result.buckets[0].count, 30);
    const research = (await query(room.id, { computation_type: 'count', query_definition: { purpose: 'research' } })).query;
    assert.equal(research.result.buckets[0].count, 15);

    const byPurpose = (await query(room.id, { computation_type: 'count_by_purpose', query_definition: {} })).query;
    assert.deepEqual(byPurpose.result.buckets, [
      { key: 'newsletter', count: 35, suppressed: false },
      { key: 'research', count: 15, suppressed: false },
    ]);

    const overlap = (await query(room.id, { computation_type: 'overlap', query_definition: {} })).query;
    assert.deepEqual(overlap.result.buckets, [{ key: 'overlap', count: 15, suppressed: false }]);

    const histogram = (await query(room.id, { computation_type: 'histogram', query_definition: {} })).query;
    assert.equal(histogram.result.buckets.length, 12, 'twelve months up to now by default');
    const byMonth = Object.fromEntries(histogram.result.buckets.map((b: Json) => [b.key, b.count]));
    assert.deepEqual([byMonth[months[0]!.month], byMonth[months[1]!.month], byMonth[months[2]!.month]], [10, 10, 15]);
    assert.equal(histogram.result.suppressed_buckets, 9, 'the empty months are below the minimum cohort');

    const window = (
      await query(room.id, {
        computation_type: 'histogram',
        query_definition: { from: `${months[1]!.month}-01T00:00:00Z`, to: `${months[2]!.month}-28T00:00:00Z` },
      })
    ).query;
    assert.deepEqual(
      window.result.buckets.map((b: Json) => b.key),
      [months[1]!.month, months[2]!.month],
    );
    // In the window, a subject first captured earlier is counted at their first consent within it.
    assert.deepEqual(
      window.result.buckets.map((b: Json) => b.count),
      [10, 15],
    );
  });

  it('suppresses buckets below the minimum cohort, and a query may raise it but not lower it', async () => {
    const raised = (await query(room.id, { computation_type: 'count_by_purpose', query_definition: { min_cohort: 16 } })).query;
    assert.deepEqual(raised.result.buckets, [
      { key: 'newsletter', count: 35, suppressed: false },
      { key: 'research', count: null, suppressed: true },
    ]);
    assert.equal(raised.result.suppressed_buckets, 1);
    const small = (await query(room.id, { computation_type: 'overlap', query_definition: { purpose: 'research' } })).query;
    assert.deepEqual(small.result.buckets, [{ key: 'overlap', count: null, suppressed: true }], 'an overlap of 0 is below the cohort');
    await query(room.id, { computation_type: 'count', query_definition: { min_cohort: 5 } }, 422, 'min_cohort_too_small');
  });

  it('never answers a row-level value: no email, its hash, a person, record or subject id', async () => {
    const { queries } = await expect(server, `/api/v1/clean_rooms/${room.id}/queries?limit=100`, 200);
    for (const summary of queries) {
      const { query: detail } = await expect(server, `/api/v1/clean_rooms/${room.id}/queries/${summary.id}`, 200, { token: read });
      const text = JSON.stringify(detail.result);
      assert.doesNotMatch(text, /@|prs_|cr_|ctxn_|dec_/);
      for (const email of emails) {
        assert.ok(!text.includes(email.toLowerCase()) && !text.includes(createHash('sha256').update(email.toLowerCase()).digest('hex')));
      }
      for (const bucket of detail.result.buckets) assert.match(bucket.key, /^(subjects|overlap|newsletter|research|\d{4}-\d{2})$/);
    }
  });

  it('adds geometric noise when privacy_parameters asks: each count is the truth plus one draw at the stated epsilon and sensitivity, values differ, their mean is near the truth, epsilon is spent', async () => {
    // A second source of the server's seed replays the mechanism: the noise each bucket must have got, in order.
    server.context.noiseSource = seededUniform(2024);
    const replay = seededUniform(2024);
    const noised = (key: string, truth: number, epsilon: number, sensitivity: number) => {
      const count = Math.max(0, truth + geometricNoise(Math.round(epsilon * 1000), sensitivity, replay));
      return count < 10 ? { key, count: null, suppressed: true } : { key, count, suppressed: false };
    };
    await expect(server, '/api/v1/governance', 200, { method: 'PATCH', json: { governance: { clean_room_epsilon_budget: 100 } } });
    const noisy = (
      await expect(server, '/api/v1/clean_rooms', 201, { method: 'POST', json: { agreement_id: agreementId, participants: [appA, appB] } })
    ).clean_room;
    assert.equal(noisy.privacy_budget.epsilon_total, 100);
    const values: number[] = [];
    for (let i = 0; i < 25; i += 1) {
      const { query: q } = await query(noisy.id, {
        computation_type: 'count',
        query_definition: {},
        privacy_parameters: { epsilon: 1, mechanism: 'laplace' },
      });
      assert.deepEqual(q.result.noise, { mechanism: 'geometric', epsilon: 1, sensitivity: 1, scale: 1 });
      assert.deepEqual(q.privacy_parameters, { epsilon: 1, mechanism: 'laplace' });
      assert.deepEqual(q.result.buckets, [noised('subjects', 35, 1, 1)], `query ${i + 1}`);
      values.push(q.result.buckets[0].count);
    }
    assert.ok(values.every(Number.isInteger));
    assert.ok(new Set(values).size > 1, `noisy values differ: ${values.join(', ')}`);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    assert.ok(Math.abs(mean - 35) < 1.5, `mean ${mean} is near 35`);
    const after25 = (await expect(server, `/api/v1/clean_rooms/${noisy.id}`, 200)).clean_room;
    assert.deepEqual(after25.privacy_budget, { epsilon_total: 100, epsilon_spent: 25, epsilon_remaining: 75 });

    // count_by_purpose: one subject can be in every purpose bucket, so its sensitivity is the number of buckets.
    const byPurpose = (
      await query(noisy.id, { computation_type: 'count_by_purpose', query_definition: {}, privacy_parameters: { epsilon: 2 } })
    ).query;
    assert.deepEqual(byPurpose.result.noise, { mechanism: 'geometric', epsilon: 2, sensitivity: 2, scale: 1 });
    assert.deepEqual(byPurpose.result.buckets, [noised('newsletter', 35, 2, 2), noised('research', 15, 2, 2)]);
    await query(
      noisy.id,
      { computation_type: 'count_by_purpose', query_definition: {}, privacy_parameters: { epsilon: 1, sensitivity: 1 } },
      422,
      'sensitivity_too_small',
    );
    const raised = (
      await query(noisy.id, {
        computation_type: 'count',
        query_definition: {},
        privacy_parameters: { epsilon: 0.5, sensitivity: 3, mechanism: 'geometric' },
      })
    ).query;
    assert.deepEqual(raised.result.noise, { mechanism: 'geometric', epsilon: 0.5, sensitivity: 3, scale: 6 });
    assert.deepEqual(raised.result.buckets, [noised('subjects', 35, 0.5, 3)]);
  });

  it("refuses queries once the room's epsilon budget is spent", async () => {
    await expect(server, '/api/v1/governance', 200, { method: 'PATCH', json: { governance: { clean_room_epsilon_budget: 1 } } });
    const small = (
      await expect(server, '/api/v1/clean_rooms', 201, { method: 'POST', json: { agreement_id: agreementId, participants: [appA] } })
    ).clean_room;
    await query(small.id, { computation_type: 'count', query_definition: {}, privacy_parameters: { epsilon: 0.6 } });
    const refused = await query(
      small.id,
      { computation_type: 'count', query_definition: {}, privacy_parameters: { epsilon: 0.6 } },
      409,
      'privacy_budget_exhausted',
    );
    assert.match(refused.message, /0\.4/);
    await query(small.id, { computation_type: 'count', query_definition: {}, privacy_parameters: { epsilon: 0.4 } });
    assert.equal((await expect(server, `/api/v1/clean_rooms/${small.id}`, 200)).clean_room.privacy_budget.epsilon_remaining, 0);
    // Exact queries spend nothing (the minimum cohort protects them).
    await query(small.id, { computation_type: 'count', query_definition: {} });
    await expect(server, '/api/v1/governance', 200, { method: 'PATCH', json: { governance: { clean_room_require_noise: true } } });
    await query(small.id, { computation_type: 'count', query_definition: {} }, 422, 'privacy_parameters_required');
    await expect(server, '/api/v1/governance', 200, {
      method: 'PATCH',
      json: { governance: { clean_room_require_noise: false, clean_room_epsilon_budget: 10 } },
    });
  });

  it('refuses definitions that do not fit the room or the computation', async () => {
    const three = (
      await expect(server, '/api/v1/clean_rooms', 201, {
        method: 'POST',
        json: { agreement_id: agreementId, participants: [appA, appB, await createApplication(server, 'Third')] },
      })
    ).clean_room;
    await query(three.id, { computation_type: 'overlap', query_definition: {} }, 422, 'overlap_needs_two');
    assert.equal(
      (await query(three.id, { computation_type: 'overlap', query_definition: { participants: [appA, appB] } })).query.result.buckets[0]
        .count,
      15,
    );
    await query(
      room.id,
      { computation_type: 'count', query_definition: { participants: [three.participants[2]] } },
      422,
      'participant_not_in_room',
    );
    await query(room.id, { computation_type: 'count', query_definition: { purposes: ['newsletter'] } }, 422, 'not_applicable');
    await query(
      room.id,
      { computation_type: 'histogram', query_definition: { from: '2001-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' } },
      422,
      'window_too_long',
    );
    await query(room.id, { computation_type: 'median', query_definition: {} }, 422);
    await query(room.id, { computation_type: 'count' }, 422);
    await query(room.id, { computation_type: 'count', query_definition: { sql: 'SELECT email FROM persons' } }, 422);
    await query(room.id, { computation_type: 'count', query_definition: {}, privacy_parameters: { epsilon: 0 } }, 422);
    await query(room.id, { computation_type: 'count', query_definition: {}, privacy_parameters: { epsilon: 0.0001 } }, 422);
    await query(
      room.id,
      { computation_type: 'count', query_definition: {}, privacy_parameters: { epsilon: 1, mechanism: 'gaussian' } },
      422,
    );
  });

  it('lists rooms and queries in pages', async () => {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (await expect(server, `/api/v1/clean_rooms?limit=1${cursor ? `&cursor=${cursor}` : ''}`, 200, { token: read })) as {
        clean_rooms: Json[];
        next_cursor: string | null;
      };
      ids.push(...page.clean_rooms.map((r) => r.id as string));
      cursor = page.next_cursor;
    } while (cursor);
    assert.equal(ids[0], room.id);
    assert.equal(ids.length, 4);
    const first = await expect(server, `/api/v1/clean_rooms/${room.id}/queries?limit=2`, 200);
    assert.equal(first.queries.length, 2);
    assert.deepEqual(Object.keys(first.queries[0]).sort(), [
      'clean_room_id',
      'completed_at',
      'computation_type',
      'id',
      'status',
      'submitted_at',
    ]);
    const second = await expect(server, `/api/v1/clean_rooms/${room.id}/queries?limit=2&cursor=${first.next_cursor}`, 200);
    assert.notEqual(second.queries[0].id, first.queries[1].id);
    await expect(server, `/api/v1/clean_rooms/${room.id}/queries?cursor=nope`, 400);
  });

  it('counts only consents in force: a withdrawn consent stops counting', async () => {
    const before = (await query(room.id, { computation_type: 'count', query_definition: {} })).query.result.buckets[0].count;
    const a00 = recordsA[0]!.record_id as string;
    await expect(server, `/api/v1/consent_records/${a00}/withdraw`, 200, { method: 'POST', json: {} });
    const after = (await query(room.id, { computation_type: 'count', query_definition: {} })).query.result.buckets[0].count;
    assert.equal(after, before - 1);
  });

  it('closes a room once; a closed room takes no query', async () => {
    await expect(server, `/api/v1/clean_rooms/${room.id}/close`, 403, { method: 'POST', token: read });
    const closed = (await expect(server, `/api/v1/clean_rooms/${room.id}/close`, 200, { method: 'POST' })).clean_room;
    assert.equal(closed.status, 'closed');
    assert.ok(closed.ended_at);
    const again = await expect(server, `/api/v1/clean_rooms/${room.id}/close`, 409, { method: 'POST', code: 'illegal_transition' });
    assert.match(again.message, /from closed to closed/);
    await query(room.id, { computation_type: 'count', query_definition: {} }, 409, 'clean_room_closed');
    // Its queries stay readable.
    assert.ok((await expect(server, `/api/v1/clean_rooms/${room.id}/queries`, 200)).queries.length > 0);
    assert.deepEqual(
      (await expect(server, '/api/v1/clean_rooms?status=closed', 200)).clean_rooms.map((r: Json) => r.id),
      [room.id],
    );
  });

  it('expires a room at expires_at (test clock): no query, no close', async () => {
    const expiring = (
      await expect(server, '/api/v1/clean_rooms', 201, {
        method: 'POST',
        json: {
          agreement_id: agreementId,
          participants: [appA],
          expires_at: new Date(server.context.clock.now() + 3_600_000).toISOString(),
        },
      })
    ).clean_room;
    assert.equal(expiring.status, 'active');
    await query(expiring.id, { computation_type: 'count', query_definition: {} });
    server.advance(2 * 3600);
    const read1 = (await expect(server, `/api/v1/clean_rooms/${expiring.id}`, 200)).clean_room;
    assert.deepEqual([read1.status, read1.ended_at], ['expired', expiring.expires_at]);
    await query(expiring.id, { computation_type: 'count', query_definition: {} }, 409, 'clean_room_expired');
    const refused = await expect(server, `/api/v1/clean_rooms/${expiring.id}/close`, 409, { method: 'POST', code: 'illegal_transition' });
    assert.match(refused.message, /from expired to closed/);
    assert.deepEqual(
      (await expect(server, '/api/v1/clean_rooms?status=expired', 200)).clean_rooms.map((r: Json) => r.id),
      [expiring.id],
    );
  });

  it("keeps accounts apart and refuses other credentials: another account's room is a 404; read tokens cannot write; publishable keys and people's tokens are refused", async () => {
    const other = otherAccount(server, 'rooms');
    const someQuery = (await expect(server, `/api/v1/clean_rooms/${room.id}/queries?limit=1`, 200)).queries[0].id;
    await expect(server, `/api/v1/clean_rooms/${room.id}`, 404, { token: other.token });
    await expect(server, `/api/v1/clean_rooms/${room.id}/queries`, 404, { token: other.token });
    await expect(server, `/api/v1/clean_rooms/${room.id}/queries/${someQuery}`, 404, { token: other.token });
    await expect(server, `/api/v1/clean_rooms/${room.id}/close`, 404, { method: 'POST', token: other.token });
    assert.deepEqual((await expect(server, '/api/v1/clean_rooms', 200, { token: other.token })).clean_rooms, []);
    await expect(server, `/api/v1/clean_rooms/${room.id}/queries/crq_us_AAAAAAAAAAAAAAAAAAAA`, 404);
    await expect(server, '/api/v1/clean_rooms', 403, {
      method: 'POST',
      token: read,
      json: { agreement_id: agreementId, participants: [appA] },
      code: 'insufficient_permissions',
    });
    const pk = await fetch(`${server.url}/api/v1/clean_rooms`, { headers: { 'x-publishable-key': server.sandbox.publishable_key } });
    assert.equal(pk.status, 403);
    const person = await personAccessToken(server, 'a01@example.com');
    await expect(server, '/api/v1/clean_rooms', 403, { token: person, code: 'person_token_not_allowed' });
    await expect(server, `/api/v1/clean_rooms/${room.id}/queries`, 403, {
      method: 'POST',
      token: person,
      json: { computation_type: 'count', query_definition: {} },
    });
  });
});

describe('comply: clean rooms across cells', () => {
  let cells: TestCells;
  before(async () => {
    cells = await startTestCells();
  });
  after(() => cells.dispose());

  it("a room is homed in its agreement's cell (421 elsewhere), counts that cell's records only, and governance may forbid the cell", async () => {
    const { US: us, DE: de } = cells.cells as Record<'US' | 'DE', TestServer>;
    const agreementId = await activeAgreement(us);
    const appUs = us.sandbox.application_id;
    const appDe = await createApplication(us, 'Berlin', 'DE');
    const flowDe = await createCapturableFlow(us, appDe, 'Berlin signup');
    // The DE application's records live in DE (the import is made at its home).
    const at = new Date(de.context.clock.now() - 86_400_000).toISOString();
    await importRecords(
      de,
      flowDe,
      Array.from({ length: 12 }, (_, i) => ({ email: `de${i}@example.de`, granted: ['newsletter'], captured_at: at })),
    );

    await expect(de, '/api/v1/clean_rooms', 421, {
      method: 'POST',
      json: { agreement_id: agreementId, participants: [appUs, appDe] },
      code: 'wrong_country',
    });
    const room = (
      await expect(us, '/api/v1/clean_rooms', 201, { method: 'POST', json: { agreement_id: agreementId, participants: [appUs, appDe] } })
    ).clean_room;
    assert.equal(room.home_country, 'US');
    const misdirected = await expect(de, `/api/v1/clean_rooms/${room.id}`, 421, { code: 'wrong_country' });
    assert.equal(misdirected.home_country, 'US');
    assert.equal(misdirected.clean_room, undefined);
    const q = (
      await expect(us, `/api/v1/clean_rooms/${room.id}/queries`, 201, {
        method: 'POST',
        json: { computation_type: 'count', query_definition: { participants: [appDe] } },
      })
    ).query;
    assert.deepEqual(
      q.result.buckets,
      [{ key: 'subjects', count: null, suppressed: true }],
      "the DE application's records are not in the US cell",
    );
    await expect(de, `/api/v1/clean_rooms/${room.id}/queries/${q.id}`, 421);

    await expect(de, '/api/v1/governance', 200, { method: 'PATCH', json: { governance: { allowed_countries: ['DE'] } } });
    await expect(us, '/api/v1/clean_rooms', 403, {
      method: 'POST',
      json: { agreement_id: agreementId, participants: [appUs] },
      code: 'country_not_allowed',
    });
  });
});
