import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeWindow, samplePayloads } from '../testing/fakes.js';
import { ProtocolError } from './errors.js';
import { type FramePortOptions, type PostMessageDroppedMetric, createFramePort } from './frame-port.js';
import { createMessage } from './message.js';
import type { DropReason } from './receiver.js';
import { MESSAGE_TYPES, type SvcMessage } from './schemas.js';

const EMBED = 'https://shop.example';

function setup(options: Partial<FramePortOptions<'consent'>> = {}) {
  const host = new FakeWindow('host');
  const frame = new FakeWindow('frame');
  frame.parent = host;
  const metrics: PostMessageDroppedMetric[] = [];
  const cancels: SvcMessage[] = [];
  const drops: DropReason[] = [];
  const port = createFramePort({
    targetOrigin: EMBED,
    mode: 'embed',
    kind: 'consent',
    frameWindow: frame,
    onMetric: (metric) => metrics.push(metric),
    onCancel: (message) => cancels.push(message),
    onDrop: (reason) => drops.push(reason),
    ...options,
  });
  return { host, frame, port, metrics, cancels, drops };
}

describe('createFramePort', () => {
  describe('post', () => {
    for (const type of MESSAGE_TYPES) {
      it(`posts a valid ${type} to window.parent at exactly the embed origin`, () => {
        const { host, port, metrics } = setup();
        assert.equal(port.post(type, samplePayloads.consent[type]), true);
        assert.equal(host.posted.length, 1);
        const [{ message, targetOrigin }] = host.posted as [{ message: SvcMessage; targetOrigin: string }];
        assert.equal(targetOrigin, EMBED);
        assert.equal(message.type, type);
        assert.equal(message.kind, 'consent');
        assert.deepEqual(message.payload, samplePayloads.consent[type]);
        assert.deepEqual(metrics, []);
      });
    }

    it('posts to window.opener in popup mode', () => {
      const opener = new FakeWindow('opener');
      const { host, port } = setup({ mode: 'popup', frameWindow: Object.assign(new FakeWindow('popup'), { opener }) });
      assert.equal(port.post('svc:resize', { height: 1 }), true);
      assert.equal(opener.posted[0]?.targetOrigin, EMBED);
      assert.equal(host.posted.length, 0);
    });

    it('normalises the embed origin to what event.origin holds', () => {
      const { host, port } = setup({ targetOrigin: 'HTTPS://Shop.Example:443/checkout?step=2' });
      port.post('svc:resize', { height: 1 });
      assert.equal(host.posted[0]?.targetOrigin, EMBED);
    });

    it('never posts with target origin *', () => {
      const { host, port } = setup();
      for (const type of MESSAGE_TYPES) port.post(type, samplePayloads.consent[type]);
      assert.equal(host.posted.length, MESSAGE_TYPES.length);
      assert.ok(host.posted.every((p) => p.targetOrigin === EMBED));
    });

    for (const targetOrigin of [null, undefined, '']) {
      it(`posts nothing and reports origin_missing when the origin is ${JSON.stringify(targetOrigin) ?? 'undefined'}`, () => {
        const { host, port, metrics } = setup({ targetOrigin });
        assert.equal(port.post('svc:ready', samplePayloads.consent['svc:ready']), false);
        assert.equal(port.post('svc:complete', samplePayloads.consent['svc:complete']), false);
        assert.equal(host.posted.length, 0);
        const metric = { name: 'trust_surface.postmessage_dropped_total', labels: { reason: 'origin_missing' } };
        assert.deepEqual(metrics, [metric, metric]);
      });
    }

    it('posts nothing and reports target_missing when the page is not framed', () => {
      const top = new FakeWindow('top');
      const { port, metrics } = setup({ frameWindow: top });
      assert.equal(port.post('svc:resize', { height: 1 }), false);
      assert.equal(top.posted.length, 0);
      assert.deepEqual(metrics, [{ name: 'trust_surface.postmessage_dropped_total', labels: { reason: 'target_missing' } }]);
    });

    it('posts nothing and reports target_missing when the popup has no opener or it closed', () => {
      const popup = new FakeWindow('popup');
      const { port, metrics } = setup({ mode: 'popup', frameWindow: popup });
      assert.equal(port.post('svc:resize', { height: 1 }), false);
      const opener = Object.assign(new FakeWindow('opener'), { closed: true });
      popup.opener = opener;
      assert.equal(port.post('svc:resize', { height: 1 }), false);
      assert.equal(opener.posted.length, 0);
      assert.equal(metrics.length, 2);
      assert.ok(metrics.every((m) => m.labels.reason === 'target_missing'));
    });

    it('works without onMetric', () => {
      const { port } = setup({ targetOrigin: null, onMetric: undefined });
      assert.equal(port.post('svc:resize', { height: 1 }), false);
    });

    it('throws invalid_message for a payload that does not fit, even when it could not post', () => {
      const { port, host } = setup();
      // @ts-expect-error: a consent port cannot complete an approval
      assert.throws(() => port.post('svc:complete', samplePayloads.approval['svc:complete']), { code: 'invalid_message' });
      const noOrigin = setup({ targetOrigin: null });
      assert.throws(() => noOrigin.port.post('svc:resize', { height: -1 }), { code: 'invalid_message' });
      assert.equal(host.posted.length, 0);
      assert.deepEqual(noOrigin.metrics, []);
    });
  });

  describe('receiving svc:cancel', () => {
    const hostCancel = () => createMessage('svc:cancel', 'consent', { reason: 'host_closed', cancelled_by: 'host' });

    it('delivers a host svc:cancel from the parent at the embed origin', () => {
      const { frame, host, cancels } = setup();
      const message = hostCancel();
      frame.emit({ data: message, origin: EMBED, source: host });
      assert.deepEqual(cancels, [message]);
    });

    it('delivers a host svc:cancel from the opener in popup mode', () => {
      const opener = new FakeWindow('opener');
      const popup = Object.assign(new FakeWindow('popup'), { opener });
      const { cancels, drops } = setup({ mode: 'popup', frameWindow: popup });
      popup.emit({ data: hostCancel(), origin: EMBED, source: opener });
      popup.emit({ data: hostCancel(), origin: EMBED, source: popup.parent });
      assert.equal(cancels.length, 1);
      assert.deepEqual(drops, ['source']);
    });

    const cases: [string, (host: FakeWindow) => { data: unknown; origin: unknown; source: unknown }, DropReason][] = [
      ['another origin', (host) => ({ data: hostCancel(), origin: 'https://shop.example.evil', source: host }), 'origin'],
      ['origin null', (host) => ({ data: hostCancel(), origin: 'null', source: host }), 'origin'],
      ['another window', () => ({ data: hostCancel(), origin: EMBED, source: new FakeWindow() }), 'source'],
      [
        'a host message other than svc:cancel',
        (host) => ({
          data: createMessage('svc:complete', 'consent', samplePayloads.consent['svc:complete']),
          origin: EMBED,
          source: host,
        }),
        'type',
      ],
      [
        'a cancel of the other kind',
        (host) => ({
          data: createMessage('svc:cancel', 'approval', { reason: 'x', cancelled_by: 'host' }),
          origin: EMBED,
          source: host,
        }),
        'kind',
      ],
      ['version 1', (host) => ({ data: { ...hostCancel(), version: 1 }, origin: EMBED, source: host }), 'version'],
      ['a malformed cancel', (host) => ({ data: { ...hostCancel(), payload: {} }, origin: EMBED, source: host }), 'schema'],
    ];
    for (const [name, event, reason] of cases) {
      it(`drops ${name} as ${reason}`, () => {
        const { frame, host, cancels, drops, port } = setup();
        frame.emit(event(host));
        assert.deepEqual(cancels, []);
        assert.deepEqual(drops, [reason]);
        assert.equal(port.dropped[reason], 1);
      });
    }

    it('delivers each cancel message_id once', () => {
      const { frame, host, cancels, drops } = setup();
      const message = hostCancel();
      frame.emit({ data: message, origin: EMBED, source: host });
      frame.emit({ data: structuredClone(message), origin: EMBED, source: host });
      assert.equal(cancels.length, 1);
      assert.deepEqual(drops, ['replay']);
    });

    it('does not listen without onCancel or without an origin', () => {
      assert.equal(setup({ onCancel: undefined }).frame.listeners.size, 0);
      assert.equal(setup({ targetOrigin: null }).frame.listeners.size, 0);
      assert.equal(setup().frame.listeners.size, 1);
    });

    it('does not throw on hostile data', () => {
      const { frame, host, cancels } = setup();
      const hostile = new Proxy(
        {},
        {
          get() {
            throw new Error('trap');
          },
        },
      );
      assert.doesNotThrow(() => frame.emit({ data: hostile, origin: EMBED, source: host }));
      assert.doesNotThrow(() => frame.emit(null));
      assert.deepEqual(cancels, []);
    });
  });

  describe('dispose', () => {
    it('removes the listener, is idempotent, and makes later posts throw', () => {
      const { frame, port } = setup();
      port.dispose();
      port.dispose();
      assert.equal(frame.listeners.size, 0);
      assert.throws(() => port.post('svc:resize', { height: 1 }), { name: 'ProtocolError', code: 'disposed' });
    });
  });

  describe('options', () => {
    for (const targetOrigin of ['*', 'null', 'shop.example', '/', 'file:///x']) {
      it(`throws invalid_origin for targetOrigin ${JSON.stringify(targetOrigin)}`, () => {
        assert.throws(
          () => setup({ targetOrigin }),
          (error: unknown) => {
            assert.ok(error instanceof ProtocolError);
            assert.equal(error.code, 'invalid_origin');
            assert.match(error.message, /^targetOrigin must be/);
            return true;
          },
        );
      });
    }

    const invalid: [string, Partial<FramePortOptions<'consent'>>][] = [
      ['mode redirect', { mode: 'redirect' as never }],
      ['no mode', { mode: undefined as never }],
      ['an unknown kind', { kind: 'signature' as never }],
    ];
    for (const [name, options] of invalid) {
      it(`throws invalid_options for ${name}`, () => {
        assert.throws(() => setup(options), { name: 'ProtocolError', code: 'invalid_options' });
      });
    }
  });
});
