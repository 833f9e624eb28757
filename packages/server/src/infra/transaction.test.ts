import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { deferWrite, flushDeferredWrites, transaction } from './transaction.js';

describe('transaction and deferred writes', () => {
  let dir: string;
  let db: Database.Database;
  const rows = () => db.prepare('SELECT name FROM log ORDER BY rowid').pluck().all();
  const log = (name: string) => () => void db.prepare('INSERT INTO log (name) VALUES (?)').run(name);

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-tx-'));
    db = new Database(join(dir, 'tx.sqlite'));
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE log (name TEXT NOT NULL)');
  });
  after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits a deferred write inside the next transaction, before its own writes, and only once', () => {
    deferWrite(db, 'use', log('deferred'));
    transaction(db, log('own'));
    transaction(db, log('next'));
    assert.deepEqual(rows(), ['deferred', 'own', 'next']);
  });

  it('keeps one deferred write per key, the latest', () => {
    db.exec('DELETE FROM log');
    deferWrite(db, 'use', log('older'));
    deferWrite(db, 'use', log('newer'));
    flushDeferredWrites(db);
    assert.deepEqual(rows(), ['newer']);
  });

  it('rolls a deferred write back with a failing transaction and keeps it queued', () => {
    db.exec('DELETE FROM log');
    deferWrite(db, 'use', log('deferred'));
    assert.throws(
      () =>
        transaction(db, () => {
          log('own')();
          throw new Error('refused');
        }),
      /refused/,
    );
    assert.deepEqual(rows(), []);
    flushDeferredWrites(db);
    assert.deepEqual(rows(), ['deferred']);
  });

  it('runs inside an open transaction without opening another, leaving the queue to the outer one', () => {
    db.exec('DELETE FROM log');
    db.transaction(() => {
      deferWrite(db, 'use', log('deferred'));
      transaction(db, log('inner'));
    })();
    assert.deepEqual(rows(), ['inner']);
    transaction(db, log('outer'));
    assert.deepEqual(rows(), ['inner', 'deferred', 'outer']);
  });
});
