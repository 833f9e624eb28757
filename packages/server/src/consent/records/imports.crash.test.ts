// The crash test: the server is killed hard (SIGKILL) in the middle of a 5000-row import, restarted on the same data,
// and holds either the whole import or none of it. The kill comes from the import's test hook after 2500 rows, inside
// the import's transaction, so it lands mid-import every time.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { ConsentImport } from '@svc/schemas';
import { KILL_AFTER_ROWS_ENV } from './imports.js';
import { importRows, recordFlowConfig } from './test-support.js';

interface Child {
  process: ChildProcess;
  url: string;
  token: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const helper = fileURLToPath(new URL('./child-server.test.helper.ts', import.meta.url));

async function startChild(dataDir: string, env: Record<string, string> = {}): Promise<Child> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', helper, dataDir], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', () => reject(new Error('the child server exited before it was ready')));
  });
  const ready = JSON.parse(line) as { url: string; api_token: string };
  return { process: child, url: ready.url, token: ready.api_token, exited };
}

function api(child: Child, path: string, init: { method?: string; json?: unknown } = {}) {
  return fetch(child.url + path, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${child.token}`, 'content-type': 'application/json' },
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });
}

describe('an import killed hard in the middle', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-crash-'));
  const children: Child[] = [];
  after(() => {
    for (const child of children) child.process.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves none of it after a restart, and a re-run with the same keys makes it whole exactly once', { timeout: 180_000 }, async () => {
    // The doomed server: its import hook kills it after 2500 of 5000 rows, inside the transaction.
    const doomed = await startChild(dataDir, { [KILL_AFTER_ROWS_ENV]: '2500' });
    children.push(doomed);
    const flowRes = await api(doomed, '/api/v1/flows', {
      method: 'POST',
      json: { flow: { pattern: 'standard', title: 'Crash', config: recordFlowConfig } },
    });
    const flowId = ((await flowRes.json()) as { flow: { id: string } }).flow.id;
    assert.equal((await api(doomed, `/api/v1/flows/${flowId}/activate`, { method: 'POST' })).status, 200);
    const rows = importRows(5000, 'crash');
    await assert.rejects(
      api(doomed, '/api/v1/consent_records/imports', { method: 'POST', json: { flow_id: flowId, records: rows } }),
      'the connection dies with the server',
    );
    assert.deepEqual(await doomed.exited, { code: null, signal: 'SIGKILL' });

    // Restarted on the same data: none of the import's rows, its import marked failed.
    const restarted = await startChild(dataDir);
    children.push(restarted);
    const db = new Database(join(dataDir, 'svc.sqlite'), { readonly: true });
    try {
      assert.equal(db.prepare("SELECT count(*) FROM consent_records WHERE channel = 'imported'").pluck().get(), 0);
      assert.equal(db.prepare("SELECT count(*) FROM persons WHERE email LIKE 'crash-%'").pluck().get(), 0);
      assert.equal(db.prepare('SELECT count(*) FROM audit_events').pluck().get(), 0);
      const imports = db.prepare('SELECT status, error, accepted_count FROM consent_imports').all() as {
        status: string;
        error: string;
        accepted_count: number;
      }[];
      assert.equal(imports.length, 1);
      assert.equal(imports[0]!.status, 'failed');
      assert.match(imports[0]!.error, /interrupted/);
      assert.equal(imports[0]!.accepted_count, 0);
    } finally {
      db.close();
    }
    const status = await api(
      restarted,
      `/api/v1/applications/${await applicationOf(restarted)}/consent_status?subject[email]=crash-0@example.com`,
    );
    assert.equal(status.status, 404, 'nobody of the import is known');

    // The same import again: whole, exactly once; and once more: no duplicates.
    const rerun = await api(restarted, '/api/v1/consent_records/imports', { method: 'POST', json: { flow_id: flowId, records: rows } });
    assert.equal(rerun.status, 201);
    const done = ((await rerun.json()) as { import: ConsentImport }).import;
    assert.deepEqual([done.status, done.accepted_count, done.refused_count], ['completed', 5000, 0]);
    const again = (
      (await (
        await api(restarted, '/api/v1/consent_records/imports', { method: 'POST', json: { flow_id: flowId, records: rows } })
      ).json()) as { import: ConsentImport }
    ).import;
    assert.equal(again.results.filter((r) => r.existing).length, 5000);
    const check = new Database(join(dataDir, 'svc.sqlite'), { readonly: true });
    try {
      assert.equal(check.prepare("SELECT count(*) FROM consent_records WHERE channel = 'imported'").pluck().get(), 5000);
    } finally {
      check.close();
    }
    restarted.process.kill('SIGTERM');
    assert.equal((await restarted.exited).code, 0);
  });
});

async function applicationOf(child: Child): Promise<string> {
  const res = await api(child, '/api/v1/applications');
  return ((await res.json()) as { applications: { id: string }[] }).applications[0]!.id;
}
