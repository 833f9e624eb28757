import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProtocolError, ProtocolErrorCode } from './errors.js';

describe('ProtocolError', () => {
  it('is an Error with a name, a stable code and the cause passed through', () => {
    const cause = new TypeError('underlying');
    const error = new ProtocolError(ProtocolErrorCode.InvalidOrigin, 'bad origin', { cause });
    assert.ok(error instanceof Error);
    assert.equal(error.name, 'ProtocolError');
    assert.equal(error.code, 'invalid_origin');
    assert.equal(error.message, 'bad origin');
    assert.equal(error.cause, cause);
    assert.match(String(error.stack), /^ProtocolError: bad origin/);
  });

  it('keeps its codes stable, since callers switch on them', () => {
    assert.deepEqual(ProtocolErrorCode, {
      InvalidOrigin: 'invalid_origin',
      InvalidMessage: 'invalid_message',
      InvalidOptions: 'invalid_options',
      KindUnknown: 'kind_unknown',
      Disposed: 'disposed',
    });
  });
});
