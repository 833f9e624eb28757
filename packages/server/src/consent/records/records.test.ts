import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { ConsentRecord, ConsentStatus } from '@svc/schemas';
import type { DomainEvent } from '../../infra/events.js';
import { getActiveFlowVersion } from '../../platform/flows/store.js';
import { noticeDigest } from '../receipts/notice.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { createActiveFlow, createRecord, fetchReceipt, grantAll, postRecord, recordFlowConfig } from './test-support.js';

type ErrorBody = { message: string; code?: string; errors?: { path: string; code: string; message: string }[] };

describe('Record API: POST /api/v1/consent_records', () => {
  let server: TestServer;
  let flowId: string;
  let emailSeq = 0;
  const events: DomainEvent[] = [];
  const email = () => `person${++emailSeq}@example.com`;
  const record = (overrides: Record<string, unknown> = {}) => ({
    flow_id: flowId,
    subject: { email: email() },
    decisions: grantAll,
    ...overrides,
  });

  before(async () => {
    server = await startTestServer();
    server.context.events.on('consent.*', (_ctx, event) => events.push(event));
    flowId = await createActiveFlow(server);
  });
  after(() => server.dispose());
  beforeEach(() => {
    events.length = 0;
  });

  it('records attested decisions (201) with per-purpose outcomes, channel controller_attested and the consent term', async () => {
    const { status, body } = await postRecord(
      server,
      record({
        subject: { email: 'Ada@Example.com', external_id: 'crm-1' },
        decisions: { ...grantAll, research: { decision: 'declined' } },
      }),
    );
    assert.equal(status, 201, JSON.stringify(body));
    const r = body.consent_record;
    assert.match(r.id, /^cr_us_[A-Za-z0-9]{20}$/);
    assert.equal(r.status, 'fulfilled');
    assert.equal(r.receipt_id, r.id);
    assert.equal(r.channel, 'controller_attested');
    assert.equal(r.flow_id, flowId);
    assert.deepEqual(r.subject, { email: 'ada@example.com', external_id: 'crm-1' });
    assert.deepEqual(r.purposes, [
      { key: 'newsletter', outcome: 'granted', basis: 'consent' },
      { key: 'research', outcome: 'declined', basis: 'consent' },
      { key: 'analytics', outcome: 'noticed', basis: 'legitimate_interest' },
      { key: 'service', outcome: 'noticed', basis: 'contract' },
      { key: 'invoices', outcome: 'noticed', basis: 'legal_obligation' },
    ]);
    assert.equal(r.captured_at, r.recorded_at, 'captured_at defaults to now');
    const oneYear = new Date(r.captured_at!);
    oneYear.setUTCFullYear(oneYear.getUTCFullYear() + 1);
    assert.equal(r.expires_at, oneYear.toISOString());
    assert.equal(r.wording_verdict, null);
    const read = await server.api(`/api/v1/consent_records/${r.id}`);
    assert.equal(read.status, 200);
    assert.deepEqual(((await read.json()) as { consent_record: ConsentRecord }).consent_record, r);
  });

  it('applies the attestation table: legitimate interest ticked is noticed, unticked an objection, default-ticked allowed', async () => {
    const objected = await createRecord(server, record({ decisions: { ...grantAll, analytics: { decision: 'declined' } } }));
    assert.equal(objected.purposes.find((p) => p.key === 'analytics')?.outcome, 'objected');
    const defaultTicked = await createRecord(
      server,
      record({ decisions: { ...grantAll, analytics: { decision: 'granted', default_checked: true } } }),
    );
    assert.equal(defaultTicked.purposes.find((p) => p.key === 'analytics')?.outcome, 'noticed');
    // Notice-only purposes need no decision, and a ticked terms box (mandatory) is still just noticed.
    const withTerms = await createRecord(server, record({ decisions: { ...grantAll, service: { decision: 'granted', mandatory: true } } }));
    assert.equal(withTerms.purposes.find((p) => p.key === 'service')?.outcome, 'noticed');
    // An unticked consent box is a decline.
    const unticked = await createRecord(
      server,
      record({
        decisions: { newsletter: { decision: 'declined', default_checked: false, mandatory: false }, research: { decision: 'declined' } },
      }),
    );
    assert.deepEqual(
      unticked.purposes.filter((p) => p.basis === 'consent').map((p) => p.outcome),
      ['declined', 'declined'],
    );
  });

  const refusals: [string, Record<string, unknown>, string, string][] = [
    [
      'a default-ticked consent purpose',
      { ...grantAll, newsletter: { decision: 'granted', default_checked: true } },
      'decisions.newsletter',
      'default_checked',
    ],
    ['a mandatory consent purpose', { ...grantAll, research: { decision: 'granted', mandatory: true } }, 'decisions.research', 'mandatory'],
    [
      'a declined default-ticked consent purpose',
      { ...grantAll, newsletter: { decision: 'declined', default_checked: true } },
      'decisions.newsletter',
      'default_checked',
    ],
    [
      'a purpose the flow does not resolve',
      { ...grantAll, marketing_calls: { decision: 'granted' } },
      'decisions.marketing_calls',
      'unknown_purpose',
    ],
    ['a missing consent purpose', { newsletter: { decision: 'granted' } }, 'decisions.research', 'purpose_missing'],
    ['a declined contract purpose', { ...grantAll, service: { decision: 'declined' } }, 'decisions.service', 'notice_only_purpose'],
  ];
  for (const [name, decisions, path, code] of refusals) {
    it(`refuses ${name} by name (422 attestation_refused, ${path}: ${code}) and writes nothing`, async () => {
      const before = server.context.db.prepare('SELECT count(*) FROM consent_records').pluck().get();
      const { status, body } = await postRecord(server, record({ decisions }));
      assert.equal(status, 422);
      const error = body as unknown as ErrorBody;
      assert.equal(error.code, 'attestation_refused');
      assert.ok(
        error.errors?.some((e) => e.path === path && e.code === code),
        JSON.stringify(error.errors),
      );
      assert.match(error.message, new RegExp(path.split('.')[1]!));
      assert.equal(server.context.db.prepare('SELECT count(*) FROM consent_records').pluck().get(), before);
      assert.equal(events.length, 0);
    });
  }

  it('names every refused purpose at once', async () => {
    const { status, body } = await postRecord(
      server,
      record({ decisions: { newsletter: { decision: 'granted', mandatory: true }, unknown: { decision: 'granted' } } }),
    );
    assert.equal(status, 422);
    const paths = (body as unknown as ErrorBody).errors!.map((e) => `${e.path}:${e.code}`).sort();
    assert.deepEqual(paths, ['decisions.newsletter:mandatory', 'decisions.research:purpose_missing', 'decisions.unknown:unknown_purpose']);
  });

  it('takes the Record API request exactly: unknown fields, a missing email or a bad date are 422', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [record({ channel: 'hosted' }), 'channel'],
      [record({ subject: { email: email(), name: 'Ada' } }), 'subject.name'],
      [record({ subject: { external_id: 'x' } }), 'subject.email'],
      [record({ subject: { email: 'not-an-email' } }), 'subject.email'],
      [record({ captured_at: 'yesterday' }), 'captured_at'],
      [record({ decisions: { newsletter: { decision: 'maybe' } } }), 'decisions.newsletter.decision'],
      [record({ decisions: { newsletter: { decision: 'granted', checked: true } } }), 'decisions.newsletter.checked'],
      [record({ suppress_receipt: 'yes' }), 'suppress_receipt'],
    ];
    for (const [body, path] of cases) {
      const { status, body: answer } = await postRecord(server, body);
      assert.equal(status, 422, path);
      assert.ok(
        (answer as unknown as ErrorBody).errors?.some((e) => e.path === path),
        `${path}: ${JSON.stringify(answer)}`,
      );
    }
  });

  it('returns the same record for a repeated idempotency_key (200), and refuses the key for different content', async () => {
    const body = record({ idempotency_key: 'order-1001', captured_at: '2026-01-01T10:00:00Z' });
    const first = await postRecord(server, body);
    assert.equal(first.status, 201);
    const again = await postRecord(server, body);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body.consent_record, first.body.consent_record);
    assert.equal(server.context.db.prepare('SELECT count(*) FROM consent_records WHERE idempotency_key = ?').pluck().get('order-1001'), 1);
    assert.equal(events.length, 1, 'the repeat emits nothing');
    const changed = await postRecord(server, { ...body, decisions: { ...grantAll, newsletter: { decision: 'declined' } } });
    assert.equal(changed.status, 422);
    assert.equal((changed.body as unknown as ErrorBody).code, 'idempotency_key_reused');
  });

  it('keeps external_id on the record, never on the person: one person per email, each record with its own id', async () => {
    const shared = email();
    const a = await createRecord(server, record({ subject: { email: shared, external_id: 'crm-a' } }));
    const b = await createRecord(server, record({ subject: { email: shared.toUpperCase(), external_id: 'crm-b' } }));
    const db = server.context.db;
    const columns = db.prepare("SELECT name FROM pragma_table_info('persons')").pluck().all() as string[];
    assert.equal(columns.includes('external_id'), false);
    const people = db.prepare('SELECT DISTINCT person_id FROM consent_records WHERE id IN (?, ?)').pluck().all(a.id, b.id);
    assert.equal(people.length, 1);
    assert.equal(a.subject.external_id, 'crm-a');
    assert.equal(b.subject.external_id, 'crm-b');
    const noExternal = await createRecord(server, record({ subject: { email: shared } }));
    assert.equal(noExternal.subject.external_id, null);
  });

  it('refuses personal data anywhere in client_facts (422 personal_data, naming the path) and keeps other facts', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ referrer: 'newsletter', contact: { who: 'ada@example.com' } }, 'client_facts.contact.who'],
      [{ notes: ['first', 'call me on +44 20 7946 0958'] }, 'client_facts.notes.1'],
      [{ nested: { deeper: { phone: '0049 30 1234567' } } }, 'client_facts.nested.deeper.phone'],
      [{ mobile: '0612345678' }, 'client_facts.mobile'],
      [{ 'ada@example.com': true }, 'client_facts.ada@example.com'],
    ];
    for (const [facts, path] of bad) {
      const { status, body } = await postRecord(server, record({ client_facts: facts }));
      assert.equal(status, 422, JSON.stringify(facts));
      const error = body as unknown as ErrorBody;
      assert.equal(error.code, 'personal_data');
      assert.ok(
        error.errors?.some((e) => e.path === path && e.code === 'personal_data'),
        `${path}: ${JSON.stringify(error.errors)}`,
      );
    }
    const fine = await postRecord(
      server,
      record({
        client_facts: {
          form: 'signup-v2',
          shown_at: '2026-05-01T10:00:00Z',
          user_agent: 'Mozilla/5.0 (X11; Linux x86_64)',
          order: 12345,
          ab_test: 'B',
          ip_country: 'DE',
        },
      }),
    );
    assert.equal(fine.status, 201, JSON.stringify(fine.body));
  });

  it('queues the receipt email unless suppress_receipt is set', async () => {
    const sent = await createRecord(server, record());
    const suppressed = await createRecord(server, record({ suppress_receipt: true }));
    const queued = server.context.db
      .prepare('SELECT record_id FROM receipt_emails WHERE record_id IN (?, ?)')
      .pluck()
      .all(sent.id, suppressed.id);
    assert.deepEqual(queued, [sent.id]);
    // The receipt itself exists either way.
    assert.equal((await fetchReceipt(server, suppressed.id)).status, 200);
  });

  it('takes captured_at in the past, normalised to UTC, and refuses one in the future', async () => {
    const past = await createRecord(server, record({ captured_at: '2026-03-01T12:00:00+02:00' }));
    assert.equal(past.captured_at, '2026-03-01T10:00:00.000Z');
    assert.notEqual(past.recorded_at, past.captured_at);
    const future = new Date(server.context.clock.now() + 3600_000).toISOString();
    const { status, body } = await postRecord(server, record({ captured_at: future }));
    assert.equal(status, 422);
    assert.equal((body as unknown as ErrorBody).code, 'captured_in_future');
    assert.equal((body as unknown as ErrorBody).errors?.[0]?.path, 'captured_at');
  });

  it('compares notice_hash with the published wording: match or wording_drift, never refused', async () => {
    const published = noticeDigest(getActiveFlowVersion(server.context, flowId)!);
    const match = await createRecord(server, record({ notice_hash: published }));
    assert.equal(match.wording_verdict, 'match');
    const bare = await createRecord(server, record({ notice_hash: published.slice('sha256:'.length).toUpperCase() }));
    assert.equal(bare.wording_verdict, 'match');
    const drift = await createRecord(server, record({ notice_hash: `sha256:${'0'.repeat(64)}` }));
    assert.equal(drift.wording_verdict, 'wording_drift');
    const receipt = await fetchReceipt(server, drift.id);
    assert.equal((receipt.body.consent_receipt as { extensions: { wording_drift: boolean } }).extensions.wording_drift, true);
  });

  it('refuses an unknown flow (404), a draft (422 flow_not_active) and a flow that is not capturable (422 flow_not_capturable)', async () => {
    assert.equal((await postRecord(server, record({ flow_id: 'flw_dev_nope' }))).status, 404);
    const draft = await server.api('/api/v1/flows', {
      method: 'POST',
      json: { flow: { pattern: 'standard', title: 'Draft', config: recordFlowConfig } },
    });
    const draftId = ((await draft.json()) as { flow: { id: string } }).flow.id;
    const asDraft = await postRecord(server, record({ flow_id: draftId }));
    assert.equal(asDraft.status, 422);
    assert.equal((asDraft.body as unknown as ErrorBody).code, 'flow_not_active');
    // The sandbox demo flow verifies the person on the hosted page: its consent needs more than a decision.
    const demo = await postRecord(server, record({ flow_id: server.sandbox.flow_id }));
    assert.equal(demo.status, 422);
    assert.equal((demo.body as unknown as ErrorBody).code, 'flow_not_capturable');
    const noTerm = await createActiveFlow(server, { ...recordFlowConfig, consent_duration: undefined });
    const withoutDuration = await postRecord(server, record({ flow_id: noTerm }));
    assert.equal((withoutDuration.body as unknown as ErrorBody).code, 'flow_not_capturable');
    assert.match((withoutDuration.body as unknown as ErrorBody).message, /consent_duration/);
  });

  it('needs the write permission; a read token and a publishable key are refused', async () => {
    const tokenRes = await server.api('/api/v1/api_tokens', {
      method: 'POST',
      json: { api_token: { name: 'reader', permissions: ['read'] } },
    });
    const token = ((await tokenRes.json()) as { api_token: { token: string } }).api_token.token;
    assert.equal((await postRecord(server, record(), { authorization: `Bearer ${token}` })).status, 403);
    const res = await fetch(`${server.url}/api/v1/consent_records`, {
      method: 'POST',
      headers: { 'x-publishable-key': server.sandbox.publishable_key, 'content-type': 'application/json' },
      body: JSON.stringify(record()),
    });
    assert.equal(res.status, 403);
  });

  it('emits consent.granted with the subject reference and per-purpose outcomes, or consent.denied when every consent purpose is declined', async () => {
    const granted = await createRecord(server, record({ subject: { email: 'grace@example.com', external_id: 'crm-g' } }));
    assert.equal(events.length, 1);
    assert.equal(events[0]!.type, 'consent.granted');
    assert.equal(events[0]!.application_id, server.sandbox.application_id);
    assert.deepEqual(events[0]!.data.subject_ref, { email: 'grace@example.com', external_id: 'crm-g' });
    assert.equal(events[0]!.data.record_id, granted.id);
    assert.deepEqual(
      (events[0]!.data.purposes as { key: string; outcome: string }[]).map((p) => `${p.key}:${p.outcome}`),
      ['newsletter:granted', 'research:granted', 'analytics:noticed', 'service:noticed', 'invoices:noticed'],
    );
    await createRecord(server, record({ decisions: { newsletter: { decision: 'declined' }, research: { decision: 'declined' } } }));
    assert.equal(events[1]!.type, 'consent.denied');
  });
});

