// Every engine, real cross-origin frames: this test page (http://localhost:<port>) is the host, and the same
// test server reached as http://127.0.0.1:<port> is the service; http://127.0.0.2:<port> is a third origin.
import { expect } from '@open-wc/testing';
import { samplePayloads } from './testing/fakes.js';
import { type DropReason, type HostChannel, type SvcMessage, KINDS, createHostChannel } from './index.js';

const HOST = location.origin;
const SERVICE = `http://127.0.0.1:${location.port}`;
// All of 127.0.0.0/8 is loopback on Linux, and the test server listens on every address.
const THIRD = `http://127.0.0.2:${location.port}`;
const FRAME = '/packages/protocol/test/fixtures/frame.html';
const SEQUENCE = ['svc:ready', 'svc:state', 'svc:resize', 'svc:deadline', 'svc:error', 'svc:cancel', 'svc:complete'];

interface Drop {
  reason: DropReason;
  origin: string;
}

const frames: HTMLIFrameElement[] = [];
let channel: HostChannel | undefined;

function addFrame(origin: string, params: Record<string, string>): HTMLIFrameElement {
  const iframe = document.createElement('iframe');
  iframe.src = `${origin}${FRAME}?${new URLSearchParams({ host: HOST, ...params })}`;
  document.body.append(iframe);
  frames.push(iframe);
  return iframe;
}

/** Resolves with the next fixture report (a plain `{ fixture }` message) from `iframe`. */
function report(iframe: HTMLIFrameElement, fixture: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const listener = (event: MessageEvent) => {
      if (event.source !== iframe.contentWindow || event.data?.fixture !== fixture) return;
      removeEventListener('message', listener);
      resolve(event.data);
    };
    addEventListener('message', listener);
  });
}

function openChannel(frame: () => Window | null | undefined) {
  const delivered: SvcMessage[] = [];
  const drops: Drop[] = [];
  channel = createHostChannel({
    serviceOrigin: SERVICE,
    frame,
    onMessage: (message) => delivered.push(message),
    onDrop: (reason, event) => drops.push({ reason, origin: event.origin }),
  });
  return { channel, delivered, drops };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('host channel and frame port across origins', () => {
  afterEach(() => {
    channel?.dispose();
    channel = undefined;
    for (const iframe of frames.splice(0)) iframe.remove();
  });

  for (const kind of KINDS) {
    it(`exchanges every message type of a session of kind ${kind}, never posting to *`, async () => {
      let iframe: HTMLIFrameElement | undefined;
      const { channel, delivered, drops } = openChannel(() => iframe?.contentWindow);
      iframe = addFrame(SERVICE, { role: 'service', kind });

      await until(() => delivered.length === SEQUENCE.length);
      expect(delivered.map((m) => m.type)).to.deep.equal(SEQUENCE);
      for (const message of delivered) {
        expect(message.kind).to.equal(kind);
        expect(message.version).to.equal(2);
        expect(message.payload).to.deep.equal(samplePayloads[kind][message.type]);
      }
      expect(channel.kind).to.equal(kind);

      const received = report(iframe, 'cancel-received');
      expect(channel.cancel('host_closed')).to.equal(true);
      const { message, targetOrigins } = (await received) as { message: SvcMessage; targetOrigins: string[] };
      expect(message.type).to.equal('svc:cancel');
      expect(message.kind).to.equal(kind);
      expect(message.payload).to.deep.equal({ reason: 'host_closed', cancelled_by: 'host' });
      expect(targetOrigins).to.deep.equal(SEQUENCE.map(() => HOST));
      expect(targetOrigins).not.to.include('*');
      expect(drops.filter((d) => d.reason !== 'version')).to.deep.equal([]);
    });
  }

  it('ignores a well-formed svc:complete from a third origin', async () => {
    let iframe: HTMLIFrameElement | undefined;
    const { delivered, drops } = openChannel(() => iframe?.contentWindow);
    iframe = addFrame(SERVICE, { role: 'service', kind: 'consent' });
    const rogue = addFrame(THIRD, { role: 'rogue', kind: 'consent' });

    await report(rogue, 'done');
    await until(() => delivered.length === SEQUENCE.length);
    expect(delivered.filter((m) => m.type === 'svc:complete')).to.have.length(1);
    // The forged completion, its wildcard twin and the fixture report, all refused for their origin.
    expect(drops.filter((d) => d.origin === THIRD)).to.deep.equal([
      { reason: 'origin', origin: THIRD },
      { reason: 'origin', origin: THIRD },
      { reason: 'origin', origin: THIRD },
    ]);
  });

  it('ignores a well-formed svc:complete from another frame of the service origin', async () => {
    let iframe: HTMLIFrameElement | undefined;
    const { delivered, drops } = openChannel(() => iframe?.contentWindow);
    iframe = addFrame(SERVICE, { role: 'service', kind: 'consent' });
    await until(() => delivered.length === SEQUENCE.length);
    const impostor = addFrame(SERVICE, { role: 'impostor', kind: 'consent' });

    await report(impostor, 'done');
    expect(delivered).to.have.length(SEQUENCE.length);
    expect(drops.filter((d) => d.reason === 'source')).to.have.length(3);
  });

  it('lets the browser drop every post of a frame configured for another embed origin', async () => {
    let iframe: HTMLIFrameElement | undefined;
    const { delivered, drops } = openChannel(() => iframe?.contentWindow);
    iframe = addFrame(SERVICE, { role: 'misdirected', kind: 'consent', configured: THIRD });

    await report(iframe, 'done');
    // Had the port posted to *, all seven messages would have arrived; only the fixture's own report did.
    expect(delivered).to.deep.equal([]);
    expect(drops).to.deep.equal([{ reason: 'version', origin: SERVICE }]);
  });
});
