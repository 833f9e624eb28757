// Offline verification of an RFC 3161 time-stamp token (a CMS SignedData over a TSTInfo): its signature, its
// signer's chain to a CA the caller trusts, the signer's time-stamping purpose, and the imprint of the data. pkijs
// parses and checks the ASN.1 and Web Crypto does the cryptography, so this runs unchanged in Node 20+ and browsers.
import {
  Certificate,
  CertificateChainValidationEngine,
  checkCA,
  ContentInfo,
  ExtKeyUsage,
  id_ContentType_SignedData,
  id_eContentType_TSTInfo,
  id_ExtKeyUsage,
  id_sha256,
  SignedData,
  TSTInfo,
  type RelativeDistinguishedNames,
} from 'pkijs';

/** The CA certificates a token's signer must chain to: PEM text (one or several certificates) or DER bytes. */
export type TimestampTrustAnchors = string | Uint8Array | readonly (string | Uint8Array)[];

/** Why a token does not verify. */
export type TimestampFailureReason =
  | 'malformed'
  | 'hash_algorithm_unsupported'
  | 'imprint_mismatch'
  | 'signature_invalid'
  | 'untrusted_signer'
  | 'not_a_timestamping_certificate';

/** The verdict of {@link verifyTimestampToken}. */
export type TimestampVerification =
  | {
      ok: true;
      /** The authority's time (TSTInfo genTime), as `Date.toISOString()`. */
      gen_time: string;
      /** TSTInfo serialNumber, lower-case hex of even length, without a sign byte. */
      serial_number: string;
      /** The authority's policy OID. */
      policy: string;
      hash_algorithm: 'sha-256';
      /** Lower-case hex SHA-256 of the signer certificate's DER. */
      signer_certificate_sha256: string;
      /** The signer certificate's subject, e.g. `CN=Example TSA, O=Example`. */
      signer_subject: string;
    }
  | { ok: false; reason: TimestampFailureReason; message: string };

const ID_KP_TIME_STAMPING = '1.3.6.1.5.5.7.3.8';
const NAMES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
};

const fail = (reason: TimestampFailureReason, message: string): TimestampVerification => ({ ok: false, reason, message });
const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const base64Bytes = (text: string): Uint8Array => Uint8Array.from(atob(text.replace(/\s+/g, '')), (c) => c.charCodeAt(0));
const arrayBuffer = (bytes: Uint8Array): ArrayBuffer => bytes.slice().buffer as ArrayBuffer;

/** A distinguished name as `CN=..., O=...`. */
export function distinguishedName(name: RelativeDistinguishedNames): string {
  return name.typesAndValues
    .map((tv) => `${NAMES[tv.type] ?? tv.type}=${String((tv.value.valueBlock as { value?: unknown }).value ?? '')}`)
    .join(', ');
}

/**
 * Parses trust anchors: every `-----BEGIN CERTIFICATE-----` block of PEM text, or DER bytes. Throws a TypeError
 * naming what is wrong when the input holds no certificate or one that does not parse.
 */
export function parseTrustAnchors(anchors: TimestampTrustAnchors): Certificate[] {
  const list = typeof anchors === 'string' || anchors instanceof Uint8Array ? [anchors] : anchors;
  const ders: Uint8Array[] = [];
  for (const item of list) {
    if (item instanceof Uint8Array) {
      ders.push(item);
      continue;
    }
    const blocks = [...item.matchAll(/-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----/g)];
    if (blocks.length === 0) throw new TypeError('the trust anchors hold no PEM certificate (-----BEGIN CERTIFICATE-----)');
    for (const block of blocks) ders.push(base64Bytes(block[1]!));
  }
  if (ders.length === 0) throw new TypeError('no trust anchor given');
  return ders.map((der, i) => {
    try {
      return Certificate.fromBER(arrayBuffer(der));
    } catch {
      throw new TypeError(`trust anchor ${i + 1} is not an X.509 certificate`);
    }
  });
}

/** The SignedData and TSTInfo of a base64 DER TimeStampToken, or why it is not one. */
function parseToken(tokenBase64: string): { signed: SignedData; info: TSTInfo } | string {
  try {
    const content = ContentInfo.fromBER(arrayBuffer(base64Bytes(tokenBase64)));
    if (content.contentType !== id_ContentType_SignedData) return 'the token is not a CMS SignedData';
    const signed = new SignedData({ schema: content.content });
    const eContent = signed.encapContentInfo.eContent;
    if (signed.encapContentInfo.eContentType !== id_eContentType_TSTInfo || !eContent) return 'the token does not carry a TSTInfo';
    return { signed, info: TSTInfo.fromBER(eContent.getValue()) };
  } catch {
    return 'the token is not base64 DER of a CMS ContentInfo';
  }
}