describe('withdrawals and later records', () => {
  let server: TestServer;
  let flowId: string;
  const events: DomainEvent[] = [];
  let n = 0;
  const fresh = () => `w${++n}@example.com`;

  before(async () => {
    server = await startTestServer();
    server.context.events.on('consent.*', (_ctx, event) => events.push(event));
    flowId = await createActiveFlow(server);
  });
  after(() => server.dispose());
  beforeEach(() => {
    events.length = 0;
  });

  const withdraw = async (id: string, body: Record<string, unknown> = {}) => {
    const res = await server.api(`/api/v1/consent_records/${id}/withdraw`, { method: 'POST', json: body });
    return { status: res.status, body: (await res.json()) as { consent_record: ConsentRecord } & ErrorBody };
  };

  it('withdraws everything: the record is revoked, consent.revoked carries subject and outcomes', async () => {
    const r = await createRecord(server, { flow_id: flowId, subject: { email: fresh(), external_id: 'x-1' }, decisions: grantAll });
    events.length = 0;
    const { status, body } = await withdraw(r.id, { event_channel: 'person_records' });
    assert.equal(status, 200);
    assert.equal(body.consent_record.status, 'revoked');
    assert.deepEqual(
      body.consent_record.purposes.map((p) => p.outcome),
      ['revoked', 'revoked', 'objected', 'noticed', 'noticed'],
    );
    assert.equal(events.length, 1);
    assert.equal(events[0]!.type, 'consent.revoked');
    assert.deepEqual((events[0]!.data.subject_ref as { external_id: string }).external_id, 'x-1');
    assert.equal(events[0]!.data.event_channel, 'person_records');
    // A repeat changes nothing.
    const again = await withdraw(r.id);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body.consent_record, body.consent_record);
    assert.equal(events.length, 1);
  });

  it('withdraws some purposes: consent.purpose_revoked per purpose, the record stays fulfilled', async () => {
    const r = await createRecord(server, { flow_id: flowId, subject: { email: fresh() }, decisions: grantAll });
    events.length = 0;
    const { status, body } = await withdraw(r.id, { purposes: ['newsletter', 'analytics'], event_channel: 'email_management_link' });
    assert.equal(status, 200);
    assert.equal(body.consent_record.status, 'fulfilled');
    assert.deepEqual(
      body.consent_record.purposes.map((p) => `${p.key}:${p.outcome}`),
      ['newsletter:revoked', 'research:granted', 'analytics:objected', 'service:noticed', 'invoices:noticed'],
    );
    assert.deepEqual(
      events.map((e) => `${e.type}:${String(e.data.purpose)}:${String(e.data.outcome)}`),
      ['consent.purpose_revoked:newsletter:revoked', 'consent.purpose_revoked:analytics:objected'],
    );
    // Withdrawing the last granted purpose revokes the record.
    const last = await withdraw(r.id, { purposes: ['research'] });
    assert.equal(last.body.consent_record.status, 'revoked');
  });

  it('refuses unknown or non-withdrawable purposes and event channels the platform sets itself', async () => {
    const r = await createRecord(server, {
      flow_id: flowId,
      subject: { email: fresh() },
      decisions: { ...grantAll, research: { decision: 'declined' } },
    });
    const unknown = await withdraw(r.id, { purposes: ['nope'] });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.errors?.[0]?.code, 'unknown_purpose');
    const declined = await withdraw(r.id, { purposes: ['research'] });
    assert.equal(declined.status, 422);
    assert.equal(declined.body.errors?.[0]?.code, 'not_withdrawable');
    const notice = await withdraw(r.id, { purposes: ['service'] });
    assert.equal(notice.body.errors?.[0]?.code, 'not_withdrawable');
    for (const channel of ['newer_record', 'end_of_term', 'subject_sweep', 'somewhere']) {
      assert.equal((await withdraw(r.id, { event_channel: channel })).status, 422, channel);
    }
    assert.equal((await withdraw(r.id, { purposes: [] })).status, 422);
    assert.equal((await withdraw('cr_doesnotexist0000000')).status, 404);
  });

  it('a later record for the same person and flow withdraws the purposes that moved from granted to declined', async () => {
    const person = fresh();
    const first = await createRecord(server, {
      flow_id: flowId,
      subject: { email: person, external_id: 'crm-7' },
      decisions: grantAll,
      captured_at: '2026-02-01T09:00:00Z',
    });
    events.length = 0;
    const second = await createRecord(server, {
      flow_id: flowId,
      subject: { email: person },
      decisions: { ...grantAll, newsletter: { decision: 'declined' } },
    });
    const previous = ((await (await server.api(`/api/v1/consent_records/${first.id}`)).json()) as { consent_record: ConsentRecord })
      .consent_record;
    assert.equal(previous.purposes.find((p) => p.key === 'newsletter')?.outcome, 'revoked');
    assert.equal(previous.purposes.find((p) => p.key === 'research')?.outcome, 'granted');
    assert.equal(previous.status, 'fulfilled');
    assert.deepEqual(
      events.map((e) => e.type),
      ['consent.granted', 'consent.purpose_revoked'],
    );
    assert.equal(events[1]!.data.record_id, first.id);
    assert.equal(events[1]!.data.purpose, 'newsletter');
    assert.equal(events[1]!.data.event_channel, 'newer_record');
    assert.deepEqual(events[1]!.data.subject_ref, { email: person, external_id: 'crm-7' });
    // The withdrawal is on the previous record's receipt, made through a newer record.
    const receipt = (await fetchReceipt(server, first.id)).body.consent_receipt as {
      event: { event_state: string; purpose_id?: string; event_channel?: string }[];
    };
    assert.deepEqual(receipt.event.at(-1), {
      ...receipt.event.at(-1),
      event_state: 'consent withdrawn',
      purpose_id: 'newsletter',
      event_channel: 'newer_record',
    });
    // The new record references its predecessor.
    const next = (await fetchReceipt(server, second.id)).body.consent_receipt as {
      event: { event_state: string; record_reference?: string }[];
    };
    assert.equal(next.event.find((e) => e.event_state === 'consent given')?.record_reference, first.id);
    // Declining everything that is left revokes the previous record as a whole.
    events.length = 0;
    await createRecord(server, {
      flow_id: flowId,
      subject: { email: person },
      decisions: { newsletter: { decision: 'declined' }, research: { decision: 'declined' } },
    });
    const secondNow = ((await (await server.api(`/api/v1/consent_records/${second.id}`)).json()) as { consent_record: ConsentRecord })
      .consent_record;
    assert.equal(secondNow.status, 'revoked');
    assert.deepEqual(
      events.map((e) => e.type),
      ['consent.denied', 'consent.revoked'],
    );
  });

  it('governs each record by the flow version in force when it was captured; labels stay frozen', async () => {
    const flow = await createActiveFlow(server, recordFlowConfig, 'Versioned');
    const before = new Date(server.context.clock.now() - 1000).toISOString();
    server.advance(60);
    const revised = await server.api(`/api/v1/flows/${flow}/versions`, {
      method: 'POST',
      json: {
        flow: {
          config: {
            ...recordFlowConfig,
            purposes: recordFlowConfig.purposes.map((p) => (p.key === 'newsletter' ? { ...p, label: 'Weekly newsletter' } : p)),
          },
        },
      },
    });
    assert.equal(revised.status, 200, await revised.clone().text());
    const old = await createRecord(server, {
      flow_id: flow,
      subject: { email: fresh() },
      decisions: grantAll,
      captured_at: new Date(server.context.clock.now() - 30_000).toISOString(),
    });
    const current = await createRecord(server, { flow_id: flow, subject: { email: fresh() }, decisions: grantAll });
    assert.equal(old.flow_version, 1);
    assert.equal(current.flow_version, 2);
    const label = async (id: string) =>
      (
        (await fetchReceipt(server, id)).body.consent_receipt as { pii_processing: { purposes: { purpose_id: string; purpose: string }[] } }
      ).pii_processing.purposes.find((p) => p.purpose_id === 'newsletter')?.purpose;
    assert.equal(await label(old.id), 'Email newsletter');
    assert.equal(await label(current.id), 'Weekly newsletter');
    // A record captured before the flow's first activation is governed by its active version.
    const ancient = await createRecord(server, {
      flow_id: flow,
      subject: { email: fresh() },
      decisions: grantAll,
      captured_at: before.replace(/^\d{4}/, '2020'),
    });
    assert.equal(ancient.flow_version, 2);
  });

  it('expires at the end of the consent term on the server clock; an expired record cannot be withdrawn', async () => {
    const r = await createRecord(server, { flow_id: flowId, subject: { email: fresh() }, decisions: grantAll });
    server.advance(366 * 24 * 3600);
    const read = ((await (await server.api(`/api/v1/consent_records/${r.id}`)).json()) as { consent_record: ConsentRecord }).consent_record;
    assert.equal(read.status, 'expired');
    const refused = await withdraw(r.id);
    assert.equal(refused.status, 422);
    assert.equal(refused.body.code, 'record_expired');
  });
});

