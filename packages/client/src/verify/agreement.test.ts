import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompactSign, exportJWK, generateKeyPair, type JSONWebKeySet } from 'jose';
import { SvcAgreementVerificationError, verifyAgreementReceipt } from '../index.js';
import type { AgreementReceipt } from '@svc/schemas';
import { canonicalJson } from './jcs.js';

const DIGEST = 'a'.repeat(64);
const encode = (text: string) => new TextEncoder().encode(text);

async function keyPair(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { privateKey, kid, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
}
type Key = Awaited<ReturnType<typeof keyPair>>;

/** A party's signature as the server makes it: a compact JWS over the JCS bytes of its payload. */
function signature(key: Key, payload: Record<string, unknown>, typ = 'svc-signature+jwt'): Promise<string> {
  return new CompactSign(encode(canonicalJson(payload))).setProtectedHeader({ alg: 'ES256', kid: key.kid, typ }).sign(key.privateKey);
}

/** The bundle's signature: a detached compact JWS over its JCS bytes. */
async function sealed(key: Key, receipt: AgreementReceipt) {
  const [header, , sig] = (
    await new CompactSign(encode(canonicalJson(receipt))).setProtectedHeader({ alg: 'ES256', kid: key.kid }).sign(key.privateKey)
  ).split('.');
  return { agreement_receipt: receipt, signature: `${header}..${sig}` };
}

const payloadOf = (agreementId: string, partyId: string, at: string) => ({
  agreement_id: agreementId,
  document_sha256: DIGEST,
  party_id: partyId,
  party_email: `${partyId}@example.com`,
  signed_name: `Name ${partyId}`,
  signed_at: at,
});

async function receiptOf(key: Key, parties: [string, string][], extra: Partial<AgreementReceipt> = {}): Promise<AgreementReceipt> {
  return {
    agreement_id: 'agr_1',
    title: 'Tenancy',
    document_sha256: DIGEST,
    quorum: 2,
    status: 'active',
    signatures: await Promise.all(
      parties.map(async ([party, at]) => ({ party_id: party, signed_at: at, jws: await signature(key, payloadOf('agr_1', party, at)) })),
    ),
    issued_at: '2030-01-02T00:00:00.000Z',
    ...extra,
  };
}

const T1 = '2030-01-01T10:00:00.000Z';
const T2 = '2030-01-01T11:00:00.000Z';

/** Changes one character of `text` at `index` into another base64url character. */
const flip = (text: string, index: number) => text.slice(0, index) + (text[index] === 'A' ? 'B' : 'A') + text.slice(index + 1);

async function fails(promise: Promise<unknown>, check: SvcAgreementVerificationError['check']): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof SvcAgreementVerificationError, String(error));
    assert.equal(error.code, 'ERR_SVC_AGREEMENT_VERIFICATION');
    assert.equal(error.check, check, error.message);
    return true;
  });
}

