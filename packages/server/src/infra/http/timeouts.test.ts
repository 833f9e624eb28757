// The server's timeouts are its own choice, and a client that trickles its request cannot hold a connection past
// them: a slow-loris client sending its headers a line at a time is answered 408 and cut off at the headers
// timeout; one trickling its body, at the request timeout; an idle keep-alive connection is closed. Node's timers
// run on the wall clock, so these use timeouts of a fraction of a second.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type RunningServer, startServer } from '../../server.js';
import { DEFAULT_TIMEOUTS, HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, REQUEST_TIMEOUT_MS, timeoutOptions } from './timeouts.js';

const SMALL = { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 200, checkIntervalMs: 50 };
/** The most a trickle may last: far longer than any timeout above, so only the server can end it early. */
const TRICKLE_LINES = 100;
const TRICKLE_EVERY_MS = 50;

let server: RunningServer;
let dataDir: string;
before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-timeouts-'));
  server = await startServer({ port: 0, dataDir, clock: true, countries: ['US'], rateLimits: false, timeouts: SMALL });
});
after(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A raw connection to the server, with what it received and whether (and when) the server closed it. */
async function open(): Promise<{ socket: Socket; received: () => string; closed: Promise<number> }> {
  const { hostname, port } = new URL(server.url);
  const socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((done, fail) => socket.once('connect', done).once('error', fail));
  let data = '';
  socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
  socket.on('error', () => {}); // a reset after the server's close is part of being cut off
  const start = performance.now();
  const closed = new Promise<number>((done) => socket.once('close', () => done(performance.now() - start)));
  return { socket, received: () => data, closed };
}

/** Writes `lines` one every TRICKLE_EVERY_MS until the socket closes or TRICKLE_LINES were sent; answers how many. */
async function trickle(socket: Socket, line: (i: number) => string): Promise<number> {
  let sent = 0;
  while (sent < TRICKLE_LINES && !socket.destroyed && socket.writable) {
    socket.write(line(sent));
    sent++;
    await sleep(TRICKLE_EVERY_MS);
  }
  return sent;
}

describe('server timeouts (slow loris)', () => {
  it('cuts off a client sending its headers slowly (slow loris) at the headers timeout with 408 Request Timeout', async () => {
    const { socket, received, closed } = await open();
    socket.write('GET /api/v1/me HTTP/1.1\r\nHost: svc\r\n');
    const sent = await trickle(socket, (i) => `X-Slow-${i}: a\r\n`);
    const elapsed = await closed;
    assert.ok(sent < TRICKLE_LINES, `the server ended the trickle (${sent} header lines sent)`);
    assert.ok(elapsed < 5 * SMALL.headersTimeoutMs, `closed after ${Math.round(elapsed)} ms`);
    assert.match(received(), /^HTTP\/1\.1 408 /);
  });

  it('cuts off a client sending its body slowly at the request timeout', async () => {
    const { socket, received, closed } = await open();
    const headers = `Authorization: Bearer ${server.sandbox.api_token}\r\nContent-Type: application/json\r\nContent-Length: 100000`;
    socket.write(`POST /api/v1/flows HTTP/1.1\r\nHost: svc\r\n${headers}\r\n\r\n`);
    const sent = await trickle(socket, () => ' ');
    const elapsed = await closed;
    assert.ok(sent < TRICKLE_LINES, `the server ended the trickle (${sent} bytes sent)`);
    assert.ok(elapsed < 5 * SMALL.requestTimeoutMs, `closed after ${Math.round(elapsed)} ms`);
    assert.match(received(), /^HTTP\/1\.1 408 /);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout, having answered its request', async () => {
    const { socket, received, closed } = await open();
    socket.write('GET /.well-known/mcp-configuration HTTP/1.1\r\nHost: svc\r\n\r\n');
    const elapsed = await closed;
    assert.match(received(), /^HTTP\/1\.1 200 /);
    // Node's own default (5 s) would keep it open longer than this.
    assert.ok(elapsed < 4000, `closed after ${Math.round(elapsed)} ms`);
  });

  it('answers an honest request within the same small timeouts', async () => {
    const res = await fetch(`${server.url}/.well-known/mcp-configuration`);
    assert.equal(res.status, 200);
  });
});

describe('server timeout defaults', () => {
  it('are chosen, not left at Node defaults: 10 s for headers, 120 s for a request, 5 s keep-alive, checked every second', () => {
    assert.deepEqual(timeoutOptions(), {
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      connectionsCheckingInterval: DEFAULT_TIMEOUTS.checkIntervalMs,
    });
    assert.equal(HEADERS_TIMEOUT_MS, 10_000);
    assert.equal(REQUEST_TIMEOUT_MS, 120_000);
    assert.equal(timeoutOptions({ headersTimeoutMs: 2000 }).headersTimeout, 2000, 'each overridable by option');
    assert.throws(() => timeoutOptions({ headersTimeoutMs: 5000, requestTimeoutMs: 1000 }), RangeError);
  });
});
