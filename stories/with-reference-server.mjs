#!/usr/bin/env node
// Starts Storybook (dev) with the consent field stories on a running reference server instead of the static render
// answers: reads the sandbox file (`SVC_DATA_DIR` or `.svc`, written by `pnpm start`), adds Storybook's origin to
// the sandbox application's allowed origins (the render and capture endpoints check it), and passes base URL,
// publishable key and capture flow as STORYBOOK_SVC_* variables. Usage: node stories/with-reference-server.mjs
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const port = Number(process.env.STORYBOOK_PORT ?? 6006);
const file = join(process.env.SVC_DATA_DIR ?? join(root, '.svc'), 'sandbox.json');
let sandbox;
try {
  sandbox = JSON.parse(readFileSync(file, 'utf8'));
} catch {
  console.error(`No sandbox at ${file}: start the reference server first (pnpm start).`);
  process.exit(1);
}
const flow = sandbox.capture_flow_id ?? sandbox.flow_id;
for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`]) {
  const response = await fetch(`${sandbox.base_url}/api/v1/applications/${sandbox.application_id}/allowed_origins`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.api_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ allowed_origin: { origin } }),
  }).catch((cause) => {
    console.error(`The reference server at ${sandbox.base_url} does not answer (${cause.message}): start it first (pnpm start).`);
    process.exit(1);
  });
  if (!response.ok && response.status !== 409) console.warn(`Could not allow ${origin}: HTTP ${response.status} ${await response.text()}`);
}
console.log(`Consent field stories use ${sandbox.base_url}, flow ${flow}.`);
const child = spawn('pnpm', ['exec', 'storybook', 'dev', '-p', String(port), '--no-version-updates', '--no-open'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    STORYBOOK_DISABLE_TELEMETRY: '1',
    STORYBOOK_SVC_BASE_URL: sandbox.base_url,
    STORYBOOK_SVC_PUBLISHABLE_KEY: sandbox.publishable_key,
    STORYBOOK_SVC_FLOW_ID: flow,
  },
});
child.on('exit', (code) => process.exit(code ?? 0));
