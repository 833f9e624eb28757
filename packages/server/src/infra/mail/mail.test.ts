// The server's mail end to end: a real SMTP server (smtp-server on a loopback port) receives what the outbox sends,
// parsed with mailparser; the test clock drives the retries.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ParsedMail } from 'mailparser';
import { startTestServer, type TestServer } from '../../testing.js';
import { createActiveFlow, createRecord, fetchReceipt, grantAll, recordFlowConfig } from '../../consent/records/test-support.js';
import { createConsent, ok, step } from '../../consent/decisions/test-support.js';
import { personOfManagementToken } from '../../people/withdrawal/links.js';
import { Browser, pushedAuthorization } from '../../platform/oauth/test-support.js';
import { transaction } from '../transaction.js';
import { mailWorker, queueMail, type MailRow } from './index.js';
import { headerLine, startSmtp, type TestSmtp } from './test-support.js';

const FROM = 'Consent desk <receipts@svc.test>';

function rows(server: TestServer, to?: string): MailRow[] {
  const all = server.context.db.prepare('SELECT * FROM mail_outbox ORDER BY seq').all() as MailRow[];
  return to ? all.filter((r) => r.recipient === to) : all;
}

async function drain(server: TestServer): Promise<void> {
  await mailWorker(server.context)!.drain(10_000);
}

const to = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address;
const receivedBy = (smtp: TestSmtp, address: string) => smtp.received.filter((m) => to(m) === address);

