// The audit trail through the client: events over several pages, an anchor made on the test clock, its witness
// receipt, and the whole chain verified through `svc.audit.verify()`, including a row changed behind the API's back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, type SvcClient } from '../lib/client.js';
import { SvcNotFoundError } from '../lib/errors.js';
import { localWitnessKeys, type AuditEvent } from '@svc/schemas';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { createRecordFlow, freshEmail, grantAll } from '../testing/records.test.helper.js';
import { verifyAuditChain } from '../verify/audit-chain.js';
import { rejection } from '../testing/rejection.test.helper.js';

/** The server's SQLite database (the reference server's context, which the client's TestServer type leaves out). */
interface Database {
  prepare(sql: string): { run(...params: unknown[]): unknown; pluck(): { get(...params: unknown[]): unknown } };
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('audit against the reference server', () => {
  let server: TestServer;
  let svc: SvcClient;
  let flowId: string;
  let db: Database;

  const record = (decisions: Record<string, { decision: 'granted' | 'declined' }> = grantAll, email = freshEmail('audit')) =>
    svc.consentRecords.create({ flow_id: flowId, subject: { email }, decisions });
  const allEvents = async (): Promise<AuditEvent[]> => {
    const events: AuditEvent[] = [];
    for await (const event of svc.audit.events({ limit: 1000 })) events.push(event);
    return events;
  };

  before(async () => {
    server = await startTestServer();
    svc = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
    db = (server as unknown as { context: { db: Database } }).context.db;
    flowId = await createRecordFlow(svc);
    const email = freshEmail('audit');
    const first = await record(grantAll, email);
    await record({ newsletter: { decision: 'declined' }, research: { decision: 'declined' }, analytics: { decision: 'declined' } });
    await record({ ...grantAll, newsletter: { decision: 'declined' } }, email);
    await svc.consentRecords.withdraw(first.id, { purposes: ['research'] });
    await record();
  });
  after(() => server.dispose());

  it('lists the events in sequence, over several pages', async () => {
    const pages = [];
    for await (const page of svc.audit.events({ limit: 2 }).pages()) pages.push(page.items.map((e) => e.sequence));
    assert.ok(pages.length >= 3, `walked ${pages.length} pages`);
    const sequences = pages.flat();
    assert.deepEqual(
      sequences,
      sequences.map((_, i) => i + 1),
      'sequence 1, 2, 3, ... without gaps',
    );
    const events = await allEvents();
    assert.deepEqual(
      events.map((e) => e.sequence),
      sequences,
    );
    assert.ok(
      events.some((e) => e.type === 'consent.granted') && events.some((e) => e.type === 'consent.revoked'),
      events.map((e) => e.type).join(),
    );
    assert.ok(events.every((e) => e.application_id === server.sandbox.application_id && e.anchor_id === null));
    assert.ok(!JSON.stringify(events).includes('@example.com'), 'no email in the trail');
    assert.deepEqual(
      (await svc.audit.events({ application_id: server.sandbox.application_id, limit: 2 }).page()).items,
      events.slice(0, 2),
    );
  });

  it('anchors the events on the next fifteen-minute boundary of the test clock, with a witness receipt', async () => {
    const events = await allEvents();
    await svc.testClock.advance(15 * 60);
    const anchor = await waitFor('an anchor', async () => (await svc.audit.anchors().page()).items[0]);
    assert.equal(anchor.sequence_from, 1);
    assert.equal(anchor.sequence_to, events.length);
    assert.equal(anchor.record_count, events.length);
    assert.equal(anchor.previous_anchor_id, null);
    assert.deepEqual(await svc.audit.getAnchor(anchor.id), anchor);

    const receipts = await svc.audit.anchorReceipts(anchor.id);
    assert.equal(receipts.length, 1);
    assert.equal(receipts[0]?.status, 'witnessed');
    const witness = await svc.audit.witnessConfiguration();
    assert.equal(receipts[0]?.witness_id, witness.witnesses[0]?.witness_id);
    assert.equal(witness.anchor_interval_seconds, 900);
    assert.ok((await allEvents()).every((e) => e.anchor_id === anchor.id));
  });

  it('verifies the whole chain through the client, witness included', async () => {
    const events = await allEvents();
    const [anchor] = (await svc.audit.anchors().page()).items;
    const [receipt] = await svc.audit.anchorReceipts(anchor!.id);
    assert.deepEqual(await svc.audit.verify({ requireWitness: true }), {
      ok: true,
      events: events.length,
      anchors: 1,
      anchored_through: events.length,
      witnessed: 1,
      externally_witnessed: 0,
      witnesses: [{ anchor_id: anchor!.id, witness_id: receipt!.witness_id, external: false, witnessed_at: receipt!.witnessed_at }],
    });
    assert.deepEqual(await svc.audit.verify({ applicationId: server.sandbox.application_id }), await svc.audit.verify());
  });

  it('accepts events after the last anchor, and links the next anchor to the first', async () => {
    const [first] = (await svc.audit.anchors().page()).items;
    await record();
    const pending = await svc.audit.verify();
    assert.ok(pending.ok && pending.anchored_through === first!.sequence_to && pending.events === first!.sequence_to! + 1);

    await svc.testClock.advance(15 * 60);
    const second = await waitFor('a second anchor', async () => (await svc.audit.anchors().page()).items[1]);
    assert.equal(second.previous_anchor_id, first!.id);
    const anchors = [];
    for await (const anchor of svc.audit.anchors({ limit: 1 })) anchors.push(anchor.id);
    assert.deepEqual(anchors, [first!.id, second.id], 'both anchors, one page each');
    const verdict = await svc.audit.verify({ requireWitness: true });
    assert.deepEqual(verdict.ok && { ...verdict, witnesses: verdict.witnesses.map((w) => w.anchor_id) }, {
      ok: true,
      events: second.sequence_to,
      anchors: 2,
      anchored_through: second.sequence_to,
      witnessed: 2,
      externally_witnessed: 0,
      witnesses: [first!.id, second.id],
    });
    // The local witness is no external one: requiring one fails on the first anchor.
    const external = await svc.audit.verify({ requireExternalWitness: true });
    assert.deepEqual(external.ok ? null : [external.reason, external.anchor_id], ['witness_missing', first!.id]);
  });

  it('hands out the trail for offline verification, which names an event changed after the fact', async () => {
    const trail = await svc.audit.trail();
    assert.ok(trail.anchors.every((a) => a.receipts?.length === 1));
    assert.ok(trail.keys.issuer.keys.length >= 1 && trail.keys.witness!.keys.length >= 1);
    const stored = JSON.parse(JSON.stringify(trail)) as typeof trail; // as kept on disk
    assert.equal((await verifyAuditChain(stored.events, stored.anchors, stored.keys)).ok, true);

    const changed = structuredClone(stored);
    changed.events[2]!.data = { ...changed.events[2]!.data, purposes: [] };
    const verdict = await verifyAuditChain(changed.events, changed.anchors, changed.keys);
    assert.deepEqual(verdict.ok ? undefined : [verdict.sequence, verdict.reason], [3, 'hash_mismatch']);
  });

  it('names the event whose stored row was changed directly in SQLite', async () => {
    const target = 2;
    const original = db
      .prepare('SELECT data FROM audit_events WHERE application_id = ? AND sequence = ?')
      .pluck()
      .get(server.sandbox.application_id, target) as string;
    const altered = original.replace('"declined"', '"granted"');
    assert.notEqual(altered, original);
    db.prepare('UPDATE audit_events SET data = ? WHERE application_id = ? AND sequence = ?').run(
      altered,
      server.sandbox.application_id,
      target,
    );
    try {
      const verdict = await svc.audit.verify();
      assert.equal(verdict.ok, false);
      if (!verdict.ok) {
        assert.equal(verdict.sequence, target);
        assert.equal(verdict.reason, 'hash_mismatch');
      }
    } finally {
      db.prepare('UPDATE audit_events SET data = ? WHERE application_id = ? AND sequence = ?').run(
        original,
        server.sandbox.application_id,
        target,
      );
    }
    assert.equal((await svc.audit.verify()).ok, true);
  });

  it("uses the keys it is given: without the witness's, a witness cannot be required", async () => {
    const issuer = await svc.receipts.jwks();
    const verdict = await svc.audit.verify({ keys: { issuer }, requireWitness: true });
    assert.deepEqual(verdict.ok ? undefined : verdict.reason, 'witness_missing');
    const wrong = await svc.audit.verify({ keys: { issuer: localWitnessKeys(await svc.audit.witnessConfiguration()) as typeof issuer } });
    assert.deepEqual(wrong.ok ? undefined : wrong.reason, 'anchor_signature_invalid');
  });

  it('reads an empty trail for an application without decisions, and throws SvcNotFoundError for an unknown one', async () => {
    const { application } = await svc.applications.create({ name: 'Quiet' });
    assert.deepEqual((await svc.audit.events({ application_id: application.id }).page()).items, []);
    assert.deepEqual(await svc.audit.verify({ applicationId: application.id }), {
      ok: true,
      events: 0,
      anchors: 0,
      anchored_through: null,
      witnessed: 0,
      externally_witnessed: 0,
      witnesses: [],
    });
    await rejection(svc.audit.events({ application_id: 'tp_dev_nothing' }).page(), SvcNotFoundError);
    await rejection(svc.audit.getAnchor('anc_nothing'), SvcNotFoundError);
    await rejection(svc.audit.anchorReceipts('anc_nothing'), SvcNotFoundError);
  });
});
