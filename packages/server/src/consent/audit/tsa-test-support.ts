// Test fixture: a real RFC 3161 time-stamping authority. OpenSSL makes a CA and a time-stamping certificate in a
// temporary directory and answers each request (`openssl ts -reply`) behind a small HTTP front on 127.0.0.1.
// The client's tests import it too, so its API stays small: {@link startTimestampAuthority}.
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
  /** `true`: every request is answered 503 (the authority is down); `false`: answered again. */
  setDown(down: boolean): void;
  /** The DER of every time-stamp request received (also those answered 503), oldest first. */
  requests: Buffer[];
  /** Stops the HTTP front and removes the temporary directory. */
  close(): Promise<void>;
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

/** Makes the CA and the authority's key and certificate in `dir`, with the `openssl` CLI. */
async function makeAuthorityFiles(dir: string): Promise<string> {
  const config = join(dir, 'openssl.cnf');
  writeFileSync(config, tsaConfig(dir));
  writeFileSync(join(dir, 'serial'), '01\n');
  const f = (name: string) => join(dir, name);
  const key = ['-newkey', 'rsa:2048', '-nodes'];
  await run('openssl', [
    'req',
    '-config',
    config,
    '-x509',
    ...key,
    '-keyout',
    f('ca.key'),
    '-out',
    f('ca.pem'),
    '-days',
    '3650',
    '-subj',
    '/CN=svc test TSA root',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  await run('openssl', [
    'req',
    '-config',
    config,
    '-new',
    ...key,
    '-keyout',
    f('tsa.key'),
    '-out',
    f('tsa.csr'),
    '-subj',
    '/CN=svc test TSA',
  ]);
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    f('tsa.csr'),
    '-CA',
    f('ca.pem'),
    '-CAkey',
    f('ca.key'),
    '-CAcreateserial',
    '-out',
    f('tsa.pem'),
    '-days',
    '3650',
    '-extfile',
    config,
    '-extensions',
    'tsa_cert',
  ]);
  return config;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Starts a time-stamping authority for tests: a CA and a TSA certificate (`extendedKeyUsage = critical,timeStamping`)
 * made with the `openssl` CLI in a temporary directory, and an HTTP server on a free 127.0.0.1 port that answers each
 * POST with `openssl ts -reply` (`Content-Type: application/timestamp-reply`). Requests are answered one at a time
 * (OpenSSL keeps the serial number in a file).
 */
export async function startTimestampAuthority(): Promise<TestTimestampAuthority> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tsa-'));
  const config = await makeAuthorityFiles(dir);
  const requests: Buffer[] = [];
  let down = false;
  let queue: Promise<unknown> = Promise.resolve();
  let n = 0;
  const reply = async (query: Buffer): Promise<Buffer> => {
    const name = `q${++n}`;
    writeFileSync(join(dir, `${name}.tsq`), query);
    await run('openssl', ['ts', '-reply', '-config', config, '-queryfile', join(dir, `${name}.tsq`), '-out', join(dir, `${name}.tsr`)]);
    return readFileSync(join(dir, `${name}.tsr`));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    if (req.method !== 'POST') return void res.writeHead(405).end();
    requests.push(body);
    if (down) return void res.writeHead(503, { 'content-type': 'text/plain' }).end('down for the test');
    try {
      const der = await reply(body);
      res.writeHead(200, { 'content-type': 'application/timestamp-reply', 'content-length': der.length }).end(der);
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('openssl ts -reply refused the request');
    }
  };
  // One request at a time: OpenSSL keeps the serial number in a file.
  const server = createServer((req, res) => {
    queue = queue.then(() => handle(req, res)).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tsr`,
    caFile: join(dir, 'ca.pem'),
    caPem: readFileSync(join(dir, 'ca.pem'), 'utf8'),
    setDown(value) {
      down = value;
    },
    requests,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
