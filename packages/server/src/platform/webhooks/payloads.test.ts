import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { webhookEvent } from '@svc/schemas';
import { buildEventBody, isDeliverable } from './payloads.js';
import { KEY_FILE, loadSealer, newSigningSecret } from '../../infra/secrets.js';

const at = '2025-06-15T15:06:40.000Z';

describe('buildEventBody', () => {
  it('fills the fields an emitter left out with null, [] or the event time, and keeps extra fields', () => {
    const { body, problems } = buildEventBody('evt_0123456789abcdef', 'consent.granted', 'tp_dev_1', at, {
      flow_id: 'flw_dev_1',
      extra: 1,
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(JSON.parse(body), {
      id: 'evt_0123456789abcdef',
      type: 'consent.granted',
      application_id: 'tp_dev_1',
      occurred_at: at,
      data: {
        flow_id: 'flw_dev_1',
        extra: 1,
        decision_id: null,
        record_id: null,
        flow_version: null,
        consent_token: null,
        consent_transaction_id: null,
        consent_token_expires_at: null,
        user_id: null,
        subject_ref: null,
        channel: null,
        purposes: [],
        decided_at: at,
      },
    });
    assert.ok(webhookEvent.safeParse(JSON.parse(body)).success);
  });

  it('defaults withdrawn and outcome of consent.purpose_revoked from its purpose', () => {
    const { body, problems } = buildEventBody('evt_0123456789abcdef', 'consent.purpose_revoked', 'tp_dev_1', at, {
      flow_id: 'f',
      purpose: 'newsletter',
    });
    assert.deepEqual(problems, []);
    const data = (JSON.parse(body) as { data: Record<string, unknown> }).data;
    assert.deepEqual([data.withdrawn, data.outcome, data.revoked_at], [[{ key: 'newsletter', outcome: 'revoked' }], 'revoked', at]);
  });

  it('still builds a body that breaks its schema, and says what is wrong', () => {
    const { body, problems } = buildEventBody('evt_0123456789abcdef', 'approval.granted', 'tp_dev_1', at, { outcome: 'maybe' });
    assert.ok(JSON.parse(body));
    assert.deepEqual(problems.map((p) => p.split(':')[0]).sort(), ['data.decision_id', 'data.escalation_id', 'data.outcome']);
  });

  it('delivers only the subscribable types', () => {
    assert.ok(isDeliverable('consent.purpose_revoked'));
    assert.ok(!isDeliverable('webhook.test'));
    assert.ok(!isDeliverable('webhook.delivery_failed'));
    assert.ok(!isDeliverable('vouch.created'));
    assert.ok(isDeliverable('signature.expired'));
  });
});

describe('at-rest sealing', () => {
  it('round-trips, binds each value to its row, and detects tampering', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-seal-'));
    try {
      const sealer = loadSealer(dir, {});
      const secret = newSigningSecret();
      const sealed = sealer.seal(secret, 'we_1');
      assert.equal(sealer.open(sealed, 'we_1'), secret);
      assert.notEqual(sealer.seal(secret, 'we_1'), sealed, 'a fresh IV each time');
      assert.throws(() => sealer.open(sealed, 'we_2'), 'a value moved to another row does not open');
      const [v, iv, data, tag] = sealed.split('.');
      const bytes = Buffer.from(data!, 'base64url');
      bytes[0]! ^= 1;
      const flipped = `${v}.${iv}.${bytes.toString('base64url')}.${tag}`;
      assert.throws(() => sealer.open(flipped, 'we_1'));
      assert.equal(loadSealer(dir, {}).open(sealed, 'we_1'), secret, 'the key file persists');
      const fromEnv = loadSealer(dir, { SVC_WEBHOOK_KEY: readFileSync(join(dir, KEY_FILE), 'utf8').trim() });
      assert.equal(fromEnv.open(sealed, 'we_1'), secret, 'SVC_WEBHOOK_KEY holds the same key');
      assert.throws(() => loadSealer(dir, { SVC_WEBHOOK_KEY: 'short' }), /32 bytes/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
