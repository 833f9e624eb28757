// Publishable keys sit in page source, so anyone can send with one: their requests are limited per application and
// client address, and per application; a refused request stores nothing, and no other application notices.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../testing.js';
import { originOf } from '../../consent/captures/test-support.js';
import { afterWaiting, assertLimited, captureAs, ownApplication, stored, type OwnApplication } from './test-support.js';

const perAddress = { name: 'publishable_address', limit: 3, windowSeconds: 60 };
const perApplication = { name: 'publishable_application', limit: 5, windowSeconds: 60 };

describe('publishable-key rate limits', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({
      rateLimits: {
        publishableAddress: { limit: perAddress.limit, windowSeconds: perAddress.windowSeconds },
        publishableApplication: { limit: perApplication.limit, windowSeconds: perApplication.windowSeconds },
        trustedProxies: 1, // so that the test can speak from several addresses
      },
    });
  });
  after(() => server.dispose());

  it('answers 429 with Retry-After and RateLimit headers once one address sends an application more than its limit, storing nothing', async () => {
    const shop = await ownApplication(server, 'Shop');
    for (let i = 0; i < perAddress.limit; i += 1) {
      const res = await captureAs(server, shop, { forwardedFor: '203.0.113.7' });
      assert.equal(res.status, 201, await res.text());
      assert.equal(
        res.headers.get('ratelimit-policy'),
        '"publishable_address";q=3;w=60, "publishable_application";q=5;w=60',
        'a counted answer names its policies',
      );
      assert.match(res.headers.get('ratelimit') ?? '', new RegExp(`^"publishable_address";r=${perAddress.limit - i - 1};t=\\d+$`));
    }
    const before = stored(server);
    const refused = await captureAs(server, shop, { forwardedFor: '203.0.113.7', idempotencyKey: 'refused-capture-1' });
    assert.equal(refused.headers.get('access-control-allow-origin'), originOf(server), 'the page can read the 429');
    assert.match(refused.headers.get('access-control-expose-headers') ?? '', /Retry-After/);
    await assertLimited(refused, perAddress);
    assert.deepEqual(stored(server), before, 'no capture, decision, audit event or idempotency key was written');

    // Every other call of the key counts too: render data and decision creation are refused alike.
    const render = await fetch(`${server.url}/api/v1/flows/${shop.flowId}/render`, {
      headers: { 'x-publishable-key': shop.key, origin: originOf(server), 'x-forwarded-for': '203.0.113.7' },
    });
    await assertLimited(render, perAddress);
    const decision = await fetch(`${server.url}/api/v1/decisions`, {
      method: 'POST',
      headers: { 'x-publishable-key': shop.key, 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' },
      body: JSON.stringify({ kind: 'consent', subject_ref: shop.flowId, delivery_mode: 'popup' }),
    });
    await assertLimited(decision, perAddress);
    assert.deepEqual(stored(server), before);

    const elsewhere = await captureAs(server, shop, { forwardedFor: '198.51.100.20' });
    assert.equal(elsewhere.status, 201, 'another address of the same application is not limited by this one');
  });

  it("limits an application's requests from every address together, and never slows another application", async () => {
    const busy = await ownApplication(server, 'Busy');
    const quiet = await ownApplication(server, 'Quiet');
    for (let i = 0; i < perApplication.limit; i += 1) {
      const res = await captureAs(server, busy, { forwardedFor: `192.0.2.${i + 1}` });
      assert.equal(res.status, 201, await res.text());
    }
    const before = stored(server);
    await assertLimited(await captureAs(server, busy, { forwardedFor: '192.0.2.99' }), perApplication);
    assert.deepEqual(stored(server), before, 'the refused capture stored nothing');

    for (const forwardedFor of ['192.0.2.1', '192.0.2.99']) {
      const res = await captureAs(server, quiet, { forwardedFor });
      assert.equal(res.status, 201, `another application from ${forwardedFor} is unaffected`);
    }
  });

  it('lets the address and the application send again once the window has passed', async () => {
    const shop = await ownApplication(server, 'Again');
    for (let i = 0; i < perAddress.limit; i += 1)
      assert.equal((await captureAs(server, shop, { forwardedFor: '203.0.113.50' })).status, 201);
    const retryAfter = await assertLimited(await captureAs(server, shop, { forwardedFor: '203.0.113.50' }), perAddress);
    const res = await afterWaiting(retryAfter, () => captureAs(server, shop, { forwardedFor: '203.0.113.50' }));
    assert.equal(res.status, 201, await res.text());
  });

  it('holds the hosted flow link, which anyone can follow, to its application key limits', async () => {
    const linked = await ownApplication(server, 'Linked');
    const follow = () =>
      fetch(`${server.url}/accord/${linked.flowId}`, { redirect: 'manual', headers: { 'x-forwarded-for': '203.0.113.80' } });
    for (let i = 0; i < perAddress.limit; i += 1) assert.equal((await follow()).status, 303);
    const before = stored(server);
    await assertLimited(await follow(), perAddress);
    assert.deepEqual(stored(server), before, 'no decision was opened');
  });

  it('counts the socket address, not X-Forwarded-For, unless the server is told it sits behind a proxy', async () => {
    const direct = await startTestServer({ rateLimits: { publishableAddress: { limit: 2, windowSeconds: 60 } } });
    try {
      const app = await ownApplication(direct, 'Direct');
      for (const forwardedFor of ['203.0.113.1', '203.0.113.2']) assert.equal((await captureAs(direct, app, { forwardedFor })).status, 201);
      await assertLimited(await captureAs(direct, app, { forwardedFor: '203.0.113.3' }), {
        name: 'publishable_address',
        limit: 2,
        windowSeconds: 60,
      });
    } finally {
      await direct.dispose();
    }
  });
});
