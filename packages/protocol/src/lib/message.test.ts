import assert from 'node:assert/strict';
import { type TestContext, describe, it } from 'node:test';
import fc from 'fast-check';
import { samplePayloads } from '../testing/fakes.js';
import { ProtocolError } from './errors.js';
import { createMessage, inspectMessage, isSvcMessage, parseMessage, uuidv4 } from './message.js';
import { KINDS, MESSAGE_TYPES, messageSchema } from './schemas.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('createMessage', () => {
  for (const kind of KINDS) {
    for (const type of MESSAGE_TYPES) {
      it(`builds a valid ${kind} ${type}`, () => {
        const message = createMessage(type, kind, samplePayloads[kind][type]);
        assert.deepEqual(parseMessage(message), message);
        assert.equal(message.type, type);
        assert.equal(message.kind, kind);
        assert.equal(message.version, 2);
        assert.deepEqual(message.payload, samplePayloads[kind][type]);
      });
    }
  }

  it('stamps the current UTC time as ts', () => {
    const before = Date.now();
    const { ts } = createMessage('svc:resize', 'consent', { height: 1 });
    assert.match(ts, /Z$/);
    assert.ok(Date.parse(ts) >= before && Date.parse(ts) <= Date.now());
  });

  it('uses crypto.randomUUID where it exists', (t) => {
    const randomUUID = t.mock.method(crypto, 'randomUUID');
    const { message_id } = createMessage('svc:resize', 'consent', { height: 1 });
    assert.equal(randomUUID.mock.callCount(), 1);
    assert.equal(randomUUID.mock.calls[0]?.result, message_id);
  });

  it('gives every message a fresh UUID v4', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => createMessage('svc:resize', 'consent', { height: 1 }).message_id));
    assert.equal(ids.size, 1000);
    for (const id of ids) assert.match(id, UUID_V4);
  });

  it('throws invalid_message for a payload that does not fit the type', () => {
    assert.throws(
      // @ts-expect-error: the payload type follows the message type
      () => createMessage('svc:resize', 'consent', { height: -1, extra: 1 }),
      (error: unknown) => error instanceof ProtocolError && error.code === 'invalid_message' && /payload/.test(error.message),
    );
  });

  it('throws invalid_message for an outcome of the other kind', () => {
    assert.throws(
      // @ts-expect-error: a consent completion cannot be approved
      () => createMessage('svc:complete', 'consent', { outcome: 'approved', exchange_token: 'x', completed_at: '2030-01-01T00:00:00Z' }),
      { name: 'ProtocolError', code: 'invalid_message' },
    );
  });

  it('throws invalid_message for an unknown type or kind', () => {
    // @ts-expect-error: not a message type
    assert.throws(() => createMessage('svc:hello', 'consent', {}), { code: 'invalid_message' });
    // @ts-expect-error: not a kind
    assert.throws(() => createMessage('svc:resize', 'signature', { height: 1 }), { code: 'invalid_message' });
  });
});

describe('parseMessage', () => {
  const message = createMessage('svc:cancel', 'approval', { reason: 'closed', cancelled_by: 'user' });

  it('returns a copy of a valid message', () => {
    const parsed = parseMessage(message);
    assert.deepEqual(parsed, message);
    assert.notEqual(parsed, message);
    assert.notEqual(parsed.payload, message.payload);
  });

  it('returns plain data, so a getter cannot change the message after the check', () => {
    let type = 'svc:cancel';
    const shifty = {
      ...message,
      get type() {
        return type;
      },
    };
    const parsed = parseMessage(shifty);
    type = 'svc:complete';
    assert.equal(parsed.type, 'svc:cancel');
    assert.equal(Object.getOwnPropertyDescriptor(parsed, 'type')?.value, 'svc:cancel');
  });

  it('throws invalid_message naming the failing field', () => {
    assert.throws(
      () => parseMessage({ ...message, version: 1 }),
      (error: unknown) => {
        assert.ok(error instanceof ProtocolError);
        assert.equal(error.code, 'invalid_message');
        assert.match(error.message, /version/);
        assert.ok(error.cause);
        return true;
      },
    );
  });

  it('throws invalid_message, not the getter error, when reading the data throws', () => {
    const hostile = {
      ...message,
      get payload(): never {
        throw new Error('boom');
      },
    };
    assert.throws(
      () => parseMessage(hostile),
      (error: unknown) => {
        assert.ok(error instanceof ProtocolError);
        assert.equal(error.code, 'invalid_message');
        assert.equal((error.cause as Error).message, 'boom');
        return true;
      },
    );
  });

  for (const data of [null, undefined, 'svc:ready', 2, [], {}]) {
    it(`throws invalid_message for ${JSON.stringify(data)}`, () => {
      assert.throws(() => parseMessage(data), { code: 'invalid_message' });
    });
  }
});

