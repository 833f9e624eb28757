// Test support: a throw-away RFC 3161 authority made with the `openssl` command line (a CA, a time-stamping
// certificate of that CA, and `openssl ts -reply`), so the client's verifier is checked against OpenSSL's tokens.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A CA and a time-stamping authority certified by it, in a temporary directory. */
export interface TestAuthority {
  /** The CA certificate, PEM. */
  caPem: string;
  /** Its path. */
  caFile: string;
  /** The TSA's certificate, PEM. */
  tsaPem: string;
  /** A base64 DER TimeStampToken over SHA-256(data). */
  stamp(data: string | Uint8Array): Promise<string>;
  /** Signs a certificate with this CA: `extensions` are `openssl x509 -extfile` lines. */
  certify(name: string, extensions: string): Promise<{ certFile: string; keyFile: string }>;
  dir: string;
  dispose(): void;
}

const caConfig = (name: string) => `[req]
distinguished_name = dn
x509_extensions = v3_ca
prompt = no
[dn]
CN = ${name}
[v3_ca]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
`;
const TSA_EXTENSIONS = 'basicConstraints = CA:FALSE\nkeyUsage = critical,digitalSignature\nextendedKeyUsage = critical,timeStamping\n';

const tsConfig = (dir: string) => `[tsa]
default_tsa = tsa_config
[tsa_config]
dir = ${dir}
serial = ${dir}/serial
crypto_device = builtin
signer_cert = ${dir}/tsa.pem
certs = ${dir}/ca.pem
signer_key = ${dir}/tsa.key
signer_digest = sha256
default_policy = 1.3.6.1.4.1.99999.1
digests = sha256
accuracy = secs:1
ordering = yes
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`;

/** Makes a CA (`name`) and a TSA certificate it signs, each with a fresh P-256 key. */
export async function startTestAuthority(name = 'Test Time-Stamping CA'): Promise<TestAuthority> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tsa-'));
  const at = (file: string) => join(dir, file);
  const openssl = (...args: string[]) => run('openssl', args, { cwd: dir });
  writeFileSync(at('ca.cnf'), caConfig(name));
  await openssl(
    'req',
    '-x509',
    '-new',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.pem'),
    '-days',
    '3650',
    '-config',
    at('ca.cnf'),
  );
  const certify = async (subject: string, extensions: string) => {
    const base = subject.replace(/\W+/g, '_');
    writeFileSync(at(`${base}.ext`), extensions);
    await openssl(
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      at(`${base}.key`),
      '-out',
      at(`${base}.csr`),
      '-subj',
      `/CN=${subject}`,
    );
    await openssl(
      'x509',
      '-req',
      '-in',
      at(`${base}.csr`),
      '-CA',
      at('ca.pem'),
      '-CAkey',
      at('ca.key'),
      '-set_serial',
      String(Date.now()),
      '-days',
      '3650',
      '-extfile',
      at(`${base}.ext`),
      '-out',
      at(`${base}.pem`),
    );
    return { certFile: at(`${base}.pem`), keyFile: at(`${base}.key`) };
  };
  const tsa = await certify('Test TSA', TSA_EXTENSIONS);
  await openssl('x509', '-in', tsa.certFile, '-out', at('tsa.pem'));
  await openssl('pkey', '-in', tsa.keyFile, '-out', at('tsa.key'));
  writeFileSync(at('serial'), '0a00\n');
  writeFileSync(at('tsa.cnf'), tsConfig(dir));
  // Each call its own files (calls may run side by side); the serial file is OpenSSL's, one call at a time.
  let n = 0;
  let queue: Promise<unknown> = Promise.resolve();
  const stampOnce = async (data: string | Uint8Array) => {
    const i = ++n;
    writeFileSync(at(`data${i}`), data);
    await openssl('ts', '-query', '-data', at(`data${i}`), '-sha256', '-cert', '-out', at(`q${i}.tsq`));
    await openssl('ts', '-reply', '-queryfile', at(`q${i}.tsq`), '-config', at('tsa.cnf'), '-token_out', '-out', at(`t${i}.der`));
    return readFileSync(at(`t${i}.der`)).toString('base64');
  };
  const stamp = (data: string | Uint8Array) => {
    const next = queue.then(() => stampOnce(data));
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    caPem: readFileSync(at('ca.pem'), 'utf8'),
    caFile: at('ca.pem'),
    tsaPem: readFileSync(at('tsa.pem'), 'utf8'),
    stamp,
    certify,
    dir,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
