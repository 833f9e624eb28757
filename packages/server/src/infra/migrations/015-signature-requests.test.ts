// Migration 15 rebuilds `decisions` (its kind CHECK) under tables that reference it: nothing they hold may be lost
// (no ON DELETE CASCADE firing) or left dangling, and the references keep working afterwards.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { migrate, type Db } from '../db.js';
import { migrations } from './index.js';

const T = '2030-01-01T00:00:00.000Z';

function seed(db: Db): void {
  db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').run('acc_1', 'Acme', T);
  db.prepare(
    `INSERT INTO applications (id, account_id, name, environment, created_at, updated_at) VALUES (?, ?, ?, 'development', ?, ?)`,
  ).run('tp_dev_1', 'acc_1', 'Shop', T, T);
  const decision =
    db.prepare(`INSERT INTO decisions (id, session_token, account_id, application_id, kind, subject_ref, delivery_mode, status,
      outcome, consent_transaction_id, deadline_at, created_at, updated_at, completed_at)
    VALUES (?, ?, 'acc_1', 'tp_dev_1', ?, 'ref', 'popup', ?, ?, ?, ?, ?, ?, ?)`);
  decision.run('dec_consent', 'dts_consent', 'consent', 'fulfilled', 'granted', 'ctxn_1', T, T, T, T);
  decision.run('dec_approval', 'dts_approval', 'approval', 'approved', 'approved', 'ctxn_2', T, T, T, T);
  db.prepare(
    `INSERT INTO decision_transitions (decision_id, action, from_status, to_status, step_index, created_at) VALUES (?, 'agree', 'reviewing', 'fulfilled', 4, ?)`,
  ).run('dec_consent', T);
  db.prepare(`INSERT INTO consent_tokens (token_hash, decision_id, account_id, application_id, flow_id, flow_version, consent_transaction_id, issued_at, expires_at)
    VALUES ('hash', 'dec_consent', 'acc_1', 'tp_dev_1', 'flw_dev_1', 1, 'ctxn_1', ?, ?)`).run(T, T);
  db.prepare(`INSERT INTO authorization_records (id, account_id, application_id, decision_id, outcome, recorded_at, receipt)
    VALUES ('ar_1', 'acc_1', 'tp_dev_1', 'dec_approval', 'approved', ?, '{}')`).run(T);
  db.prepare(`INSERT INTO agreements (id, account_id, application_id, title, document_text, document_sha256, quorum, status, created_at, updated_at)
    VALUES ('agr_1', 'acc_1', 'tp_dev_1', 'Lease', 'text', 'digest', 1, 'pending', ?, ?)`).run(T, T);
  db.prepare(
    `INSERT INTO agreement_parties (id, agreement_id, email, home_country, decision_id, status) VALUES ('pty_1', 'agr_1', 'a@example.com', 'DE', 'dec_consent', 'pending')`,
  ).run();
}

const count = (db: Db, table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;

describe('migration 15 (signature requests): decisions rebuilt under its references', () => {
  let dir: string;
  let db: Db;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-migration-15-'));
    db = new Database(join(dir, 'svc.sqlite'));
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      migrations.filter((m) => m.id < 15),
    );
    seed(db);
    migrate(
      db,
      migrations.filter((m) => m.id <= 15),
    );
  });
  after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is applied once, with foreign keys on again afterwards', () => {
    assert.deepEqual(db.prepare('SELECT id FROM schema_migrations WHERE id = 15').pluck().all(), [15]);
    assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
  });

  it('keeps every row of decisions and of the tables referencing it (no cascade fired), and nothing dangles', () => {
    assert.equal(count(db, 'decisions'), 2);
    assert.equal(count(db, 'decision_transitions'), 1);
    assert.equal(count(db, 'consent_tokens'), 1);
    assert.equal(count(db, 'authorization_records'), 1);
    assert.equal(count(db, 'agreement_parties'), 1);
    assert.deepEqual(db.pragma('foreign_key_check'), []);
    const row = db.prepare("SELECT * FROM decisions WHERE id = 'dec_consent'").get() as Record<string, unknown>;
    assert.equal(row.session_token, 'dts_consent');
    assert.equal(row.consent_transaction_id, 'ctxn_1');
    assert.equal(row.addressee_email, null);
    assert.equal(row.home_country, null);
  });

  it('admits kind signature_request and still refuses an unknown kind', () => {
    const insert =
      db.prepare(`INSERT INTO decisions (id, session_token, account_id, application_id, kind, subject_ref, delivery_mode, status,
        deadline_at, created_at, updated_at, addressee_email, home_country) VALUES (?, ?, 'acc_1', 'tp_dev_1', ?, 'pty_1', 'redirect', 'pending', ?, ?, ?, 'a@example.com', 'DE')`);
    insert.run('dec_sig', 'dts_sig', 'signature_request', T, T, T);
    assert.throws(() => insert.run('dec_bad', 'dts_bad', 'contract', T, T, T), /CHECK constraint failed/);
  });

  it('keeps the references working: children name decisions, cascades and refusals still apply', () => {
    const child = db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'decision_transitions'").pluck().get() as string;
    assert.match(child, /REFERENCES decisions\(id\)/);
    assert.throws(
      () =>
        db
          .prepare(`INSERT INTO decision_transitions (decision_id, action, from_status, to_status, step_index, created_at)
      VALUES ('dec_missing', 'x', 'a', 'b', 0, ?)`)
          .run(T),
      /FOREIGN KEY constraint failed/,
    );
    assert.throws(() => db.prepare("DELETE FROM decisions WHERE id = 'dec_approval'").run(), /FOREIGN KEY constraint failed/);
    db.prepare("UPDATE agreement_parties SET decision_id = 'dec_sig'").run();
    db.prepare('DELETE FROM consent_tokens').run();
    db.prepare("DELETE FROM decisions WHERE id = 'dec_consent'").run();
    assert.equal(count(db, 'decision_transitions'), 0, 'ON DELETE CASCADE still fires');
  });

  it('rebuilds the indexes', () => {
    const indexes = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'decisions' AND sql IS NOT NULL ORDER BY name")
      .pluck()
      .all();
    assert.deepEqual(indexes, ['decisions_account', 'decisions_addressee', 'decisions_kind_deadline']);
  });
});

describe('a migration that rebuilds a referenced table', () => {
  it('rolls back when it leaves rows dangling, with foreign keys on again', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    db.exec(`CREATE TABLE parent (id TEXT PRIMARY KEY); CREATE TABLE child (parent_id TEXT REFERENCES parent(id));
      INSERT INTO parent VALUES ('p'); INSERT INTO child VALUES ('p');`);
    const lossy = {
      id: 1,
      name: 'lossy',
      rebuildsReferencedTable: true,
      sql: `CREATE TABLE parent_rebuilt (id TEXT PRIMARY KEY);
      DROP TABLE parent; ALTER TABLE parent_rebuilt RENAME TO parent;`,
    };
    assert.throws(() => migrate(db, [lossy]), /leaves 1 rows dangling \(first: child -> parent\)/);
    assert.equal(count(db, 'parent'), 1, 'rolled back');
    assert.equal(db.prepare('SELECT count(*) FROM schema_migrations').pluck().get(), 0);
    assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
    db.close();
  });
});