describe('verifyAgreementReceipt', () => {
  it('verifies the bundle and every signature in it, as an object or as JSON text, and returns the signed payloads', async () => {
    const key = await keyPair('k1');
    const jwks: JSONWebKeySet = { keys: [(await keyPair('k0')).jwk, key.jwk] };
    const signed = await sealed(
      key,
      await receiptOf(key, [
        ['pty_a', T1],
        ['pty_b', T2],
      ]),
    );
    for (const input of [signed, JSON.stringify(signed)]) {
      const verified = await verifyAgreementReceipt(input, jwks);
      assert.deepEqual(
        verified.signed.map((p) => [p.party_id, p.signed_name, p.signed_at]),
        [
          ['pty_a', 'Name pty_a', T1],
          ['pty_b', 'Name pty_b', T2],
        ],
      );
      assert.equal(verified.status, 'active');
    }
  });

  it('fails when one byte of the bundle changes', async () => {
    const key = await keyPair('k1');
    const jwks = { keys: [key.jwk] };
    const text = JSON.stringify(
      await sealed(
        key,
        await receiptOf(key, [
          ['pty_a', T1],
          ['pty_b', T2],
        ]),
      ),
    );
    const at = text.indexOf('Tenancy');
    await fails(verifyAgreementReceipt(`${text.slice(0, at)}X${text.slice(at + 1)}`, jwks), 'signature');
    const quorum = text.replace('"quorum":2', '"quorum":1');
    await fails(verifyAgreementReceipt(quorum, jwks), 'signature');
  });

  it('fails when one byte of one signature changes, even in a bundle signed again around it', async () => {
    const key = await keyPair('k1');
    const jwks = { keys: [key.jwk] };
    const receipt = await receiptOf(key, [
      ['pty_a', T1],
      ['pty_b', T2],
    ]);
    const first = receipt.signatures[0]!;
    for (const index of [first.jws.indexOf('.') + 3, first.jws.length - 3]) {
      const tampered = structuredClone(receipt);
      tampered.signatures[0]!.jws = flip(first.jws, index);
      // As served (the bundle's signature no longer fits) ...
      await fails(
        verifyAgreementReceipt({ agreement_receipt: tampered, signature: (await sealed(key, receipt)).signature }, jwks),
        'signature',
      );
      // ... and re-sealed by someone holding the key: the inner signature still fails on its own.
      await fails(verifyAgreementReceipt(await sealed(key, tampered), jwks), 'signature');
    }
  });

  it("fails on another agreement's signature, a signature of another document, party or time, and a party twice", async () => {
    const key = await keyPair('k1');
    const jwks = { keys: [key.jwk] };
    const receipt = await receiptOf(key, [
      ['pty_a', T1],
      ['pty_b', T2],
    ]);

    const foreign = structuredClone(receipt);
    foreign.signatures[1]!.jws = await signature(key, payloadOf('agr_other', 'pty_b', T2));
    await fails(verifyAgreementReceipt(await sealed(key, foreign), jwks), 'invalid');

    const otherDocument = structuredClone(receipt);
    otherDocument.signatures[1]!.jws = await signature(key, { ...payloadOf('agr_1', 'pty_b', T2), document_sha256: 'b'.repeat(64) });
    await fails(verifyAgreementReceipt(await sealed(key, otherDocument), jwks), 'invalid');

    const moved = structuredClone(receipt);
    moved.signatures[1]!.party_id = 'pty_c';
    await fails(verifyAgreementReceipt(await sealed(key, moved), jwks), 'invalid');

    const retimed = structuredClone(receipt);
    retimed.signatures[1]!.signed_at = T1;
    await fails(verifyAgreementReceipt(await sealed(key, retimed), jwks), 'invalid');

    const twice = await receiptOf(key, [
      ['pty_a', T1],
      ['pty_a', T2],
    ]);
    await fails(verifyAgreementReceipt(await sealed(key, twice), jwks), 'invalid');
  });

  it('fails on an active bundle below its quorum, a signature of another type or key, and a malformed bundle', async () => {
    const key = await keyPair('k1');
    const jwks = { keys: [key.jwk] };
    await fails(verifyAgreementReceipt(await sealed(key, await receiptOf(key, [['pty_a', T1]])), jwks), 'invalid');
    assert.equal(
      (await verifyAgreementReceipt(await sealed(key, await receiptOf(key, [['pty_a', T1]], { status: 'partially_signed' })), jwks)).signed
        .length,
      1,
    );

    const typed = await receiptOf(key, [
      ['pty_a', T1],
      ['pty_b', T2],
    ]);
    typed.signatures[0]!.jws = await signature(key, payloadOf('agr_1', 'pty_a', T1), 'JWT');
    await fails(verifyAgreementReceipt(await sealed(key, typed), jwks), 'signature');

    const stranger = await keyPair('k1');
    const strangers = await receiptOf(key, [
      ['pty_a', T1],
      ['pty_b', T2],
    ]);
    strangers.signatures[0]!.jws = await signature(stranger, payloadOf('agr_1', 'pty_a', T1));
    await fails(verifyAgreementReceipt(await sealed(key, strangers), jwks), 'signature');

    await fails(
      verifyAgreementReceipt(
        await sealed(
          stranger,
          await receiptOf(key, [
            ['pty_a', T1],
            ['pty_b', T2],
          ]),
        ),
        jwks,
      ),
      'signature',
    );
    await fails(verifyAgreementReceipt('{', jwks), 'format');
    await fails(verifyAgreementReceipt({ agreement_receipt: {}, signature: 'x' }, jwks), 'format');
  });
});
