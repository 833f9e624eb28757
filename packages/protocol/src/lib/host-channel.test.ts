import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeWindow, type MessageEventInit, samplePayloads } from '../testing/fakes.js';
import { ProtocolError } from './errors.js';
import { type HostChannelOptions, createHostChannel } from './host-channel.js';
import { createMessage } from './message.js';
import type { DropReason } from './receiver.js';
import { KINDS, MESSAGE_TYPES, type SvcMessage } from './schemas.js';

const SERVICE = 'https://svc.example';

function setup(options: Partial<HostChannelOptions> = {}) {
  const host = new FakeWindow('host');
  const frame = new FakeWindow('frame');
  frame.parent = host;
  const delivered: { message: SvcMessage; event: MessageEvent }[] = [];
  const drops: DropReason[] = [];
  const channel = createHostChannel({
    serviceOrigin: SERVICE,
    frame,
    hostWindow: host,
    onMessage: (message, event) => delivered.push({ message, event }),
    onDrop: (reason) => drops.push(reason),
    ...options,
  });
  const send = (data: unknown, event: MessageEventInit = {}) => host.emit({ data, origin: SERVICE, source: frame, ...event });
  return { host, frame, channel, delivered, drops, send };
}

const resize = () => createMessage('svc:resize', 'consent', { height: 100 });