describe('mail over SMTP', () => {
  let smtp: TestSmtp;
  let server: TestServer;
  let flowId: string;

  before(async () => {
    smtp = await startSmtp();
    server = await startTestServer({ mail: { smtpUrl: smtp.url, from: FROM } });
    flowId = await createActiveFlow(server);
  });
  after(async () => {
    await server.dispose();
    await smtp.close();
  });

  it('mails a receipt with text and HTML parts, the From, List-Unsubscribe and a management link to the person', async () => {
    const record = await createRecord(server, { flow_id: flowId, subject: { email: 'ada@example.com' }, decisions: grantAll });
    await drain(server);
    const [mail, ...more] = receivedBy(smtp, 'ada@example.com');
    assert.ok(mail, 'the receipt arrived');
    assert.equal(more.length, 0);
    assert.equal(mail.from?.value[0]?.address, 'receipts@svc.test');
    assert.match(mail.subject ?? '', /receipt/i);
    for (const part of [mail.text ?? '', String(mail.html)]) {
      assert.match(part, /Email newsletter/);
      assert.match(part, /Research panel/);
      assert.ok(part.includes(record.id));
    }
    const stored = server.context.db.prepare('SELECT account_id, person_id FROM consent_records WHERE id = ?').get(record.id) as {
      account_id: string;
      person_id: string;
    };
    const manage = /\/manage\/([A-Za-z0-9_.-]+)/.exec(mail.text ?? '');
    assert.ok(manage, mail.text);
    assert.deepEqual(personOfManagementToken(server.context, manage[1]!), { accountId: stored.account_id, personId: stored.person_id });
    assert.equal(headerLine(mail, 'list-unsubscribe'), `<${server.url}/manage/${manage[1]}>`);
    assert.ok((mail.text ?? '').includes(`${server.url}/withdraw/${record.id}.`), 'the record link');
    const [row] = rows(server, 'ada@example.com');
    assert.equal(row?.status, 'sent');
    assert.equal(row?.body_enc, null, 'a sent message keeps no body');
  });

  it("withdraws through the received email's management link, recorded as email_management_link", async () => {
    const record = await createRecord(server, { flow_id: flowId, subject: { email: 'manage@example.com' }, decisions: grantAll });
    await drain(server);
    const [mail] = receivedBy(smtp, 'manage@example.com');
    const link = /https?:\/\/\S+\/manage\/\S+/.exec(mail?.text ?? '')?.[0];
    assert.ok(link, mail?.text);
    const opened = await fetch(link);
    assert.equal(opened.status, 200);
    assert.match(await opened.text(), new RegExp(`name="record" value="${record.id}"`));
    const posted = await fetch(link, {
      method: 'POST',
      headers: { 'sec-fetch-site': 'same-origin', origin: new URL(server.url).origin },
      body: new URLSearchParams({ record: record.id }),
      redirect: 'manual',
    });
    assert.equal(posted.status, 303);
    const { body } = await fetchReceipt(server, record.id);
    const events = (body.consent_receipt as { event: { event_state: string; event_channel?: string }[] }).event;
    assert.deepEqual(
      events.filter((e) => e.event_channel !== undefined).map((e) => [e.event_state, e.event_channel]),
      [
        ['consent withdrawn', 'email_management_link'],
        ['objection recorded', 'email_management_link'],
      ],
    );
  });

  it('mails no receipt when it is suppressed', async () => {
    await createRecord(server, {
      flow_id: flowId,
      subject: { email: 'quiet@example.com' },
      decisions: grantAll,
      suppress_receipt: true,
    });
    await drain(server);
    assert.equal(rows(server, 'quiet@example.com').length, 0);
  });

  it("escapes an organisation's labels in the HTML part", async () => {
    const label = '<img src=x onerror=alert(1)> & "quoted"';
    const config = { ...recordFlowConfig, purposes: recordFlowConfig.purposes.map((p, i) => (i === 0 ? { ...p, label } : p)) };
    const hostile = await createActiveFlow(server, config, 'Hostile <b>title</b>');
    await createRecord(server, { flow_id: hostile, subject: { email: 'eve@example.com' }, decisions: grantAll });
    await drain(server);
    const [mail] = receivedBy(smtp, 'eve@example.com');
    assert.ok(mail);
    const html = String(mail.html);
    assert.ok(!html.includes('<img'), html);
    assert.ok(html.includes('&#60;img src=x onerror=alert(1)&#62; &#38; &#34;quoted&#34;'), html);
    assert.ok((mail.text ?? '').includes(label), 'the text part says it as written');
  });

  it("sends the decision page's sign-in code by mail only", async () => {
    const decision = await createConsent(server);
    const token = decision.session_token!;
    await ok(server, token, { action: 'begin' });
    const signedIn = await ok(server, token, { action: 'sign_in', email: 'grace@example.com' });
    assert.equal(signedIn.sandbox_code, undefined, 'the page does not carry the code');
    await drain(server);
    const [mail] = receivedBy(smtp, 'grace@example.com');
    const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
    assert.ok(code, mail?.text);
    assert.ok(String(mail!.html).includes(code));
    await ok(server, token, { action: 'verify', code });
  });

  it("sends the provider's sign-in code by mail only", async () => {
    const browser = new Browser(server.url);
    const { url } = await pushedAuthorization(server);
    const { url: start } = await browser.follow(url);
    const uid = /\/oauth\/interaction\/([^/?]+)/.exec(start)![1]!;
    const { res, url: codePage } = await browser.follow(`/oauth/interaction/${uid}/sign_in`, { form: { email: 'oidc@example.com' } });
    assert.doesNotMatch(codePage, /code=/, 'no code in the URL');
    const data = JSON.parse(/id="svc-oauth-data">(.*?)<\/script>/s.exec(await res.text())![1]!) as {
      step: string;
      sandbox_code: string | null;
    };
    assert.deepEqual([data.step, data.sandbox_code], ['code', null]);
    await drain(server);
    const code = /\b(\d{6})\b/.exec(receivedBy(smtp, 'oidc@example.com')[0]?.text ?? '')?.[1];
    assert.ok(code, 'the code arrived by mail');
    const { url: after } = await browser.follow(`/oauth/interaction/${uid}/verify`, { form: { code } });
    assert.doesNotMatch(after, /error=/, after);
  });

  it('sends an address no more sign-in codes in a window than it may guess wrong ones', async () => {
    const signIn = async (email = 'spam@example.com') => {
      const { session_token: token } = await createConsent(server);
      await ok(server, token!, { action: 'begin' });
      return step(server, token!, { action: 'sign_in', email });
    };
    const first = await createConsent(server);
    await ok(server, first.session_token!, { action: 'begin' });
    await ok(server, first.session_token!, { action: 'sign_in', email: 'spam@example.com' });
    for (let i = 1; i < 10; i += 1) await ok(server, first.session_token!, { action: 'send_code' });
    const refused = await step(server, first.session_token!, { action: 'send_code' });
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.equal((await signIn()).status, 429, 'another page asks for the same address');
    assert.equal((await signIn('Spam+tag@example.com')).status, 429, 'a sub-address is the same mailbox');
    assert.equal((await signIn('spam@example.org')).status, 200, 'another address is not limited');
    assert.equal(rows(server, 'spam@example.com').length, 10);
    server.advance(15 * 60);
    assert.equal((await signIn()).status, 200);
    assert.equal(rows(server, 'spam@example.com').length, 11);
  });

  it('mails the addressee of a decision a link to their inbox, without the session token', async () => {
    const decision = await createConsent(server, { addressee: { email: 'Lin@Example.com' } });
    await drain(server);
    const [mail] = receivedBy(smtp, 'lin@example.com');
    assert.ok(mail, 'the request arrived');
    for (const part of [mail.text ?? '', String(mail.html)]) {
      assert.ok(part.includes(`${server.url}/inbox`), part);
      assert.ok(!part.includes(decision.session_token!), 'no session token in the mail');
    }
  });

  it('keeps a message the SMTP server refuses queued, and delivers it when the server takes it again', async () => {
    smtp.refuse = true;
    await createRecord(server, { flow_id: flowId, subject: { email: 'retry@example.com' }, decisions: grantAll });
    await drain(server);
    let [row] = rows(server, 'retry@example.com');
    assert.equal(row?.status, 'pending');
    assert.equal(row?.attempt_count, 1);
    assert.match(row?.last_error ?? '', /451/);
    smtp.refuse = false;
    await drain(server);
    assert.equal(receivedBy(smtp, 'retry@example.com').length, 0, 'not due before its backoff');
    server.advance(30);
    await drain(server);
    [row] = rows(server, 'retry@example.com');
    assert.equal(row?.status, 'sent');
    assert.equal(receivedBy(smtp, 'retry@example.com').length, 1);
  });

  it('queues nothing in a transaction that rolls back', () => {
    const before = rows(server).length;
    assert.throws(() =>
      transaction(server.context.db, () => {
        queueMail(server.context, { to: 'gone@example.com', kind: 'test', subject: 's', text: 't', html: '<p>t</p>' });
        throw new Error('rolled back');
      }),
    );
    assert.equal(rows(server).length, before);
  });

  it('keeps no sandbox mailbox', async () => {
    const res = await fetch(`${server.url}/playground/mailbox`);
    assert.equal(res.status, 404);
  });
});

