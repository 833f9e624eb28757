// The `svc modules …`, `svc governance …`, `svc clean-rooms …` and `svc meetings …` commands, run in this process
// (run()) against a reference server with the sandbox's admin API token; usage errors exit 2 before anything is sent,
// refusals exit 1.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CleanRoom, CleanRoomQuery, Governance, MeetingConsent, ProductModule } from '@svc/schemas';
import { runSvc } from '../testing/cli.test.helper.js';
import { signAsParty } from '../testing/participant.test.helper.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { EXIT } from './run.js';

describe('svc comply commands against the reference server', () => {
  let server: TestServer;
  let home: string;

  function svc(argv: string[]) {
    return runSvc(argv, { SVC_BASE_URL: server.url, SVC_API_TOKEN: server.sandbox.api_token, XDG_CONFIG_HOME: home }, home);
  }
  const json = async <T>(argv: string[]): Promise<T> => {
    const result = await svc([...argv, '--json']);
    assert.equal(result.code, EXIT.ok, result.stderr);
    return JSON.parse(result.stdout) as T;
  };

  before(async () => {
    server = await startTestServer();
    home = mkdtempSync(join(tmpdir(), 'svc-comply-'));
  });
  after(async () => {
    rmSync(home, { recursive: true, force: true });
    await server.dispose();
  });

  it('lists, disables and enables modules', async () => {
    const listed = await svc(['modules', 'list']);
    assert.equal(listed.code, EXIT.ok, listed.stderr);
    assert.match(listed.stdout, /^KEY\s+ENABLED/);
    assert.match(listed.stdout, /comply\s+yes/);
    assert.equal((await json<ProductModule>(['modules', 'disable', 'protect'])).enabled, false);
    assert.match((await svc(['modules', 'enable', 'protect'])).stdout, /Protect is enabled/);
    const wrong = await svc(['modules', 'enable', 'billing']);
    assert.equal(wrong.code, EXIT.usage);
    assert.match(wrong.stderr, /one of connect, verify/);
  });

  it('shows and sets governance, and lists its changes', async () => {
    assert.match((await svc(['governance', 'show'])).stdout, /dsar due days\s+30/);
    const set = await json<Governance>([
      'governance',
      'set',
      '--dsar-due-days',
      '21',
      '--min-cohort',
      '5',
      '--require-noise',
      'no',
      '--allowed-countries',
      'us',
      '--retention-days',
      '400',
    ]);
    assert.deepEqual(
      [set.dsar_due_days, set.clean_room_min_cohort, set.allowed_countries, set.default_retention_days],
      [21, 5, ['US'], 400],
    );
    const cleared = await json<Governance>(['governance', 'set', '--allowed-countries', 'all', '--retention-days', 'none']);
    assert.deepEqual([cleared.allowed_countries, cleared.default_retention_days], [null, null]);
    const changes = await svc(['governance', 'changes']);
    assert.match(changes.stdout, /governance\.updated/);
    assert.match(changes.stdout, /dsar_due_days 30 -> 21/);
    assert.equal((await svc(['governance', 'set'])).code, EXIT.usage);
    assert.equal((await svc(['governance', 'set', '--dsar-due-days', 'soon'])).code, EXIT.usage);
    const refused = await svc(['governance', 'set', '--dsar-due-days', '0']);
    assert.equal(refused.code, EXIT.api);
    assert.match(refused.stderr, /dsar_due_days/);
  });

  it('creates a meeting consent, lists, shows and cancels it', async () => {
    const m = await json<MeetingConsent>(['meetings', 'create', '--title', 'Review', '--duration', '30', '--platform', 'teams']);
    assert.deepEqual([m.title, m.duration_minutes, m.platform, m.status], ['Review', 30, 'teams', 'in_progress']);
    assert.match((await svc(['meetings', 'list', '--status', 'in_progress'])).stdout, new RegExp(m.id));
    assert.match((await svc(['meetings', 'show', m.id])).stdout, /ends\s+\S+ \(30 min\)/);
    assert.equal((await json<MeetingConsent>(['meetings', 'cancel', m.id])).status, 'cancelled');
    const again = await svc(['meetings', 'cancel', m.id]);
    assert.equal(again.code, EXIT.api);
    assert.match(again.stderr, /cannot go from cancelled to cancelled/);
    assert.equal((await svc(['meetings', 'create', '--duration', 'an hour'])).code, EXIT.usage);
  });

  it('opens a clean room, runs queries, lists them, shows a result and closes the room', async () => {
    const text = 'Terms.\n';
    const created = await server.api('/api/v1/agreements', {
      method: 'POST',
      json: {
        agreement: {
          title: 'Terms',
          document: { text, sha256: createHash('sha256').update(text).digest('hex') },
          quorum: 1,
          parties: [{ email: 'x@example.com', home_country: 'US' }],
        },
      },
    });
    const agreement = ((await created.json()) as { agreement: { id: string; party_details: { session_token: string }[] } }).agreement;
    await signAsParty(server.url, agreement.party_details[0]!.session_token, 'X');

    const room = await json<CleanRoom>([
      'clean-rooms',
      'create',
      '--agreement',
      agreement.id,
      '--participants',
      server.sandbox.application_id,
    ]);
    assert.equal(room.status, 'active');
    assert.match((await svc(['clean-rooms', 'list'])).stdout, new RegExp(room.id));
    assert.match((await svc(['clean-rooms', 'show', room.id])).stdout, /epsilon\s+0 of 10 spent/);
    const exact = await svc(['clean-rooms', 'query', room.id, '--type', 'count']);
    assert.equal(exact.code, EXIT.ok, exact.stderr);
    assert.match(exact.stdout, /noise\s+none \(exact counts\)/);
    assert.match(exact.stdout, /subjects\s+suppressed/);
    const noisy = await json<CleanRoomQuery>(['clean-rooms', 'query', room.id, '--type', 'histogram', '--epsilon', '0.5']);
    assert.equal(noisy.result?.noise?.epsilon, 0.5);
    assert.match((await svc(['clean-rooms', 'queries', room.id])).stdout, /histogram/);
    assert.match((await svc(['clean-rooms', 'result', room.id, noisy.id])).stdout, /geometric, epsilon 0\.5, sensitivity 1/);
    assert.equal((await svc(['clean-rooms', 'query', room.id])).code, EXIT.usage);
    assert.equal((await svc(['clean-rooms', 'query', room.id, '--type', 'rows'])).code, EXIT.usage);
    assert.equal((await svc(['clean-rooms', 'query', room.id, '--type', 'count', '--sensitivity', '2'])).code, EXIT.usage);
    assert.equal((await svc(['clean-rooms', 'create', '--agreement', agreement.id])).code, EXIT.usage);
    assert.equal((await json<CleanRoom>(['clean-rooms', 'close', room.id])).status, 'closed');
    const closed = await svc(['clean-rooms', 'query', room.id, '--type', 'count']);
    assert.equal(closed.code, EXIT.api);
    assert.match(closed.stderr, /closed/);
  });

  it('groups the commands under Comply in svc --help', async () => {
    const help = await svc(['--help']);
    assert.match(help.stdout, /Comply\s+.*modules\s+governance\s+clean-rooms\s+meetings/);
    const topic = await svc(['clean-rooms', '--help']);
    assert.match(topic.stdout, /clean-rooms query <id>/);
  });
});
