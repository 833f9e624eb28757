// The external witness: anchors time-stamped by a real RFC 3161 authority (OpenSSL behind an HTTP front), checked
// the way an auditor would, with `openssl ts -verify`.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { X509Certificate, createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { anchorSigningInput, type AnchorReceipt, type AuditAnchor, type WitnessConfiguration } from '@svc/schemas';
import { ContentInfo, MessageImprint, TimeStampReq, TimeStampResp } from 'pkijs';
import { startTestServer, type TestServer } from '../../testing.js';
import { signJcs } from '../receipts/sign.js';
import { createActiveFlow, createRecord, grantAll } from '../records/test-support.js';
import { retryWitnessesNow } from './anchor.js';
import { startTimestampAuthority, type TestTimestampAuthority } from './tsa-test-support.js';
import { witnessLine, witnessSettingsOf } from './witnesses.js';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'svc-tsa-test-'));
after(() => rmSync(work, { recursive: true, force: true }));
let files = 0;

/** `openssl ts -verify` of a receipt's token over the anchor's signature: the auditor's check. */
async function opensslVerify(receipt: AnchorReceipt, signature: string, caFile: string): Promise<string> {
  const n = ++files;
  const token = join(work, `t${n}.der`);
  const data = join(work, `s${n}.txt`);
  writeFileSync(token, Buffer.from(receipt.witness_signature!, 'base64'));
  writeFileSync(data, signature, 'utf8');
  try {
    const { stdout } = await run('openssl', ['ts', '-verify', '-data', data, '-in', token, '-token_in', '-CAfile', caFile]);
    return stdout.trim();
  } catch (error) {
    return `failed: ${(error as { stdout?: string; stderr?: string }).stderr ?? String(error)}`;
  }
}

/** What OpenSSL reads in a token: its genTime and serial number, and the signer certificate's DER SHA-256. */
async function tokenFacts(receipt: AnchorReceipt): Promise<{ genTime: string; serial: string; signerSha256: string }> {
  const token = join(work, `f${++files}.der`);
  writeFileSync(token, Buffer.from(receipt.witness_signature!, 'base64'));
  const { stdout: text } = await run('openssl', ['ts', '-reply', '-in', token, '-token_in', '-text']);
  const { stdout: pems } = await run('openssl', ['pkcs7', '-inform', 'DER', '-in', token, '-print_certs']);
  const certs = (pems.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? []).map((p) => new X509Certificate(p));
  const signer = certs.find((c) => c.subject.includes('CN=svc test TSA') && !c.subject.includes('root'))!;
  return {
    genTime: new Date(/Time stamp: (.+)/.exec(text)![1]!).toISOString(),
    serial: /Serial number: 0x([0-9A-Fa-f]+)/.exec(text)![1]!.toLowerCase(),
    signerSha256: createHash('sha256').update(signer.raw).digest('hex'),
  };
}

async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

type Anchored = AuditAnchor & { receipts: AnchorReceipt[] };

async function anchorsOf(server: TestServer): Promise<Anchored[]> {
  const { anchors } = (await (await server.api('/api/v1/audit/anchors?limit=1000')).json()) as { anchors: AuditAnchor[] };
  return Promise.all(
    anchors.map(async (a) => ({
      ...a,
      receipts: ((await (await server.api(`/api/v1/audit/anchors/${a.id}/receipts`)).json()) as { receipts: AnchorReceipt[] }).receipts,
    })),
  );
}

/** Makes a record, moves the test clock past the next 15-minute boundary and waits for the anchor it makes. */
async function recordAndAnchor(server: TestServer, flowId: string, email: string): Promise<Anchored> {
  const before = (await anchorsOf(server)).length;
  await createRecord(server, { flow_id: flowId, subject: { email }, decisions: grantAll });
  server.advance(15 * 60);
  return waitFor(async () => (await anchorsOf(server))[before]);
}

