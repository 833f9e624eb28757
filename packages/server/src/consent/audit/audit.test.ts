import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { merkleTreeHash, verifyAuditChain, type AnchorWithReceipts } from '@svc/client';
import { localWitnessKeys, type AnchorReceipt, type AuditAnchor, type AuditEvent, type WitnessConfiguration } from '@svc/schemas';
import { createActiveFlow, createRecord, grantAll } from '../records/test-support.js';
import { createConsentRecord } from '../records/service.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { anchorNow } from './anchor.js';
import { appendAuditEvent } from './chain.js';
import { merkleRoot } from './merkle.js';

/** RFC 6962 test vectors (the certificate-transparency reference leaves and roots). */
const VECTOR_LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'];
const VECTOR_ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];

describe('RFC 6962 Merkle tree hashing', () => {
  it('reproduces the reference roots for 1 to 8 leaves, on the server and in @svc/client', async () => {
    const leaves = VECTOR_LEAVES.map((h) => Buffer.from(h, 'hex'));
    for (let n = 1; n <= 8; n++) {
      assert.equal(merkleRoot(leaves.slice(0, n)), VECTOR_ROOTS[n - 1], `server, ${n} leaves`);
      assert.equal(await merkleTreeHash(leaves.slice(0, n)), VECTOR_ROOTS[n - 1], `client, ${n} leaves`);
    }
  });

  it('agrees between server and client for larger, uneven trees', async () => {
    for (const n of [9, 13, 31, 33, 100]) {
      const leaves = Array.from({ length: n }, (_, i) => Buffer.from([i, (i * 7) % 256, 42]));
      assert.equal(await merkleTreeHash(leaves), merkleRoot(leaves), `${n} leaves`);
    }
  });
});

