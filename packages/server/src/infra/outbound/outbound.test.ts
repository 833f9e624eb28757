// The outbound client: which addresses each policy refuses (the same verdict as request-filtering-agent's, which
// enforces it), a refusal on the address actually connected (DNS rebinding) before any connection opens, and the
// registration check.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, LookupFunction, Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { RequestFilteringHttpAgent } from 'request-filtering-agent';
import { checkDestination, outboundRequest, policyOf, refusedRange, type OutboundOptions } from './index.js';
import { fakeDns } from './test-support.js';

const PUBLIC = ['93.184.215.14', '8.8.8.8', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '2a00:1450:4001:82a::200e'];
const REFUSED: [address: string, range: string][] = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.16.5.4', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'linkLocal'],
  ['100.100.100.200', 'carrierGradeNat'],
  ['0.0.0.0', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['224.0.0.1', 'multicast'],
  ['198.18.0.1', 'reserved'],
  ['::1', 'loopback'],
  ['::', 'unspecified'],
  ['fe80::1', 'linkLocal'],
  ['fd00:ec2::254', 'uniqueLocal'],
  ['fc00::1', 'uniqueLocal'],
  ['::ffff:127.0.0.1', 'ipv4Mapped'],
  ['::ffff:169.254.169.254', 'ipv4Mapped'],
  ['::ffff:10.0.0.1', 'ipv4Mapped'],
  ['64:ff9b::7f00:1', 'rfc6052'],
  ['2002:7f00:1::', '6to4'],
];

/** Whether request-filtering-agent (as the `public` policy configures it) refuses a name resolving to `address`. */
function agentRefuses(address: string): Promise<boolean> {
  const agent = new RequestFilteringHttpAgent({ allowPrivateIPAddress: false, allowMetaIPAddress: false });
  const lookup = fakeDns({ 'probe.example': address }).lookup;
  return new Promise((resolve) => {
    const socket = agent.createConnection({ host: 'probe.example', port: 9, lookup } as never, () => {}) as Socket;
    socket.once('lookup', (err: Error | null) => {
      socket.destroy();
      resolve(err !== null);
    });
    socket.on('error', () => {});
  });
}

describe('outbound address policy', () => {
  it('refuses loopback, private, link-local, unique-local, CGNAT, metadata and mapped forms for production; nothing for development', () => {
    for (const [address, range] of REFUSED) {
      assert.equal(refusedRange(address, 'public'), range, address);
      assert.equal(refusedRange(address, 'any'), null, address);
    }
    for (const address of PUBLIC) assert.equal(refusedRange(address, 'public'), null, address);
    assert.equal(policyOf('production'), 'public');
    assert.equal(policyOf('development'), 'any');
  });

  it('gives the same verdict as request-filtering-agent, which enforces it on each connection', async () => {
    for (const address of [...PUBLIC, ...REFUSED.map(([a]) => a)]) {
      assert.equal(await agentRefuses(address), refusedRange(address, 'public') !== null, address);
    }
  });
});

describe('outbound client', () => {
  let server: Server;
  let port: number;
  let connections = 0;
  let requests = 0;
  before(async () => {
    server = createServer((_req, res) => {
      requests += 1;
      res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' }).end('internal answer');
    });
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const options = (policy: OutboundOptions['policy'], lookup?: LookupFunction): OutboundOptions => ({
    policy,
    connectTimeoutMs: 2000,
    readTimeoutMs: 2000,
    keepBytes: 1024,
    maxBytes: 4096,
    ...(lookup ? { lookup } : {}),
  });

  it('refuses, for the public policy, a name that resolves to loopback, before any connection', async () => {
    const dns = fakeDns({ 'rebind.example': '127.0.0.1', 'split.example': ['93.184.215.14', '127.0.0.1'] });
    const before = connections;
    for (const url of [
      `http://rebind.example:${port}/`,
      `https://rebind.example:${port}/`,
      `http://split.example:${port}/`,
      `http://localhost:${port}/`,
      `http://127.0.0.1:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
    ]) {
      const result = await outboundRequest(url, { ...options('public', dns.lookup), method: 'POST', body: '{}' });
      assert.equal(result.error, 'refused_address', url);
      assert.deepEqual([result.statusCode, result.body, result.remoteAddress], [null, null, null], url);
      assert.match(result.errorMessage ?? '', /\(loopback\)|IPv4-mapped 127\.0\.0\.1/, url);
      assert.match(result.errorMessage ?? '', /public addresses/, url);
    }
    assert.equal(connections, before, 'no connection reached the loopback server');
    assert.ok(!dns.asked.includes('127.0.0.1'), 'a literal address is refused without a lookup');
  });

  it('reaches loopback for the any policy, keeps the body and the address, and follows no redirect', async () => {
    const before = requests;
    const result = await outboundRequest(`http://localhost:${port}/`, options('any', fakeDns({ localhost: '127.0.0.1' }).lookup));
    assert.deepEqual([result.error, result.statusCode, result.remoteAddress], [null, 302, '127.0.0.1']);
    assert.equal(result.body?.toString(), 'internal answer');
    assert.equal(requests, before + 1);
  });

  it('registration: refuses a literal or resolved non-public address; lets a name that does not resolve pass', async () => {
    const dns = fakeDns({ 'metadata.example': '169.254.169.254', 'public.example': '93.184.215.14' });
    const refusal = await checkDestination('https://metadata.example/x', 'public', { lookup: dns.lookup });
    assert.deepEqual(
      { ...refusal, message: undefined },
      { host: 'metadata.example', address: '169.254.169.254', range: 'linkLocal', message: undefined },
    );
    assert.equal(
      refusal!.message,
      'metadata.example resolves to 169.254.169.254 (link-local); a production application reaches only public addresses.',
    );
    assert.equal((await checkDestination('https://[fd00:ec2::254]/', 'public'))?.range, 'uniqueLocal');
    assert.equal(await checkDestination('https://public.example/', 'public', { lookup: dns.lookup }), null);
    assert.equal(await checkDestination('https://127.0.0.1/', 'any'), null);
    const failing = ((_h, _o, cb) => cb(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), '', 4)) as LookupFunction;
    assert.equal(await checkDestination('https://nowhere.example/', 'public', { lookup: failing }), null);
    const silent = (() => undefined) as LookupFunction;
    assert.equal(await checkDestination('https://slow.example/', 'public', { lookup: silent, timeoutMs: 50 }), null);
  });
});
