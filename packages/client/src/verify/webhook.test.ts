import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SvcConfigurationError } from '../lib/errors.js';
import {
  isWebhookVerificationError,
  signWebhook,
  SvcWebhookHeaderError,
  SvcWebhookPayloadError,
  SvcWebhookSignatureError,
  SvcWebhookTimestampError,
  SvcWebhookUnknownEventError,
  verifyWebhook,
  type AnyWebhookVerificationError,
} from './webhook.js';

const secret = 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const previous = 'whsec_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';
const now = 1_750_000_000;
const nowMs = now * 1000;

const granted = {
  id: 'evt_0123456789abcdef',
  type: 'consent.granted',
  application_id: 'tp_dev_0123456789abcdef',
  occurred_at: '2025-06-15T15:06:40.000Z',
  data: {
    decision_id: 'dec_1',
    record_id: null,
    flow_id: 'flw_dev_1',
    flow_version: 1,
    consent_token: 'tok',
    consent_transaction_id: 'ctxn_1',
    user_id: null,
    consent_token_expires_at: '2025-06-15T15:11:40.000Z',
    subject_ref: { email: 'ada@example.com', external_id: null },
    channel: 'hosted',
    purposes: [{ key: 'newsletter', outcome: 'granted', basis: 'consent', mechanism: 'explicit' }],
    decided_at: '2025-06-15T15:06:40.000Z',
  },
};
const body = JSON.stringify(granted);

/** The contract computed independently of the code under test: HMAC-SHA256(secret, "<t>.<body>"), hex. */
function v1(key: string, t: number | string, raw: string | Buffer): string {
  return createHmac('sha256', key).update(`${t}.`).update(raw).digest('hex');
}

function headersFor(raw: string, keys: string[] = [secret], t: number = now, extra: Record<string, string> = {}) {
  const event = JSON.parse(raw) as { id?: string; type?: string };
  return {
    'x-svc-event-id': event.id ?? '',
    'x-svc-event-type': event.type ?? '',
    'x-svc-timestamp': String(t),
    'x-svc-signature': [`t=${t}`, ...keys.map((k) => `v1=${v1(k, t, raw)}`)].join(','),
    ...extra,
  };
}

async function rejects<T extends AnyWebhookVerificationError | SvcConfigurationError>(
  promise: Promise<unknown>,
  code: T['code'],
  reason?: string,
): Promise<T> {
  try {
    await promise;
  } catch (err) {
    assert.equal((err as T).code, code, String(err));
    if (reason !== undefined) assert.equal((err as T).reason, reason);
    return err as T;
  }
  assert.fail(`expected ${code}, but verification succeeded`);
}

