// `svc credentials …`, `svc presentations verify`, `svc transfer-register …`, `svc residency …`, `svc breach-scope …`
// and `svc evidence verify` against a reference server of two country cells, through the real command line.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { presentCredential } from '../credentials/index.js';
import { createClient, type SvcClient } from '../lib/client.js';
import { consentToNewsletter } from '../testing/participant.test.helper.js';
import { startTestCells, type TestCells, type TestServer } from '../testing/servers.test.helper.js';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const tsx = import.meta.resolve('tsx');
const scratch = mkdtempSync(join(tmpdir(), 'svc-cli-xb-'));

function svc(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=source', '--import', tsx, main, ...args],
      { env: { PATH: process.env.PATH ?? '', XDG_CONFIG_HOME: scratch, ...env }, cwd: tmpdir() },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('svc cross-border commands', () => {
  let server: TestCells;
  let us: TestServer;
  let client: SvcClient;
  let env: Record<string, string>;
  let transaction: string;

  before(async () => {
    server = await startTestCells(['US', 'DE']);
    us = server.cells.US!;
    client = createClient({ baseUrl: us.url, apiToken: us.sandbox.api_token });
    env = { SVC_DATA_DIR: server.first.dataDir };
    const decision = await client.decisions.create({
      kind: 'consent',
      subject_ref: us.sandbox.flow_id!,
      delivery_mode: 'embed',
      embed_origin: us.url,
    });
    await consentToNewsletter(us.url, decision.session_token, 'ines@example.com');
    transaction = (await client.decisions.get(decision.session_token)).consent_transaction_id!;
  });
  after(async () => {
    await server.dispose();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('issues, lists and revokes a credential; a presentation verifies in DE, then not after revocation and the status list ttl', async () => {
    const issued = await svc(['credentials', 'issue', '--transaction', transaction, '--type', 'NewsletterConsent', '--json'], env);
    assert.equal(issued.code, 0, issued.stderr);
    const credential = JSON.parse(issued.stdout) as { id: string; credential: string; status: string };
    assert.equal(credential.status, 'active');
    assert.match(issued.stderr, /"country":"US"/);

    const listed = await svc(['credentials', 'list'], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`^${credential.id} +active +NewsletterConsent`, 'm'));

    const file = join(scratch, 'presentation.txt');
    writeFileSync(file, `${await presentCredential(credential.credential, { disclose: ['purposes.newsletter'] })}\n`);
    const deEnv = { SVC_BASE_URL: server.cells.DE!.url, SVC_API_TOKEN: us.sandbox.api_token };
    const verified = await svc(['presentations', 'verify', file], deEnv);
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stdout, /^valid +yes$/m);
    assert.match(verified.stdout, /^issuer +http:\/\/127\.0\.0\.1:\d+ \(US\)$/m);
    assert.match(verified.stderr, /country: DE/);

    assert.equal((await svc(['credentials', 'revoke', credential.id], env)).code, 0);
    server.first.advance(301);
    const refused = await svc(['presentations', 'verify', file], deEnv);
    assert.equal(refused.code, 1);
    assert.match(refused.stdout, /^revoked +yes$/m);
  });

  it('lists the register, shows the posture, and draws evidence that svc evidence verify accepts and a changed copy fails', async () => {
    const register = await svc(['transfer-register', 'list'], env);
    assert.equal(register.code, 0, register.stderr);
    assert.match(register.stdout, /US -> DE {2}credential_presentation {2}adequacy_decision/);

    const posture = await svc(['residency', 'posture'], env);
    assert.equal(posture.code, 0, posture.stderr);
    assert.match(posture.stdout, /^US {2}verified/m);
    assert.match(posture.stdout, /^DE {2}verified/m);

    const drawn = await svc(['residency', 'evidence', '--json'], env);
    assert.equal(drawn.code, 0, drawn.stderr);
    const file = join(scratch, 'evidence.json');
    writeFileSync(file, drawn.stdout);
    const checked = await svc(['evidence', 'verify', file], env);
    assert.equal(checked.code, 0, checked.stderr);
    assert.match(checked.stdout, /^signature +valid \(ES256, key /m);

    const evidence = JSON.parse(drawn.stdout) as { package: string };
    const [header, payload, signature] = evidence.package.split('.');
    const flipped = payload!.slice(0, 10) + (payload![10] === 'A' ? 'B' : 'A') + payload!.slice(11);
    writeFileSync(file, JSON.stringify({ ...evidence, package: `${header}.${flipped}.${signature}` }));
    const tampered = await svc(['evidence', 'verify', file], env);
    assert.equal(tampered.code, 1);
  });

  it('reports a breach scope by fingerprint only, and refuses a bad credential type as usage', async () => {
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const report = await svc(
      ['breach-scope', 'report', '--type', 'publishable_key', '--id', us.sandbox.publishable_key, '--from', from],
      env,
    );
    assert.equal(report.code, 0, report.stderr);
    assert.match(report.stdout, /^credential +publishable_key sha256:[0-9a-f]{64}$/m);
    assert.equal(report.stdout.includes(us.sandbox.publishable_key), false);
    const bad = await svc(['breach-scope', 'report', '--type', 'password', '--id', 'x', '--from', from], env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--type is one of api_token, agent_token, publishable_key/);
  });
});
