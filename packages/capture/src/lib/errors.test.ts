import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CaptureError } from './errors.js';

describe('CaptureError', () => {
  it('carries a stable code, the HTTP status, the body and the cause', () => {
    const cause = new TypeError('Failed to fetch');
    const error = new CaptureError('http_422', 'Purpose "newsletter" is refused', { status: 422, body: { message: 'x' }, cause });
    assert.equal(error.name, 'CaptureError');
    assert.equal(error.code, 'http_422');
    assert.equal(error.status, 422);
    assert.equal(error.cause, cause);
    assert.ok(error instanceof Error);
    assert.deepEqual(error.toDetail(), {
      code: 'http_422',
      message: 'Purpose "newsletter" is refused',
      status: 422,
      body: { message: 'x' },
    });
  });

  it('leaves status and body out of the event detail when there are none', () => {
    assert.deepEqual(new CaptureError('timeout', 'slow').toDetail(), { code: 'timeout', message: 'slow' });
    assert.equal('cause' in new CaptureError('timeout', 'slow'), false);
  });
});