describe('an RFC 3161 authority as the audit witness', () => {
  let tsa: TestTimestampAuthority;
  let server: TestServer;
  let flowId: string;

  before(async () => {
    tsa = await startTimestampAuthority();
    server = await startTestServer({ witness: { tsaUrls: [tsa.url] } });
    flowId = await createActiveFlow(server);
  });
  after(async () => {
    await server.dispose();
    await tsa.close();
  });

  it('time-stamps each anchor: the token verifies with openssl over the anchor signature, and the receipt says what the token says', async () => {
    const anchor = await recordAndAnchor(server, flowId, 'w1@example.com');
    assert.equal(anchor.receipts.length, 1);
    const [receipt] = anchor.receipts as [AnchorReceipt];
    assert.equal(receipt.status, 'witnessed');
    assert.equal(receipt.witness_id, tsa.url);
    assert.equal(await opensslVerify(receipt, anchor.signature, tsa.caFile), 'Verification: OK');
    const facts = await tokenFacts(receipt);
    assert.equal(receipt.witnessed_at, facts.genTime);
    assert.equal(receipt.receipt_id, facts.serial);
    assert.equal(receipt.witness_key_version, facts.signerSha256);
    assert.equal(Object.keys(receipt).sort().join(), 'id,receipt_id,status,witness_id,witness_key_version,witness_signature,witnessed_at');
  });

  it('names the authority at /.well-known/witness-configuration, external', async () => {
    const config = (await (await fetch(`${server.url}/.well-known/witness-configuration`)).json()) as WitnessConfiguration;
    assert.equal(config.external, true);
    assert.deepEqual(
      config.witnesses.map((w) => [w.kind, w.witness_id, w.external, 'url' in w ? w.url : null]),
      [['rfc3161', tsa.url, true, tsa.url]],
    );
    const [w] = config.witnesses;
    assert.ok(w?.kind === 'rfc3161');
    assert.equal(w.hash_algorithm, 'sha-256');
    assert.equal(w.receipt_format, 'rfc3161-timestamp-token');
  });

  it('a changed anchor, re-signed by the operator with the server key, no longer matches its token', async () => {
    const anchor = await recordAndAnchor(server, flowId, 'w2@example.com');
    const ctx = server.context;
    const changed = { ...anchor, created_at: new Date(Date.parse(anchor.created_at!) - 3_600_000).toISOString() };
    changed.signature = await signJcs(anchorSigningInput(changed), ctx.keys.privateKey, ctx.keys.kid);
    ctx.db
      .prepare('UPDATE audit_anchors SET created_at = ?, signature = ? WHERE id = ?')
      .run(changed.created_at, changed.signature, anchor.id);
    const [stored] = await anchorsOf(server).then((all) => all.filter((a) => a.id === anchor.id));
    assert.equal(stored!.signature, changed.signature);
    assert.match(await opensslVerify(stored!.receipts[0]!, stored!.signature, tsa.caFile), /^failed: .*message imprint mismatch/s);
    assert.equal(await opensslVerify(stored!.receipts[0]!, anchor.signature, tsa.caFile), 'Verification: OK');
  });

  it('the authority down: the anchor is kept with a failed receipt, and a retry after the backoff witnesses it', async () => {
    tsa.setDown(true);
    const anchor = await recordAndAnchor(server, flowId, 'w3@example.com');
    assert.deepEqual(
      anchor.receipts.map((r) => [r.status, r.witness_id, r.witness_signature, r.witnessed_at]),
      [['failed', tsa.url, null, null]],
    );
    const row = () =>
      server.context.db
        .prepare('SELECT attempts, next_attempt_at, last_error FROM audit_anchor_receipts WHERE anchor_id = ?')
        .get(anchor.id) as {
        attempts: number;
        next_attempt_at: string | null;
        last_error: string | null;
      };
    assert.equal(row().attempts, 1);
    assert.match(row().last_error!, /HTTP 503/);
    assert.equal(Date.parse(row().next_attempt_at!) - server.context.clock.now() > 50_000, true, 'about a minute away');

    tsa.setDown(false);
    assert.equal(await retryWitnessesNow(server.context), 0, 'not due before the backoff');
    server.advance(61);
    const receipt = await waitFor(async () => {
      const [a] = (await anchorsOf(server)).filter((x) => x.id === anchor.id);
      return a?.receipts[0]?.status === 'witnessed' ? a.receipts[0] : undefined;
    });
    assert.equal(receipt.id, anchor.receipts[0]!.id, 'the same receipt, updated in place');
    assert.equal(await opensslVerify(receipt, anchor.signature, tsa.caFile), 'Verification: OK');
    assert.deepEqual(row(), { attempts: 2, next_attempt_at: null, last_error: null });
  });

  it('backs off, doubling from a minute up to an hour, and stops after 20 tries', async () => {
    tsa.setDown(true);
    const anchor = await recordAndAnchor(server, flowId, 'w4@example.com');
    const row = () =>
      server.context.db.prepare('SELECT attempts, next_attempt_at FROM audit_anchor_receipts WHERE anchor_id = ?').get(anchor.id) as {
        attempts: number;
        next_attempt_at: string | null;
      };
    const gaps: number[] = [];
    for (let i = 1; i < 20; i++) {
      const { attempts, next_attempt_at } = row();
      assert.equal(attempts, i);
      const gap = Date.parse(next_attempt_at!) - server.context.clock.now();
      gaps.push(Math.round(gap / 60_000));
      server.advance(gap / 1000 + 1);
      await retryWitnessesNow(server.context);
      await waitFor(() => (row().attempts > i ? true : undefined));
    }
    assert.deepEqual(gaps.slice(0, 8), [1, 2, 4, 8, 16, 32, 60, 60]);
    assert.deepEqual(row(), { attempts: 20, next_attempt_at: null });
    tsa.setDown(false);
  });
});

