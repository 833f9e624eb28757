// `svc records list` against a real reference server: a page as a table with the next page's command on stderr (which
// runs as printed), every page with --all, the page itself under --json, each filter, and the mistakes it refuses.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ConsentRecord } from '@svc/schemas';
import { createClient, type SvcClient } from '../lib/client.js';
import { runSvc } from '../testing/cli.test.helper.js';
import { createRecordFlow, grantAll } from '../testing/records.test.helper.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';

type Page = { consent_records: ConsentRecord[]; next_cursor: string | null };

const scratch = mkdtempSync(join(tmpdir(), 'svc-records-list-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe('svc records list', () => {
  let server: TestServer;
  let client: SvcClient;
  let env: Record<string, string>;
  let flow: string;
  let otherFlow: string;
  /** Records in the order they were made, oldest first. */
  const made: ConsentRecord[] = [];
  const newestFirst = () => made.map((r) => r.id).reverse();
  const svc = (...argv: string[]) => runSvc(['records', 'list', ...argv], env, scratch);
  /** Runs with --json; asserts exit 0 and answers the page. */
  const page = async (...argv: string[]): Promise<Page> => {
    const { code, stdout, stderr } = await svc(...argv, '--json');
    assert.equal(code, 0, stderr);
    return JSON.parse(stdout) as Page;
  };
  const ids = (p: Page) => p.consent_records.map((r) => r.id);

  before(async () => {
    server = await startTestServer();
    env = { SVC_DATA_DIR: server.dataDir };
    client = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
    flow = await createRecordFlow(client, 'Listed signup');
    otherFlow = await createRecordFlow(client, 'Other signup');
    const day = 86_400_000;
    const rows: [string, string, string | undefined, number][] = [
      [flow, 'ada@example.com', 'crm-ada', 40],
      [flow, 'bob@example.com', undefined, 20],
      [otherFlow, 'ada@example.com', 'crm-ada', 10],
      [flow, "o'hara@example.com", undefined, 5],
      [flow, 'cy@example.com', 'crm-cy', 1],
    ];
    for (const [flowId, email, external_id, daysAgo] of rows) {
      const captured_at = new Date(Date.now() - daysAgo * day).toISOString();
      made.push(await client.consentRecords.create({ flow_id: flowId, subject: { email, external_id }, decisions: grantAll, captured_at }));
    }
    await client.consentRecords.withdraw(made[1]!.id);
  });
  after(() => server.dispose());

  it('prints a page as a table, newest first, and on stderr the command of the next page, which runs as printed', async () => {
    const { code, stdout, stderr } = await svc('--limit', '2');
    assert.equal(code, 0, stderr);
    const lines = stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^ID\s+STATUS\s+FLOW\s+SUBJECT\s+PURPOSES\s+CAPTURED$/);
    assert.deepEqual(
      lines.slice(1).map((l) => l.split(/\s+/)[0]),
      newestFirst().slice(0, 2),
    );
    assert.match(lines[1]!, /cy@example\.com \(crm-cy\)\s+newsletter granted; research granted; analytics noticed; service noticed/);
    const more = /^more: (svc records list --limit 2 --cursor (\S+))  \(or --all for every page\)\ncountry: US\n$/.exec(stderr);
    assert.ok(more, stderr);
    const second = await runSvc(more[1]!.split(' ').slice(1), env, scratch);
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(
      second.stdout
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((l) => l.split(/\s+/)[0]),
      newestFirst().slice(2, 4),
    );
  });

  it('repeats the filters and page size in the next page command, and prints none after the last page', async () => {
    const { stderr } = await svc('--flow', flow, '--email', "O'Hara@example.com", '--limit', '1', '--since', '2000-01-01');
    assert.equal(stderr, 'country: US\n', 'one record: no next page');
    const two = await svc('--flow', flow, '--status', 'fulfilled', '--limit', '1');
    assert.match(two.stderr, new RegExp(`^more: svc records list --flow ${flow} --status fulfilled --limit 1 --cursor \\S+  \\(or --all`));
    const none = await svc('--purpose', 'newsletter', '--external-id', 'crm-nobody');
    assert.equal(none.code, 0, none.stderr);
    assert.equal(none.stdout, 'No consent records.\n');
  });

  it('prints {consent_records, next_cursor} under --json, and walks every page with --all', async () => {
    const first = await page('--limit', '3');
    assert.deepEqual(ids(first), newestFirst().slice(0, 3));
    assert.equal(typeof first.next_cursor, 'string');
    const rest = await page('--limit', '3', '--cursor', first.next_cursor!);
    assert.deepEqual(ids(rest), newestFirst().slice(3));
    assert.equal(rest.next_cursor, null);
    const all = await page('--all', '--limit', '2');
    assert.deepEqual(ids(all), newestFirst());
    assert.equal(all.next_cursor, null);
    assert.deepEqual(all.consent_records[0], await client.consentRecords.get(made[4]!.id));
    const { stdout, stderr } = await svc('--all');
    assert.equal(stdout.trimEnd().split('\n').length, 1 + made.length);
    assert.equal(stderr, 'country: US\n');
  });

  it('filters by flow, status, purpose, email, external id and since (a date is midnight UTC)', async () => {
    const [ada1, bob, ada2, ohara, cy] = made.map((r) => r.id);
    const cases: [string[], string[]][] = [
      [['--flow', otherFlow], [ada2!]],
      [['--status', 'revoked'], [bob!]],
      [
        ['--status', 'fulfilled', '--flow', flow],
        [cy!, ohara!, ada1!],
      ],
      [
        ['--email', 'ADA@example.com'],
        [ada2!, ada1!],
      ],
      [['--external-id', 'crm-ada', '--flow', flow], [ada1!]],
      [
        ['--since', new Date(Date.now() - 15 * 86_400_000).toISOString().slice(0, 10)],
        [cy!, ohara!, ada2!],
      ],
      [
        ['--since', made[3]!.captured_at!],
        [cy!, ohara!],
      ],
      [['--purpose', 'research', '--status', 'expired'], []],
      [['--purpose', 'no-such-purpose'], []],
    ];
    for (const [argv, expected] of cases) {
      const listed = ids(await page(...argv, '--all'));
      assert.deepEqual(
        listed.filter((id) => made.some((r) => r.id === id)),
        expected,
        argv.join(' '),
      );
    }
  });

  it('refuses a bad flag before asking the service (exit 2), and says what the service refused (exit 1)', async () => {
    const usage: [string[], string][] = [
      [['--status', 'partial'], '--status is one of fulfilled, revoked, expired'],
      [['--limit', '0'], '--limit must be a whole number from 1 to 100'],
      [['--limit', '101'], '--limit must be a whole number from 1 to 100'],
      [['--limit', 'all'], '--limit must be a whole number from 1 to 100'],
      [['--emial', 'a@example.com'], "Unknown option '--emial'; did you mean --email? usage: svc records list [--flow <id>]"],
    ];
    for (const [argv, message] of usage) {
      const { code, stdout, stderr } = await svc(...argv);
      assert.equal(code, 2, argv.join(' '));
      assert.ok(stderr.startsWith(`svc: ${message}`), `${argv.join(' ')}: ${stderr}`);
      assert.equal(stdout, '');
    }
    const since = await svc('--since', 'yesterday');
    assert.equal(since.code, 1);
    assert.match(since.stderr, /^svc: .*captured_since/);
    const cursor = await svc('--cursor', 'not-a-cursor', '--json');
    assert.equal(cursor.code, 1);
    const { error } = JSON.parse(cursor.stderr.split('\n')[0]!) as { error: { status: number; reason: string; message: string } };
    assert.equal(error.status, 400);
    assert.equal(error.reason, 'invalid_cursor');
    assert.match(error.message, /pass next_cursor unchanged/);
  });

  // Last: it records once more.
  it('quotes a filter for the shell in the next page command, which then runs as printed', async () => {
    await client.consentRecords.create({ flow_id: otherFlow, subject: { email: "o'hara@example.com" }, decisions: grantAll });
    const { stderr } = await svc('--email', "o'hara@example.com", '--limit', '1');
    const more = /^more: svc records list --email 'o'\\''hara@example\.com' --limit 1 --cursor (\S+)  /.exec(stderr);
    assert.ok(more, stderr);
    const next = await page('--email', "o'hara@example.com", '--limit', '1', '--cursor', more[1]!);
    assert.deepEqual(ids(next), [made[3]!.id]);
  });

  it('is listed by svc records --help', async () => {
    const { code, stdout } = await runSvc(['records', '--help'], env, scratch);
    assert.equal(code, 0);
    assert.match(
      stdout,
      /^ {2}records list \[--flow <id>\] \[--status fulfilled\|revoked\|expired\] .*--all\]\n {40}List the account's consent records/m,
    );
    const own = await svc('--help');
    assert.match(own.stdout, /^Usage: svc records list .*\n\nList the account's consent records in this country's cell, newest first/);
  });
});
