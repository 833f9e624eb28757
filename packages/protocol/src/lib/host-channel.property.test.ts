// Property-based tests of the host channel's gate: thousands of malformed envelopes, wrong origins, foreign
// sources and replays. None may be delivered, and nothing may make the listener throw.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { FakeWindow, samplePayloads } from '../testing/fakes.js';
import { createHostChannel } from './host-channel.js';
import { isSvcMessage } from './message.js';
import type { DropReason } from './receiver.js';
import { KINDS, MESSAGE_TYPES, type Kind, type SvcMessage } from './schemas.js';

const SERVICE = 'https://svc.example';
const ENVELOPE_KEYS = ['type', 'kind', 'version', 'payload', 'ts', 'message_id'];
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z$/;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

function setup() {
  const host = new FakeWindow('host');
  const frame = new FakeWindow('frame');
  const delivered: SvcMessage[] = [];
  const drops: DropReason[] = [];
  const channel = createHostChannel({
    serviceOrigin: SERVICE,
    frame: () => frame,
    hostWindow: host,
    onMessage: (message) => delivered.push(message),
    onDrop: (reason) => drops.push(reason),
  });
  // No defaults: an undefined origin or source is one of the hostile values under test.
  const emit = (data: unknown, origin: unknown, source: unknown) => host.emit({ data, origin, source });
  return { host, frame, channel, delivered, drops, emit };
}

type Raw = Record<string, unknown>;

const kindArb = fc.constantFrom(...KINDS);

/** A valid message, as plain data the way `postMessage` would clone it. */
const validMessage = (kind: Kind) =>
  fc
    .record({
      type: fc.constantFrom(...MESSAGE_TYPES),
      id: fc.uuid({ version: 4 }),
      ts: fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }),
    })
    .map(
      ({ type, id, ts }): Raw => ({
        type,
        kind,
        version: 2,
        payload: structuredClone(samplePayloads[kind][type]),
        ts: ts.toISOString(),
        message_id: id,
      }),
    );

const without = (message: Raw, key: string): Raw => {
  const copy = { ...message };
  delete copy[key];
  return copy;
};

// Every mutation below is invalid by construction, so the tests need no validator of their own as oracle.
const mutation: fc.Arbitrary<(message: Raw) => unknown> = fc.oneof(
  fc.constantFrom(...ENVELOPE_KEYS).map((key) => (m: Raw) => without(m, key)),
  fc.tuple(fc.string(), fc.anything()).map(([key, value]) => (m: Raw) => ({ ...m, [`extra_${key}`]: value })),
  fc
    .anything()
    .filter((v) => v !== 2)
    .map((version) => (m: Raw) => ({ ...m, version })),
  fc
    .anything()
    .filter((v) => !(MESSAGE_TYPES as readonly unknown[]).includes(v))
    .map((type) => (m: Raw) => ({ ...m, type })),
  fc.string().map((name) => (m: Raw) => ({ ...m, type: `svc:${name}x` })),
  fc
    .anything()
    .filter((v) => !(KINDS as readonly unknown[]).includes(v))
    .map((kind) => (m: Raw) => ({ ...m, kind })),
  fc
    .anything()
    .filter((v) => typeof v !== 'string' || !ISO_UTC.test(v))
    .map((ts) => (m: Raw) => ({ ...m, ts })),
  fc
    .anything()
    .filter((v) => typeof v !== 'string' || !UUID_V4.test(v))
    .map((id) => (m: Raw) => ({ ...m, message_id: id })),
  fc
    .anything()
    .filter((v) => typeof v !== 'object' || v === null || Array.isArray(v))
    .map((payload) => (m: Raw) => ({ ...m, payload })),
  fc.tuple(fc.string(), fc.anything()).map(([key, value]) => (m: Raw) => ({
    ...m,
    payload: { ...(m.payload as Raw), [`extra_${key}`]: value },
  })),
  fc.constantFrom(...ENVELOPE_KEYS).map(
    (key) => (m: Raw) =>
      Object.defineProperty({ ...m }, key, {
        enumerable: true,
        get() {
          throw new Error(`hostile ${key}`);
        },
      }),
  ),
  fc.constant(
    (m: Raw) =>
      new Proxy(m, {
        get() {
          throw new Error('hostile proxy');
        },
      }),
  ),
  fc.constant((m: Raw) => {
    const cyclic: Raw = { ...m, payload: { ...(m.payload as Raw) } };
    (cyclic.payload as Raw).self = cyclic;
    return cyclic;
  }),
  fc.constant((m: Raw) => JSON.stringify(m)),
);

/** A message whose payload only fits the other kind (ready, state and complete depend on the kind). */
const crossKind = (kind: Kind) =>
  validMessage(kind)
    .filter((m) => ['svc:ready', 'svc:state', 'svc:complete'].includes(m.type as string))
    .map((m) => ({ ...m, kind: kind === 'consent' ? 'approval' : 'consent' }));

const malformed = (kind: Kind): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.tuple(validMessage(kind), mutation).map(([message, mutate]) => mutate(message)) },
    { weight: 1, arbitrary: crossKind(kind) },
    { weight: 1, arbitrary: fc.anything({ withBoxedValues: true, withMap: true, withSet: true, withTypedArray: true }) },
  );