/** RFC 3161 2.3: the signer's certificate has one extendedKeyUsage, critical, with id-kp-timeStamping alone. */
function timeStampingPurpose(cert: Certificate): string | null {
  const ekus = (cert.extensions ?? []).filter((e) => e.extnID === id_ExtKeyUsage);
  if (ekus.length !== 1) return 'the signer certificate has no (or several) extendedKeyUsage extensions';
  const [eku] = ekus;
  if (!eku!.critical) return 'the signer certificate’s extendedKeyUsage is not critical';
  const purposes = eku!.parsedValue instanceof ExtKeyUsage ? eku!.parsedValue.keyPurposes : [];
  if (purposes.length !== 1 || purposes[0] !== ID_KP_TIME_STAMPING) return 'the signer certificate is not for id-kp-timeStamping alone';
  return null;
}

/** pkijs's CMS check: the signature with the certificate the token carries, over a TSTInfo matching `data`. */
async function checkSignature(signed: SignedData, data: Uint8Array): Promise<Certificate | string> {
  try {
    const result = await signed.verify({ signer: 0, data: arrayBuffer(data), extendedMode: true });
    return result.signatureVerified && result.signerCertificate ? result.signerCertificate : 'the token’s signature does not verify';
  } catch (error) {
    return `the token does not verify: ${(error as Error).message ?? String(error)}`;
  }
}

/** Whether the signer chains to a trusted CA at genTime, through CA certificates the token carries. */
async function chainsToTrusted(signed: SignedData, signer: Certificate, trustedCerts: Certificate[], checkDate: Date): Promise<boolean> {
  const carried = (signed.certificates ?? []).filter((c): c is Certificate => c instanceof Certificate && !!checkCA(c, signer));
  try {
    const engine = new CertificateChainValidationEngine({ certs: [...carried, signer], trustedCerts, checkDate });
    return (await engine.verify()).result;
  } catch {
    return false;
  }
}

/**
 * Verifies an RFC 3161 TimeStampToken offline: the CMS signature with the signer certificate it carries, that
 * certificate's chain to one of `trustAnchors` at the token's genTime, its critical extendedKeyUsage
 * id-kp-timeStamping, and a SHA-256 message imprint equal to SHA-256(`data`) (a string is hashed as UTF-8).
 * Throws a TypeError only when `trustAnchors` hold no certificate.
 *
 * @example
 * const verdict = await verifyTimestampToken(receipt.witness_signature, anchor.signature, caPem);
 * if (verdict.ok) console.log(`existed by ${verdict.gen_time}`);
 */
export async function verifyTimestampToken(
  tokenBase64: string,
  data: Uint8Array | string,
  trustAnchors: TimestampTrustAnchors,
): Promise<TimestampVerification> {
  const trusted = parseTrustAnchors(trustAnchors);
  const parsed = parseToken(tokenBase64);
  if (typeof parsed === 'string') return fail('malformed', parsed);
  const { signed, info } = parsed;
  if (info.messageImprint.hashAlgorithm.algorithmId !== id_sha256)
    return fail('hash_algorithm_unsupported', `the token's imprint uses ${info.messageImprint.hashAlgorithm.algorithmId}, not SHA-256`);
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  const expected = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource));
  if (hex(new Uint8Array(info.messageImprint.hashedMessage.valueBlock.valueHexView)) !== hex(expected))
    return fail('imprint_mismatch', 'the token time-stamps other data');
  const signer = await checkSignature(signed, bytes);
  if (typeof signer === 'string') return fail('signature_invalid', signer);
  if (!(await chainsToTrusted(signed, signer, trusted, info.genTime)))
    return fail('untrusted_signer', 'the token’s signer does not chain to a trusted CA at its genTime');
  const purpose = timeStampingPurpose(signer);
  if (purpose) return fail('not_a_timestamping_certificate', purpose);
  const certDer = new Uint8Array(signer.toSchema().toBER());
  return {
    ok: true,
    gen_time: info.genTime.toISOString(),
    serial_number: hex(new Uint8Array(info.serialNumber.valueBlock.valueHexView)).replace(/^(00)+(?=..)/, ''),
    policy: info.policy,
    hash_algorithm: 'sha-256',
    signer_certificate_sha256: hex(new Uint8Array(await crypto.subtle.digest('SHA-256', certDer))),
    signer_subject: distinguishedName(signer.subject),
  };
}
