// Migration 16 addresses the approvals of agents' escalations opened before decisions named their addressee to the
// escalation's principal, and nothing else.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { migrate, type Db } from '../db.js';
import { migrations } from './index.js';

const T = '2030-01-01T00:00:00.000Z';

function seed(db: Db): void {
  for (const account of ['acc_1', 'acc_2']) {
    db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').run(account, account, T);
    db.prepare(
      `INSERT INTO applications (id, account_id, name, environment, created_at, updated_at) VALUES (?, ?, 'Shop', 'development', ?, ?)`,
    ).run(`tp_dev_${account}`, account, T, T);
  }
  db.prepare("INSERT INTO persons (id, account_id, email, created_at) VALUES ('prs_ada', 'acc_1', 'Ada@Example.com', ?)").run(T);
  db.pragma('foreign_keys = OFF'); // the escalation's grant and agent are beside the point
  db.prepare(`INSERT INTO escalations (id, account_id, application_id, grant_id, agent_id, principal_id, trigger, reason, action, status, created_at, expires_at)
    VALUES ('esc_1', 'acc_1', 'tp_dev_acc_1', 'dlg_1', 'agt_1', 'prs_ada', 'value', 'above', '{}', 'pending', ?, ?)`).run(T, T);
  db.pragma('foreign_keys = ON');
  const decision =
    db.prepare(`INSERT INTO decisions (id, session_token, account_id, application_id, kind, subject_ref, delivery_mode, status,
      deadline_at, created_at, updated_at, addressee_email) VALUES (?, ?, ?, ?, ?, ?, 'redirect', 'pending', ?, ?, ?, ?)`);
  decision.run('dec_escalation', 'dts_1', 'acc_1', 'tp_dev_acc_1', 'approval', 'esc_1', T, T, T, null);
  decision.run('dec_free', 'dts_2', 'acc_1', 'tp_dev_acc_1', 'approval', 'expense-42', T, T, T, null);
  decision.run('dec_elsewhere', 'dts_3', 'acc_2', 'tp_dev_acc_2', 'approval', 'esc_1', T, T, T, null);
  decision.run('dec_consent', 'dts_4', 'acc_1', 'tp_dev_acc_1', 'consent', 'esc_1', T, T, T, null);
  decision.run('dec_named', 'dts_5', 'acc_1', 'tp_dev_acc_1', 'approval', 'esc_1', T, T, T, 'someone@example.com');
}

describe('migration 16 (inbox addressees)', () => {
  it("addresses an escalation's approvals to its principal, lower-case, and leaves every other decision alone", () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      migrations.filter((m) => m.id < 16),
    );
    seed(db);
    migrate(db, migrations);
    const addressees = Object.fromEntries(
      db
        .prepare('SELECT id, addressee_email FROM decisions ORDER BY id')
        .all()
        .map((row) => [(row as { id: string }).id, (row as { addressee_email: string | null }).addressee_email]),
    );
    assert.deepEqual(addressees, {
      dec_consent: null,
      dec_elsewhere: null, // another account's decision naming the same id answers no escalation of its own
      dec_escalation: 'ada@example.com',
      dec_free: null,
      dec_named: 'someone@example.com',
    });
    assert.deepEqual(db.prepare('SELECT id FROM schema_migrations WHERE id = 16').pluck().all(), [16]);
    db.close();
  });
});
