// Test support for the `svc` command line run in this process: one run with a given environment, answering its exit
// code and output, and a person's sign-in stored as `svc login` stores it.
import { credentialsPath, writeCredentials } from '../cli/credentials.js';
import { run } from '../cli/run.js';
import { signInPerson } from './oauth.test.helper.js';
import type { TestServer } from './servers.test.helper.js';

/** What one `svc` run answered. */
export interface SvcRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `svc <argv>` in this process with `env` as its whole environment and `cwd` as its working directory. */
export async function runSvc(argv: string[], env: Record<string, string>, cwd: string): Promise<SvcRun> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    env,
    cwd,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}

/** Signs `email` in on `server` (scopes openid and email) and stores the sign-in under the config home `home`. */
export async function storeSignIn(server: TestServer, home: string, email: string): Promise<void> {
  const tokens = await signInPerson(server, email, 'openid email');
  writeCredentials(credentialsPath({ XDG_CONFIG_HOME: home }), {
    version: 1,
    issuer: server.url,
    client_id: server.sandbox.oauth_client_id!,
    access_token: tokens.access_token,
    expires_at: Math.floor(Date.now() / 1000) + 3000,
    scope: 'openid email',
    email,
    signed_in_at: new Date().toISOString(),
  });
}