describe('several authorities', () => {
  let tsas: TestTimestampAuthority[];
  let front: { url: string; headers: IncomingHttpHeaders[]; close(): Promise<void> };
  let server: TestServer;
  let flowId: string;

  before(async () => {
    tsas = await Promise.all([startTimestampAuthority(), startTimestampAuthority()]);
    front = await relay(tsas[1]!, 'forward');
    const withCredentials = front.url.replace('http://', 'http://auditor:s3cret@') + '?tenant=7#x';
    server = await startTestServer({ witness: { tsaUrls: [tsas[0]!.url, withCredentials] } });
    flowId = await createActiveFlow(server);
  });
  after(async () => {
    await server.dispose();
    await front.close();
    await Promise.all(tsas.map((t) => t.close()));
  });

  it('sends each anchor to each: one receipt per authority, each verifying with its own CA', async () => {
    const anchor = await recordAndAnchor(server, flowId, 'm1@example.com');
    const publicFront = front.url;
    assert.deepEqual(
      anchor.receipts.map((r) => [r.status, r.witness_id]),
      [
        ['witnessed', tsas[0]!.url],
        ['witnessed', publicFront],
      ],
    );
    assert.equal(await opensslVerify(anchor.receipts[0]!, anchor.signature, tsas[0]!.caFile), 'Verification: OK');
    assert.equal(await opensslVerify(anchor.receipts[1]!, anchor.signature, tsas[1]!.caFile), 'Verification: OK');
    assert.match(await opensslVerify(anchor.receipts[1]!, anchor.signature, tsas[0]!.caFile), /^failed/, 'another CA');
    // Credentials in the URL go as Basic authentication, and are published nowhere.
    assert.equal(front.headers.at(-1)?.authorization, `Basic ${Buffer.from('auditor:s3cret').toString('base64')}`);
    assert.equal(front.headers.at(-1)?.['content-type'], 'application/timestamp-query');
    const config = await (await fetch(`${server.url}/.well-known/witness-configuration`)).text();
    assert.equal(config.includes('s3cret'), false);
    const parsed = JSON.parse(config) as WitnessConfiguration;
    assert.equal(parsed.external, true);
    assert.deepEqual(
      parsed.witnesses.map((w) => ('url' in w ? w.url : w.kind)),
      [tsas[0]!.url, publicFront],
    );
  });
});

describe('a forged answer', () => {
  let tsa: TestTimestampAuthority;
  const fronts: Awaited<ReturnType<typeof relay>>[] = [];
  before(async () => {
    tsa = await startTimestampAuthority();
  });
  after(async () => {
    await Promise.all(fronts.map((f) => f.close()));
    await tsa.close();
  });

  const cases = {
    replay: 'an earlier token: other imprint and nonce',
    'other-imprint': 'a token for another imprint, same nonce',
    'other-nonce': 'a token for the same imprint, another nonce',
    rejected: 'the authority rejects the request',
    'web-signer': 'the right token re-signed by a certificate that is not for time-stamping',
  } as const;
  for (const [mode, what] of Object.entries(cases) as [keyof typeof cases, string][]) {
    it(`is refused (${what})`, async () => {
      const front = await relay(tsa, mode);
      fronts.push(front);
      const server = await startTestServer({ witness: { tsaUrls: [front.url] } });
      try {
        const flowId = await createActiveFlow(server);
        const first = await recordAndAnchor(server, flowId, 'f1@example.com');
        const second = await recordAndAnchor(server, flowId, 'f2@example.com');
        const expected = mode === 'replay' ? ['witnessed', 'failed'] : ['failed', 'failed'];
        assert.deepEqual(
          [first, second].map((a) => a.receipts[0]!.status),
          expected,
        );
        const error = server.context.db
          .prepare('SELECT last_error FROM audit_anchor_receipts WHERE anchor_id = ?')
          .pluck()
          .get(second.id) as string;
        assert.match(
          error,
          {
            replay: /imprint|nonce/,
            'other-imprint': /message imprint/,
            'other-nonce': /nonce/,
            rejected: /PKIStatus 2/,
            'web-signer': /not for time-stamping/,
          }[mode],
        );
      } finally {
        await server.dispose();
      }
    });
  }
});

