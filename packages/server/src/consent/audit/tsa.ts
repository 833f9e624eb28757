// An external witness: an RFC 3161 time-stamping authority. Each anchor's `signature` (its UTF-8 bytes, SHA-256) is
// sent as a TimeStampReq; the TimeStampToken that comes back is checked and kept as the anchor's receipt, so an
// auditor can check with `openssl ts -verify` that the anchor existed at the authority's time. ASN.1 is pkijs's.
import { createHash, randomBytes } from 'node:crypto';
import { TIMESTAMP_TOKEN_FORMAT, type AuditAnchor, type TimestampAuthorityDescription } from '@svc/schemas';
import { ContentInfo, MessageImprint, SignedData, TimeStampReq, TimeStampResp, TSTInfo, id_eContentType_TSTInfo } from 'pkijs';
import type { Witness, WitnessAnswer } from './witness.js';

/** id-kp-timeStamping: the extended key usage an authority's signer certificate must carry. */
const ID_KP_TIME_STAMPING = '1.3.6.1.5.5.7.3.8';
const ID_CE_EXT_KEY_USAGE = '2.5.29.37';
const ID_SHA256 = '2.16.840.1.101.3.4.2.1';
const REQUEST_TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 1 << 20;

/** An authority's URL as published: origin and path, never credentials, query or fragment. */
export function publicTsaUrl(url: URL): string {
  return url.origin + url.pathname;
}

/**
 * Parses the configured authorities (`SVC_WITNESS_TSA_URL` is comma-separated): http and https URLs only. Throws
 * a message that names the bad entry without its credentials.
 */
export function parseTsaUrls(urls: readonly string[]): URL[] {
  return urls
    .map((u) => u.trim())
    .filter((u) => u !== '')
    .map((raw) => {
      let url: URL | undefined;
      try {
        url = new URL(raw);
      } catch {
        // Reported below without echoing what may hold a password.
      }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
        const shown = url ? publicTsaUrl(url) : raw.replace(/\/\/[^@/]*@/, '//***@');
        throw new Error(`SVC_WITNESS_TSA_URL: "${shown}" is not an http or https URL of an RFC 3161 time-stamping authority.`);
      }
      return url;
    });
}

/** asn1js's INTEGER, reached through pkijs (which ships it) so no ASN.1 is written here. */
const Asn1Integer = TSTInfo.defaultValues('nonce').constructor as unknown as { fromBigInt(value: bigint): NonNullable<TSTInfo['nonce']> };

const equalBytes = (a: ArrayBuffer | Uint8Array, b: ArrayBuffer | Uint8Array) =>
  Buffer.from(a as ArrayBuffer).equals(Buffer.from(b as ArrayBuffer));
const toArrayBuffer = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

interface SentRequest {
  der: ArrayBuffer;
  data: ArrayBuffer;
  imprint: MessageImprint;
  nonce: NonNullable<TSTInfo['nonce']>;
}

async function buildRequest(anchor: AuditAnchor): Promise<SentRequest> {
  const data = toArrayBuffer(Buffer.from(anchor.signature, 'utf8'));
  const imprint = await MessageImprint.create('SHA-256', data);
  // A random positive 64-bit nonce: the answer must echo it, so an old answer cannot be replayed.
  const nonce = Asn1Integer.fromBigInt(randomBytes(8).readBigUInt64BE());
  const request = new TimeStampReq({ version: 1, messageImprint: imprint, nonce, certReq: true });
  return { der: request.toSchema().toBER(), data, imprint, nonce };
}

