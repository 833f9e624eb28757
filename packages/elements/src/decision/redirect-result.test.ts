import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readRedirectResult } from './redirect-result.js';

describe('readRedirectResult', () => {
  it('reads an arrival without error as completed, and never as verified', () => {
    assert.deepEqual(readRedirectResult('https://shop.example/back'), { outcome: 'completed', error: null, verified: false });
    // The organisation's own parameters are its own business.
    assert.deepEqual(readRedirectResult(new URL('https://shop.example/back?order=7')), {
      outcome: 'completed',
      error: null,
      verified: false,
    });
  });

  it('reads error=access_denied as declined and any other error as failed', () => {
    assert.deepEqual(readRedirectResult('https://shop.example/back?order=7&error=access_denied'), {
      outcome: 'declined',
      error: 'access_denied',
      verified: false,
    });
    assert.deepEqual(readRedirectResult('https://shop.example/back?error=server_error'), {
      outcome: 'failed',
      error: 'server_error',
      verified: false,
    });
  });

  it('needs a URL on the server side, where there is no location', () => {
    assert.throws(() => readRedirectResult(), TypeError);
  });
});