describe('mail to an SMTP server that is down', () => {
  let server: TestServer;

  before(async () => {
    const smtp = await startSmtp();
    await smtp.close(); // nothing listens on its port any more
    server = await startTestServer({ mail: { smtpUrl: smtp.url } });
  });
  after(() => server.dispose());

  it('retries on the backoff schedule, then keeps the message failed with its last error', async () => {
    const flowId = await createActiveFlow(server);
    await createRecord(server, { flow_id: flowId, subject: { email: 'down@example.com' }, decisions: grantAll });
    await drain(server);
    for (const wait of [30, 120, 900, 3600]) {
      assert.equal(rows(server, 'down@example.com')[0]?.status, 'pending');
      server.advance(wait);
      await drain(server);
    }
    const [row] = rows(server, 'down@example.com');
    assert.equal(row?.status, 'failed');
    assert.equal(row?.attempt_count, 5);
    assert.match(row?.last_error ?? '', /ECONNREFUSED|connect/i);
    assert.ok(row?.body_enc, 'a failed message keeps its content');
  });
});

describe('mail without SMTP: the sandbox mailbox', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  it("answers the provider's eleventh code for one address in a window with a 429 page", async () => {
    const browser = new Browser(server.url);
    const { url: start } = await browser.follow((await pushedAuthorization(server)).url);
    const uid = /\/oauth\/interaction\/([^/?]+)/.exec(start)![1]!;
    const signIn = () => browser.request(`/oauth/interaction/${uid}/sign_in`, { form: { email: 'many@example.com' } });
    for (let i = 0; i < 10; i += 1) assert.equal((await signIn()).status, 303);
    const refused = await signIn();
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.match(await refused.text(), /Too many sign-in codes/);
    assert.equal(rows(server, 'many@example.com').length, 10);
  });

  it('lists the mail newest first, its text escaped and its links clickable, with no script', async () => {
    const flowId = await createActiveFlow(server, recordFlowConfig, 'Shop <signup>');
    await createRecord(server, { flow_id: flowId, subject: { email: 'ada@example.com' }, decisions: grantAll });
    const decision = await createConsent(server);
    await ok(server, decision.session_token!, { action: 'begin' });
    const signedIn = await ok(server, decision.session_token!, { action: 'sign_in', email: 'bob@example.com' });
    assert.ok(signedIn.sandbox_code, 'the page still shows the code');
    assert.deepEqual(
      [...rows(server, 'ada@example.com'), ...rows(server, 'bob@example.com')].map((r) => r.status),
      ['sandbox', 'sandbox'],
    );

    const res = await fetch(`${server.url}/playground/mailbox`);
    assert.equal(res.status, 200);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /script-src/);
    const html = await res.text();
    assert.ok(!/<script/i.test(html));
    const code = html.indexOf(signedIn.sandbox_code);
    const receipt = html.indexOf('ada@example.com');
    assert.ok(code > 0 && receipt > code, 'the code, newer, comes first');
    assert.match(html, new RegExp(`<a href="${server.url}/manage/[A-Za-z0-9_.-]+" rel="noreferrer noopener">`));
    assert.ok(!html.includes('<signup>'));
  });
});
