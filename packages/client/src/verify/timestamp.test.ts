import assert from 'node:assert/strict';
import { X509Certificate, createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTimestampAuthority, type TestTimestampAuthority } from '../testing/servers.test.helper.js';
import { parseTrustAnchors, verifyTimestampToken } from './timestamp.js';

describe('verifyTimestampToken', () => {
  let authority: TestTimestampAuthority;
  let other: TestTimestampAuthority;
  let token: string;
  const data = 'eyJhbGciOiJFUzI1NiJ9..c2lnbmF0dXJlIMO8'; // an anchor's `signature`, with a non-ASCII byte

  before(async () => {
    // ECDSA P-256 for the one, RSA for the other: the verifier reads both.
    [authority, other] = await Promise.all([startTimestampAuthority({ key: 'ec' }), startTimestampAuthority({ name: 'Another CA' })]);
    token = await authority.stamp(data);
  });
  after(() => Promise.all([authority.close(), other.close()]));

  it('accepts an OpenSSL token over the data and reads back genTime, serial and signer', async () => {
    const before = Date.now();
    const verdict = await verifyTimestampToken(token, data, authority.caPem);
    assert.ok(verdict.ok, JSON.stringify(verdict));
    const genTime = Date.parse(verdict.gen_time);
    assert.ok(Math.abs(genTime - before) < 60_000, verdict.gen_time);
    assert.equal(verdict.gen_time, new Date(genTime).toISOString());
    assert.equal(verdict.serial_number, '0a01');
    assert.equal(verdict.policy, '1.3.6.1.4.1.99999.1');
    assert.equal(verdict.signer_subject, 'CN=svc test TSA');
    const der = new Uint8Array(new X509Certificate(authority.tsaPem).raw);
    assert.equal(verdict.signer_certificate_sha256, createHash('sha256').update(der).digest('hex'));
    // The same with the data as bytes and the anchors as DER or a list.
    assert.equal((await verifyTimestampToken(token, new TextEncoder().encode(data), [other.caPem, authority.caPem])).ok, true);
    // As `openssl ts -verify`, the TSA certificate alone is no trust anchor: the chain ends at a CA.
    assert.equal((await verifyTimestampToken(token, data, der)).ok, false);
  });

  it('rejects the token for other data', async () => {
    const verdict = await verifyTimestampToken(token, `${data}x`, authority.caPem);
    assert.deepEqual(verdict, { ok: false, reason: 'imprint_mismatch', message: 'the token time-stamps other data' });
  });

  it('rejects a token whose signer does not chain to the given CA', async () => {
    const verdict = await verifyTimestampToken(token, data, other.caPem);
    assert.equal(verdict.ok ? null : verdict.reason, 'untrusted_signer');
    // A self-made authority cannot pass with its own CA either when the user trusts only the real one.
    const forged = await other.stamp(data);
    assert.equal((await verifyTimestampToken(forged, data, authority.caPem)).ok, false);
    assert.equal((await verifyTimestampToken(forged, data, other.caPem)).ok, true, 'its own CA accepts it (RSA)');
  });

  it('rejects a token whose bytes were changed: its genTime, or its signature', async () => {
    const bytes = Buffer.from(token, 'base64');
    const year = bytes.indexOf(Buffer.from(String(new Date().getUTCFullYear())));
    assert.ok(year > 0);
    const backdated = Buffer.from(bytes);
    backdated[year + 3] = backdated[year + 3]! - 1; // a year earlier
    const verdict = await verifyTimestampToken(backdated.toString('base64'), data, authority.caPem);
    assert.equal(verdict.ok ? null : verdict.reason, 'signature_invalid');
    const resigned = Buffer.from(bytes);
    resigned[resigned.length - 1] = resigned.at(-1)! ^ 0x01;
    assert.equal((await verifyTimestampToken(resigned.toString('base64'), data, authority.caPem)).ok, false);
    assert.equal((await verifyTimestampToken('not a token', data, authority.caPem)).ok, false);
    assert.deepEqual(await verifyTimestampToken(bytes.subarray(0, 40).toString('base64'), data, authority.caPem), {
      ok: false,
      reason: 'malformed',
      message: 'the token is not base64 DER of a CMS ContentInfo',
    });
  });

  it('rejects a TSTInfo signed by a certificate of the trusted CA that is not for time-stamping', async () => {
    // Any certificate of the CA (a web server's) re-signing OpenSSL's TSTInfo as a CMS with the TSTInfo content type.
    const forged = await authority.resignedByWebServer(await authority.stamp(data));
    const verdict = await verifyTimestampToken(forged, data, authority.caPem);
    assert.equal(verdict.ok ? null : verdict.reason, 'not_a_timestamping_certificate');
  });

  it('throws on trust anchors that hold no certificate', () => {
    assert.throws(() => parseTrustAnchors('hello'), /no PEM certificate/);
    assert.throws(() => parseTrustAnchors('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'), /not an X.509 certificate/);
    assert.equal(parseTrustAnchors(`${authority.caPem}\n${other.caPem}`).length, 2);
  });
});
