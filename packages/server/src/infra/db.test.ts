import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { stmt } from './db.js';

describe('stmt: one prepared statement per database and SQL text', () => {
  it('gives whole rows to a caller after another switched the shared statement to pluck mode', () => {
    const db = new Database(':memory:');
    db.exec("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT); INSERT INTO settings VALUES ('a', '1')");
    const sql = 'SELECT value FROM settings WHERE key = ?';
    assert.equal(stmt<[string], string>(db, sql).pluck().get('a'), '1');
    assert.deepEqual(stmt<[string], { value: string }>(db, sql).get('a'), { value: '1' });
    assert.equal(stmt(db, sql), stmt(db, sql));
    db.close();
  });
});
