// Starts the reference server from the installed @svc/server and talks to it with the installed @svc/client and the
// installed `svc` command, loading both packages by `require` or by `import` as argv[2] says; prints what it saw as
// JSON. Copied into the scratch project by packages.test.mjs. Usage: node serve.mjs <require|import>
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const mode = process.argv[2];
const requireHere = createRequire(import.meta.url);
const load = async (specifier) => (mode === 'require' ? requireHere(specifier) : import(specifier));

const { startServer } = await load('@svc/server');
const { createClient, SvcNotFoundError } = await load('@svc/client');

const dataDir = mkdtempSync(join(tmpdir(), 'svc-tarball-server-'));
const server = await startServer({ port: 0, dataDir, countries: ['US'] });
try {
  // The hosted pages' bundles (dist/public) and the script-tag SDK (from @svc/elements) are found and served.
  const assets = {};
  for (const path of ['/', '/assets/decision-page.js', '/assets/oauth-page.js', '/sdk/v1/svc.js']) {
    const response = await fetch(new URL(path, server.url));
    assets[path] = { status: response.status, bytes: (await response.arrayBuffer()).byteLength };
  }
  const svc = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
  const me = await svc.me();
  const missing = await svc.applications.get('app_missing').then(
    () => 'found',
    (error) => error instanceof SvcNotFoundError,
  );
  // The command line reads the sandbox the server wrote (`SVC_DATA_DIR`).
  const bin = fileURLToPath(new URL('node_modules/.bin/svc', import.meta.url));
  // Asynchronously: this process serves the command's requests.
  const cli = await new Promise((resolve) => {
    execFile(bin, ['me', '--json'], { env: { ...process.env, SVC_DATA_DIR: dataDir } }, (error, stdout, stderr) => {
      resolve({ status: error ? error.code : 0, stdout, stderr });
    });
  });
  process.stdout.write(
    JSON.stringify({
      assets,
      me: { kind: me.kind, account: me.account?.id },
      notFoundIsSvcNotFoundError: missing,
      cli: { status: cli.status, stdout: cli.stdout, stderr: cli.stderr },
    }),
  );
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