describe('the audit trail', () => {
  let server: TestServer;
  let flowId: string;
  let keys: { issuer: { keys: never[] }; witness: { keys: never[] } };
  let n = 0;
  const fresh = () => `a${++n}@example.com`;
  const list = async <T>(path: string, field: string): Promise<T[]> => {
    const items: T[] = [];
    let cursor: string | null = null;
    do {
      const res = await server.api(`${path}${path.includes('?') ? '&' : '?'}limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200);
      const page = (await res.json()) as Record<string, unknown> & { next_cursor: string | null };
      items.push(...(page[field] as T[]));
      cursor = page.next_cursor;
    } while (cursor);
    return items;
  };
  const events = () => list<AuditEvent>('/api/v1/audit/events', 'audit_events');
  const anchorsWithReceipts = async (): Promise<AnchorWithReceipts[]> => {
    const anchors = await list<AuditAnchor>('/api/v1/audit/anchors', 'anchors');
    return Promise.all(
      anchors.map(async (a) => ({
        ...a,
        receipts: ((await (await server.api(`/api/v1/audit/anchors/${a.id}/receipts`)).json()) as { receipts: AnchorReceipt[] }).receipts,
      })),
    );
  };

  before(async () => {
    server = await startTestServer();
    flowId = await createActiveFlow(server);
    const config = (await (await fetch(`${server.url}/.well-known/witness-configuration`)).json()) as WitnessConfiguration;
    keys = {
      issuer: (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as never,
      witness: localWitnessKeys(config) as never,
    };
  });
  after(() => server.dispose());

  it('appends every decision (granted, denied, modified, revoked) to the chain, without personal data', async () => {
    const person = fresh();
    const first = await createRecord(server, {
      flow_id: flowId,
      subject: { email: person, external_id: 'crm-secret-id' },
      decisions: grantAll,
    });
    await createRecord(server, {
      flow_id: flowId,
      subject: { email: fresh() },
      decisions: { newsletter: { decision: 'declined' }, research: { decision: 'declined' } },
    });
    await createRecord(server, {
      flow_id: flowId,
      subject: { email: person },
      decisions: { ...grantAll, newsletter: { decision: 'declined' } },
    });
    await server.api(`/api/v1/consent_records/${first.id}/withdraw`, { method: 'POST', json: { purposes: ['research'] } });
    const chain = await events();
    assert.deepEqual(
      chain.map((e) => `${e.sequence}:${e.type}`),
      ['1:consent.granted', '2:consent.denied', '3:consent.modified', '4:consent.revoked', '5:consent.revoked'],
    );
    assert.deepEqual(
      chain.map((e) => e.data.decision),
      ['granted', 'denied', 'modified', 'revoked', 'revoked'],
    );
    assert.equal(chain[0]!.previous_hash, '0'.repeat(64));
    for (let i = 1; i < chain.length; i++) assert.equal(chain[i]!.previous_hash, chain[i - 1]!.hash);
    assert.deepEqual(chain[2]!.data.changed, [{ key: 'newsletter', from: 'granted', to: 'declined' }]);
    assert.equal(chain[3]!.data.event_channel, 'newer_record');
    const text = JSON.stringify(chain);
    assert.equal(text.includes('@example.com'), false, 'no email in the trail');
    assert.equal(text.includes('crm-secret-id'), false, 'no organisation id of the person in the trail');
    assert.deepEqual(await verifyAuditChain(chain, [], keys), {
      ok: true,
      events: 5,
      anchors: 0,
      anchored_through: null,
      witnessed: 0,
      externally_witnessed: 0,
      witnesses: [],
    });
  });

  it('writes the audit event in the same transaction as the change: a rolled-back change leaves no event', () => {
    const ctx = server.context;
    const count = () => ctx.db.prepare('SELECT count(*) FROM audit_events').pluck().get() as number;
    const records = () => ctx.db.prepare('SELECT count(*) FROM consent_records').pluck().get() as number;
    const before = [count(), records()];
    assert.throws(
      () =>
        ctx.db.transaction(() => {
          createConsentRecord(ctx, {
            accountId: accountOf(server),
            flowId,
            channel: 'controller_attested',
            subject: { email: fresh() },
            decisions: grantAll,
          });
          assert.equal(count(), before[0]! + 1);
          throw new Error('the change fails after the record');
        })(),
      /the change fails/,
    );
    assert.deepEqual([count(), records()], before);
  });

  it('anchors new events every fifteen minutes of the server clock: a signed Merkle root, linked, countersigned by the witness', async () => {
    assert.equal((await anchorsWithReceipts()).length, 0);
    server.advance(15 * 60);
    const first = await waitFor(async () => (await anchorsWithReceipts())[0]);
    assert.match(first.id, /^anc_/);
    assert.equal(first.previous_anchor_id, null);
    assert.equal(first.sequence_from, 1);
    assert.equal(first.record_count, first.sequence_to! - first.sequence_from! + 1);
    assert.equal(first.type, 'rfc6962_merkle_root');
    assert.equal(first.format_version, 'svc-audit-anchor/1');
    assert.equal(first.key_version, '1');
    assert.equal(first.application_id, server.sandbox.application_id);
    assert.deepEqual(
      first.receipts?.map((r) => [r.status, r.witness_id, r.witness_key_version]),
      [['witnessed', 'svc-local-witness', '1']],
    );
    const read = await server.api(`/api/v1/audit/anchors/${first.id}`);
    const { receipts: _r, ...withoutReceipts } = first;
    assert.deepEqual(((await read.json()) as { anchor: AuditAnchor }).anchor, withoutReceipts);

    // Nothing new, nothing anchored; new events go into a second anchor linked to the first.
    assert.deepEqual(await anchorNow(server.context), []);
    await createRecord(server, { flow_id: flowId, subject: { email: fresh() }, decisions: grantAll });
    const [second] = await anchorNow(server.context);
    assert.equal(second!.previous_anchor_id, first.id);
    assert.equal(second!.sequence_from, first.sequence_to! + 1);
    const chain = await events();
    assert.ok(chain.every((e) => e.anchor_id !== null));
    const anchors = await anchorsWithReceipts();
    const verified = await verifyAuditChain(chain, anchors, keys, { requireWitness: true });
    assert.ok(verified.ok);
    const { witnesses, ...counts } = verified;
    assert.deepEqual(counts, {
      ok: true,
      events: chain.length,
      anchors: 2,
      anchored_through: chain.length,
      witnessed: 2,
      externally_witnessed: 0,
    });
    assert.deepEqual(
      witnesses.map((w) => [w.anchor_id, w.witness_id, w.external]),
      anchors.map((a) => [a.id, 'svc-local-witness', false]),
    );
  });

  it('names the row that was changed directly in SQLite', async () => {
    await createRecord(server, { flow_id: flowId, subject: { email: fresh() }, decisions: grantAll });
    await createRecord(server, { flow_id: flowId, subject: { email: fresh() }, decisions: grantAll });
    const db = server.context.db;
    const target = 3;
    const original = db.prepare('SELECT data FROM audit_events WHERE sequence = ?').pluck().get(target) as string;
    const altered = original.replace('"granted"', '"declined"');
    assert.notEqual(altered, original);
    db.prepare('UPDATE audit_events SET data = ? WHERE sequence = ?').run(altered, target);
    try {
      const result = await verifyAuditChain(await events(), await anchorsWithReceipts(), keys);
      assert.equal(result.ok, false);
      assert.deepEqual(result.ok ? undefined : [result.sequence, result.reason], [target, 'hash_mismatch']);
    } finally {
      db.prepare('UPDATE audit_events SET data = ? WHERE sequence = ?').run(original, target);
    }

    // Rewriting the row's hash too breaks the next row's link.
    const hash = db.prepare('SELECT hash FROM audit_events WHERE sequence = 5').pluck().get() as string;
    db.prepare('UPDATE audit_events SET hash = ? WHERE sequence = 5').run('f'.repeat(64));
    try {
      const result = await verifyAuditChain(await events(), await anchorsWithReceipts(), keys);
      assert.deepEqual(result.ok ? undefined : [result.sequence, result.reason], [5, 'hash_mismatch']);
    } finally {
      db.prepare('UPDATE audit_events SET hash = ? WHERE sequence = 5').run(hash);
    }
    assert.equal((await verifyAuditChain(await events(), await anchorsWithReceipts(), keys)).ok, true);
  });

  it('catches a rewritten history, a forged anchor signature and a forged witness receipt', async () => {
    const chain = await events();
    const anchors = await anchorsWithReceipts();
    // Rewrite event 2 and re-chain everything after it: every hash fits, but the anchored Merkle root does not.
    const rewritten = structuredClone(chain);
    rewritten[1]!.data = { ...rewritten[1]!.data, purposes: [] };
    for (let i = 1; i < rewritten.length; i++) {
      rewritten[i]!.previous_hash = rewritten[i - 1]!.hash;
      rewritten[i]!.hash = await rehash(rewritten[i]!);
    }
    const rewrittenResult = await verifyAuditChain(rewritten, anchors, keys);
    assert.deepEqual(rewrittenResult.ok ? undefined : [rewrittenResult.reason, rewrittenResult.anchor_id], [
      'merkle_root_mismatch',
      anchors[0]!.id,
    ]);

    const forged = structuredClone(anchors);
    forged[1]!.signature = forged[0]!.signature;
    const forgedResult = await verifyAuditChain(chain, forged, keys);
    assert.deepEqual(forgedResult.ok ? undefined : forgedResult.reason, 'anchor_signature_invalid');

    const witness = structuredClone(anchors);
    witness[0]!.receipts![0]!.witnessed_at = '2020-01-01T00:00:00.000Z';
    const witnessResult = await verifyAuditChain(chain, witness, keys);
    assert.deepEqual(witnessResult.ok ? undefined : witnessResult.reason, 'witness_signature_invalid');

    const unlinked = [anchors[1]!, anchors[0]!];
    const unlinkedResult = await verifyAuditChain(chain, unlinked, keys);
    assert.deepEqual(unlinkedResult.ok ? undefined : unlinkedResult.reason, 'anchor_link_broken');

    const gap = chain.filter((e) => e.sequence !== 2);
    const gapResult = await verifyAuditChain(gap, [], keys);
    assert.deepEqual(gapResult.ok ? undefined : [gapResult.sequence, gapResult.reason], [3, 'sequence_gap']);
  });

  it('describes the local witness at /.well-known/witness-configuration, with a key kept in the data directory', async () => {
    const config = (await (await fetch(`${server.url}/.well-known/witness-configuration`)).json()) as WitnessConfiguration;
    assert.equal(config.external, false, 'the local witness says it is not external');
    assert.equal(config.anchor_interval_seconds, 900);
    const [local] = config.witnesses;
    assert.equal(config.witnesses.length, 1);
    assert.ok(local?.kind === 'local');
    assert.equal(local.witness_id, 'svc-local-witness');
    assert.match(local.description, /local witness, for development/);
    assert.deepEqual(local.algorithms, ['ES256']);
    assert.equal(local.jwks.keys.length, 1);
    assert.equal('d' in local.jwks.keys[0]!, false, 'no private key material');
    const issuer = keys.issuer.keys.map((k: { kid?: string }) => k.kid);
    assert.equal(issuer.includes(local.jwks.keys[0]!.kid as string), false, 'the witness key is its own');
  });

  it('answers 404 for unknown anchors and applications, 400 for bad list queries', async () => {
    assert.equal((await server.api('/api/v1/audit/anchors/anc_nope')).status, 404);
    assert.equal((await server.api('/api/v1/audit/anchors/anc_nope/receipts')).status, 404);
    assert.equal((await server.api('/api/v1/audit/events?application_id=tp_dev_nope')).status, 404);
    assert.equal((await server.api('/api/v1/audit/events?limit=0')).status, 400);
    assert.equal((await server.api('/api/v1/audit/events?limit=5000')).status, 400);
    assert.equal((await server.api('/api/v1/audit/events?cursor=garbage!')).status, 400);
    assert.equal((await server.api('/api/v1/audit/events?colour=red')).status, 400);
  });
});

describe('anchoring across a restart and on close', () => {
  it('keeps the anchor chain and the witness key across a restart, and stops its timer when the server closes', async () => {
    const first = await startTestServer();
    const dataDir = first.dataDir;
    const flowId = await createActiveFlow(first);
    await createRecord(first, { flow_id: flowId, subject: { email: 'restart@example.com' }, decisions: grantAll });
    const [a1] = await anchorNow(first.context);
    const witnessKey = (await (await fetch(`${first.url}/.well-known/witness-configuration`)).json()) as WitnessConfiguration;
    await first.close();
    const second = await startTestServer({ dataDir });
    try {
      await createRecord(second, { flow_id: flowId, subject: { email: 'restart@example.com' }, decisions: grantAll });
      const [a2] = await anchorNow(second.context);
      assert.equal(a2!.previous_anchor_id, a1!.id);
      const again = (await (await fetch(`${second.url}/.well-known/witness-configuration`)).json()) as WitnessConfiguration;
      assert.deepEqual(localWitnessKeys(again), localWitnessKeys(witnessKey));
    } finally {
      await second.dispose();
    }
    // After close, anchoring is a no-op rather than an error on a closed database.
    assert.deepEqual(await anchorNow(second.context), []);
  });
});

function accountOf(server: TestServer): string {
  return server.context.db.prepare('SELECT account_id FROM applications WHERE id = ?').pluck().get(server.sandbox.application_id) as string;
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function rehash(event: AuditEvent): Promise<string> {
  const { auditEventHash } = await import('./chain.js');
  return auditEventHash(event);
}
