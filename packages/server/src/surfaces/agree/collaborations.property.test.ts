// A property test over collaborations, against a real server: random sequences of member additions, signatures,
// revocations (by the member or the organisation) and dissolutions. After every step the server agrees with a small
// reference model of the rules on the answer's status and on the collaboration's status, and member_count and
// signed_count equal the membership rows; no status ever moves backwards and nothing answers 5xx.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { collaborationEnvelope, type CollaborationDetail, type CollaborationStatus } from '@svc/schemas';
import { call, signIn, type Person } from '../../authority/delegations/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';

type Command = { op: 'add'; who: number } | { op: 'sign'; who: number } | { op: 'revoke'; who: number; self: boolean } | { op: 'dissolve' };

interface Model {
  status: CollaborationStatus;
  memberships: { who: number; status: 'pending' | 'signed' | 'revoked' }[];
}

const PEOPLE = 4;
const who = fc.integer({ min: 0, max: PEOPLE - 1 });
const command: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('add' as const), who }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('sign' as const), who }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constant('revoke' as const), who, self: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('dissolve' as const) }), weight: 1 },
);

/** The rules, as the model applies them after every change. */
function settle(model: Model): void {
  const current = model.memberships.filter((m) => m.status !== 'revoked');
  const signed = current.filter((m) => m.status === 'signed');
  if (model.status === 'pending' && current.length >= 2 && signed.length === current.length) model.status = 'active';
  else if (model.status === 'active' && current.length < 2) model.status = 'dissolved';
}

/** What the model expects a command to answer (undefined: the command names no membership and is not sent). */
function expect(model: Model, cmd: Command): number | undefined {
  const latest = 'who' in cmd ? model.memberships.findLast((m) => m.who === cmd.who) : undefined;
  switch (cmd.op) {
    case 'add':
      if (model.status !== 'pending' || model.memberships.some((m) => m.who === cmd.who && m.status !== 'revoked')) return 409;
      model.memberships.push({ who: cmd.who, status: 'pending' });
      return 201;
    case 'sign':
      if (!latest) return undefined;
      if (model.status === 'dissolved' || latest.status !== 'pending') return 409;
      latest.status = 'signed';
      return 200;
    case 'revoke':
      if (!latest) return undefined;
      if (model.status === 'dissolved' || latest.status === 'revoked') return 409;
      latest.status = 'revoked';
      return 200;
    case 'dissolve':
      if (model.status === 'dissolved') return 409;
      model.status = 'dissolved';
      return 200;
  }
}

const ORDER: Record<CollaborationStatus, number> = { pending: 0, active: 1, dissolved: 2 };

describe('collaborations: member_count and signed_count stay true to the rows under random sequences', () => {
  let server: TestServer;
  let people: Person[];
  before(async () => {
    server = await startTestServer();
    people = [];
    for (let i = 0; i < PEOPLE; i += 1) people.push(await signIn(server, `p${i}@example.com`));
  });
  after(() => server.dispose());

  it('agrees with the model after every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(who, { maxLength: PEOPLE }), fc.array(command, { maxLength: 14 }), async (initial, commands) => {
        const made = await call(server, '/api/v1/collaborations', { json: { participant_ids: initial.map((i) => people[i]!.id) } });
        assert.equal(made.status, 201, JSON.stringify(made.body));
        let current: CollaborationDetail = collaborationEnvelope.parse(made.body).collaboration;
        const model: Model = { status: 'pending', memberships: initial.map((i) => ({ who: i, status: 'pending' as const })) };
        const base = `/api/v1/collaborations/${current.id}`;
        for (const cmd of commands) {
          const membership = 'who' in cmd ? current.memberships.findLast((m) => m.user_id === people[cmd.who]!.id) : undefined;
          const expected = expect(model, cmd);
          if (expected === undefined) continue;
          const res =
            cmd.op === 'add'
              ? await call(server, `${base}/memberships`, { json: { user_id: people[cmd.who]!.id } })
              : cmd.op === 'sign'
                ? await call(server, `${base}/memberships/${membership!.id}/sign`, { method: 'POST', token: people[cmd.who]!.token })
                : cmd.op === 'revoke'
                  ? await call(server, `${base}/memberships/${membership!.id}/revoke`, {
                      method: 'POST',
                      ...(cmd.self ? { token: people[cmd.who]!.token } : {}),
                    })
                  : await call(server, `${base}/dissolve`, { method: 'POST' });
          assert.ok(res.status < 500, JSON.stringify(res.body));
          assert.equal(res.status, expected, `${JSON.stringify(cmd)}: ${JSON.stringify(res.body)}`);
          if (res.status >= 400) assert.ok(res.body.message, 'a refusal says why');
          if (res.status === 409) assert.match(res.body.code, /^(illegal_transition|already_member)$/);
          settle(model);

          const read = await call(server, base);
          const next = collaborationEnvelope.parse(read.body).collaboration;
          assert.equal(
            next.member_count,
            next.memberships.filter((m) => m.status !== 'revoked').length,
            'member_count is the current rows',
          );
          assert.equal(next.signed_count, next.memberships.filter((m) => m.status === 'signed').length, 'signed_count is the signed rows');
          assert.equal(next.status, model.status, `status after ${JSON.stringify(cmd)}`);
          assert.deepEqual(
            next.memberships.map((m) => m.status),
            model.memberships.map((m) => m.status),
          );
          assert.ok(ORDER[next.status] >= ORDER[current.status], `never back from ${current.status} to ${next.status}`);
          if (next.status === 'active') assert.ok(next.member_count >= 2 && next.signed_count === next.member_count);
          current = next;
        }
        // The list answers the same counts as the detail.
        const listed = (await call(server, `/api/v1/collaborations?status=${current.status}&limit=100`)).body.collaborations as {
          id: string;
          member_count: number;
          signed_count: number;
        }[];
        const row = listed.find((c) => c.id === current.id);
        if (row) assert.deepEqual([row.member_count, row.signed_count], [current.member_count, current.signed_count]);
      }),
      { numRuns: 40 },
    );
  });
});
