// `GET /api/v1/consent_records`: the account's records of the cell, most recently recorded first, filtered and paged
// with an opaque cursor that neither skips nor repeats a record when others are recorded between pages.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ConsentRecord } from '@svc/schemas';
import { otherAccount } from '../../surfaces/protect/test-support.js';
import { startTestCells, startTestServer, type TestCells, type TestServer } from '../../testing.js';
import { createActiveFlow, createRecord, grantAll, recordFlowConfig } from './test-support.js';

type Page = { consent_records: ConsentRecord[]; next_cursor: string | null };
type ErrorBody = { message: string; code?: string };

const DAY = 86_400_000;

/** GETs the list with `query`; asserts a 200 and answers the page. */
async function list(server: TestServer, query: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<Page> {
  const res = await server.api(`/api/v1/consent_records?${new URLSearchParams(query)}`, { headers });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as Page;
}

/** Every record across pages of `limit`, checking that no id comes twice. */
async function listAll(server: TestServer, query: Record<string, string> = {}, limit = 2): Promise<ConsentRecord[]> {
  const all: ConsentRecord[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const page: Page = await list(server, { ...query, limit: String(limit), ...(cursor ? { cursor } : {}) });
    assert.ok(page.consent_records.length <= limit);
    all.push(...page.consent_records);
    cursor = page.next_cursor;
    if (cursor === null) break;
  }
  assert.equal(cursor, null, 'the list ends');
  assert.equal(new Set(all.map((r) => r.id)).size, all.length, 'no record twice');
  return all;
}

const ids = (records: { id: string }[]) => records.map((r) => r.id);

describe('GET /api/v1/consent_records', () => {
  let server: TestServer;
  let flowA: string;
  let flowB: string;
  /** Records in the order they were made (oldest first). */
  const made: ConsentRecord[] = [];
  const iso = (daysAgo: number) => new Date(server.context.clock.now() - daysAgo * DAY).toISOString();

  before(async () => {
    server = await startTestServer();
    flowA = await createActiveFlow(server);
    flowB = await createActiveFlow(server, undefined, 'Second flow');
    const make = async (body: Record<string, unknown>) => made.push(await createRecord(server, { decisions: grantAll, ...body }));
    await make({ flow_id: flowA, subject: { email: 'ada@example.com', external_id: 'crm-ada' }, captured_at: iso(10) });
    await make({ flow_id: flowA, subject: { email: 'bob@example.com' }, captured_at: iso(5) });
    await make({ flow_id: flowB, subject: { email: 'Ada@Example.com', external_id: 'crm-ada' }, captured_at: iso(1) });
    // Captured two years ago under a one-year term: expired at once.
    await make({ flow_id: flowB, subject: { email: 'cy@example.com', external_id: 'crm-cy' }, captured_at: iso(730) });
    await make({ flow_id: flowA, subject: { email: 'dee@example.com' }, decisions: { ...grantAll, research: { decision: 'declined' } } });
    // Every granted consent withdrawn: revoked.
    const withdrawn = await server.api(`/api/v1/consent_records/${made[1]!.id}/withdraw`, { method: 'POST', json: {} });
    assert.equal(withdrawn.status, 200, await withdrawn.clone().text());
  });
  after(() => server.dispose());

  it('answers {consent_records, next_cursor}, most recently recorded first, each record as GET /{id} reads it', async () => {
    const page = await list(server);
    assert.deepEqual(Object.keys(page).sort(), ['consent_records', 'next_cursor']);
    assert.deepEqual(ids(page.consent_records), ids(made).reverse());
    assert.equal(page.next_cursor, null);
    for (const record of page.consent_records) {
      const one = (await (await server.api(`/api/v1/consent_records/${record.id}`)).json()) as { consent_record: ConsentRecord };
      assert.deepEqual(record, one.consent_record);
    }
  });

  it('pages with limit and an opaque cursor that neither skips nor repeats when records are made between pages', async () => {
    const first = await list(server, { limit: '2' });
    assert.deepEqual(ids(first.consent_records), ids(made).reverse().slice(0, 2));
    assert.ok(first.next_cursor && !first.next_cursor.includes(made[3]!.id), 'the cursor is opaque');
    const later = await createRecord(server, { flow_id: flowA, subject: { email: 'late@example.com' }, decisions: grantAll });
    const rest: ConsentRecord[] = [];
    let cursor: string | null = first.next_cursor;
    while (cursor) {
      const page: Page = await list(server, { limit: '2', cursor });
      rest.push(...page.consent_records);
      cursor = page.next_cursor;
    }
    assert.deepEqual(ids(rest), ids(made).reverse().slice(2), 'the later record is on no later page');
    assert.equal((await list(server, { limit: '1' })).consent_records[0]!.id, later.id, 'and it leads a fresh listing');
    made.push(later);
    assert.deepEqual(ids(await listAll(server, {}, 100)), ids(made).reverse());
  });

  it('filters by flow, purpose, subject email (any case) and external id, and captured_since', async () => {
    const [ada1, bob, ada2, cy, dee, late] = made;
    const cases: [Record<string, string>, ConsentRecord[]][] = [
      [{ flow_id: flowB }, [cy!, ada2!]],
      [{ flow_id: flowA, 'subject[email]': 'ADA@example.com' }, [ada1!]],
      [{ 'subject[email]': 'ada@example.com' }, [ada2!, ada1!]],
      [{ 'subject[email]': 'nobody@example.com' }, []],
      [{ 'subject[external_id]': 'crm-ada' }, [ada2!, ada1!]],
      [{ 'subject[external_id]': 'crm-cy', flow_id: flowA }, []],
      [{ captured_since: iso(6) }, [late!, dee!, ada2!, bob!]],
      // The bound is inclusive, and may name its offset: ada2's own instant, written in +01:00.
      [{ captured_since: new Date(Date.parse(ada2!.captured_at!) + 3_600_000).toISOString().replace('Z', '+01:00') }, [late!, dee!, ada2!]],
      [{ purpose: 'research' }, [late!, dee!, cy!, ada2!, bob!, ada1!]],
      [{ purpose: 'no-such-purpose' }, []],
      [{ flow_id: 'flw_dev_AAAAAAAAAAAAAAAA' }, []],
    ];
    for (const [query, expected] of cases) {
      assert.deepEqual(ids(await listAll(server, query)), ids(expected), JSON.stringify(query));
    }
  });

  it('filters by status as each record reads (fulfilled, revoked, expired), and the three make up the whole list', async () => {
    const [ada1, bob, ada2, cy, dee, late] = made;
    const byStatus = {
      fulfilled: await listAll(server, { status: 'fulfilled' }),
      revoked: await listAll(server, { status: 'revoked' }),
      expired: await listAll(server, { status: 'expired' }),
    };
    assert.deepEqual(ids(byStatus.revoked), [bob!.id]);
    assert.deepEqual(ids(byStatus.expired), [cy!.id]);
    assert.deepEqual(ids(byStatus.fulfilled), ids([late!, dee!, ada2!, ada1!]));
    for (const [status, records] of Object.entries(byStatus)) for (const r of records) assert.equal(r.status, status);
    // A withdrawal of one of two granted consents leaves the record fulfilled; of the other, revoked.
    const partly = await server.api(`/api/v1/consent_records/${ada1!.id}/withdraw`, { method: 'POST', json: { purposes: ['newsletter'] } });
    assert.equal(partly.status, 200);
    assert.ok(ids(await listAll(server, { status: 'fulfilled' })).includes(ada1!.id));
    await server.api(`/api/v1/consent_records/${ada1!.id}/withdraw`, { method: 'POST', json: { purposes: ['research'] } });
    assert.deepEqual(ids(await listAll(server, { status: 'revoked' })), ids([bob!, ada1!]));
    // Objecting to the legitimate interest revokes no consent.
    await server.api(`/api/v1/consent_records/${dee!.id}/withdraw`, { method: 'POST', json: { purposes: ['analytics'] } });
    assert.ok(ids(await listAll(server, { status: 'fulfilled' })).includes(dee!.id));
  });

  it("shows another account nothing of this account's, whatever it filters by or whichever cursor it passes", async () => {
    const other = otherAccount(server);
    const theirs = { authorization: `Bearer ${other.token}` };
    assert.deepEqual(await list(server, {}, theirs), { consent_records: [], next_cursor: null });
    const ada = { 'subject[email]': 'ada@example.com' };
    assert.deepEqual((await list(server, ada, theirs)).consent_records, []);
    assert.deepEqual((await list(server, { flow_id: flowA }, theirs)).consent_records, []);
    const ourCursor = (await list(server, { limit: '1' })).next_cursor!;
    assert.deepEqual((await list(server, { cursor: ourCursor }, theirs)).consent_records, []);
    // Their own record is theirs alone.
    const flowRes = await server.api('/api/v1/flows', {
      method: 'POST',
      headers: theirs,
      json: { flow: { pattern: 'standard', title: 'Theirs', config: recordFlowConfig } },
    });
    assert.equal(flowRes.status, 201, await flowRes.clone().text());
    const theirFlow = ((await flowRes.json()) as { flow: { id: string } }).flow.id;
    assert.equal((await server.api(`/api/v1/flows/${theirFlow}/activate`, { method: 'POST', headers: theirs })).status, 200);
    const res = await server.api('/api/v1/consent_records', {
      method: 'POST',
      headers: theirs,
      json: { flow_id: theirFlow, subject: { email: 'ada@example.com' }, decisions: grantAll },
    });
    assert.equal(res.status, 201, await res.clone().text());
    const theirRecord = ((await res.json()) as { consent_record: ConsentRecord }).consent_record;
    assert.deepEqual(ids((await list(server, ada, theirs)).consent_records), [theirRecord.id]);
    assert.ok(!ids(await listAll(server, {}, 100)).includes(theirRecord.id));
    assert.ok(!ids(await listAll(server, ada)).includes(theirRecord.id));
  });

  it('takes a read token; refuses a publishable key (403) and no credentials (401)', async () => {
    const tokenRes = await server.api('/api/v1/api_tokens', {
      method: 'POST',
      json: { api_token: { name: 'reader', permissions: ['read'] } },
    });
    const reader = ((await tokenRes.json()) as { api_token: { token: string } }).api_token.token;
    assert.equal((await list(server, {}, { authorization: `Bearer ${reader}` })).consent_records.length, made.length);
    const publishable = await fetch(`${server.url}/api/v1/consent_records`, {
      headers: { 'x-publishable-key': server.sandbox.publishable_key },
    });
    assert.equal(publishable.status, 403);
    const body = (await publishable.json()) as ErrorBody & { consent_records?: unknown };
    assert.equal(typeof body.message, 'string');
    assert.equal(body.consent_records, undefined);
    assert.equal((await fetch(`${server.url}/api/v1/consent_records`)).status, 401);
  });

  it("reads the account's records through its index, newest first, without a sort or a scan of other accounts'", () => {
    const plan = (sql: string) =>
      (server.context.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('acct', 1, 20) as { detail: string }[]).map((r) => r.detail).join(' | ');
    const detail = plan('SELECT r.* FROM consent_records r WHERE r.account_id = ? AND r.seq < ? ORDER BY r.seq DESC LIMIT ?');
    assert.match(detail, /SEARCH r USING INDEX consent_records_account \(account_id=\? AND seq<\?\)/);
    assert.doesNotMatch(detail, /TEMP B-TREE/);
  });

  it('refuses a bad query with 400 {message, code}', async () => {
    const cases: [string, string][] = [
      ['limit=0', 'invalid_parameters'],
      ['limit=101', 'invalid_parameters'],
      ['limit=ten', 'invalid_parameters'],
      ['cursor=djE6OTk5OTk5OTk5OTk5OTk5OTk5', 'invalid_cursor'],
      ['cursor=not-ours', 'invalid_cursor'],
      ['status=partial', 'invalid_parameters'],
      ['subject[email]=not-an-email', 'invalid_parameters'],
      ['captured_since=2024-01-01', 'invalid_parameters'],
      ['captured_since=yesterday', 'invalid_parameters'],
      ['subject_email=ada@example.com', 'invalid_parameters'],
      [`flow_id=${'f'.repeat(101)}`, 'invalid_parameters'],
    ];
    for (const [query, code] of cases) {
      const res = await server.api(`/api/v1/consent_records?${query}`);
      assert.equal(res.status, 400, query);
      const body = (await res.json()) as ErrorBody;
      assert.equal(body.code, code, query);
      assert.ok(body.message.length > 0, query);
    }
  });
});

describe('GET /api/v1/consent_records in a server of two cells', () => {
  let cells: TestCells;
  before(async () => {
    cells = await startTestCells(['US', 'DE']);
  });
  after(() => cells.dispose());

  it("lists the records of the request's cell only", async () => {
    const { US: us, DE: de } = cells.cells as { US: TestServer; DE: TestServer };
    const flow = await createActiveFlow(us);
    const here = await createRecord(us, { flow_id: flow, subject: { email: 'ada@example.com' }, decisions: grantAll });
    const there = await createRecord(de, { flow_id: flow, subject: { email: 'ada@example.com', country: 'DE' }, decisions: grantAll });
    assert.deepEqual(ids((await list(us)).consent_records), [here.id]);
    assert.deepEqual(ids((await list(de)).consent_records), [there.id]);
  });
});
