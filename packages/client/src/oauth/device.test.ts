// The device grant's polling against a fake token endpoint: it waits the server's interval, five seconds more
// after each slow_down, and stops at approval, denial or expiry.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as oauth from 'oauth4webapi';
import { json, loopback, type Loopback } from '../testing/servers.test.helper.js';
import { SvcOAuthError } from './errors.js';
import { pollDeviceAuthorization, type DeviceAuthorization, type PollTiming } from './device.js';
import type { Issuer } from './issuer.js';

/** A clock that only moves when the loop sleeps, recording each wait. */
function fakeTiming() {
  let now = 0;
  const waits: number[] = [];
  const timing: PollTiming = {
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
    now: () => now,
  };
  return { timing, waits };
}

describe('pollDeviceAuthorization', () => {
  let server: Loopback;
  let answers: [number, object][] = [];
  let issuer: Issuer;
  const started = (interval: number, expiresIn = 600): DeviceAuthorization => ({
    userCode: 'WDJB-MJHT',
    verificationUri: 'http://x/device',
    verificationUriComplete: undefined,
    expiresIn,
    interval,
    deviceCode: 'dc_1',
  });

  before(async () => {
    server = await loopback((_req, res, attempt) => {
      const [status, body] = answers[Math.min(attempt - 1, answers.length - 1)]!;
      json(res, status, body, { 'cache-control': 'no-store' });
    });
    issuer = { as: { issuer: server.url, token_endpoint: `${server.url}/token` }, options: { [oauth.allowInsecureRequests]: true } };
  });
  after(() => server.close());

  it('waits the interval between polls, five seconds more after each slow_down, and answers the tokens', async () => {
    server.requests.length = 0;
    answers = [
      [400, { error: 'authorization_pending' }],
      [400, { error: 'slow_down' }],
      [400, { error: 'authorization_pending' }],
      [200, { access_token: 'at_1', token_type: 'Bearer', expires_in: 3600, refresh_token: 'rt_1' }],
    ];
    const { timing, waits } = fakeTiming();
    const tokens = await pollDeviceAuthorization(issuer, { clientId: 'oc_1' }, started(2), { timing });
    assert.equal(tokens.access_token, 'at_1');
    assert.equal(tokens.refresh_token, 'rt_1');
    assert.deepEqual(waits, [2000, 2000, 7000, 7000]);
    const body = new URLSearchParams(server.requests[0]!.body);
    assert.equal(body.get('grant_type'), 'urn:ietf:params:oauth:grant-type:device_code');
    assert.equal(body.get('device_code'), 'dc_1');
    assert.equal(body.get('client_id'), 'oc_1', 'a public client names itself in the body');
  });

  it('authenticates a confidential client with client_secret_basic', async () => {
    server.requests.length = 0;
    answers = [[200, { access_token: 'at_2', token_type: 'bearer' }]];
    await pollDeviceAuthorization(issuer, { clientId: 'oc_2', clientSecret: 'ocs_s' }, started(5), { timing: fakeTiming().timing });
    const basic = Buffer.from(String(server.requests[0]!.headers.authorization).replace(/^Basic /, ''), 'base64').toString();
    // Each half is form-encoded first (RFC 6749 section 2.3.1), so `_` travels as %5F.
    assert.deepEqual(basic.split(':').map(decodeURIComponent), ['oc_2', 'ocs_s']);
  });

  it('stops at a denial with SvcOAuthError access_denied', async () => {
    answers = [
      [400, { error: 'authorization_pending' }],
      [400, { error: 'access_denied', error_description: 'The person said no.' }],
    ];
    await assert.rejects(
      pollDeviceAuthorization(issuer, { clientId: 'oc_1' }, started(5), { timing: fakeTiming().timing }),
      (err: unknown) => err instanceof SvcOAuthError && err.reason === 'access_denied' && err.status === 400,
    );
  });

  it('stops with expired_token when the next poll would come after the codes expire', async () => {
    server.requests.length = 0;
    answers = [[400, { error: 'authorization_pending' }]];
    const { timing, waits } = fakeTiming();
    await assert.rejects(
      pollDeviceAuthorization(issuer, { clientId: 'oc_1' }, started(5, 12), { timing }),
      (err: unknown) => err instanceof SvcOAuthError && err.reason === 'expired_token',
    );
    assert.deepEqual(waits, [5000, 5000]);
    assert.equal(server.requests.length, 2);
  });
});
