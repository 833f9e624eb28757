// @web/test-runner plugin: the `svc-records-person {email, origin}` command answers `{base_url, access_token, records}`
// from a reference server of its own (records-server.ts, started in a child process on first use, with `origin`
// allowed): a person signed in with records:read and records:write, whose two consent records the sandbox
// organisation has just recorded. The page never holds the organisation's API token. While the server starts (longer
// than a command may take) it answers `{starting: true}`: ask again.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('./records-server.ts', import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));

export function svcRecordsPlugin() {
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
      for (const one of waiting.splice(0)) one.reject(new Error(`the records server exited with ${code}`));
    });
    return next();
  }
  const next = () => new Promise((resolve, reject) => waiting.push({ resolve, reject }));

  return {
    name: 'svc-records',
    async executeCommand({ command, payload }) {
      if (command !== 'svc-records-person') return undefined;
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