describe('GET /api/v1/applications/{id}/consent_status', () => {
  let server: TestServer;
  let flowId: string;
  let app: string;
  const status = async (query: string) => {
    const res = await server.api(`/api/v1/applications/${app}/consent_status?${query}`);
    return { status: res.status, body: (await res.json()) as ConsentStatus & ErrorBody };
  };

  before(async () => {
    server = await startTestServer();
    app = server.sandbox.application_id;
    flowId = await createActiveFlow(server);
  });
  after(() => server.dispose());

  it("finds the person by subject[external_id], subject[email] or person_id, with each purpose's status and dates", async () => {
    const r = await createRecord(server, {
      flow_id: flowId,
      subject: { email: 'lin@example.com', external_id: 'crm-lin' },
      decisions: { ...grantAll, research: { decision: 'declined' } },
    });
    const byExternal = await status('subject[external_id]=crm-lin');
    assert.equal(byExternal.status, 200, JSON.stringify(byExternal.body));
    const s = byExternal.body;
    assert.match(s.user_id, /^prs_/);
    assert.equal(s.application_id, app);
    assert.equal(s.overall_status, 'partial');
    assert.deepEqual(s.subject_ref, { email: 'lin@example.com', external_id: 'crm-lin' });
    const newsletter = s.purposes.find((p) => p.purpose === 'newsletter')!;
    assert.deepEqual(newsletter, {
      ...newsletter,
      status: 'granted',
      granted_at: r.captured_at,
      expires_at: r.expires_at,
      granted_by: s.user_id,
    });
    assert.equal(s.purposes.find((p) => p.purpose === 'research')?.status, 'declined');
    assert.equal(s.purposes.find((p) => p.purpose === 'analytics')?.status, 'noticed');
    assert.deepEqual((await status('subject[email]=LIN@example.com')).body, s);
    assert.deepEqual((await status(`person_id=${s.user_id}`)).body, s);
  });

  it('computes the overall status: granted, declined, partial; expired and revoked purposes count as declined', async () => {
    await createRecord(server, { flow_id: flowId, subject: { email: 'all@example.com' }, decisions: grantAll });
    assert.equal((await status('subject[email]=all@example.com')).body.overall_status, 'granted');
    const none = await createRecord(server, {
      flow_id: flowId,
      subject: { email: 'none@example.com' },
      decisions: { newsletter: { decision: 'declined' }, research: { decision: 'declined' }, analytics: { decision: 'declined' } },
    });
    assert.equal((await status('subject[email]=none@example.com')).body.overall_status, 'declined');
    void none;
    const later = await createRecord(server, { flow_id: flowId, subject: { email: 'later@example.com' }, decisions: grantAll });
    await server.api(`/api/v1/consent_records/${later.id}/withdraw`, { method: 'POST', json: { purposes: ['newsletter', 'research'] } });
    const after = await status('subject[email]=later@example.com');
    assert.equal(after.body.overall_status, 'partial');
    assert.equal(after.body.purposes.find((p) => p.purpose === 'newsletter')?.status, 'revoked');
  });

  it('lists the undecided purposes of a named flow as pending', async () => {
    const other = await createActiveFlow(
      server,
      { ...recordFlowConfig, purposes: [{ key: 'sms', label: 'Text messages', basis: 'consent', mechanism: 'explicit' }] },
      'SMS',
    );
    await createRecord(server, { flow_id: flowId, subject: { email: 'pend@example.com' }, decisions: grantAll });
    const scoped = await status(`subject[email]=pend@example.com&flow_id=${other}`);
    assert.equal(scoped.status, 200);
    assert.equal(scoped.body.overall_status, 'pending');
    assert.deepEqual(
      scoped.body.purposes.map((p) => `${p.purpose}:${p.status}`),
      ['sms:pending'],
    );
  });

  it('shows expired consent as expired', async () => {
    await createRecord(server, {
      flow_id: flowId,
      subject: { email: 'old@example.com' },
      decisions: grantAll,
      captured_at: '2020-01-01T00:00:00Z',
    });
    const s = await status('subject[email]=old@example.com');
    assert.equal(s.body.purposes.find((p) => p.purpose === 'newsletter')?.status, 'expired');
    assert.equal(s.body.overall_status, 'partial');
  });

  it('answers 404 for an unknown person or application, 400 without exactly one subject reference', async () => {
    assert.equal((await status('subject[external_id]=nobody')).status, 404);
    assert.equal((await status('subject[external_id]=nobody')).body.code, 'subject_not_found');
    assert.equal((await server.api('/api/v1/applications/tp_dev_nope/consent_status?person_id=prs_x')).status, 404);
    assert.equal((await status('')).status, 400);
    assert.equal((await status('subject[email]=a@example.com&person_id=prs_x')).status, 400);
    assert.equal((await status('subject[email]=not-an-email')).status, 400);
  });
});