/** Sends the request and gives the DER answer, or throws with a short reason. */
async function post(url: URL, body: ArrayBuffer): Promise<ArrayBuffer> {
  const headers: Record<string, string> = { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' };
  if (url.username || url.password) {
    const user = decodeURIComponent(url.username);
    headers.authorization = `Basic ${Buffer.from(`${user}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  }
  const res = await fetch(publicTsaUrl(url) + url.search, {
    method: 'POST',
    headers,
    body,
    redirect: 'error',
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`the authority answered HTTP ${res.status}`);
  const answer = await res.arrayBuffer();
  if (answer.byteLength > MAX_RESPONSE_BYTES) throw new Error('the answer is too large');
  return answer;
}

/** The checked token: its signer certificate and TSTInfo. Throws what failed. */
async function checkResponse(der: ArrayBuffer, sent: SentRequest) {
  const response = TimeStampResp.fromBER(der);
  const status = response.status.status;
  if (status !== 0 && status !== 1) throw new Error(`the authority refused the request (PKIStatus ${status})`);
  if (!response.timeStampToken) throw new Error('the answer holds no time-stamp token');
  const token = response.timeStampToken;
  if (token.contentType !== ContentInfo.SIGNED_DATA) throw new Error('the token is not CMS SignedData');
  const signed = new SignedData({ schema: token.content });
  const content = signed.encapContentInfo;
  if (content.eContentType !== id_eContentType_TSTInfo || !content.eContent) throw new Error('the token holds no TSTInfo');
  const info = TSTInfo.fromBER(content.eContent.getValue());
  const imprint = info.messageImprint;
  if (imprint.hashAlgorithm.algorithmId !== ID_SHA256) throw new Error('the token is for another hash algorithm');
  if (!equalBytes(imprint.hashedMessage.valueBlock.valueHexView, sent.imprint.hashedMessage.valueBlock.valueHexView)) {
    throw new Error('the token is for another message imprint');
  }
  if (!info.nonce || info.nonce.toBigInt() !== sent.nonce.toBigInt()) throw new Error('the token does not echo the nonce');
  // The signature is checked with the signer certificate the token carries (certReq); the chain is the auditor's
  // to check against the authority's CA, which the server does not need to know.
  const verified = await signed.verify({ signer: 0, data: sent.data, checkChain: false, extendedMode: true });
  if (!verified.signatureVerified || !verified.signerCertificate) throw new Error('the token signature does not verify');
  const signer = verified.signerCertificate;
  const eku = signer.extensions?.find((e) => e.extnID === ID_CE_EXT_KEY_USAGE)?.parsedValue as { keyPurposes?: string[] } | undefined;
  if (!eku?.keyPurposes?.includes(ID_KP_TIME_STAMPING)) throw new Error('the signer certificate is not for time-stamping');
  return { token, signer, info };
}

/** The token's serial number as lower-case hex of even length (`01`, `1f2e`): the number, without a sign byte. */
function serialHex(info: TSTInfo): string {
  const hex = info.serialNumber.toBigInt().toString(16);
  return hex.length % 2 ? `0${hex}` : hex;
}

/** A witness that is an RFC 3161 time-stamping authority at `url` (credentials in it become Basic authentication). */
export function timestampAuthorityWitness(url: URL): Witness {
  const id = publicTsaUrl(url);
  const failed = (): WitnessAnswer => ({
    status: 'failed',
    receipt_id: null,
    witness_id: id,
    witness_key_version: null,
    witness_signature: null,
    witnessed_at: null,
  });
  return {
    id,
    configuration: (): TimestampAuthorityDescription => ({
      witness_id: id,
      kind: 'rfc3161',
      external: true,
      description:
        "An RFC 3161 time-stamping authority outside this service: each audit anchor's signature (SHA-256 of its UTF-8 bytes) is time-stamped, and the receipt is the authority's DER TimeStampToken (check it with `openssl ts -verify` and the authority's CA).",
      url: id,
      hash_algorithm: 'sha-256',
      receipt_format: TIMESTAMP_TOKEN_FORMAT,
    }),
    async countersign(anchor) {
      try {
        const sent = await buildRequest(anchor);
        const { token, signer, info } = await checkResponse(await post(url, sent.der), sent);
        return {
          status: 'witnessed',
          receipt_id: serialHex(info),
          witness_id: id,
          witness_key_version: createHash('sha256').update(Buffer.from(signer.toSchema().toBER())).digest('hex'),
          witness_signature: Buffer.from(token.toSchema().toBER()).toString('base64'),
          witnessed_at: info.genTime.toISOString(),
        };
      } catch (error) {
        return { ...failed(), error: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
