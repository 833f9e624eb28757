// Withdrawing as easily as consenting: the receipt's `withdrawal_method` and the receipt email's management link open
// credential-free pages that withdraw at once. The attacker comes first: a link opens only its own record (or its own
// person's records with its own organisation), a cross-site form withdraws nothing, and nothing on the page runs.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { consentVerification, decision as decisionSchema, type ConsentExchange } from '@svc/schemas';
import { createConsent, exchange, ok, toReview, verify } from '../../consent/decisions/test-support.js';
import { createActiveFlow, createRecord, fetchReceipt, grantAll, recordFlowConfig } from '../../consent/records/test-support.js';
import type { DomainEvent } from '../../infra/events.js';
import { hashSecret, newId, newSecret } from '../../infra/ids.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { managementUrl, recordWithdrawalUrl } from './links.js';
import { WITHDRAWAL_CSS } from './page.js';

type Receipt = { pii_processing: { withdrawal_method?: string }; event: Record<string, unknown>[] };

let server: TestServer;
let flowId: string;
let seq = 0;
const events: DomainEvent[] = [];
const fresh = () => `withdrawer${++seq}@example.com`;

before(async () => {
  server = await startTestServer();
  server.context.events.on('consent.*', (_ctx, event) => events.push(event));
  flowId = await createActiveFlow(server);
});
after(() => server.dispose());
beforeEach(() => {
  events.length = 0;
});

const SAME = { 'sec-fetch-site': 'same-origin' };

async function receiptOf(recordId: string): Promise<Receipt> {
  const { status, body } = await fetchReceipt(server, recordId);
  assert.equal(status, 200);
  return body.consent_receipt as Receipt;
}

async function linkOf(recordId: string): Promise<string> {
  const link = (await receiptOf(recordId)).pii_processing.withdrawal_method;
  assert.ok(link, 'the receipt carries withdrawal_method');
  return link;
}

/** The record's person and organisation, as the receipt email's management link names them. */
function ownerOf(recordId: string): { accountId: string; personId: string } {
  const row = server.context.db.prepare('SELECT account_id, person_id FROM consent_records WHERE id = ?').get(recordId) as {
    account_id: string;
    person_id: string;
  };
  return { accountId: row.account_id, personId: row.person_id };
}

const manageLinkOf = (recordId: string) => {
  const { accountId, personId } = ownerOf(recordId);
  return managementUrl(server.context, accountId, personId);
};

const withdrawalCount = (recordId: string) =>
  server.context.db.prepare('SELECT count(*) FROM consent_withdrawals WHERE record_id = ?').pluck().get(recordId) as number;

/** A form post, by default from the page itself (Fetch Metadata same-origin). */
function post(url: string, form: Record<string, string | string[]> | URLSearchParams, headers: Record<string, string> = SAME) {
  const body =
    form instanceof URLSearchParams
      ? form
      : new URLSearchParams(Object.entries(form).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]])));
  return fetch(url, { method: 'POST', headers, body, redirect: 'manual' });
}

async function page(url: string): Promise<{ status: number; html: string; headers: Headers }> {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, html: await res.text(), headers: res.headers };
}

/** A second organisation with its own admin API token, written straight into storage (the API has no account signup). */
function otherAccount(): { accountId: string; token: string } {
  const db = server.context.db;
  const now = new Date().toISOString();
  const accountId = newId('acct_');
  const token = newSecret();
  db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').run(accountId, 'Other organisation', now);
  db.prepare(
    `INSERT INTO applications (id, account_id, name, environment, created_at, updated_at) VALUES (?, ?, 'Other app', 'development', ?, ?)`,
  ).run(newId('tp_dev_'), accountId, now, now);
  db.prepare(
    `INSERT INTO api_tokens (id, account_id, name, permissions, token_hash, created_at) VALUES (?, ?, 'other', '["read","write","admin"]', ?, ?)`,
  ).run(newId('api_token_'), accountId, hashSecret(token), now);
  return { accountId, token };
}

