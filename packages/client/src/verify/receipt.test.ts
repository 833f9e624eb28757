import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { CompactSign, exportJWK, generateKeyPair, type JSONWebKeySet } from 'jose';
import { SvcError, verifyReceipt } from '../index.js';
import { base64url, canonicalJson } from './jcs.js';

const jcsReference = ((canonicalize as unknown as { default?: unknown }).default ?? canonicalize) as (v: unknown) => string;

const receipt = {
  schema_version: 'svc-cr/2.13',
  conforms_to: 'ISO/IEC TS 27560:2023',
  record_id: 'cr_test',
  record_type: 'consent_record',
  pii_principal_id: 'prs_test',
  pii_processing: {
    language: 'en',
    jurisdiction: 'unspecified',
    purposes: [{ purpose_id: 'newsletter', purpose: 'Email newsletter — monthly ✉', lawful_basis: 'consent' }],
  },
  party_identification: [{ party_id: 'tp_dev_x', party_name: 'Shop', party_role: 'controller' }],
  event: [
    {
      event_time: '2026-01-01T00:00:00.000Z',
      entity_id: 'prs_test',
      event_type: 'explicit',
      event_state: 'consent given',
      validity_duration: 'P1Y',
    },
  ],
  extensions: { consent_flow_id: 'flw_dev_x', collection_channel: 'controller_attested' },
};

async function keyPair(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
}

/** Signs as the server does: a compact JWS over the JCS bytes, with the payload segment dropped. */
async function sign(value: unknown, privateKey: CryptoKey, kid: string): Promise<string> {
  const jws = await new CompactSign(new TextEncoder().encode(jcsReference(value)))
    .setProtectedHeader({ alg: 'ES256', kid })
    .sign(privateKey);
  const [h, , s] = jws.split('.');
  return `${h}..${s}`;
}

describe('verifyReceipt', () => {
  it('returns the receipt when the detached signature fits the JCS bytes and a key of the JWKS', async () => {
    const { privateKey, jwk } = await keyPair('k1');
    const other = await keyPair('k0');
    const jwks: JSONWebKeySet = { keys: [other.jwk, jwk] };
    const signed = { receipt, signature: await sign(receipt, privateKey, 'k1') };
    assert.deepEqual(await verifyReceipt(signed, jwks), receipt);
    assert.deepEqual(await verifyReceipt(JSON.stringify(signed), jwks), receipt, 'the JSON text works too');
  });

  it('throws typed errors: changed receipt, unknown key, another key, malformed signature, invalid receipt', async () => {
    const { privateKey, jwk } = await keyPair('k1');
    const jwks = { keys: [jwk] };
    const signature = await sign(receipt, privateKey, 'k1');
    const changed = { ...receipt, record_id: 'cr_other' };
    await assert.rejects(
      verifyReceipt({ receipt: changed, signature }, jwks),
      (err: unknown) => err instanceof SvcError && (err as { code: string }).code === 'ERR_SVC_RECEIPT_SIGNATURE',
    );
    await assert.rejects(verifyReceipt({ receipt, signature }, { keys: [{ ...jwk, kid: 'k2' }] }), { code: 'ERR_SVC_RECEIPT_KEY' });
    const impostor = await keyPair('k1');
    await assert.rejects(verifyReceipt({ receipt, signature }, { keys: [impostor.jwk] }), { code: 'ERR_SVC_RECEIPT_SIGNATURE' });
    const attached = signature.replace('..', `.${base64url(new TextEncoder().encode(canonicalJson(receipt)))}.`);
    await assert.rejects(verifyReceipt({ receipt, signature: attached }, jwks), { code: 'ERR_SVC_RECEIPT_FORMAT' });
    await assert.rejects(verifyReceipt({ receipt, signature: 'nonsense' }, jwks), { code: 'ERR_SVC_RECEIPT_FORMAT' });
    await assert.rejects(verifyReceipt('{not json', jwks), { code: 'ERR_SVC_RECEIPT_FORMAT' });
    await assert.rejects(verifyReceipt({ receipt: null, signature } as never, jwks), { code: 'ERR_SVC_RECEIPT_FORMAT' });
    const bogus = { ...receipt, schema_version: 'svc-cr/9' };
    const bogusSigned = { receipt: bogus, signature: await sign(bogus, privateKey, 'k1') };
    await assert.rejects(
      verifyReceipt(bogusSigned, jwks),
      (err: unknown) =>
        (err as { code: string; errors: { path: string }[] }).code === 'ERR_SVC_RECEIPT_INVALID' &&
        (err as { errors: { path: string }[] }).errors[0]!.path === 'schema_version',
    );
    assert.equal((await verifyReceipt(bogusSigned, jwks, { validate: false })).schema_version, 'svc-cr/9');
    const hs = { receipt, signature: signature.replace(/^[^.]+/, base64url(new TextEncoder().encode('{"alg":"HS256","kid":"k1"}'))) };
    await assert.rejects(verifyReceipt(hs, jwks), (err: unknown) =>
      ['ERR_SVC_RECEIPT_FORMAT', 'ERR_SVC_RECEIPT_KEY'].includes((err as { code: string }).code),
    );
  });
});

describe('canonicalJson (RFC 8785)', () => {
  it('matches the canonicalize package on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => canonicalJson(value) === jcsReference(value)),
      { numRuns: 500 },
    );
  });

  it('sorts keys by UTF-16 code units (so U+1F600 before U+FB33, as in RFC 8785) and writes numbers as ECMAScript does', () => {
    assert.equal(
      canonicalJson({ '\u{1F600}': 1, '\uFB33': 2, b: [1e21, 0.000001, -0, 1.5e-7], a: 'é\u2028' }),
      '{"a":"é\u2028","b":[1e+21,0.000001,0,1.5e-7],"\u{1F600}":1,"\uFB33":2}',
    );
    assert.throws(() => canonicalJson({ x: Number.NaN }), TypeError);
  });
});
