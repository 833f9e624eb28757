// Migration 26 narrows the consent record indexes: every query the records are read by still finds its rows
// through an index, and a record without an external id adds no row to the external-id index.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { migrate, type Db } from '../db.js';
import { migrations } from './index.js';

const T = '2030-01-01T00:00:00.000Z';

/** The indexes a query's plan searches with; a full scan of consent_records is named `SCAN`. */
function plan(db: Db, sql: string): string {
  const params = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 'x');
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
  return rows.map((r) => r.detail).join(' | ');
}

function migrated(): Db {
  const db = new Database(':memory:');
  migrate(db, migrations);
  return db;
}

describe('migration 26 (record indexes)', () => {
  it('keeps an index under every lookup of consent records the server makes', () => {
    const db = migrated();
    const byIndex: [string, string][] = [
      [
        'SELECT person_id FROM consent_records WHERE application_id = ? AND external_id = ? ORDER BY captured_at DESC, seq DESC LIMIT 1',
        'consent_records_application_external',
      ],
      ['SELECT * FROM consent_records WHERE application_id = ? AND idempotency_key = ?', 'sqlite_autoindex_consent_records_2'],
      [
        'SELECT * FROM consent_records WHERE person_id = ? AND flow_id = ? AND captured_at <= ? ORDER BY captured_at DESC, seq DESC LIMIT 1',
        'consent_records_person_flow',
      ],
      ['SELECT * FROM consent_records WHERE id = ?', 'sqlite_autoindex_consent_records_1'],
    ];
    for (const [sql, index] of byIndex) assert.match(plan(db, sql), new RegExp(`USING INDEX ${index}\\b`), sql);
    // Lookups by application alone use the application-first unique index instead of the narrowed one.
    for (const sql of [
      'SELECT * FROM consent_records WHERE application_id = ? AND person_id = ? ORDER BY captured_at DESC, seq DESC',
      "SELECT COUNT(*) FROM consent_records WHERE application_id = ? AND channel LIKE '%\\_browser' ESCAPE '\\' AND recorded_at BETWEEN ? AND ?",
      'SELECT r.id FROM consent_records r WHERE r.account_id = ? AND r.application_id IN (SELECT value FROM json_each(?))',
    ]) {
      assert.match(plan(db, sql), /SEARCH (consent_records|r) USING INDEX/, sql);
    }
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'consent_records'").pluck().all();
    assert.ok(!indexes.includes('consent_records_import'), 'no query reads records by import');
  });

  it('indexes external ids only of the records that carry one, before and after the migration', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      migrations.filter((m) => m.id < 26),
    );
    db.pragma('foreign_keys = OFF'); // the account, flow and person rows are beside the point
    const insert = db.prepare(`INSERT INTO consent_records (id, account_id, application_id, flow_id, flow_version, person_id, external_id,
      channel, captured_at, recorded_at, locale, purposes, receipt) VALUES (?, 'acc_1', 'tp_dev_1', 'flw_1', 1, 'prs_1', ?, 'imported', ?, ?, 'en', '[]', '{}')`);
    insert.run('cr_before_with', 'crm-1', T, T);
    insert.run('cr_before_without', null, T, T);
    migrate(db, migrations);
    insert.run('cr_after_with', 'crm-2', T, T);
    insert.run('cr_after_without', null, T, T);
    // Only the two records with an external id are rows of the index (dbstat counts the cells of its pages).
    const rows = db
      .prepare("SELECT sum(ncell) FROM dbstat WHERE name = 'consent_records_application_external' AND pagetype = 'leaf'")
      .pluck()
      .get();
    assert.equal(rows, 2);
    const found = db
      .prepare('SELECT id FROM consent_records WHERE application_id = ? AND external_id = ?')
      .pluck()
      .all('tp_dev_1', 'crm-1');
    assert.deepEqual(found, ['cr_before_with']);
    assert.deepEqual(db.prepare('SELECT id FROM schema_migrations WHERE id = 26').pluck().all(), [26]);
  });
});
