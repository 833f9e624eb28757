// The OpenAPI document passes Redocly's recommended rules with no errors (warnings are printed, not failed).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './testing.js';

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: 'error' | 'warn'; message: string; location: { pointer: string }[] }[];
}

const redocly = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

describe('the OpenAPI document under redocly lint (recommended)', () => {
  let server: TestServer;
  let dir: string;
  before(async () => {
    server = await startTestServer({ countries: ['US', 'DE'] });
    dir = mkdtempSync(join(tmpdir(), 'svc-openapi-'));
  });
  after(async () => {
    await server.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has no errors', async () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, await (await fetch(`${server.url}/.well-known/openapi`)).text());
    const run = spawnSync(process.execPath, [redocly, 'lint', file, '--extends=recommended', '--format=json'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeout: 120_000,
    });
    const start = run.stdout.indexOf('{');
    assert.ok(start >= 0, `redocly printed no report: ${run.stderr.slice(0, 2000)}`);
    const report = JSON.parse(run.stdout.slice(start)) as LintReport;
    const errors = report.problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    assert.deepEqual(errors, []);
    assert.equal(report.totals.errors, 0);
  });
});
