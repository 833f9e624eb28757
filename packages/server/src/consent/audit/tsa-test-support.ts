// Test fixture: a real RFC 3161 time-stamping authority. OpenSSL makes a CA, a time-stamping certificate and a web
// server's certificate of that CA in a temporary directory, and answers each request (`openssl ts -reply`) behind a
// small HTTP front on 127.0.0.1, or gives a token directly ({@link TestTimestampAuthority.stamp}).
// The client's tests import it too (through its `servers.test.helper.ts`), so its API stays small.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A running test authority. */
export interface TestTimestampAuthority {
  /** Where to POST `application/timestamp-query` requests, e.g. `http://127.0.0.1:40123/tsr`. */
  url: string;
  /** Path of the CA certificate (PEM) that issued the authority's certificate: what `openssl ts -verify -CAfile` takes. */
  caFile: string;
  /** The same CA certificate, PEM text. */
  caPem: string;
  /** The authority's own (signer) certificate, PEM text. */
  tsaPem: string;
  /** A base64 DER TimeStampToken over SHA-256(`data`) (a string as UTF-8), as `openssl ts -reply -token_out` gives it. */
  stamp(data: string | Uint8Array): Promise<string>;
  /**
   * A base64 DER TimeStampToken re-signed by a web server's certificate of the same CA (`serverAuth`, made when the
   * authority started, so before any token): the same TSTInfo, imprint and nonce, a valid CMS signature, only the
   * signer's extended key usage is wrong.
   */
  resignedByWebServer(token: string): Promise<string>;
  /** `true`: every request is answered 503 (the authority is down); `false`: answered again. */
  setDown(down: boolean): void;
  /** The DER of every time-stamp request received (also those answered 503), oldest first. */
  requests: Buffer[];
  /** Stops the HTTP front and removes the temporary directory. */
  close(): Promise<void>;
}

/** How to make an authority: its CA's common name, and its keys' algorithm (RSA 2048 or ECDSA P-256). */
export interface TestTimestampAuthorityOptions {
  name?: string;
  key?: 'rsa' | 'ec';
}

function tsaConfig(dir: string): string {
  return `[ req ]
distinguished_name = dn
prompt = no
[ dn ]
CN = placeholder
[ tsa_cert ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = critical,timeStamping
[ web_cert ]
basicConstraints = CA:FALSE
extendedKeyUsage = serverAuth
[ tsa ]
default_tsa = tsa_config
[ tsa_config ]
dir = ${dir}
serial = ${join(dir, 'serial')}
crypto_device = builtin
signer_cert = ${join(dir, 'tsa.pem')}
certs = ${join(dir, 'ca.pem')}
signer_key = ${join(dir, 'tsa.key')}
signer_digest = sha256
default_policy = 1.3.6.1.4.1.99999.1
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`;
}

/** `openssl` run in `dir`, with its file paths and config at hand. */
function opensslIn(dir: string) {
  const f = (name: string) => join(dir, name);
  const config = f('openssl.cnf');
  const openssl = (...args: string[]) => run('openssl', args, { cwd: dir });
  return { f, config, openssl };
}
type OpenSsl = ReturnType<typeof opensslIn>;

