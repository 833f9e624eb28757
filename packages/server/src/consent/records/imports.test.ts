import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ConsentImport, ConsentRecord } from '@svc/schemas';
import type { DomainEvent } from '../../infra/events.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { IMPORT_ALLOWANCE_SETTING } from './imports.js';
import { createActiveFlow, fetchReceipt, grantAll, importRows } from './test-support.js';

type ErrorBody = { message: string; code?: string; errors?: { path: string; code: string; message: string }[] };

describe('imports: POST /api/v1/consent_records/imports', () => {
  let server: TestServer;
  let flowId: string;
  const events: DomainEvent[] = [];
  const post = async (body: Record<string, unknown>) => {
    const res = await server.api('/api/v1/consent_records/imports', { method: 'POST', json: body });
    return { status: res.status, body: (await res.json()) as { import: ConsentImport } & ErrorBody, location: res.headers.get('location') };
  };
  const count = (table: string) => server.context.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  const snapshot = () =>
    ['consent_records', 'persons', 'audit_events', 'consent_withdrawals', 'receipt_emails', 'consent_imports'].map(count);

  before(async () => {
    server = await startTestServer();
    server.context.events.on('consent.*', (_ctx, event) => events.push(event));
    flowId = await createActiveFlow(server);
  });
  after(() => server.dispose());

  it('accepts or refuses each row by name with code and purpose while the others proceed', async () => {
    const rows = [
      ...importRows(3, 'mixed'),
      {
        subject: { email: 'bad1@example.com' },
        decisions: { ...grantAll, newsletter: { decision: 'granted', default_checked: true } },
        captured_at: '2026-02-01T00:00:00Z',
      },
      { subject: { email: 'bad2@example.com' }, decisions: { newsletter: { decision: 'granted' } }, captured_at: '2026-02-01T00:00:00Z' },
      {
        subject: { email: 'bad3@example.com' },
        decisions: { ...grantAll, telemarketing: { decision: 'granted' } },
        captured_at: '2026-02-01T00:00:00Z',
      },
      { subject: { email: 'not-an-email' }, decisions: grantAll, captured_at: '2026-02-01T00:00:00Z' },
      { subject: { email: 'nodate@example.com' }, decisions: grantAll },
      { subject: { email: 'future@example.com' }, decisions: grantAll, captured_at: '2099-01-01T00:00:00Z' },
      'not even an object',
    ];
    const { status, body, location } = await post({ flow_id: flowId, records: rows });
    assert.equal(status, 201, JSON.stringify(body));
    const imp = body.import;
    assert.match(imp.id, /^imp_/);
    assert.equal(location, `/api/v1/consent_records/imports/${imp.id}`);
    assert.deepEqual(
      {
        status: imp.status,
        dry_run: imp.dry_run,
        row_count: imp.row_count,
        accepted: imp.accepted_count,
        refused: imp.refused_count,
        error: imp.error,
      },
      { status: 'completed', dry_run: false, row_count: 10, accepted: 3, refused: 7, error: null },
    );
    assert.deepEqual(imp.allowance, { meter: 'consent_records', state: 'unlimited', remaining: null });
    assert.ok(imp.started_at && imp.finished_at);
    assert.deepEqual(
      imp.results.map((r) => [r.index, r.outcome, r.code, r.purpose]),
      [
        [0, 'accepted', null, null],
        [1, 'accepted', null, null],
        [2, 'accepted', null, null],
        [3, 'refused', 'default_checked', 'newsletter'],
        [4, 'refused', 'purpose_missing', 'research'],
        [5, 'refused', 'unknown_purpose', 'telemarketing'],
        [6, 'refused', 'invalid_row', null],
        [7, 'refused', 'invalid_row', null],
        [8, 'refused', 'captured_in_future', null],
        [9, 'refused', 'invalid_row', null],
      ],
    );
    assert.equal(imp.results[6]!.errors?.[0]?.path, 'records.6.subject.email');
    assert.equal(imp.results[7]!.errors?.[0]?.path, 'records.7.captured_at');
    assert.equal(imp.results[3]!.errors?.[0]?.path, 'records.3.decisions.newsletter');
    const accepted = imp.results[0]!;
    assert.equal(accepted.captured_at, '2026-01-01T00:00:00.000Z');
    assert.ok(accepted.recorded_at);
    const record = ((await (await server.api(`/api/v1/consent_records/${accepted.record_id}`)).json()) as { consent_record: ConsentRecord })
      .consent_record;
    assert.equal(record.channel, 'imported');
    assert.deepEqual(record.subject, { email: 'mixed-0@example.com', external_id: 'mixed-ext-0' });
    // Results stay readable.
    const read = await server.api(`/api/v1/consent_records/imports/${imp.id}`);
    assert.equal(read.status, 200);
    assert.deepEqual(((await read.json()) as { import: ConsentImport }).import, imp);
  });

  it('gives imported records a receipt that starts at consent given (the platform saw no notice or request)', async () => {
    const { body } = await post({ flow_id: flowId, records: importRows(1, 'receipt') });
    const { body: receipt } = await fetchReceipt(server, body.import.results[0]!.record_id!);
    const canonical = receipt.consent_receipt as {
      event: { event_state: string }[];
      extensions: Record<string, unknown>;
      pii_processing: { collection_method: string };
    };
    assert.deepEqual(
      canonical.event.map((e) => e.event_state),
      ['consent given'],
    );
    assert.equal(canonical.extensions.collection_channel, 'imported');
    assert.match(canonical.pii_processing.collection_method, /Imported/);
  });

  it('reports a dry run exactly and writes nothing (not even the import)', async () => {
    const before = snapshot();
    events.length = 0;
    const { status, body } = await post({
      flow_id: flowId,
      dry_run: true,
      records: [...importRows(4, 'dry'), { subject: { email: 'x@example.com' }, decisions: {}, captured_at: '2026-01-01T00:00:00Z' }],
    });
    assert.equal(status, 200);
    const imp = body.import;
    assert.deepEqual([imp.dry_run, imp.status, imp.accepted_count, imp.refused_count], [true, 'completed', 4, 1]);
    assert.ok(imp.results.slice(0, 4).every((r) => r.outcome === 'accepted' && r.record_id === null));
    assert.equal(imp.results[4]!.code, 'purpose_missing');
    assert.deepEqual(snapshot(), before);
    assert.equal(events.length, 0, 'no domain events, so no webhooks');
    assert.equal((await server.api(`/api/v1/consent_records/imports/${imp.id}`)).status, 404);
  });

  it('creates no duplicates when run again with the same idempotency keys', async () => {
    const rows = importRows(20, 'again');
    const first = (await post({ flow_id: flowId, records: rows })).body.import;
    assert.equal(first.accepted_count, 20);
    const before = count('consent_records');
    const second = (await post({ flow_id: flowId, records: rows })).body.import;
    assert.equal(second.accepted_count, 20);
    assert.ok(second.results.every((r) => r.existing === true));
    assert.deepEqual(
      second.results.map((r) => r.record_id),
      first.results.map((r) => r.record_id),
    );
    assert.equal(count('consent_records'), before);
    // The same key for different content is refused by name.
    const changed = (
      await post({ flow_id: flowId, records: [{ ...rows[0]!, decisions: { ...grantAll, newsletter: { decision: 'declined' } } }] })
    ).body.import;
    assert.equal(changed.results[0]!.code, 'idempotency_key_reused');
  });

  it('leaves receipt emails off by default and queues them with send_receipts', async () => {
    const before = count('receipt_emails');
    await post({ flow_id: flowId, records: importRows(3, 'quiet') });
    assert.equal(count('receipt_emails'), before);
    await post({ flow_id: flowId, records: importRows(3, 'loud'), send_receipts: true });
    assert.equal(count('receipt_emails'), before + 3);
  });

  it('applies later rows over earlier ones for the same person: granted then declined is withdrawn', async () => {
    events.length = 0;
    const person = { email: 'twice@example.com' };
    const { body } = await post({
      flow_id: flowId,
      records: [
        { subject: person, decisions: grantAll, captured_at: '2026-03-01T00:00:00Z' },
        { subject: person, decisions: { ...grantAll, newsletter: { decision: 'declined' } }, captured_at: '2026-04-01T00:00:00Z' },
      ],
    });
    const first = (
      (await (await server.api(`/api/v1/consent_records/${body.import.results[0]!.record_id}`)).json()) as { consent_record: ConsentRecord }
    ).consent_record;
    assert.equal(first.purposes.find((p) => p.key === 'newsletter')?.outcome, 'revoked');
    assert.deepEqual(
      events.map((e) => e.type),
      ['consent.granted', 'consent.granted', 'consent.purpose_revoked'],
    );
  });

  it('refuses more than 5000 rows with 422 before anything runs', async () => {
    const before = snapshot();
    const { status, body } = await post({ flow_id: flowId, records: importRows(5001, 'toomany') });
    assert.equal(status, 422);
    assert.equal(body.code, 'too_many_rows');
    assert.equal(body.errors?.[0]?.path, 'records');
    assert.deepEqual(snapshot(), before);
  });

  it('takes a full 5000-row import in one body above the default 1 MB limit, which other routes keep', async () => {
    const rows = importRows(5000, 'full');
    const payload = JSON.stringify({ flow_id: flowId, records: rows });
    assert.ok(payload.length > 1024 * 1024, `${payload.length} bytes`);
    const started = Date.now();
    const { status, body } = await post({ flow_id: flowId, records: rows });
    assert.equal(status, 201, JSON.stringify(body).slice(0, 300));
    assert.equal(body.import.accepted_count, 5000);
    assert.ok(Date.now() - started < 60_000);
    const big = await server.api('/api/v1/consent_records', {
      method: 'POST',
      body: JSON.stringify({ flow_id: flowId, pad: 'x'.repeat(1024 * 1024 + 10) }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(big.status, 413);
  });

  it('checks the allowance before the run: an import larger than what is left fails and writes nothing', async () => {
    const used = server.context.db.prepare("SELECT count(*) FROM consent_records WHERE channel = 'imported'").pluck().get() as number;
    server.context.db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)').run(IMPORT_ALLOWANCE_SETTING, String(used + 5));
    try {
      const dry = (await post({ flow_id: flowId, dry_run: true, records: importRows(2, 'allow-dry') })).body.import;
      assert.deepEqual(dry.allowance, { meter: 'consent_records', state: 'available', remaining: 5 });
      const before = count('consent_records');
      const { status, body } = await post({ flow_id: flowId, records: importRows(6, 'allow') });
      assert.equal(status, 201);
      assert.equal(body.import.status, 'failed');
      assert.match(body.import.error!, /allowance/);
      assert.equal(body.import.accepted_count, 0);
      assert.equal(count('consent_records'), before);
      const fits = (await post({ flow_id: flowId, records: importRows(5, 'allow-fits') })).body.import;
      assert.equal(fits.status, 'completed');
      const exhausted = (await post({ flow_id: flowId, dry_run: true, records: importRows(1, 'allow-none') })).body.import;
      assert.deepEqual(exhausted.allowance, { meter: 'consent_records', state: 'exhausted', remaining: 0 });
    } finally {
      server.context.db.prepare('DELETE FROM settings WHERE key = ?').run(IMPORT_ALLOWANCE_SETTING);
    }
  });

  it('commits atomically: a failure in the middle leaves nothing of the import and marks it failed', async () => {
    let seen = 0;
    const boom = (_ctx: unknown, event: DomainEvent) => {
      if (event.data.import_id && ++seen === 7) throw new Error('listener failed on the seventh record');
    };
    server.context.events.on('consent.granted', boom);
    const before = count('consent_records');
    const audit = count('audit_events');
    try {
      const { status, body } = await post({ flow_id: flowId, records: importRows(10, 'atomic') });
      assert.equal(status, 201);
      assert.equal(body.import.status, 'failed');
      assert.match(body.import.error!, /seventh record/);
      assert.deepEqual([body.import.accepted_count, body.import.results.length], [0, 0]);
      assert.equal(count('consent_records'), before);
      assert.equal(count('audit_events'), audit);
    } finally {
      seen = 100; // the listener stays registered; it never fires again
    }
    const retry = (await post({ flow_id: flowId, records: importRows(10, 'atomic') })).body.import;
    assert.equal(retry.accepted_count, 10);
  });

  it('refuses an unknown flow (404), a flow that cannot take records (422) and malformed requests (422/400)', async () => {
    assert.equal((await post({ flow_id: 'flw_dev_nope', records: importRows(1) })).status, 404);
    const demo = await post({ flow_id: server.sandbox.flow_id!, records: importRows(1, 'demo') });
    assert.equal(demo.status, 422);
    assert.equal(demo.body.code, 'flow_not_capturable');
    assert.equal((await post({ flow_id: flowId, records: [] })).status, 422);
    assert.equal((await post({ flow_id: flowId, records: importRows(1, 'x'), extra: true })).status, 422);
    assert.equal((await post({ flow_id: flowId, records: 'rows' })).status, 422);
    const raw = await server.api('/api/v1/consent_records/imports', {
      method: 'POST',
      body: '{"flow_id":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(raw.status, 400);
    assert.equal((await server.api('/api/v1/consent_records/imports/imp_nope')).status, 404);
  });
});
