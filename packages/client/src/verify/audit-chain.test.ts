import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CompactSign, exportJWK, generateKeyPair } from 'jose';
import {
  anchorSigningInput,
  auditHashInput,
  witnessSigningInput,
  type AnchorReceipt,
  type AuditAnchor,
  type AuditEvent,
} from '@svc/schemas';
import { startTimestampAuthority, type TestTimestampAuthority } from '../testing/servers.test.helper.js';
import { merkleTreeHash, verifyAuditChain, verifyTimestampToken, type AnchorWithReceipts } from './audit-chain.js';
import { canonicalBytes, sha256Hex } from './jcs.js';

async function signDetached(value: unknown, key: CryptoKey, kid: string): Promise<string> {
  const jws = await new CompactSign(canonicalBytes(value)).setProtectedHeader({ alg: 'ES256', kid }).sign(key);
  const [h, , s] = jws.split('.');
  return `${h}..${s}`;
}

const hexBytes = (hex: string) => Uint8Array.from(hex.match(/../g)!.map((b) => parseInt(b, 16)));

describe('verifyAuditChain', () => {
  let issuer: { key: CryptoKey; jwks: { keys: never[] } };
  let witness: { key: CryptoKey; jwks: { keys: never[] } };
  let events: AuditEvent[];
  let anchors: AnchorWithReceipts[];

  async function chain(n: number): Promise<AuditEvent[]> {
    const out: AuditEvent[] = [];
    for (let sequence = 1; sequence <= n; sequence++) {
      const base = {
        id: `aev_${sequence}`,
        application_id: 'tp_dev_x',
        sequence,
        type: 'consent.granted',
        occurred_at: `2026-01-01T00:00:0${sequence % 10}.000Z`,
        data: { decision: 'granted', record_id: `cr_${sequence}`, purposes: [{ key: 'newsletter', outcome: 'granted' }] },
        previous_hash: out.at(-1)?.hash ?? '0'.repeat(64),
      };
      out.push({ ...base, hash: await sha256Hex(canonicalBytes(auditHashInput(base))), anchor_id: null });
    }
    return out;
  }

  async function anchor(id: string, covered: AuditEvent[], previous: AuditAnchor | null): Promise<AnchorWithReceipts> {
    const a: AuditAnchor = {
      id,
      application_id: 'tp_dev_x',
      type: 'rfc6962_merkle_root',
      format_version: 'svc-audit-anchor/1',
      signature: '',
      key_version: '1',
      merkle_root: await merkleTreeHash(covered.map((e) => hexBytes(e.hash))),
      issuer_id: 'https://svc.example',
      issuer_key_fingerprint: 'issuer',
      previous_anchor_id: previous?.id ?? null,
      record_count: covered.length,
      sequence_from: covered[0]!.sequence,
      sequence_to: covered.at(-1)!.sequence,
      created_at: '2026-01-01T00:15:00.000Z',
    };
    a.signature = await signDetached(anchorSigningInput(a), issuer.key, 'issuer');
    const receipt: AnchorReceipt = {
      id: `arc_${id}`,
      status: 'witnessed',
      receipt_id: `wr_${id}`,
      witness_id: 'w',
      witness_key_version: '1',
      witness_signature: null,
      witnessed_at: '2026-01-01T00:15:01.000Z',
    };
    receipt.witness_signature = await signDetached(witnessSigningInput(a, receipt), witness.key, 'witness');
    for (const e of covered) e.anchor_id = id;
    return { ...a, receipts: [receipt] };
  }

  before(async () => {
    const make = async (kid: string) => {
      const { privateKey, publicKey } = await generateKeyPair('ES256');
      return { key: privateKey, jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'ES256' }] as never[] } };
    };
    issuer = await make('issuer');
    witness = await make('witness');
    events = await chain(7);
    const first = await anchor('anc_1', events.slice(0, 4), null);
    anchors = [first, await anchor('anc_2', events.slice(4), first)];
  });

  const keys = () => ({ issuer: issuer.jwks, witness: witness.jwks });

  it('accepts an intact chain with its anchors and witness receipts', async () => {
    assert.deepEqual(await verifyAuditChain(events, anchors, keys(), { requireWitness: true }), {
      ok: true,
      events: 7,
      anchors: 2,
      anchored_through: 7,
      witnessed: 2,
      externally_witnessed: 0,
      witnesses: anchors.map((a) => ({ anchor_id: a.id, witness_id: 'w', external: false, witnessed_at: '2026-01-01T00:15:01.000Z' })),
    });
  });

  it('names the first event whose content, hash or link does not fit', async () => {
    const changed = structuredClone(events);
    changed[4]!.data = { ...changed[4]!.data, decision: 'denied' };
    assert.deepEqual(await verifyAuditChain(changed, anchors, keys()), {
      ok: false,
      sequence: 5,
      anchor_id: null,
      reason: 'hash_mismatch',
      message: 'event 5 does not match its hash: it was changed after it was recorded',
    });
    const relinked = structuredClone(events);
    relinked[2]!.previous_hash = 'a'.repeat(64);
    const result = await verifyAuditChain(relinked, anchors, keys());
    assert.deepEqual(result.ok ? null : [result.sequence, result.reason], [3, 'previous_hash_mismatch']);
    const swapped = structuredClone(events);
    [swapped[1], swapped[2]] = [swapped[2]!, swapped[1]!];
    const order = await verifyAuditChain(swapped, anchors, keys());
    assert.deepEqual(order.ok ? null : [order.sequence, order.reason], [3, 'sequence_gap']);
  });

  it('checks anchors: Merkle root, signature, link, witness', async () => {
    const root = structuredClone(anchors);
    root[1]!.merkle_root = root[0]!.merkle_root;
    const a = await verifyAuditChain(events, root, keys());
    assert.deepEqual(a.ok ? null : [a.reason, a.anchor_id, a.sequence], ['merkle_root_mismatch', 'anc_2', 5]);
    const unsigned = structuredClone(anchors);
    unsigned[0]!.key_version = '2';
    assert.equal(((await verifyAuditChain(events, unsigned, keys())) as { reason: string }).reason, 'anchor_signature_invalid');
    assert.equal(
      ((await verifyAuditChain(events, anchors, { issuer: witness.jwks })) as { reason: string }).reason,
      'anchor_signature_invalid',
    );
    const noWitnessKeys = await verifyAuditChain(events, anchors, { issuer: issuer.jwks });
    assert.deepEqual(noWitnessKeys, {
      ok: true,
      events: 7,
      anchors: 2,
      anchored_through: 7,
      witnessed: 0,
      externally_witnessed: 0,
      witnesses: [],
    });
    assert.equal(
      ((await verifyAuditChain(events, anchors, { issuer: issuer.jwks }, { requireWitness: true })) as { reason: string }).reason,
      'witness_missing',
    );
    assert.equal(((await verifyAuditChain(events, [anchors[1]!, anchors[0]!], keys())) as { reason: string }).reason, 'anchor_link_broken');
    assert.equal(((await verifyAuditChain(events.slice(0, 5), anchors, keys())) as { reason: string }).reason, 'anchor_range');
  });

  it('refuses input that is not a chain', async () => {
    assert.equal((await verifyAuditChain(null as never, [], keys())).ok, false);
    assert.equal(((await verifyAuditChain([{ sequence: 1 } as never], [], keys())) as { reason: string }).reason, 'malformed');
    const mixed = structuredClone(events);
    mixed[3]!.application_id = 'tp_dev_y';
    assert.equal(((await verifyAuditChain(mixed, [], keys())) as { reason: string }).reason, 'application_mismatch');
  });

  describe('with RFC 3161 time-stamps', () => {
    let authority: TestTimestampAuthority;
    let other: TestTimestampAuthority;
    let stamped: AnchorWithReceipts[];
    const TSA = 'https://tsa.example/tsr';

    /** The receipt an RFC 3161 authority gives for the anchor, as the server stores it. */
    async function timestampReceipt(a: AuditAnchor, by: TestTimestampAuthority, ca = by.caPem): Promise<AnchorReceipt> {
      const token = await by.stamp(a.signature);
      const read = await verifyTimestampToken(token, a.signature, ca);
      assert.ok(read.ok, JSON.stringify(read));
      return {
        id: `arc_tsa_${a.id}`,
        status: 'witnessed',
        receipt_id: read.serial_number,
        witness_id: TSA,
        witness_key_version: read.signer_certificate_sha256,
        witness_signature: token,
        witnessed_at: read.gen_time,
      };
    }

    before(async () => {
      [authority, other] = await Promise.all([
        startTimestampAuthority({ key: 'ec' }),
        startTimestampAuthority({ name: 'Another CA', key: 'ec' }),
      ]);
      stamped = await Promise.all(
        anchors.map(async (a) => ({ ...a, receipts: [...(a.receipts ?? []), await timestampReceipt(a, authority)] })),
      );
    });
    after(() => Promise.all([authority.close(), other.close()]));

    it('checks every token against the CA and says which anchors are witnessed externally', async () => {
      const verdict = await verifyAuditChain(
        events,
        stamped,
        { ...keys(), timestampAuthorities: authority.caPem },
        { requireExternalWitness: true },
      );
      assert.ok(verdict.ok, JSON.stringify(verdict));
      assert.equal(verdict.witnessed, 4);
      assert.equal(verdict.externally_witnessed, 2);
      assert.deepEqual(
        verdict.witnesses.filter((w) => w.external),
        stamped.map((a) => ({ anchor_id: a.id, witness_id: TSA, external: true, witnessed_at: a.receipts![1]!.witnessed_at })),
      );
      // Without the CA the tokens are not checked, and an external witness cannot be required.
      const unchecked = await verifyAuditChain(events, stamped, keys());
      assert.deepEqual(unchecked.ok && [unchecked.witnessed, unchecked.externally_witnessed], [2, 0]);
      const required = await verifyAuditChain(events, stamped, keys(), { requireExternalWitness: true });
      assert.deepEqual(required.ok ? null : [required.reason, required.anchor_id], ['witness_missing', 'anc_1']);
      // The local witness alone is no external witness.
      const local = await verifyAuditChain(
        events,
        anchors,
        { ...keys(), timestampAuthorities: authority.caPem },
        { requireExternalWitness: true },
      );
      assert.deepEqual(local.ok ? null : [local.reason, local.anchor_id], ['witness_missing', 'anc_1']);
    });

    it('fails an anchor rewritten and re-signed by the operator after it was time-stamped', async () => {
      const rewritten = structuredClone(stamped).map((a) => ({ ...a, receipts: a.receipts!.slice(1) }));
      const second = rewritten[1]!;
      second.created_at = '2026-01-01T00:29:00.000Z';
      second.signature = await signDetached(anchorSigningInput(second), issuer.key, 'issuer');
      // The issuer's key alone cannot tell: the anchor is signed by the service's own key.
      assert.equal((await verifyAuditChain(events, rewritten, { issuer: issuer.jwks })).ok, true);
      const verdict = await verifyAuditChain(events, rewritten, { issuer: issuer.jwks, timestampAuthorities: authority.caPem });
      assert.equal(verdict.ok, false);
      assert.deepEqual(verdict.ok ? null : [verdict.reason, verdict.anchor_id, verdict.sequence], [
        'witness_signature_invalid',
        'anc_2',
        5,
      ]);
      assert.match(
        verdict.ok ? '' : verdict.message,
        /time-stamp receipt arc_tsa_anc_2 of anchor anc_2 by https:\/\/tsa\.example\/tsr does not verify: .*imprint_mismatch/,
      );
    });

    it('fails a receipt whose witnessed_at is not the token’s genTime, or whose token another CA signed', async () => {
      const ca = { issuer: issuer.jwks, timestampAuthorities: authority.caPem };
      const moved = structuredClone(stamped);
      moved[0]!.receipts![1]!.witnessed_at = '2026-01-01T00:15:01.000Z';
      const a = await verifyAuditChain(events, moved, ca);
      assert.deepEqual(a.ok ? null : [a.reason, a.anchor_id], ['witness_signature_invalid', 'anc_1']);
      assert.match(a.ok ? '' : a.message, /witnessed_at 2026-01-01T00:15:01.000Z is not the token's genTime/);
      const foreign = structuredClone(stamped);
      foreign[1]!.receipts = [await timestampReceipt(foreign[1]!, other)];
      const b = await verifyAuditChain(events, foreign, ca);
      assert.deepEqual(b.ok ? null : [b.reason, b.anchor_id], ['witness_signature_invalid', 'anc_2']);
      assert.match(b.ok ? '' : b.message, /untrusted_signer/);
    });
  });
});