/** Creates an active flow and a record of `email` in the other organisation; returns the record id. */
async function recordElsewhere(other: { token: string }, email: string): Promise<string> {
  const call = (path: string, json: unknown) =>
    server.api(path, { method: 'POST', json, headers: { authorization: `Bearer ${other.token}` } });
  const flow = await call('/api/v1/flows', { flow: { pattern: 'standard', title: 'Their signup', config: recordFlowConfig } });
  assert.equal(flow.status, 201);
  const id = ((await flow.json()) as { flow: { id: string } }).flow.id;
  assert.equal((await call(`/api/v1/flows/${id}/activate`, {})).status, 200);
  const rec = await call('/api/v1/consent_records', { flow_id: id, subject: { email }, decisions: grantAll });
  assert.equal(rec.status, 201);
  return ((await rec.json()) as { consent_record: { id: string } }).consent_record.id;
}

const newRecord = (email = fresh(), decisions: Record<string, unknown> = grantAll) =>
  createRecord(server, { flow_id: flowId, subject: { email }, decisions });

describe('withdrawal links: what an attacker tries', () => {
  it('a tampered mac, another record with this mac, and an unknown record all answer the same 404 page', async () => {
    const a = await newRecord();
    const b = await newRecord();
    const link = await linkOf(a.id);
    const mac = link.slice(link.lastIndexOf('.') + 1);
    const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    const base = `${server.context.trustUrl}/withdraw/`;
    const answers = await Promise.all(
      [
        `${base}${a.id}.${flipped}`,
        `${base}${b.id}.${mac}`,
        `${base}${a.id}`,
        `${base}${a.id}.${mac}.x`,
        `${base}${encodeURIComponent('<script>')}.${mac}`,
        recordWithdrawalUrl(server.context, 'cr_us_doesnotexist0000000'),
      ].map(page),
    );
    for (const answer of answers) {
      assert.equal(answer.status, 404);
      assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(answer.html, answers[0]!.html, 'no oracle: every refusal reads the same');
    }
    for (const url of [`${base}${a.id}.${flipped}`, `${base}${b.id}.${mac}`]) {
      assert.equal((await post(url, {})).status, 404);
    }
    assert.equal(withdrawalCount(a.id) + withdrawalCount(b.id), 0);
  });

  it("a management token for one organisation opens nothing with another organisation's (or person's) id", async () => {
    const email = fresh();
    const other = otherAccount();
    const mine = await newRecord(email);
    const theirs = await recordElsewhere(other, email);
    const link = manageLinkOf(mine.id);
    const { accountId, personId } = ownerOf(mine.id);
    const swapped = link.replace(`/${accountId}.`, `/${other.accountId}.`);
    assert.notEqual(swapped, link);
    assert.equal((await page(swapped)).status, 404);
    assert.equal((await page(link.replace(`.${personId}.`, `.${ownerOf(theirs).personId}.`))).status, 404);
    assert.equal((await post(swapped, { record: theirs })).status, 404);
    assert.equal(withdrawalCount(theirs), 0);
    // A record link is no management link, nor the other way round.
    const recordLink = await linkOf(mine.id);
    assert.equal((await page(recordLink.replace('/withdraw/', '/manage/'))).status, 404);
    assert.equal((await page(link.replace('/manage/', '/withdraw/'))).status, 404);
  });

  it("the management page lists only that person's records with that organisation, and withdraws no one else's", async () => {
    const email = fresh();
    const other = otherAccount();
    const older = await newRecord(email);
    server.advance(60);
    const newer = await newRecord(email, { ...grantAll, research: { decision: 'declined' } });
    const elsewhere = await recordElsewhere(other, email);
    const someoneElse = await newRecord();
    const { status, html } = await page(manageLinkOf(newer.id));
    assert.equal(status, 200);
    assert.ok(html.includes(older.id) && html.includes(newer.id));
    assert.ok(html.indexOf(newer.id) < html.indexOf(older.id), 'newest first');
    assert.ok(!html.includes(elsewhere), "not the same email's records with another organisation");
    assert.ok(!html.includes(someoneElse.id), "not another person's records");
    assert.ok(!html.includes('Other organisation'));
    for (const record of [elsewhere, someoneElse.id]) {
      assert.equal((await post(manageLinkOf(newer.id), { record })).status, 404);
      assert.equal(withdrawalCount(record), 0);
    }
  });

  it('a cross-site form (or one that says nothing of where it comes from) withdraws nothing: 403 page', async () => {
    const r = await newRecord();
    events.length = 0;
    const trustOrigin = new URL(server.context.trustUrl).origin;
    for (const [url, form] of [
      [await linkOf(r.id), {}],
      [manageLinkOf(r.id), { record: r.id }],
    ] as const) {
      const refusedHeaders: Record<string, string>[] = [
        { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
        { 'sec-fetch-site': 'same-site', origin: trustOrigin },
        { origin: 'https://evil.example' },
        { origin: 'null' },
        {},
      ];
      for (const headers of refusedHeaders) {
        const res = await post(url, form, headers);
        assert.equal(res.status, 403, JSON.stringify(headers));
        assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
        assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      }
    }
    assert.equal(withdrawalCount(r.id), 0);
    assert.equal(events.length, 0);
  });

  it('bad form input answers a 4xx page, never a 5xx, and withdraws nothing', async () => {
    const r = await newRecord(fresh(), { ...grantAll, research: { decision: 'declined' } });
    const link = await linkOf(r.id);
    const manage = manageLinkOf(r.id);
    const cases: [string, RequestInit][] = [
      [link, { body: new URLSearchParams({ purposes: 'nope' }) }],
      [link, { body: new URLSearchParams({ purposes: 'research' }) }],
      [link, { body: new URLSearchParams({ purposes: 'service' }) }],
      [link, { body: new URLSearchParams({ purposes: 'x'.repeat(65) }) }],
      [link, { body: new URLSearchParams(Array.from({ length: 200 }, (_, i) => ['purposes', `p${i}`])) }],
      [link, { body: JSON.stringify({ purposes: ['newsletter'] }), headers: { 'content-type': 'application/json' } }],
      [link, { body: 'purposes=newsletter', headers: { 'content-type': 'text/plain' } }],
      [link, { body: '%%%purposes=%zz', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
      [manage, { body: new URLSearchParams({}) }],
      [manage, { body: new URLSearchParams({ record: '<script>' }) }],
      [
        manage,
        {
          body: new URLSearchParams([
            ['record', r.id],
            ['record', r.id],
          ]),
        },
      ],
    ];
    const file = new FormData();
    file.append('purposes', new Blob(['newsletter']), 'a.txt');
    cases.push([link, { body: file }]);
    for (const [url, init] of cases) {
      const res = await fetch(url, { method: 'POST', redirect: 'manual', ...init, headers: { ...SAME, ...(init.headers as object) } });
      const text = await res.text();
      assert.ok(res.status >= 400 && res.status < 500, `${res.status} ${String(init.body)}: ${text.slice(0, 200)}`);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/, String(init.body));
      assert.doesNotMatch(text, /<script/);
    }
    assert.equal(withdrawalCount(r.id), 0);
  });

  it('escapes everything it shows and serves no script, never framed, no referrer, no cache', async () => {
    const hostile = `<img src=x onerror=alert(1)> "Shop" & 'more'`;
    const flow = await createActiveFlow(
      server,
      {
        ...recordFlowConfig,
        purposes: recordFlowConfig.purposes.map((p) => (p.key === 'newsletter' ? { ...p, label: `<script>alert(1)</script>` } : p)),
      },
      hostile,
    );
    const r = await createRecord(server, { flow_id: flow, subject: { email: fresh() }, decisions: grantAll });
    for (const url of [await linkOf(r.id), manageLinkOf(r.id)]) {
      const { status, html, headers } = await page(url);
      assert.equal(status, 200);
      assert.ok(!html.includes('<img') && !html.includes('<script'), html);
      assert.ok(html.includes('&#60;img src=x onerror=alert(1)&#62; &#34;Shop&#34; &#38; &#39;more&#39;'));
      assert.ok(html.includes('&#60;script&#62;alert(1)&#60;/script&#62;'));
      const csp = headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /script-src 'self'/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.match(csp, /form-action 'self'/);
      assert.equal(headers.get('x-frame-options'), 'DENY');
      assert.equal(headers.get('referrer-policy'), 'no-referrer');
      assert.equal(headers.get('cache-control'), 'no-store');
      assert.equal(headers.get('x-content-type-options'), 'nosniff');
      for (const sheet of html.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)) {
        const css = await fetch(new URL(sheet[1]!, url));
        assert.equal(css.status, 200, sheet[1]);
        assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
      }
    }
  });
});

describe('withdrawal as easy as consent', () => {
  it("has the hosted pages' look: page.css, its buttons, at most one primary action, no colours of its own", async () => {
    const r = await newRecord();
    for (const url of [await linkOf(r.id), manageLinkOf(r.id)]) {
      const { html } = await page(url);
      assert.match(html, /<link rel="stylesheet" href="\/assets\/page.css">/);
      assert.ok((html.match(/class="primary"/g) ?? []).length <= 1);
      assert.doesNotMatch(html, /style=/);
    }
    assert.doesNotMatch(WITHDRAWAL_CSS, /#[0-9a-f]{3,6}\b|rgb|LinkText|Highlight|\bbutton\b/i, 'colours and buttons come from page.css');
  });

  it('the receipt of a new record carries withdrawal_method, which opens the record with no credential', async () => {
    const r = await newRecord(fresh(), { ...grantAll, research: { decision: 'declined' } });
    const link = await linkOf(r.id);
    assert.equal(link, recordWithdrawalUrl(server.context, r.id));
    assert.ok(link.startsWith(`${server.context.trustUrl}/withdraw/${r.id}.`));
    const { status, html } = await page(link);
    assert.equal(status, 200);
    for (const text of ['Sandbox application', 'Shop signup', 'Email newsletter', 'Research panel', 'Product analytics', r.id]) {
      assert.ok(html.includes(text), text);
    }
    assert.match(html, /name="purposes" value="newsletter"/);
    assert.match(html, /name="purposes" value="analytics"/, 'a legitimate interest may be objected to');
    assert.doesNotMatch(html, /name="purposes" value="research"/, 'declined: nothing to withdraw');
    assert.doesNotMatch(html, /name="purposes" value="service"/, 'a contract is not withdrawn here');
    assert.match(html, /Withdraw everything/);
  });

  it('withdrawing one purpose records receipt_record_link on the receipt and in consent.purpose_revoked', async () => {
    const r = await newRecord();
    const link = await linkOf(r.id);
    events.length = 0;
    const res = await post(link, { purposes: 'newsletter' });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), `${link}?withdrawn`);
    const last = (await receiptOf(r.id)).event.at(-1)!;
    assert.deepEqual(
      [last.event_state, last.purpose_id, last.event_channel, last.entity_id],
      ['consent withdrawn', 'newsletter', 'receipt_record_link', ownerOf(r.id).personId],
    );
    assert.deepEqual(
      events.map((e) => [e.type, e.data.purpose, e.data.event_channel]),
      [['consent.purpose_revoked', 'newsletter', 'receipt_record_link']],
    );
    const after_ = await page(`${link}?withdrawn`);
    assert.match(after_.html, /role="status"/);
    assert.doesNotMatch(after_.html, /name="purposes" value="newsletter"/, 'withdrawn: no button');
    assert.match(after_.html, /name="purposes" value="research"/);
  });

  it('withdrawing everything turns every live consent token of the record revoked at once, and the decision with it', async () => {
    const d = await createConsent(server);
    await toReview(server, d.session_token, fresh());
    const done = await ok(server, d.session_token, { action: 'agree', granted: ['newsletter'], objected: [] });
    const ex = (await (await exchange(server, d.session_token, done.completion!.exchange_token)).json()) as ConsentExchange;
    assert.ok(ex.access_token && ex.record_id);
    const verified = async () => consentVerification.parse(await (await verify(server, ex.access_token!)).json());
    assert.equal((await verified()).status, 'fulfilled');

    assert.equal((await post(await linkOf(ex.record_id), {})).status, 303);
    assert.deepEqual([(await verified()).valid, (await verified()).status], [false, 'revoked']);
    const read = await server.api(`/api/v1/decisions/${d.session_token}`);
    assert.equal(decisionSchema.parse(((await read.json()) as { decision: unknown }).decision).status, 'revoked');
    const appended = (await receiptOf(ex.record_id)).event.filter((e) => e.event_channel !== undefined);
    assert.deepEqual(
      appended.map((e) => [e.event_state, e.purpose_id, e.event_channel]),
      [
        ['consent withdrawn', undefined, 'receipt_record_link'],
        ['objection recorded', 'analytics', 'receipt_record_link'],
      ],
      'everything: one withdrawal of all consent, and the objection the demo flow allows',
    );
    assert.equal(events.find((e) => e.type === 'consent.revoked')?.data.event_channel, 'receipt_record_link');
    assert.match((await page(await linkOf(ex.record_id))).html, /withdrawn/i);
  });

  it('a repeat withdrawal changes nothing', async () => {
    const r = await newRecord();
    const link = await linkOf(r.id);
    assert.equal((await post(link, { purposes: 'newsletter' })).status, 303);
    assert.equal((await post(link, {})).status, 303);
    const count = withdrawalCount(r.id);
    const receipt = await receiptOf(r.id);
    events.length = 0;
    assert.equal((await post(link, { purposes: 'newsletter' })).status, 303);
    assert.equal((await post(link, {})).status, 303);
    assert.equal((await post(manageLinkOf(r.id), { record: r.id })).status, 303);
    assert.equal(withdrawalCount(r.id), count);
    assert.deepEqual(await receiptOf(r.id), receipt);
    assert.equal(events.length, 0);
    const { html } = await page(link);
    assert.doesNotMatch(html, /<button/, 'nothing left to withdraw: no button');
  });

  it('the management link withdraws with email_management_link, one purpose or a whole record, and shows the result', async () => {
    const email = fresh();
    const first = await newRecord(email);
    const second = await newRecord(email);
    const manage = manageLinkOf(first.id);
    events.length = 0;
    const one = await post(manage, { record: first.id, purposes: 'newsletter' });
    assert.equal(one.status, 303);
    assert.equal(one.headers.get('location'), `${manage}?withdrawn#${first.id}`);
    assert.deepEqual(
      events.map((e) => [e.type, e.data.record_id, e.data.event_channel]),
      [['consent.purpose_revoked', first.id, 'email_management_link']],
    );
    assert.equal((await post(manage, { record: second.id })).status, 303, 'the whole record');
    const appended = (await receiptOf(second.id)).event.filter((e) => e.event_channel !== undefined);
    assert.deepEqual(
      appended.map((e) => [e.event_state, e.event_channel]),
      [
        ['consent withdrawn', 'email_management_link'],
        ['objection recorded', 'email_management_link'],
      ],
    );
    const { html } = await page(`${manage}?withdrawn`);
    assert.match(html, /role="status"/);
    assert.match(html, new RegExp(`name="record" value="${first.id}"`), 'the first record still has consent to withdraw');
    assert.doesNotMatch(html, new RegExp(`name="record" value="${second.id}"`), 'the second has nothing left');
  });

  it('an expired record says so plainly and offers no button (last: it moves the clock a year on)', async () => {
    const r = await newRecord();
    server.advance(366 * 24 * 60 * 60);
    for (const url of [await linkOf(r.id), manageLinkOf(r.id)]) {
      const { status, html } = await page(url);
      assert.equal(status, 200);
      assert.match(html, /ended/i);
      assert.doesNotMatch(html, /<button/);
    }
    const refused = await post(await linkOf(r.id), {});
    assert.ok(refused.status >= 400 && refused.status < 500);
    assert.equal(withdrawalCount(r.id), 0);
  });
});