describe('the witness option', () => {
  it('takes http and https URLs only, and never repeats a password in its error', () => {
    assert.deepEqual(witnessSettingsOf({ tsaUrls: [' https://tsa.example/tsr ', ''] }).map(String), ['https://tsa.example/tsr']);
    assert.throws(
      () => witnessSettingsOf({ tsaUrls: ['ftp://user:hunter2@tsa.example/tsr'] }),
      (e: Error) => {
        assert.match(e.message, /SVC_WITNESS_TSA_URL: "ftp:\/\/tsa.example\/tsr" is not an http or https URL/);
        return !e.message.includes('hunter2');
      },
    );
    assert.throws(() => witnessSettingsOf({ tsaUrls: ['tsa.example/tsr'] }), /is not an http or https URL/);
    assert.throws(
      () => witnessSettingsOf({ tsaUrls: ['//user:hunter2@'] }),
      (e: Error) => !e.message.includes('hunter2'),
    );
  });

  it('the startup banner names the authorities without credentials, or says the witness is local', () => {
    assert.equal(witnessLine([]), 'local witness (development only; set SVC_WITNESS_TSA_URL)');
    assert.equal(
      witnessLine(witnessSettingsOf({ tsaUrls: ['https://u:hunter2@tsa.example/tsr?k=1', 'http://127.0.0.1:9/t'] })),
      'RFC 3161 https://tsa.example/tsr, http://127.0.0.1:9/t (SVC_WITNESS_TSA_URL)',
    );
  });

  it('a server refuses to start with a bad authority URL', async () => {
    const dataDir = mkdtempSync(join(work, 'bad-'));
    await assert.rejects(startTestServer({ dataDir, witness: { tsaUrls: ['file:///etc/passwd'] } }), /SVC_WITNESS_TSA_URL/);
  });
});

/** The authority's answer with its token re-signed by the fixture's web server certificate. */
async function resignedByWebServer(tsa: TestTimestampAuthority, answer: Buffer): Promise<Buffer> {
  const response = TimeStampResp.fromBER(new Uint8Array(answer));
  const token = Buffer.from(response.timeStampToken!.toSchema().toBER()).toString('base64');
  response.timeStampToken = ContentInfo.fromBER(new Uint8Array(Buffer.from(await tsa.resignedByWebServer(token), 'base64')));
  return Buffer.from(response.toSchema().toBER());
}

/**
 * A small HTTP front before an authority: `forward` passes requests on (and records their headers); `replay`
 * forwards the first and answers every later request with that first answer; `other-imprint` forwards a request
 * for other data, with the caller's nonce; `other-nonce` forwards the caller's imprint with another nonce;
 * `rejected` forwards a SHA-1 imprint, which the authority does not accept (PKIStatus rejection); `web-signer`
 * answers the authority's token re-signed by a web server's certificate of its CA (not for time-stamping).
 */
async function relay(
  tsa: TestTimestampAuthority,
  mode: 'forward' | 'replay' | 'other-imprint' | 'other-nonce' | 'rejected' | 'web-signer',
) {
  const target = tsa.url;
  const headers: IncomingHttpHeaders[] = [];
  let first: Buffer | undefined;
  const send = async (body: Uint8Array<ArrayBuffer>) =>
    Buffer.from(
      await (await fetch(target, { method: 'POST', headers: { 'content-type': 'application/timestamp-query' }, body })).arrayBuffer(),
    );
  const answer = async (body: Uint8Array<ArrayBuffer>): Promise<Buffer> => {
    if (mode === 'forward') return send(body);
    if (mode === 'replay') return first ?? (first = await send(body));
    if (mode === 'web-signer') return resignedByWebServer(tsa, await send(body));
    const request = TimeStampReq.fromBER(body);
    if (mode === 'other-nonce') {
      const nonce = request.nonce!;
      request.nonce = (nonce.constructor as unknown as { fromBigInt(n: bigint): typeof nonce }).fromBigInt(nonce.toBigInt() + 1n);
    } else if (mode === 'rejected') request.messageImprint = await MessageImprint.create('SHA-1', new TextEncoder().encode('x'));
    else request.messageImprint = await MessageImprint.create('SHA-256', new TextEncoder().encode('something else'));
    return send(new Uint8Array(request.toSchema().toBER()));
  };
  const server: Server = createServer((req, res) => {
    headers.push(req.headers);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      answer(new Uint8Array(Buffer.concat(chunks))).then(
        (der) => res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(der),
        () => res.writeHead(502).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/front`,
    headers,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