describe('createHostChannel', () => {
  describe('delivery', () => {
    for (const kind of KINDS) {
      for (const type of MESSAGE_TYPES) {
        it(`delivers a valid ${kind} ${type} from the frame at the service origin`, () => {
          const { send, delivered, drops } = setup();
          const message = createMessage(type, kind, samplePayloads[kind][type]);
          send(message);
          assert.deepEqual(
            delivered.map((d) => d.message),
            [message],
          );
          assert.deepEqual(drops, []);
        });
      }
    }

    it('passes the event along and delivers a validated copy, not the posted object', () => {
      const { send, delivered } = setup();
      const message = resize();
      send(message);
      assert.equal(delivered[0]?.event.origin, SERVICE);
      assert.notEqual(delivered[0]?.message, message);
    });
  });

  describe('origin', () => {
    const wrong = [
      'https://svc.example.evil',
      'https://svc.example:444',
      'http://svc.example',
      'https://evil.svc.example',
      'https://evilsvc.example',
      'https://svc.exampl',
      'https://svc.example/',
      'HTTPS://SVC.EXAMPLE',
      'null',
      '',
      '*',
      null,
      undefined,
      { toString: () => SERVICE },
    ];
    for (const origin of wrong) {
      it(`drops a valid message from origin ${JSON.stringify(origin) ?? 'undefined'}`, () => {
        const { send, delivered, drops, channel } = setup();
        send(resize(), { origin });
        assert.deepEqual(delivered, []);
        assert.deepEqual(drops, ['origin']);
        assert.equal(channel.dropped.origin, 1);
      });
    }

    it('normalises the configured origin once: case, default port and path do not matter', () => {
      const { send, delivered, channel, frame } = setup({ serviceOrigin: 'HTTPS://SVC.Example:443/decisions/dts_1/embed?x=1' });
      send(resize());
      assert.equal(delivered.length, 1);
      channel.cancel('closed');
      assert.equal(frame.posted[0]?.targetOrigin, SERVICE);
    });

    it('keeps a non-default port as part of the origin', () => {
      const { send, delivered } = setup({ serviceOrigin: 'http://127.0.0.1:4010' });
      send(resize(), { origin: 'http://127.0.0.1:4010' });
      send(resize(), { origin: 'http://127.0.0.1' });
      assert.equal(delivered.length, 1);
    });

    const invalid: unknown[] = [
      '*',
      'null',
      '',
      'svc.example',
      '/embed',
      'file:///tmp/x.html',
      'data:text/html,x',
      'javascript:alert(1)',
      'blob:null/0',
      undefined,
      null,
      42,
      {},
    ];
    for (const serviceOrigin of invalid) {
      it(`throws invalid_origin for serviceOrigin ${JSON.stringify(serviceOrigin) ?? 'undefined'}`, () => {
        assert.throws(
          () => setup({ serviceOrigin: serviceOrigin as string }),
          (error: unknown) => {
            assert.ok(error instanceof ProtocolError);
            assert.equal(error.code, 'invalid_origin');
            assert.match(error.message, /serviceOrigin must be an absolute http\(s\) origin/);
            return true;
          },
        );
      });
    }
  });

  describe('source', () => {
    it('drops a message from any other window, even at the service origin', () => {
      const { send, delivered, drops, host } = setup();
      send(resize(), { source: new FakeWindow('other frame') });
      send(resize(), { source: host });
      send(resize(), { source: null });
      send(resize(), { source: undefined });
      assert.deepEqual(delivered, []);
      assert.deepEqual(drops, ['source', 'source', 'source', 'source']);
    });

    it('drops everything while the frame getter returns null, even a message whose source is null', () => {
      const { send, delivered, drops } = setup({ frame: () => null });
      send(resize(), { source: null });
      send(resize(), { source: undefined });
      assert.deepEqual(delivered, []);
      assert.deepEqual(drops, ['source', 'source']);
    });

    it('reads a frame getter on every message, following the frame to its new window', () => {
      let current = new FakeWindow('first');
      const { send, delivered, drops } = setup({ frame: () => current });
      const first = current;
      send(resize(), { source: first });
      current = new FakeWindow('after navigation');
      send(resize(), { source: first });
      send(resize(), { source: current });
      assert.equal(delivered.length, 2);
      assert.deepEqual(drops, ['source']);
    });
  });

  describe('version, type and schema', () => {
    const valid = resize();
    const cases: [string, unknown, DropReason][] = [
      ['version 1', { ...valid, version: 1 }, 'version'],
      ['version "2"', { ...valid, version: '2' }, 'version'],
      ['no version', { ...valid, version: undefined }, 'version'],
      ['a type without the svc: prefix', { ...valid, type: 'resize' }, 'type'],
      ["another library's message", { type: 'webpackOk', version: 2 }, 'type'],
      ['an unknown svc: type', { ...valid, type: 'svc:hello' }, 'schema'],
      ['an extra envelope field', { ...valid, extra: 1 }, 'schema'],
      ['a bad payload', { ...valid, payload: { height: -5 } }, 'schema'],
      ['a ts with an offset', { ...valid, ts: '2030-01-01T01:00:00+01:00' }, 'schema'],
      ['a JSON string of a valid message', JSON.stringify(valid), 'schema'],
      ['null', null, 'schema'],
    ];
    for (const [name, data, reason] of cases) {
      it(`drops ${name} as ${reason}`, () => {
        const { send, delivered, drops } = setup();
        send(data);
        assert.deepEqual(delivered, []);
        assert.deepEqual(drops, [reason]);
      });
    }
  });

  describe('kind', () => {
    it('fixes the kind from the first delivered message and drops messages of the other kind', () => {
      const { send, delivered, drops, channel } = setup();
      assert.equal(channel.kind, undefined);
      send(createMessage('svc:ready', 'approval', samplePayloads.approval['svc:ready']));
      send(createMessage('svc:resize', 'consent', { height: 1 }));
      send(createMessage('svc:resize', 'approval', { height: 1 }));
      assert.equal(channel.kind, 'approval');
      assert.deepEqual(
        delivered.map((d) => d.message.kind),
        ['approval', 'approval'],
      );
      assert.deepEqual(drops, ['kind']);
    });

    it('takes the kind option as known from the start', () => {
      const { send, delivered, drops, channel } = setup({ kind: 'consent' });
      send(createMessage('svc:resize', 'approval', { height: 1 }));
      assert.equal(channel.kind, 'consent');
      assert.deepEqual(delivered, []);
      assert.deepEqual(drops, ['kind']);
    });
  });

  describe('replay', () => {
    it('delivers each message_id at most once, even as a fresh copy', () => {
      const { send, delivered, drops } = setup();
      const message = resize();
      send(message);
      send(structuredClone(message));
      send({ ...message, payload: { height: 200 } });
      assert.equal(delivered.length, 1);
      assert.deepEqual(drops, ['replay', 'replay']);
    });

    it('does not remember the ids of dropped messages', () => {
      const { send, delivered, drops } = setup();
      const message = resize();
      send(message, { origin: 'https://evil.example' });
      send(message);
      assert.equal(delivered.length, 1);
      assert.deepEqual(drops, ['origin']);
    });

    it('remembers the latest 4096 ids and forgets older ones, so memory stays bounded', () => {
      const { send, delivered, drops } = setup();
      const messages = Array.from({ length: 4097 }, resize);
      for (const message of messages) send(message);
      for (const message of messages.slice(1)) send(message);
      assert.deepEqual(new Set(drops), new Set(['replay']));
      assert.equal(drops.length, 4096);
      send(messages[0]);
      assert.equal(delivered.length, 4098);
    });
  });

  describe('dropped', () => {
    it('counts drops by reason without onDrop and returns a snapshot', () => {
      const { send, channel } = setup({ onDrop: undefined });
      const message = resize();
      send(message, { origin: 'https://evil.example' });
      send(message, { source: null });
      send({ ...message, version: 1 });
      send({ ...message, type: 'x' });
      send({ ...message, payload: {} });
      send(message);
      send(message);
      const dropped = channel.dropped;
      assert.deepEqual(dropped, { origin: 1, source: 1, version: 1, type: 1, schema: 1, kind: 0, replay: 1 });
      (dropped as Record<string, number>).origin = 99;
      assert.equal(channel.dropped.origin, 1);
    });
  });

  describe('hostile input', () => {
    const cyclic: Record<string, unknown> = { ...resize() };
    cyclic.payload = cyclic;
    const throwing = (key: string) =>
      Object.defineProperty({ ...resize() }, key, {
        get() {
          throw new Error(key);
        },
        enumerable: true,
      });
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const data: [string, unknown][] = [
      ['a throwing version getter', throwing('version')],
      ['a throwing type getter', throwing('type')],
      ['a throwing payload getter', throwing('payload')],
      [
        'a proxy whose every trap throws',
        new Proxy(
          {},
          {
            get() {
              throw new Error('get');
            },
            has() {
              throw new Error('has');
            },
            ownKeys() {
              throw new Error('ownKeys');
            },
            getOwnPropertyDescriptor() {
              throw new Error('gopd');
            },
            getPrototypeOf() {
              throw new Error('proto');
            },
          },
        ),
      ],
      ['a revoked proxy', revoked.proxy],
      ['a cyclic object', cyclic],
      ['a number', 2],
      ['a string', 'svc:ready'],
      ['a symbol', Symbol('svc')],
      ['a bigint', 2n],
      ['a function', () => resize()],
      ['an object without prototype', Object.assign(Object.create(null), resize(), { extra: 1 })],
    ];
    for (const [name, value] of data) {
      it(`neither throws nor delivers for ${name}`, () => {
        const { send, delivered, drops } = setup();
        assert.doesNotThrow(() => send(value));
        assert.deepEqual(delivered, []);
        assert.equal(drops.length, 1);
      });
    }

    it('neither throws nor delivers when the event itself is hostile', () => {
      const { host, frame, delivered, drops } = setup();
      const events = [
        null,
        undefined,
        {},
        {
          get origin(): never {
            throw new Error('origin');
          },
          source: null,
          data: resize(),
        },
        {
          origin: SERVICE,
          get source(): never {
            throw new Error('source');
          },
          data: resize(),
        },
        {
          origin: SERVICE,
          source: frame,
          get data(): never {
            throw new Error('data');
          },
        },
      ];
      for (const event of events) assert.doesNotThrow(() => host.emit(event));
      assert.deepEqual(delivered, []);
      assert.deepEqual(drops, ['origin', 'origin', 'origin', 'origin', 'source', 'schema']);
    });

    it('still delivers after hostile input', () => {
      const { send, delivered } = setup();
      send(throwing('version'));
      send(resize());
      assert.equal(delivered.length, 1);
    });
  });

  describe('post and cancel', () => {
    it('posts svc:cancel by the host to the frame at exactly the service origin', () => {
      const { channel, frame } = setup({ kind: 'consent' });
      assert.equal(channel.cancel('host_closed'), true);
      assert.equal(frame.posted.length, 1);
      const [{ message, targetOrigin }] = frame.posted as [{ message: SvcMessage; targetOrigin: string }];
      assert.equal(targetOrigin, SERVICE);
      assert.equal(message.type, 'svc:cancel');
      assert.equal(message.kind, 'consent');
      assert.deepEqual(message.payload, { reason: 'host_closed', cancelled_by: 'host' });
    });

    it('posts with the kind learned from svc:ready', () => {
      const { channel, frame, send } = setup();
      send(createMessage('svc:ready', 'approval', samplePayloads.approval['svc:ready']));
      channel.post('svc:cancel', { reason: 'user_closed_modal', cancelled_by: 'user' });
      assert.equal((frame.posted[0]?.message as SvcMessage).kind, 'approval');
      assert.equal(frame.posted[0]?.targetOrigin, SERVICE);
    });

    it('never posts to * or to any origin but the service origin', () => {
      const { channel, frame } = setup({ kind: 'consent', serviceOrigin: 'https://svc.example:8443/x' });
      for (let i = 0; i < 5; i += 1) channel.cancel(`r${i}`);
      assert.deepEqual(new Set(frame.posted.map((p) => p.targetOrigin)), new Set(['https://svc.example:8443']));
    });

    it('throws kind_unknown before the kind is known', () => {
      const { channel, frame } = setup();
      assert.throws(() => channel.cancel('closed'), { name: 'ProtocolError', code: 'kind_unknown' });
      assert.equal(frame.posted.length, 0);
    });

    it('returns false and posts nothing when the frame window is gone', () => {
      const { channel } = setup({ kind: 'consent', frame: () => null });
      assert.equal(channel.cancel('closed'), false);
    });

    it('throws invalid_message for an invalid payload', () => {
      const { channel, frame } = setup({ kind: 'consent' });
      assert.throws(() => channel.cancel(''), { code: 'invalid_message' });
      // @ts-expect-error: only host message types can be posted
      assert.throws(() => channel.post('svc:complete', samplePayloads.consent['svc:complete']), { code: 'invalid_message' });
      assert.equal(frame.posted.length, 0);
    });
  });

  describe('dispose', () => {
    it('removes the listener, is idempotent, and makes later posts throw', () => {
      const { channel, host, send, delivered } = setup({ kind: 'consent' });
      assert.equal(host.listeners.size, 1);
      channel.dispose();
      channel.dispose();
      assert.equal(host.listeners.size, 0);
      send(resize());
      assert.deepEqual(delivered, []);
      assert.throws(() => channel.cancel('late'), { name: 'ProtocolError', code: 'disposed' });
    });
  });

  describe('options', () => {
    const cases: [string, Partial<HostChannelOptions>][] = [
      ['no frame', { frame: undefined as never }],
      ['a string frame', { frame: 'iframe' as never }],
      ['no onMessage', { onMessage: undefined as never }],
      ['a hostWindow that cannot listen', { hostWindow: {} as never }],
      ['an unknown kind', { kind: 'signature' as never }],
    ];
    for (const [name, options] of cases) {
      it(`throws invalid_options for ${name}`, () => {
        assert.throws(() => setup(options), { name: 'ProtocolError', code: 'invalid_options' });
      });
    }

    it('listens on globalThis by default', (t) => {
      // Node's global object is no EventTarget, so lend it a fake window's listener methods for this test.
      const target = new FakeWindow('global');
      Object.assign(globalThis, {
        addEventListener: target.addEventListener.bind(target),
        removeEventListener: target.removeEventListener.bind(target),
      });
      t.after(() => {
        Reflect.deleteProperty(globalThis, 'addEventListener');
        Reflect.deleteProperty(globalThis, 'removeEventListener');
      });
      const channel = createHostChannel({ serviceOrigin: SERVICE, frame: new FakeWindow(), onMessage: () => {} });
      assert.equal(target.listeners.size, 1);
      channel.dispose();
      assert.equal(target.listeners.size, 0);
    });
  });
});