const EVIL_ORIGINS = [
  'https://svc.example.evil',
  'https://svc.example:444',
  'null',
  'http://svc.example',
  'https://evil.svc.example',
  'https://svc.example:443',
  'https://svc.example/',
  'https://SVC.example',
  ' https://svc.example',
  'https://svc.example\u0000',
  '*',
];
const wrongOrigin: fc.Arbitrary<unknown> = fc
  .oneof(
    fc.constantFrom(...EVIL_ORIGINS),
    fc.webUrl().map((url) => new URL(url).origin),
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc.string().map((suffix) => `${SERVICE}${suffix}`),
    fc.string().map((prefix) => `${prefix}${SERVICE}`),
    fc.anything(),
  )
  .filter((origin) => origin !== SERVICE);

type ForeignSource = 'host' | 'other' | 'null' | 'undefined' | 'proxy' | 'plain';
const foreignSource = fc.constantFrom<ForeignSource>('host', 'other', 'null', 'undefined', 'proxy', 'plain');
function resolveSource(name: ForeignSource, host: FakeWindow, frame: FakeWindow): unknown {
  switch (name) {
    case 'host':
      return host;
    case 'other':
      return new FakeWindow('other');
    case 'null':
      return null;
    case 'undefined':
      return undefined;
    case 'proxy':
      return new Proxy(frame, {});
    case 'plain':
      return { ...frame };
  }
}

describe('createHostChannel properties', () => {
  it('generates valid messages where the tests need them (guards against vacuous properties)', () => {
    fc.assert(
      fc.property(kindArb.chain(validMessage), (message) => isSvcMessage(message)),
      { numRuns: 500 },
    );
  });

  it('delivers no malformed envelope from the right frame at the right origin, and never throws', () => {
    fc.assert(
      fc.property(kindArb.chain(malformed), (data) => {
        const { emit, delivered, drops, channel, frame } = setup();
        emit(data, SERVICE, frame);
        assert.deepEqual(delivered, []);
        assert.equal(drops.length, 1);
        assert.ok(['version', 'type', 'schema'].includes(drops[0]!), `unexpected reason ${drops[0]}`);
        channel.dispose();
      }),
      { numRuns: 3000 },
    );
  });

  it('delivers no valid message from a wrong origin, and never throws', () => {
    fc.assert(
      fc.property(kindArb.chain(validMessage), wrongOrigin, (message, origin) => {
        const { emit, delivered, drops, frame } = setup();
        emit(message, origin, frame);
        assert.deepEqual(delivered, []);
        assert.deepEqual(drops, ['origin']);
      }),
      { numRuns: 3000 },
    );
  });

  it('delivers no valid message from a foreign source at the right origin', () => {
    fc.assert(
      fc.property(kindArb.chain(validMessage), foreignSource, (message, name) => {
        const { emit, delivered, drops, host, frame } = setup();
        emit(message, SERVICE, resolveSource(name, host, frame));
        assert.deepEqual(delivered, []);
        assert.deepEqual(drops, ['source']);
      }),
      { numRuns: 1000 },
    );
  });

  it('delivers each message_id once however often and in whatever order it is replayed', () => {
    const pool = kindArb.chain((kind) => fc.array(validMessage(kind), { minLength: 1, maxLength: 8 }));
    fc.assert(
      fc.property(
        pool.chain((messages) => fc.tuple(fc.constant(messages), fc.array(fc.nat(messages.length - 1), { maxLength: 40 }))),
        ([messages, picks]) => {
          const { emit, delivered, drops, frame } = setup();
          for (const index of picks) emit(structuredClone(messages[index]), SERVICE, frame);
          const ids = delivered.map((m) => m.message_id);
          const expected = [...new Set(picks.map((index) => messages[index]!.message_id))];
          assert.deepEqual(ids, expected);
          assert.equal(drops.length, picks.length - ids.length);
          assert.ok(drops.every((reason) => reason === 'replay'));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('delivers exactly the first copy of valid messages from the frame at the service origin, in any mix', () => {
    const scenario = kindArb.chain((kind) =>
      fc.tuple(
        fc.array(validMessage(kind), { minLength: 1, maxLength: 6 }),
        fc.array(
          fc.record({
            goodOrigin: fc.boolean(),
            origin: wrongOrigin,
            goodSource: fc.boolean(),
            source: foreignSource,
            valid: fc.boolean(),
            pick: fc.nat(),
            junk: malformed(kind),
          }),
          { maxLength: 30 },
        ),
      ),
    );
    fc.assert(
      fc.property(scenario, ([messages, events]) => {
        const { emit, delivered, host, frame, channel } = setup();
        const expected: unknown[] = [];
        const seen = new Set<unknown>();
        for (const event of events) {
          const message = messages[event.pick % messages.length]!;
          const data = event.valid ? structuredClone(message) : event.junk;
          const origin = event.goodOrigin ? SERVICE : event.origin;
          const source = event.goodSource ? frame : resolveSource(event.source, host, frame);
          emit(data, origin, source);
          if (event.goodOrigin && event.goodSource && event.valid && !seen.has(message.message_id)) {
            seen.add(message.message_id);
            expected.push(message);
          }
        }
        assert.deepEqual(delivered, expected);
        const counts = Object.values(channel.dropped).reduce((sum, n) => sum + n, 0);
        assert.equal(counts + delivered.length, events.length);
      }),
      { numRuns: 500 },
    );
  });
});
