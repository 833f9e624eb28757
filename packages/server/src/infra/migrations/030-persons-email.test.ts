// Migration 30: the people's APIs find a person's rows in every organisation through an index, never a scan.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { readerPersons } from '../../people/reader.js';
import { migrate } from '../db.js';
import { migrations } from './index.js';

describe('migration 30 (persons by email)', () => {
  it("finds the reader's person rows by email, in every organisation or in one, through an index", () => {
    const db = new Database(':memory:');
    migrate(db, migrations);
    const sql = `SELECT r.id FROM consent_records r WHERE ${readerPersons('r.person_id')}`;
    for (const params of [
      ['ada@example.com', null, null],
      ['ada@example.com', 'acct_1', 'acct_1'],
    ]) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');
      assert.match(plan, /SEARCH persons USING INDEX persons_email \(email=\?\)/, plan);
      assert.doesNotMatch(plan, /SCAN persons/, plan);
    }
  });
});
