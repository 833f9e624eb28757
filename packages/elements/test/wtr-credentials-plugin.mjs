// @web/test-runner plugin: the `svc-credentials-person {email, origin}` command answers `{base_url, access_token, credential_id}`
// from a reference server of its own (credentials-server.ts, started in a child process on first use, with `origin`
// allowed): a person signed in with credentials:read and credentials:write, to whom the sandbox organisation
// has just issued a credential. The page never holds the organisation's API token. While the server starts (longer
// than a command may take) it answers `{starting: true}`: ask again.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('./credentials-server.ts', import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));

export function svcCredentialsPlugin() {
  let child;
  let lines;
  let ready;
  /** The next line the child prints, in order. */
  const waiting = [];

  function start(origin) {
    child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', entry, origin], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => waiting.shift()?.resolve(JSON.parse(line)));
    child.once('exit', (code) => {
      for (const one of waiting.splice(0)) one.reject(new Error(`the credentials server exited with ${code}`));
    });
    return next();
  }
  const next = () => new Promise((resolve, reject) => waiting.push({ resolve, reject }));

  return {
    name: 'svc-credentials',
    async executeCommand({ command, payload }) {
      if (command !== 'svc-credentials-person') return undefined;
      ready ??= start(payload.origin);
      const started = await Promise.race([ready.then(() => true), new Promise((resolve) => setTimeout(resolve, 15_000, false))]);
      if (!started) return { starting: true };
      const answer = next();
      child.stdin.write(`${JSON.stringify({ email: payload.email })}\n`);
      const person = await answer;
      if (person.error) throw new Error(person.error);
      return person;
    },
    serverStop() {
      child?.kill('SIGTERM');
    },
  };
}