const KEY_ARGS = { rsa: ['-newkey', 'rsa:2048'], ec: ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'] } as const;

/** A key and a certificate `<base>.key`/`<base>.pem` for `/CN=<subject>`, issued by the CA with `extensions`. */
async function issue({ f, config, openssl }: OpenSsl, key: 'rsa' | 'ec', base: string, subject: string, extensions: string) {
  const keyArgs = [...KEY_ARGS[key], '-nodes', '-keyout', f(`${base}.key`)];
  await openssl('req', '-config', config, '-new', ...keyArgs, '-out', f(`${base}.csr`), '-subj', `/CN=${subject}`);
  const ca = ['-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAserial', f(`${base}.srl`), '-CAcreateserial'];
  const ext = ['-extfile', config, '-extensions', extensions];
  await openssl('x509', '-req', '-in', f(`${base}.csr`), ...ca, ...ext, '-out', f(`${base}.pem`), '-days', '3650');
}

/** Makes the CA, the authority's key and certificate, and a web server's, in `dir`, with the `openssl` CLI. */
async function makeAuthorityFiles(ssl: OpenSsl, dir: string, { name = 'svc test TSA root', key = 'rsa' }: TestTimestampAuthorityOptions) {
  const { f, config, openssl } = ssl;
  writeFileSync(config, tsaConfig(dir));
  // A serial with a leading zero nibble: the first token's is `0a01`, which a reader must not shorten.
  writeFileSync(f('serial'), '0a00\n');
  const ca = ['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'];
  const keyArgs = [...KEY_ARGS[key], '-nodes', '-keyout', f('ca.key')];
  await openssl('req', '-config', config, '-x509', ...keyArgs, '-out', f('ca.pem'), '-days', '3650', '-subj', `/CN=${name}`, ...ca);
  await Promise.all([issue(ssl, key, 'tsa', 'svc test TSA', 'tsa_cert'), issue(ssl, 'ec', 'web', 'www.example', 'web_cert')]);
}

/** id-ct-TSTInfo (RFC 3161): the content type a time-stamp token's CMS signs. */
const ID_CT_TSTINFO = '1.2.840.113549.1.9.16.1.4';

/** The TSTInfo of `token` (base64 DER) signed again, as CMS SignedData, by the web server's certificate. */
async function resignByWebServer({ f, openssl }: OpenSsl, token: string, n: number): Promise<string> {
  writeFileSync(f(`stolen${n}.der`), Buffer.from(token, 'base64'));
  await openssl('cms', '-verify', '-noverify', '-inform', 'DER', '-in', f(`stolen${n}.der`), '-out', f(`tstinfo${n}.der`));
  const sign = ['cms', '-sign', '-binary', '-nodetach', '-md', 'sha256', '-econtent_type', ID_CT_TSTINFO];
  const signer = ['-signer', f('web.pem'), '-inkey', f('web.key')];
  await openssl(...sign, ...signer, '-in', f(`tstinfo${n}.der`), '-outform', 'DER', '-out', f(`forged${n}.der`));
  return readFileSync(f(`forged${n}.der`)).toString('base64');
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Runs each task after every earlier one has settled. */
function oneAtATime() {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const next = queue.then(task);
    queue = next.catch(() => undefined);
    return next;
  };
}

/** The front's answer to a request: recorded, then 405 (not a POST), 503 (down), the reply, or 400 (OpenSSL refused). */
function answering(reply: (query: Buffer) => Promise<Buffer>, requests: Buffer[], isDown: () => boolean) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    if (req.method !== 'POST') return void res.writeHead(405).end();
    requests.push(body);
    if (isDown()) return void res.writeHead(503, { 'content-type': 'text/plain' }).end('down for the test');
    try {
      const der = await reply(body);
      res.writeHead(200, { 'content-type': 'application/timestamp-reply', 'content-length': der.length }).end(der);
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('openssl ts -reply refused the request');
    }
  };
}

/** The HTTP front: an answer to each POST, one request at a time, on a free 127.0.0.1 port. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>, inTurn: ReturnType<typeof oneAtATime>) {
  const server = createServer((req, res) => void inTurn(() => handle(req, res)).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { url: `http://127.0.0.1:${port}/tsr`, close };
}

/**
 * Starts a time-stamping authority for tests: a CA and a TSA certificate (`extendedKeyUsage = critical,timeStamping`)
 * made with the `openssl` CLI in a temporary directory, and an HTTP server on a free 127.0.0.1 port that answers each
 * POST with `openssl ts -reply` (`Content-Type: application/timestamp-reply`). Requests and {@link
 * TestTimestampAuthority.stamp} are answered one at a time (OpenSSL keeps the serial number in a file).
 */
export async function startTimestampAuthority(options: TestTimestampAuthorityOptions = {}): Promise<TestTimestampAuthority> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tsa-'));
  const ssl = opensslIn(dir);
  const { f, config, openssl } = ssl;
  await makeAuthorityFiles(ssl, dir, options);
  const requests: Buffer[] = [];
  const inTurn = oneAtATime();
  let down = false;
  let n = 0;
  /** `openssl ts -reply` to a DER query: the TimeStampResp, or with `tokenOnly` the TimeStampToken alone. */
  const reply = async (query: Buffer | Uint8Array, tokenOnly = false): Promise<Buffer> => {
    const name = `q${++n}`;
    writeFileSync(f(`${name}.tsq`), query);
    const out = [...(tokenOnly ? ['-token_out'] : []), '-out', f(`${name}.tsr`)];
    await openssl('ts', '-reply', '-config', config, '-queryfile', f(`${name}.tsq`), ...out);
    return readFileSync(f(`${name}.tsr`));
  };
  const front = await serve(
    answering(reply, requests, () => down),
    inTurn,
  );
  const stamp = async (data: string | Uint8Array) => {
    const name = `d${++n}`;
    writeFileSync(f(name), data);
    await openssl('ts', '-query', '-data', f(name), '-sha256', '-cert', '-out', f(`${name}.tsq`));
    return (await inTurn(() => reply(readFileSync(f(`${name}.tsq`)), true))).toString('base64');
  };
  return {
    url: front.url,
    caFile: f('ca.pem'),
    caPem: readFileSync(f('ca.pem'), 'utf8'),
    tsaPem: readFileSync(f('tsa.pem'), 'utf8'),
    stamp,
    resignedByWebServer: (token) => resignByWebServer(ssl, token, ++n),
    setDown(value) {
      down = value;
    },
    requests,
    async close() {
      await front.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
