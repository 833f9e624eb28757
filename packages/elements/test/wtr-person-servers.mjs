// @web/test-runner plugins for the people's elements' browser tests. `personServerPlugin(name)` answers the command
// `svc-<name>-person {origin}` with what `<name>-server.ts` made for a new person at a reference server of its own
// (started in a child process on first use, with `origin` allowed): their access token and the things the element
// shows (records, a credential, grants, data requests; see each server). The page never holds the organisation's API
// token. Each person's email comes from a counter here, new on every call, in every engine, on every run. While the
// server starts (longer than a command may take) it answers `{starting: true}`: ask again.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export function personServerPlugin(name) {
  const entry = fileURLToPath(new URL(`./${name}-server.ts`, import.meta.url));
  let child;
  let ready;
  let people = 0;
  /** The next line the child prints, in order. */
  const waiting = [];
  const next = () => new Promise((resolve, reject) => waiting.push({ resolve, reject }));

  function start(origin) {
    child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', entry, origin], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.resolve(JSON.parse(line)));
    child.once('exit', (code) => {
      for (const one of waiting.splice(0)) one.reject(new Error(`the ${name} server exited with ${code}`));
    });
    return next();
  }

  return {
    name: `svc-${name}`,
    async executeCommand({ command, payload }) {
      if (command !== `svc-${name}-person`) return undefined;
      ready ??= start(payload.origin);
      const started = await Promise.race([ready.then(() => true), new Promise((resolve) => setTimeout(resolve, 15_000, false))]);
      if (!started) return { starting: true };
      const answer = next();
      people += 1;
      // The test's own options (beside the page's origin) go along: a server may make more for a case that asks.
      child.stdin.write(`${JSON.stringify({ ...payload, email: `person-${name}-${people}@example.com` })}\n`);
      const person = await answer;
      if (person.error) throw new Error(person.error);
      return person;
    },
    serverStop() {
      child?.kill('SIGTERM');
    },
  };
}
