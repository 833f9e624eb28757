// Consent records, imports and consent status through the client, against a running reference server.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { connect } from '../lib/connection.js';
import { createClient, type SvcClient } from '../lib/client.js';
import {
  SvcBadRequestError,
  SvcConfigurationError,
  SvcNetworkError,
  SvcNotFoundError,
  SvcPermissionError,
  SvcValidationError,
} from '../lib/errors.js';
import type { FetchImplementation } from '../lib/options.js';
import type { ImportRow } from '@svc/schemas';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { createRecordFlow, freshEmail, grantAll } from '../testing/records.test.helper.js';
import { createConsentRecord } from './consent-records.js';
import { rejection } from '../testing/rejection.test.helper.js';

/**
 * A fetch that lets the first POST to `path` reach the server, reads the answer, and then loses it on the way back
 * (as a reset connection would): the caller sees a network error although the server did the work.
 */
function losingFirstAnswer(path: string): { fetch: FetchImplementation; posts: () => number; lost: () => string | undefined } {
  let posts = 0;
  let lost: string | undefined;
  return {
    posts: () => posts,
    lost: () => lost,
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      if (init.method === 'POST' && new URL(url).pathname === path && ++posts === 1) {
        lost = await res.text();
        throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
      }
      return res;
    },
  };
}