describe('verifyWebhook', () => {
  it('returns the typed event for a valid delivery', async () => {
    const event = await verifyWebhook(body, headersFor(body), secret, { now: nowMs });
    assert.equal(event.type, 'consent.granted');
    if (event.type !== 'consent.granted') return;
    assert.equal(event.id, granted.id);
    assert.equal(event.data.flow_id, 'flw_dev_1');
    assert.deepEqual(event.data.subject_ref, { email: 'ada@example.com', external_id: null });
    assert.equal(event.data.purposes[0]?.mechanism, 'explicit', 'unknown fields pass through');
  });

  it('reads Fetch Headers, Node headers in any case, and bytes', async () => {
    const plain = headersFor(body);
    await verifyWebhook(body, new Headers(plain), secret, { now: nowMs });
    const shouting = Object.fromEntries(Object.entries(plain).map(([k, v]) => [k.toUpperCase(), v]));
    await verifyWebhook(body, shouting, secret, { now: new Date(nowMs) });
    await verifyWebhook(Buffer.from(body), plain, secret, { now: nowMs });
    const bytes = new TextEncoder().encode(body);
    await verifyWebhook(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), plain, secret, { now: nowMs });
  });

  it('accepts any listed signature during a rotation, with either secret', async () => {
    const both = headersFor(body, [secret, previous]);
    await verifyWebhook(body, both, secret, { now: nowMs });
    await verifyWebhook(body, both, previous, { now: nowMs });
    await verifyWebhook(body, headersFor(body, [previous]), [secret, previous], { now: nowMs });
    await rejects(verifyWebhook(body, headersFor(body, [previous]), secret, { now: nowMs }), 'ERR_SVC_WEBHOOK_SIGNATURE');
  });

  it('ignores signature schemes it does not know and v1 values that are not 64 hex digits', async () => {
    const h = headersFor(body);
    h['x-svc-signature'] = `v0=abc,t=${now},v1=zz,${h['x-svc-signature'].split(',')[1]},v2=${'0'.repeat(64)}`;
    await verifyWebhook(body, h, secret, { now: nowMs });
  });

  it('refuses a wrong secret, an altered body and an altered timestamp', async () => {
    await rejects(verifyWebhook(body, headersFor(body), 'whsec_wrong', { now: nowMs }), 'ERR_SVC_WEBHOOK_SIGNATURE');
    const altered = body.replace('ada@', 'eve@');
    await rejects(verifyWebhook(altered, headersFor(body), secret, { now: nowMs }), 'ERR_SVC_WEBHOOK_SIGNATURE');
    const h = headersFor(body);
    const later = String(now + 1);
    await rejects(
      verifyWebhook(
        body,
        { ...h, 'x-svc-timestamp': later, 'x-svc-signature': h['x-svc-signature'].replace(`t=${now}`, `t=${later}`) },
        secret,
        { now: nowMs },
      ),
      'ERR_SVC_WEBHOOK_SIGNATURE',
    );
    // A body re-serialised by a framework is not the raw body.
    await rejects(verifyWebhook(JSON.stringify(granted, null, 2), headersFor(body), secret, { now: nowMs }), 'ERR_SVC_WEBHOOK_SIGNATURE');
  });

  it('rejects a stale or future timestamp outside the tolerance, and accepts the edges', async () => {
    await verifyWebhook(body, headersFor(body, [secret], now - 300), secret, { now: nowMs });
    await verifyWebhook(body, headersFor(body, [secret], now + 300), secret, { now: nowMs });
    const stale = await rejects<SvcWebhookTimestampError>(
      verifyWebhook(body, headersFor(body, [secret], now - 301), secret, { now: nowMs }),
      'ERR_SVC_WEBHOOK_TIMESTAMP',
      'stale',
    );
    assert.ok(stale instanceof SvcWebhookTimestampError);
    assert.equal(stale.timestamp, now - 301);
    await rejects(
      verifyWebhook(body, headersFor(body, [secret], now + 301), secret, { now: nowMs }),
      'ERR_SVC_WEBHOOK_TIMESTAMP',
      'future',
    );
    await rejects(
      verifyWebhook(body, headersFor(body, [secret], now - 11), secret, { now: nowMs, toleranceSeconds: 10 }),
      'ERR_SVC_WEBHOOK_TIMESTAMP',
      'stale',
    );
    await verifyWebhook(body, headersFor(body, [secret], now - 3600), secret, { now: nowMs, toleranceSeconds: 3600 });
  });

  it('defaults now to the wall clock', async () => {
    const t = Math.floor(Date.now() / 1000);
    await verifyWebhook(body, headersFor(body, [secret], t), secret);
    await rejects(verifyWebhook(body, headersFor(body, [secret], t - 600), secret), 'ERR_SVC_WEBHOOK_TIMESTAMP', 'stale');
  });

  it('names a missing or malformed signature header', async () => {
    const { 'x-svc-signature': _s, ...noSignature } = headersFor(body);
    await rejects(verifyWebhook(body, noSignature, secret, { now: nowMs }), 'ERR_SVC_WEBHOOK_HEADER', 'missing_signature');
    for (const bad of [
      '',
      'garbage',
      `t=${now}`,
      `v1=${v1(secret, now, body)}`,
      `t=abc,v1=${v1(secret, now, body)}`,
      `t=${now},t=${now},v1=${v1(secret, now, body)}`,
      `t=${now},v1=xyz`,
    ]) {
      const h = { ...headersFor(body), 'x-svc-signature': bad };
      await rejects(
        verifyWebhook(body, h, secret, { now: nowMs }),
        'ERR_SVC_WEBHOOK_HEADER',
        bad === '' ? 'missing_signature' : 'malformed_signature',
      );
    }
    await rejects(
      verifyWebhook(body, { ...headersFor(body), 'x-svc-timestamp': String(now - 5) }, secret, { now: nowMs }),
      'ERR_SVC_WEBHOOK_HEADER',
      'timestamp_mismatch',
    );
    const { 'x-svc-timestamp': _t, ...noTimestamp } = headersFor(body);
    await verifyWebhook(body, noTimestamp, secret, { now: nowMs });
  });

  it('refuses a signed body that is not a valid event', async () => {
    await rejects(
      verifyWebhook('not json', { 'x-svc-signature': `t=${now},v1=${v1(secret, now, 'not json')}` }, secret, { now: nowMs }),
      'ERR_SVC_WEBHOOK_PAYLOAD',
      'not_json',
    );
    const missing = JSON.stringify({ ...granted, data: { ...granted.data, flow_id: undefined } });
    const invalid = await rejects<SvcWebhookPayloadError>(
      verifyWebhook(missing, headersFor(missing), secret, { now: nowMs }),
      'ERR_SVC_WEBHOOK_PAYLOAD',
      'invalid',
    );
    assert.deepEqual(
      invalid.errors.map((e) => e.path),
      ['data.flow_id'],
    );
    const array = '[1]';
    await rejects(
      verifyWebhook(array, { 'x-svc-signature': `t=${now},v1=${v1(secret, now, array)}` }, secret, { now: nowMs }),
      'ERR_SVC_WEBHOOK_PAYLOAD',
      'invalid',
    );
  });

  it('refuses event headers that differ from the signed body', async () => {
    await rejects(
      verifyWebhook(body, { ...headersFor(body), 'x-svc-event-id': 'evt_other000000000' }, secret, { now: nowMs }),
      'ERR_SVC_WEBHOOK_PAYLOAD',
      'header_mismatch',
    );
    await rejects(
      verifyWebhook(body, { ...headersFor(body), 'x-svc-event-type': 'consent.revoked' }, secret, { now: nowMs }),
      'ERR_SVC_WEBHOOK_PAYLOAD',
      'header_mismatch',
    );
  });

  it('reports an authentic event of an unknown type with the parsed event', async () => {
    const future = JSON.stringify({
      id: 'evt_0123456789abcdef',
      type: 'vouch.created',
      application_id: 'tp_dev_1',
      occurred_at: granted.occurred_at,
      data: {},
    });
    const err = await rejects<SvcWebhookUnknownEventError>(
      verifyWebhook(future, headersFor(future), secret, { now: nowMs }),
      'ERR_SVC_WEBHOOK_UNKNOWN_EVENT',
    );
    assert.ok(err instanceof SvcWebhookUnknownEventError);
    assert.equal(err.event.type, 'vouch.created');
    assert.ok(isWebhookVerificationError(err));
  });

  it('refuses to run without a secret or with a parsed body', async () => {
    await assert.rejects(verifyWebhook(body, headersFor(body), [], { now: nowMs }), SvcConfigurationError);
    await assert.rejects(verifyWebhook(body, headersFor(body), '', { now: nowMs }), SvcConfigurationError);
    await assert.rejects(verifyWebhook(granted as never, headersFor(body), secret, { now: nowMs }), SvcConfigurationError);
    await assert.rejects(verifyWebhook(body, headersFor(body), secret, { now: nowMs, toleranceSeconds: -1 }), SvcConfigurationError);
  });

  it('throws classes that narrow on code', async () => {
    for (const [promise, type] of [
      [verifyWebhook(body, {}, secret), SvcWebhookHeaderError],
      [verifyWebhook(body, headersFor(body), 'whsec_x', { now: nowMs }), SvcWebhookSignatureError],
    ] as const) {
      await assert.rejects(promise, (err: unknown) => err instanceof type && isWebhookVerificationError(err));
    }
  });
});

describe('signWebhook', () => {
  it('signs like the contract and round-trips through verifyWebhook', async () => {
    const headers = await signWebhook(body, [secret, previous], { timestamp: now });
    assert.deepEqual(headers, headersFor(body, [secret, previous]));
    const event = await verifyWebhook(body, headers, previous, { now: nowMs });
    assert.equal(event.id, granted.id);
  });

  it('verifies exactly the bytes it signed (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        fc.nat(),
        async (key, raw, flip) => {
          const headers = await signWebhook(raw, key, { timestamp: now });
          assert.equal(headers['x-svc-signature'], `t=${now},v1=${v1(key, now, Buffer.from(raw))}`);
          const altered = Uint8Array.from(raw);
          altered[flip % altered.length]! ^= 1;
          await rejects(verifyWebhook(altered, headers, key, { now: nowMs }), 'ERR_SVC_WEBHOOK_SIGNATURE');
        },
      ),
      { numRuns: 100 },
    );
  });
});
