// @web/test-runner plugin: serves `/__svc__/sandbox.json` to browser tests, starting one reference server (in a
// child process, from the TypeScript sources) the first time a test asks, with the test page's origin allowed.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('./sandbox-server.ts', import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The plugin; tests fetch `/__svc__/sandbox.json` for `{base_url, publishable_key, flow_id, application_id}`. */
export function svcSandboxPlugin() {
  let child;
  let sandbox;

  function start(origin) {
    child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', entry, origin], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    return new Promise((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the svc sandbox server exited with ${code}`)));
      createInterface({ input: child.stdout }).once('line', (line) => resolve(line));
    });
  }

  return {
    name: 'svc-sandbox',
    serve(context) {
      if (context.path !== '/__svc__/sandbox.json') return undefined;
      sandbox ??= start(context.origin);
      return sandbox.then((body) => ({ body, type: 'application/json' }));
    },
    serverStop() {
      child?.kill('SIGTERM');
    },
  };
}
