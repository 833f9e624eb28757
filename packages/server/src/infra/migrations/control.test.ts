// A data directory of the versions that kept a replica of the organisation configuration in every cell upgrades to
// one control database: filled from the first cell's replica; every replica then dropped, and the cell data kept.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, mock } from 'node:test';
import Database from 'better-sqlite3';
import { migrate, type Db } from '../db.js';
import { hashSecret } from '../ids.js';
import { controlMigrations, migrations } from './index.js';
import { CONTROL_FILE, CONTROL_TABLES } from '../cells/control-plane.js';
import { startServer } from '../../server.js';
import type { TestServer } from '../../testing.js';

const T = '2030-01-01T00:00:00.000Z';
const TOKEN = 'upgrade-token-kept';
const REVOKED = 'upgrade-token-revoked';

/** A cell's database as the previous version left it: the one-file schema, the replica included. */
function previousCell(dir: string): Db {
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, 'svc.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  migrate(db, migrations);
  return db;
}

/** The replica every cell kept: the same account, application and tokens. */
function seedReplica(db: Db, revoked: string | null): void {
  db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').run('acct_up', 'Upgraded', T);
  db.prepare(
    `INSERT INTO applications (id, account_id, name, environment, created_at, updated_at) VALUES (?, 'acct_up', 'Kept', 'development', ?, ?)`,
  ).run('tp_dev_up', T, T);
  const token = db.prepare(`INSERT INTO api_tokens (id, account_id, name, permissions, token_hash, created_at, revoked_at)
    VALUES (?, 'acct_up', ?, '["read","write","admin"]', ?, ?, ?)`);
  token.run('api_token_kept', 'kept', hashSecret(TOKEN), T, null);
  token.run('api_token_revoked', 'revoked', hashSecret(REVOKED), T, revoked);
}

const api = (url: string, path: string, token = TOKEN) => fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });

describe('upgrade from a replica in every cell', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-upgrade-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it("fills the control database from the first cell, drops every replica and keeps each cell's own data", async () => {
    const us = previousCell(dataDir);
    seedReplica(us, T); // US had the revocation ...
    us.prepare("INSERT INTO settings (key, value) VALUES ('records.import_allowance', '9')").run();
    us.close();
    const de = previousCell(join(dataDir, 'cells', 'de'));
    seedReplica(de, null); // ... DE's replica never got it
    de.prepare(
      `INSERT INTO applications (id, account_id, name, environment, created_at, updated_at) VALUES ('tp_dev_de_only', 'acct_up', 'Lost', 'development', ?, ?)`,
    ).run(T, T);
    de.prepare("INSERT INTO persons (id, account_id, email, created_at) VALUES ('prs_de_1', 'acct_up', 'dora@example.de', ?)").run(T);
    const activity = de.prepare(
      "INSERT INTO activity_events (id, application_id, type, data, created_at) VALUES (?, ?, 'cors.preflight_denied', '{}', ?)",
    );
    activity.run('act_de_kept', 'tp_dev_up', T);
    activity.run('act_de_dangling', 'tp_dev_de_only', T);
    de.close();

    const warn = mock.method(console, 'warn', () => undefined);
    const server = await startServer({ port: 0, dataDir, clock: true, countries: ['US', 'DE'] }).finally(() => warn.mock.restore());
    try {
      assert.ok(existsSync(join(dataDir, CONTROL_FILE)));
      const { US: usCell, DE: deCell } = server.cells;
      for (const cell of [usCell!, deCell!]) {
        const { db } = cell.context;
        const files = db.pragma('database_list') as { name: string; file: string }[];
        assert.equal(
          files.find((f) => f.name === 'control')?.file,
          join(dataDir, CONTROL_FILE),
          'every cell attaches the one control file',
        );
        const own = new Set(db.prepare("SELECT name FROM main.sqlite_master WHERE type = 'table'").pluck().all() as string[]);
        assert.deepEqual(
          CONTROL_TABLES.filter((table) => own.has(table)),
          [],
          `no replica left in ${cell.country}`,
        );
        for (const table of own) {
          const parents = (db.pragma(`main.foreign_key_list("${table}")`) as { table: string }[]).map((fk) => fk.table);
          assert.deepEqual(
            parents.filter((parent) => !own.has(parent)),
            [],
            `${table} references only its own file`,
          );
        }
        assert.equal(db.prepare("SELECT count(*) FROM temp.sqlite_master WHERE type = 'trigger'").pluck().get(), 0, 'no copying triggers');
        assert.equal((await api(cell.url, '/api/v1/me')).status, 200, `the token works in ${cell.country}`);
        assert.equal((await api(cell.url, '/api/v1/me', REVOKED)).status, 401, `the first cell's revocation holds in ${cell.country}`);
        assert.equal((await api(cell.url, '/api/v1/applications/tp_dev_up')).status, 200);
        assert.equal((await api(cell.url, '/api/v1/applications/tp_dev_de_only')).status, 404, "a row only DE's replica had is not kept");
      }
      // DE's own rows stay, even those naming the application dropped with the replica (no cascade fired).
      const deDb = deCell!.context.db;
      assert.deepEqual(deDb.prepare('SELECT id FROM activity_events ORDER BY id').pluck().all(), ['act_de_dangling', 'act_de_kept']);
      assert.equal(deDb.prepare("SELECT email FROM persons WHERE id = 'prs_de_1'").pluck().get(), 'dora@example.de');
      const activity = await api(deCell!.url, '/api/v1/applications/tp_dev_up/activity');
      assert.match(await activity.text(), /act_de_kept/);
      assert.ok(
        warn.mock.calls.some((call) => /1 activity_events\.application_id -> applications/.test(String(call.arguments[0]))),
        'the dangling row is reported',
      );
      assert.equal(
        deDb.prepare("SELECT value FROM settings WHERE key = 'records.import_allowance'").pluck().get(),
        '9',
        "the first cell's settings are every cell's",
      );
    } finally {
      await server.close();
    }
  });

  it('starts again on the upgraded directory without changing it', async () => {
    const server = await startServer({ port: 0, dataDir, clock: true, countries: ['US', 'DE'] });
    try {
      for (const cell of Object.values(server.cells)) assert.equal((await api(cell.url, '/api/v1/me')).status, 200);
      const applied = server.context.db.prepare('SELECT id FROM control.schema_migrations').pluck().all();
      assert.deepEqual(
        applied,
        controlMigrations.map((m) => m.id),
      );
    } finally {
      await server.close();
    }
  });

  it('refuses to start a separated cell whose control database is gone, rather than starting empty', async () => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(dataDir, CONTROL_FILE + suffix), { force: true });
    await assert.rejects(
      startServer({ port: 0, dataDir, clock: true, countries: ['US', 'DE'] }),
      new RegExp(`Restore ${CONTROL_FILE.replace('.', '\\.')}`),
    );
  });
});
