// The Verify and Agree commands (`svc trust-scores`, `svc vouches`, `svc agreements vote`, `svc multi-party`,
// `svc collaborations`) through the whole command line, run() in this process, against a reference server: people
// signed in with svc login (a stored sign-in each) and the organisation's API token.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CollaborationDetail, CollaborationMembership, MultiPartyAgreement, QuorumVoteCast, TrustScore, Vouch } from '@svc/schemas';
import { runSvc, storeSignIn } from '../testing/cli.test.helper.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { EXIT } from './run.js';

describe('svc trust-scores, vouches, agreements vote, multi-party and collaborations against the reference server', () => {
  let server: TestServer;
  const homes: string[] = [];
  const people: Record<string, { home: string; id: string }> = {};

  /** Runs `svc <argv>` as `who` (a signed-in person) or, by default, with the sandbox's API token. */
  function svc(argv: string[], who?: string) {
    const home = who ? people[who]!.home : homes[0]!;
    return runSvc(
      argv,
      { SVC_BASE_URL: server.url, XDG_CONFIG_HOME: home, ...(who ? {} : { SVC_API_TOKEN: server.sandbox.api_token }) },
      home,
    );
  }
  const json = async <T>(argv: string[], who?: string): Promise<T> => {
    const result = await svc([...argv, '--json'], who);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout) as T;
  };

  before(async () => {
    server = await startTestServer();
    homes.push(mkdtempSync(join(tmpdir(), 'svc-verify-agree-')));
    for (const name of ['ada', 'bob']) {
      const home = mkdtempSync(join(tmpdir(), `svc-${name}-`));
      homes.push(home);
      await storeSignIn(server, home, `${name}@example.com`);
      people[name] = { home, id: '' };
      const me = await json<{ person: { id: string } }>(['me'], name);
      people[name]!.id = me.person.id;
    }
  });
  after(async () => {
    await server.dispose();
    for (const home of homes) rmSync(home, { recursive: true, force: true });
  });

  it('vouches as a signed-in person, shows the score with its factors, lists and revokes', async () => {
    const vouch = await json<Vouch>(['vouches', 'create', people.bob!.id, '--statement', 'Kind and punctual.'], 'ada');
    assert.equal(vouch.voucher_id, people.ada!.id);
    const human = await svc(['trust-scores', 'get', people.bob!.id]);
    assert.equal(human.code, EXIT.ok, human.stderr);
    assert.match(human.stdout, /^person\s+prs_/m);
    assert.match(human.stdout, /vouches_received\s+1\s+5\s+20\s+\+5/);
    const score = await json<TrustScore>(['trust-scores', 'get', people.bob!.id], 'bob');
    assert.equal(score.subject_type, 'person');
    const given = await json<Vouch[]>(['vouches', 'list', '--direction', 'given'], 'ada');
    assert.deepEqual(
      given.map((v) => v.id),
      [vouch.id],
    );
    assert.match((await svc(['vouches', 'list'])).stdout, new RegExp(vouch.id));
    const revoked = await json<Vouch>(['vouches', 'revoke', vouch.id], 'ada');
    assert.equal(revoked.status, 'revoked');
    const again = await svc(['vouches', 'revoke', vouch.id], 'ada');
    assert.equal(again.code, EXIT.api);
    assert.match(again.stderr, /cannot go from revoked to revoked/);
    const usage = await svc(['vouches', 'list', '--direction', 'sideways'], 'ada');
    assert.equal(usage.code, EXIT.usage);
    assert.match(usage.stderr, /--direction is one of given, received/);
  });

  it('creates a multi-party agreement from a file, and each party votes with their sign-in', async () => {
    const file = join(homes[0]!, 'terms.txt');
    writeFileSync(file, 'The shared garden is tended in turns.\n');
    const created = await svc([
      'multi-party',
      'create',
      '--title',
      'Garden',
      '--document',
      file,
      '--parties',
      'ada@example.com:us,bob@example.com:US',
      '--quorum',
      '2',
    ]);
    assert.equal(created.code, EXIT.ok, created.stderr);
    assert.match(created.stdout, /Signing pages/);
    const id = /agreement\s+Garden \((agr_[^)]+)\)/.exec(created.stdout)![1]!;
    const first = await json<QuorumVoteCast>(['agreements', 'vote', id, '--vote', 'approve', '--comment', 'Happy to.'], 'ada');
    assert.equal(first.agreement.status, 'partially_signed');
    const second = await svc(['agreements', 'vote', id, '--vote', 'approve'], 'bob');
    assert.equal(second.code, EXIT.ok, second.stderr);
    assert.match(second.stdout, /active, quorum reached/);
    const read = await json<MultiPartyAgreement>(['multi-party', 'get', id]);
    assert.equal(read.signed_count, 2);
    assert.deepEqual(
      (await json<MultiPartyAgreement[]>(['multi-party', 'list', '--status', 'active'])).map((a) => a.id),
      [id],
    );
    assert.equal((await svc(['agreements', 'vote', id], 'ada')).code, EXIT.usage);
    assert.equal(
      (await svc(['multi-party', 'create', '--title', 'x', '--document', file, '--parties', 'a@x.com:US', '--quorum', '2'])).code,
      EXIT.usage,
    );
  });

  it('makes a collaboration as its initiator, signs it as each member, and dissolves it', async () => {
    const c = await json<CollaborationDetail>(
      ['collaborations', 'create', '--participants', people.bob!.id, '--terms', '{"purpose":"tools"}'],
      'ada',
    );
    assert.equal(c.initiator_id, people.ada!.id);
    for (const name of ['ada', 'bob']) {
      const membership = c.memberships.find((m) => m.user_id === people[name]!.id)!;
      const signed = await json<CollaborationMembership>(['collaborations', 'sign', c.id, membership.id, '--shares', 'calendar'], name);
      assert.equal(signed.status, 'signed');
    }
    const shown = await svc(['collaborations', 'get', c.id]);
    assert.match(shown.stdout, /status\s+active/);
    assert.match(shown.stdout, /members\s+2 \(2 signed\)/);
    assert.deepEqual(
      (await json<{ id: string }[]>(['collaborations', 'list'], 'bob')).map((x) => x.id),
      [c.id],
    );
    const late = await svc(['collaborations', 'add', c.id, people.bob!.id]);
    assert.equal(late.code, EXIT.api);
    assert.equal((await svc(['collaborations', 'add', c.id, people.bob!.id, '--role', 'owner'])).code, EXIT.usage);
    assert.equal((await svc(['collaborations', 'create', '--terms', '[1]'])).code, EXIT.usage);
    assert.equal((await json<CollaborationDetail>(['collaborations', 'dissolve', c.id], 'ada')).status, 'dissolved');
  });

  it('groups the commands under Verify and Agree in svc --help', async () => {
    const help = await svc(['--help']);
    assert.match(help.stdout, /Verify\s+.*trust-scores\s+vouches/);
    assert.match(help.stdout, /Agree\s+agreements\s+multi-party\s+collaborations/);
    const topic = await svc(['collaborations', '--help']);
    assert.match(topic.stdout, /collaborations sign <id> <membership_id>/);
  });
});