// parseMessage checks a message against the one variant its kind and type name; messageSchema is every variant.
describe('parseMessage against the variant of its kind and type', () => {
  const message = createMessage('svc:resize', 'consent', { height: 1 });
  const rejects = (data: unknown, field: RegExp) =>
    assert.throws(
      () => parseMessage(data),
      (error: unknown) => {
        assert.ok(error instanceof ProtocolError);
        assert.equal(error.code, 'invalid_message');
        assert.match(error.message, field);
        return true;
      },
    );

  it('names type or kind when it is not one of the protocol', () => {
    rejects({ ...message, type: 'svc:hello' }, /: type: /);
    rejects({ ...message, kind: 'signature' }, /: kind: /);
  });

  it('names the payload field that fails', () => {
    rejects({ ...message, payload: { height: -1 } }, /: payload\.height: /);
    rejects({ ...message, type: 'svc:complete', payload: samplePayloads.approval['svc:complete'] }, /: payload\.outcome: /);
  });

  for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    it(`takes ${key} as an unknown kind or type, not a key of the lookup`, () => {
      rejects({ ...message, kind: key }, /kind/);
      rejects({ ...message, type: key }, /type/);
      assert.equal(inspectMessage({ ...message, type: `svc:${key}` }), 'schema');
    });
  }

  /** `message` with a `field` getter answering each value in turn, then the last one for good. */
  const shifting = (field: string, ...answers: unknown[]) => {
    let read = 0;
    return Object.defineProperty({ ...message }, field, {
      enumerable: true,
      get: () => answers[Math.min(read++, answers.length - 1)],
    });
  };

  it('never returns what it did not check when kind or type changes between reads', () => {
    // Looked up as a resize, then read as a completion: the resize variant refuses it.
    rejects(shifting('type', 'svc:resize', 'svc:complete'), /type/);
    rejects(shifting('kind', 'consent', 'approval'), /kind/);
    // Unknown at the lookup, valid afterwards: whatever comes back was checked whole, on one read of each field.
    for (const data of [shifting('type', 'svc:hello', 'svc:resize'), shifting('kind', 'signature', 'consent')]) {
      const parsed = parseMessage(data);
      assert.deepEqual(parsed, { ...message });
      assert.equal(messageSchema.safeParse(parsed).success, true);
    }
  });

  it('agrees with messageSchema on valid messages and on messages with a field swapped or removed', () => {
    const valid = fc.record({ kind: fc.constantFrom(...KINDS), type: fc.constantFrom(...MESSAGE_TYPES) });
    const field = fc.constantFrom('type', 'kind', 'version', 'payload', 'ts', 'message_id', 'extra');
    const other = fc.record({ kind: fc.constantFrom(...KINDS), type: fc.constantFrom(...MESSAGE_TYPES) });
    const value = fc.oneof(
      fc.constantFrom(undefined, null, 2, '2', 'svc:hello', 'signature', '', [], {}, '2030-01-01T00:00:00+01:00'),
      other.map(({ kind, type }) => samplePayloads[kind][type]),
      fc.constantFrom(...KINDS, ...MESSAGE_TYPES),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(valid, field, value, fc.boolean(), ({ kind, type }, key, swapped, remove) => {
        const data: Record<string, unknown> = { ...createMessage(type, kind, samplePayloads[kind][type]) };
        if (remove) delete data[key];
        else data[key] = swapped;
        const expected = messageSchema.safeParse(data);
        let parsed: unknown;
        try {
          parsed = parseMessage(data);
        } catch (error) {
          assert.ok(error instanceof ProtocolError);
        }
        assert.equal(parsed !== undefined, expected.success);
        if (expected.success) assert.deepEqual(parsed, expected.data);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('isSvcMessage', () => {
  it('tells messages from everything else', () => {
    assert.equal(isSvcMessage(createMessage('svc:resize', 'consent', { height: 1 })), true);
    assert.equal(isSvcMessage({ type: 'svc:resize' }), false);
    assert.equal(
      isSvcMessage(
        new Proxy(
          {},
          {
            get() {
              throw new Error('trap');
            },
          },
        ),
      ),
      false,
    );
  });
});

describe('inspectMessage', () => {
  const valid = createMessage('svc:resize', 'consent', { height: 1 });
  const cases: [string, unknown, string][] = [
    ['null', null, 'schema'],
    ['a string', JSON.stringify(valid), 'schema'],
    ['a number', 2, 'schema'],
    ['a missing version', { ...valid, version: undefined }, 'version'],
    ['version "2"', { ...valid, version: '2' }, 'version'],
    ['a type without svc: prefix', { ...valid, type: 'resize' }, 'type'],
    ['a type that is not a string', { ...valid, type: 7 }, 'type'],
    ['an unknown svc: type', { ...valid, type: 'svc:hello' }, 'schema'],
    ['a bad payload', { ...valid, payload: { height: 'tall' } }, 'schema'],
    [
      'a throwing version getter',
      {
        get version(): never {
          throw new Error('x');
        },
      },
      'schema',
    ],
    [
      'a revoked proxy',
      (() => {
        const p = Proxy.revocable({}, {});
        p.revoke();
        return p.proxy;
      })(),
      'schema',
    ],
  ];
  for (const [name, data, reason] of cases) {
    it(`names ${reason} for ${name}`, () => {
      assert.equal(inspectMessage(data), reason);
    });
  }

  it('returns the validated copy for a valid message', () => {
    const inspection = inspectMessage(valid);
    assert.deepEqual(inspection, valid);
    assert.notEqual(inspection, valid);
  });
});

// Secure-context-only APIs are missing on plain-http pages; an own property shadows the prototype method.
function withoutRandomUUID(t: TestContext) {
  Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
  t.after(() => delete (crypto as { randomUUID?: unknown }).randomUUID);
}

describe('uuidv4', () => {
  it('builds a UUID v4 from getRandomValues where randomUUID is missing (insecure contexts)', (t) => {
    withoutRandomUUID(t);
    const getRandomValues = t.mock.method(crypto, 'getRandomValues');
    const ids = new Set(Array.from({ length: 500 }, () => uuidv4()));
    assert.equal(getRandomValues.mock.callCount(), 500);
    assert.equal(ids.size, 500);
    for (const id of ids) assert.match(id, UUID_V4);
  });

  it('sets the version and variant bits even when the random bytes are all ones', (t) => {
    withoutRandomUUID(t);
    t.mock.method(crypto, 'getRandomValues', <T extends ArrayBufferView>(array: T) => {
      new Uint8Array(array.buffer).fill(0xff);
      return array;
    });
    assert.equal(uuidv4(), 'ffffffff-ffff-4fff-bfff-ffffffffffff');
  });
});