describe('consentRecords, imports and consentStatus against the reference server', () => {
  let server: TestServer;
  let svc: SvcClient;
  let flowId: string;

  before(async () => {
    server = await startTestServer();
    svc = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
    flowId = await createRecordFlow(svc);
  });
  after(() => server.dispose());

  describe('consentRecords', () => {
    it('creates a controller-attested record and reads it back', async () => {
      const email = freshEmail();
      const record = await svc.consentRecords.create({
        flow_id: flowId,
        subject: { email, external_id: 'crm-1' },
        decisions: { ...grantAll, research: { decision: 'declined' } },
        client_facts: { form: 'signup', step: 2 },
        suppress_receipt: true,
      });
      assert.match(record.id, /^\w+_/);
      assert.equal(record.status, 'fulfilled');
      assert.equal(record.channel, 'controller_attested');
      assert.equal(record.flow_id, flowId);
      assert.equal(record.receipt_id, record.id);
      assert.deepEqual(record.subject, { email, external_id: 'crm-1' });
      const outcomes = Object.fromEntries(record.purposes.map((p) => [p.key, p.outcome]));
      assert.equal(outcomes.newsletter, 'granted');
      assert.equal(outcomes.research, 'declined');
      assert.deepEqual(await svc.consentRecords.get(record.id), record);
    });

    it('makes a repeat with the same idempotency key return the same record, from the option or the body', async () => {
      const request = { flow_id: flowId, subject: { email: freshEmail() }, decisions: grantAll };
      const key = randomUUID();
      const first = await svc.consentRecords.create(request, { idempotencyKey: key });
      const again = await svc.consentRecords.create(request, { idempotencyKey: key });
      assert.equal(again.id, first.id);
      const viaBody = await svc.consentRecords.create({ ...request, idempotency_key: key });
      assert.equal(viaBody.id, first.id, "the option is sent as the Record API's idempotency_key");
      const err = await rejection(
        svc.consentRecords.create(
          { ...request, decisions: { ...grantAll, newsletter: { decision: 'declined' } } },
          { idempotencyKey: key },
        ),
        SvcValidationError,
      );
      assert.equal(err.reason, 'idempotency_key_reused');
    });

    it('retries a POST whose answer was lost when it carries an idempotency key, and gets the record the server made', async () => {
      const lossy = losingFirstAnswer('/api/v1/consent_records');
      const client = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token, fetch: lossy.fetch });
      const email = freshEmail();
      const record = await client.consentRecords.create(
        { flow_id: flowId, subject: { email }, decisions: grantAll },
        { idempotencyKey: randomUUID() },
      );
      assert.equal(lossy.posts(), 2, 'sent again after the network error');
      const made = JSON.parse(lossy.lost()!) as { consent_record: { id: string } };
      assert.equal(record.id, made.consent_record.id, 'the retry found the record of the lost answer instead of making another');
      const status = await svc.consentStatus.get(server.sandbox.application_id, { subject: { email } });
      assert.deepEqual([...new Set(status.purposes.map((p) => p.record_id))], [record.id], 'one record for the person');
    });

    it('never retries a POST without an idempotency key', async () => {
      const lossy = losingFirstAnswer('/api/v1/consent_records');
      const client = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token, fetch: lossy.fetch });
      const err = await rejection(
        client.consentRecords.create({ flow_id: flowId, subject: { email: freshEmail() }, decisions: grantAll }),
        SvcNetworkError,
      );
      assert.match(err.message, /ECONNRESET/);
      assert.equal(lossy.posts(), 1);
    });

    it('refuses two different idempotency keys before sending anything', async () => {
      let calls = 0;
      const client = createClient({ baseUrl: server.url, apiToken: 'x', fetch: () => (calls++, Promise.reject(new Error('not reached'))) });
      await rejection(
        client.consentRecords.create(
          { flow_id: flowId, subject: { email: freshEmail() }, decisions: grantAll, idempotency_key: 'a' },
          { idempotencyKey: 'b' },
        ),
        SvcConfigurationError,
      );
      assert.equal(calls, 0);
    });

    it('refuses personal data in client_facts and a default-ticked consent as SvcValidationError', async () => {
      const facts = await rejection(
        svc.consentRecords.create({
          flow_id: flowId,
          subject: { email: freshEmail() },
          decisions: grantAll,
          client_facts: { contact: 'ada@example.com' },
        }),
        SvcValidationError,
      );
      assert.ok(
        facts.errors.some((e) => e.path.startsWith('client_facts')),
        JSON.stringify(facts.errors),
      );
      const ticked = await rejection(
        svc.consentRecords.create({
          flow_id: flowId,
          subject: { email: freshEmail() },
          decisions: { ...grantAll, newsletter: { decision: 'granted', default_checked: true } },
        }),
        SvcValidationError,
      );
      assert.ok(
        ticked.errors.some((e) => e.code === 'default_checked'),
        JSON.stringify(ticked.errors),
      );
    });

    it('withdraws some purposes, then the rest', async () => {
      const record = await svc.consentRecords.create({ flow_id: flowId, subject: { email: freshEmail() }, decisions: grantAll });
      const partly = await svc.consentRecords.withdraw(record.id, { purposes: ['research'], event_channel: 'mailing_tool' });
      const outcome = (r: typeof record, key: string) => r.purposes.find((p) => p.key === key)?.outcome;
      assert.equal(outcome(partly, 'research'), 'revoked');
      assert.equal(outcome(partly, 'newsletter'), 'granted');
      assert.equal(partly.status, 'fulfilled');

      const all = await svc.consentRecords.withdraw(record.id);
      assert.equal(outcome(all, 'newsletter'), 'revoked');
      assert.equal(outcome(all, 'analytics'), 'objected');
      assert.equal(all.status, 'revoked');
      assert.deepEqual(await svc.consentRecords.get(record.id), all);
    });

    it('lists records newest first, filtered, one page or every page, and refuses a bad filter', async () => {
      const listFlow = await createRecordFlow(svc, 'Listed signup');
      const ada = freshEmail('ada');
      const made = [];
      // Captured a minute apart (the server's test clock runs at or ahead of this one, so none is in its future).
      for (const [i, email] of [ada, freshEmail(), ada].entries()) {
        const captured_at = new Date(Date.now() - (3 - i) * 60_000).toISOString();
        made.push(
          await svc.consentRecords.create({
            flow_id: listFlow,
            subject: { email, external_id: 'crm-list' },
            decisions: grantAll,
            captured_at,
          }),
        );
      }
      await svc.consentRecords.withdraw(made[1]!.id);
      const ids = (records: { id: string }[]) => records.map((r) => r.id);
      const newestFirst = ids(made).reverse();

      const first = await svc.consentRecords.list({ flow_id: listFlow, limit: 2 }).page();
      assert.deepEqual(ids(first.items), newestFirst.slice(0, 2));
      assert.equal(typeof first.nextCursor, 'string');
      const rest = await svc.consentRecords.list({ flow_id: listFlow, limit: 2, cursor: first.nextCursor! }).page();
      assert.deepEqual(ids(rest.items), newestFirst.slice(2));
      assert.equal(rest.nextCursor, null);

      const walked = [];
      for await (const record of svc.consentRecords.list({ flow_id: listFlow, limit: 1 })) walked.push(record);
      assert.deepEqual(ids(walked), newestFirst);
      const pages = [];
      for await (const page of svc.consentRecords.list({ flow_id: listFlow, limit: 2 }).pages()) pages.push(ids(page.items));
      assert.deepEqual(pages, [newestFirst.slice(0, 2), newestFirst.slice(2)]);

      const only = async (query: Parameters<SvcClient['consentRecords']['list']>[0]) =>
        ids((await svc.consentRecords.list({ flow_id: listFlow, ...query }).page()).items);
      assert.deepEqual(await only({ subject: { email: ada.toUpperCase() } }), [made[2]!.id, made[0]!.id]);
      assert.deepEqual(await only({ subject: { external_id: 'crm-list' }, status: 'revoked' }), [made[1]!.id]);
      assert.deepEqual(await only({ status: 'fulfilled', purpose: 'newsletter' }), [made[2]!.id, made[0]!.id]);
      assert.deepEqual(await only({ captured_since: made[2]!.captured_at! }), [made[2]!.id]);
      assert.deepEqual(await only({ captured_since: '2999-01-01T00:00:00Z' }), []);

      const bad = await rejection(svc.consentRecords.list({ status: 'partial' as never }).page(), SvcBadRequestError);
      assert.match(bad.message, /status/);
      const cursor = await rejection(svc.consentRecords.list({ cursor: 'not-a-cursor' }).page(), SvcBadRequestError);
      assert.equal(cursor.reason, 'invalid_cursor');
    });

    it('throws SvcNotFoundError for an unknown record', async () => {
      await rejection(svc.consentRecords.get('cr_nothing'), SvcNotFoundError);
      await rejection(svc.consentRecords.withdraw('cr_nothing'), SvcNotFoundError);
    });

    it('is refused to a publishable key by the server too (403), whatever the types say', async () => {
      const page = connect({ baseUrl: server.url, publishableKey: server.sandbox.publishable_key });
      const err = await rejection(
        createConsentRecord(page as never, { flow_id: flowId, subject: { email: freshEmail() }, decisions: grantAll }),
        SvcPermissionError,
      );
      assert.equal(err.reason, 'publishable_key_not_allowed');
    });
  });

  describe('consentRecords.imports', () => {
    const rows = (n: number, prefix: string): ImportRow[] =>
      Array.from({ length: n }, (_, i) => ({
        subject: { email: `${prefix}-${i}@example.com`, external_id: `${prefix}-ext-${i}` },
        decisions: grantAll,
        captured_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
      }));

    it('dry-runs an import: every row reported, nothing written, nothing stored', async () => {
      const report = await svc.consentRecords.imports.create({ flow_id: flowId, records: rows(3, 'dry'), dry_run: true });
      assert.equal(report.dry_run, true);
      assert.equal(report.row_count, 3);
      assert.equal(report.accepted_count, 3);
      assert.ok(report.results.every((r) => r.outcome === 'accepted' && r.record_id === null));
      await rejection(svc.consentRecords.imports.get(report.id), SvcNotFoundError);
      await rejection(svc.consentStatus.get(server.sandbox.application_id, { subject: { email: 'dry-0@example.com' } }), SvcNotFoundError);
    });

    it('imports rows, refusing one by name while the others proceed, and reads the import back', async () => {
      const records = [
        ...rows(3, 'imp'),
        { ...rows(1, 'imp-bad')[0]!, decisions: { ...grantAll, unheard_of: { decision: 'granted' as const } } },
      ];
      const done = await svc.consentRecords.imports.create({ flow_id: flowId, records }, { idempotencyKey: randomUUID() });
      assert.equal(done.status, 'completed');
      assert.equal(done.accepted_count, 3);
      assert.equal(done.refused_count, 1);
      const refused = done.results.find((r) => r.outcome === 'refused')!;
      assert.equal(refused.index, 3);
      assert.equal(refused.code, 'unknown_purpose');
      assert.equal(refused.purpose, 'unheard_of');
      assert.deepEqual(await svc.consentRecords.imports.get(done.id), done);
      const imported = await svc.consentRecords.get(done.results[0]!.record_id!);
      assert.equal(imported.channel, 'imported');
    });

    it('re-runs an import with the same idempotency key without creating a record twice', async () => {
      const key = randomUUID();
      const first = await svc.consentRecords.imports.create({ flow_id: flowId, records: rows(4, 'rerun') }, { idempotencyKey: key });
      const again = await svc.consentRecords.imports.create({ flow_id: flowId, records: rows(4, 'rerun') }, { idempotencyKey: key });
      // The server replays the first answer for the same Idempotency-Key: the same import, nothing run twice.
      assert.deepEqual(again, first);
      // The rows carry idempotency keys derived from it too, so a new import of the same rows finds them.
      const rows4 = rows(4, 'rerun').map((row, index) => ({ ...row, idempotency_key: `${key}:${index}` }));
      const fresh = await svc.consentRecords.imports.create({ flow_id: flowId, records: rows4 });
      assert.notEqual(fresh.id, first.id);
      assert.deepEqual(
        fresh.results.map((r) => r.record_id),
        first.results.map((r) => r.record_id),
      );
      assert.ok(
        fresh.results.every((r) => r.existing === true),
        'every row found its earlier record',
      );
    });

    it('retries an import whose answer was lost, finding the records the first attempt made', async () => {
      const lossy = losingFirstAnswer('/api/v1/consent_records/imports');
      const client = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token, fetch: lossy.fetch });
      const done = await client.consentRecords.imports.create(
        { flow_id: flowId, records: rows(2, 'lossy') },
        { idempotencyKey: randomUUID() },
      );
      assert.equal(lossy.posts(), 2);
      const made = (JSON.parse(lossy.lost()!) as { import: { id: string; results: { record_id: string }[] } }).import;
      // The retry carries the same Idempotency-Key, so the server answers with the import the lost answer described.
      assert.equal(done.id, made.id);
      assert.deepEqual(
        done.results.map((r) => r.record_id),
        made.results.map((r) => r.record_id),
      );
    });

    it('refuses more than 5,000 rows before anything runs', async () => {
      const err = await rejection(svc.consentRecords.imports.create({ flow_id: flowId, records: rows(5001, 'big') }), SvcValidationError);
      assert.ok(
        err.errors.some((e) => e.path === 'records'),
        JSON.stringify(err.errors.slice(0, 3)),
      );
    });
  });

  describe('consentStatus', () => {
    let email: string;
    let recordId: string;
    before(async () => {
      email = freshEmail('status');
      recordId = (
        await svc.consentRecords.create({
          flow_id: flowId,
          subject: { email, external_id: 'crm-status' },
          decisions: { ...grantAll, research: { decision: 'declined' } },
        })
      ).id;
    });

    it("reads one person's status by email, external id and person id", async () => {
      const byEmail = await svc.consentStatus.get(server.sandbox.application_id, { subject: { email } });
      assert.equal(byEmail.application_id, server.sandbox.application_id);
      assert.equal(byEmail.overall_status, 'partial');
      const newsletter = byEmail.purposes.find((p) => p.purpose === 'newsletter')!;
      assert.equal(newsletter.status, 'granted');
      assert.equal(newsletter.record_id, recordId);
      assert.ok(newsletter.granted_at && newsletter.expires_at);
      assert.equal(byEmail.purposes.find((p) => p.purpose === 'research')?.status, 'declined');
      assert.deepEqual(byEmail.subject_ref, { email, external_id: 'crm-status' });

      assert.deepEqual(await svc.consentStatus.get(server.sandbox.application_id, { subject: { external_id: 'crm-status' } }), byEmail);
      assert.deepEqual(await svc.consentStatus.get(server.sandbox.application_id, { person_id: byEmail.user_id }), byEmail);
    });

    it('narrows to one flow', async () => {
      const status = await svc.consentStatus.get(server.sandbox.application_id, { subject: { email }, flow_id: flowId });
      assert.ok(status.purposes.every((p) => p.flow_id === flowId));
    });

    it('follows a withdrawal', async () => {
      await svc.consentRecords.withdraw(recordId, { purposes: ['newsletter'] });
      const status = await svc.consentStatus.get(server.sandbox.application_id, { subject: { email } });
      assert.equal(status.purposes.find((p) => p.purpose === 'newsletter')?.status, 'revoked');
    });

    it('throws SvcNotFoundError for a person no record names, and for an unknown application', async () => {
      const err = await rejection(
        svc.consentStatus.get(server.sandbox.application_id, { subject: { email: 'nobody@example.com' } }),
        SvcNotFoundError,
      );
      assert.equal(err.reason, 'subject_not_found');
      await rejection(svc.consentStatus.get('tp_dev_nothing', { subject: { email } }), SvcNotFoundError);
    });
  });
});
