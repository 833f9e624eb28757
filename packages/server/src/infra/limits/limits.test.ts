// The limits' configuration: the store behind our interface (a deployment passes its shared one), client address
// keys, SVC_RATE_LIMITS, and `rateLimits: false`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { startTestServer } from '../../testing.js';
import { addressKey } from './address.js';
import { fromRateLimiterFlexible, type LimiterStore, type Policy } from './limiter.js';
import { createRateLimits, DEFAULT_RATE_LIMITS, rateLimitsFromEnv } from './policies.js';

describe('request limit configuration', () => {
  it('counts through the store a deployment passes (any rate-limiter-flexible limiter, e.g. its Redis or PostgreSQL one)', async () => {
    const made: Policy[] = [];
    const keys: string[] = [];
    const store: LimiterStore = (policy) => {
      made.push(policy);
      const limiter = fromRateLimiterFlexible(policy, new RateLimiterMemory({ points: policy.limit, duration: policy.windowSeconds }));
      return {
        policy,
        consume: (key) => (keys.push(`${policy.name} ${key}`), limiter.consume(key)),
        peek: (key) => limiter.peek(key),
      };
    };
    const server = await startTestServer({ countries: ['US', 'DE'], rateLimits: { store, failedAuth: { limit: 1, windowSeconds: 60 } } });
    try {
      assert.deepEqual(made.map((p) => p.name).sort(), ['anonymous', 'failed_auth', 'publishable_address', 'publishable_application']);
      assert.equal(made.length, 4, "one limiter per policy, shared by the server's cells");
      assert.equal((await server.api('/api/v1/me', { headers: { authorization: 'Bearer wrong' } })).status, 401);
      assert.deepEqual(keys, ['failed_auth 127.0.0.1']);
      const DE = Object.values(server.cells).find((cell) => cell.country === 'DE')!;
      const res = await fetch(`${DE.url}/api/v1/me`, { headers: { authorization: 'Bearer wrong' } });
      assert.equal(res.status, 429, "another cell of the same server shares the address's count");
    } finally {
      await server.dispose();
    }
  });

  it('turns every limit off with rateLimits: false', async () => {
    const server = await startTestServer({ rateLimits: false });
    try {
      for (let i = 0; i < DEFAULT_RATE_LIMITS.failedAuth.limit + 5; i += 1) {
        assert.equal((await server.api('/api/v1/me', { headers: { authorization: `Bearer wrong-${i}` } })).status, 401);
      }
    } finally {
      await server.dispose();
    }
  });

  it('keys an IPv4-mapped address as its IPv4 and an IPv6 address by its /64', () => {
    assert.equal(addressKey('::ffff:192.0.2.1'), '192.0.2.1');
    assert.equal(addressKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
    assert.equal(addressKey('2001:db8:1:2:bbbb::9'), addressKey('2001:db8:1:2:aaaa::1'));
    assert.notEqual(addressKey('2001:db8:1:3::1'), addressKey('2001:db8:1:2::1'));
  });

  it('reads SVC_RATE_LIMITS and SVC_TRUSTED_PROXIES', () => {
    assert.equal(rateLimitsFromEnv({ SVC_RATE_LIMITS: 'off' }), false);
    assert.deepEqual(rateLimitsFromEnv({}), {});
    assert.deepEqual(rateLimitsFromEnv({ SVC_RATE_LIMITS: 'failed_auth=20/60, anonymous=off,api_token=off', SVC_TRUSTED_PROXIES: '1' }), {
      failedAuth: { limit: 20, windowSeconds: 60 },
      anonymous: false,
      apiTokens: false,
      trustedProxies: 1,
    });
    assert.throws(() => rateLimitsFromEnv({ SVC_RATE_LIMITS: 'captures=10' }), /SVC_RATE_LIMITS/);
    assert.throws(() => rateLimitsFromEnv({ SVC_RATE_LIMITS: 'anonymous=0/60' }), /whole numbers/);
  });

  it('refuses limits that are not whole positive numbers', () => {
    assert.throws(() => createRateLimits({ anonymous: { limit: 10, windowSeconds: 0.5 } }), /whole numbers/);
    assert.throws(() => createRateLimits({ trustedProxies: -1 }), /trustedProxies/);
    assert.equal(createRateLimits(false), undefined);
  });
});
