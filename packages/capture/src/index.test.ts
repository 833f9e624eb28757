import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

describe('@svc/capture in Node', () => {
  it('imports without touching window, document or any other DOM global', async () => {
    const touched: string[] = [];
    const globals = ['window', 'document', 'location', 'navigator', 'customElements', 'HTMLFormElement', 'MutationObserver', 'CustomEvent'];
    const saved = globals.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)] as const);
    for (const name of globals) {
      Object.defineProperty(globalThis, name, {
        configurable: true,
        get() {
          touched.push(name);
          throw new Error(`${name} touched at import time`);
        },
      });
    }
    try {
      const capture = await import('./index.js');
      assert.equal(typeof capture.attachCapture, 'function');
      assert.equal(typeof capture.autoAttach, 'function');
      assert.equal(capture.TOKEN_FIELD, 'svc_capture_token');
      assert.equal(capture.SNAPSHOT_MAX_BYTES, 16384);
    } finally {
      for (const [name, descriptor] of saved) {
        if (descriptor) Object.defineProperty(globalThis, name, descriptor);
        else delete (globalThis as Record<string, unknown>)[name];
      }
    }
    assert.deepEqual(touched, []);
  });

  it('refuses a non-form with invalid_options instead of reaching for the DOM', async () => {
    const { attachCapture, CaptureError } = await import('./index.js');
    assert.throws(
      () => attachCapture({} as HTMLFormElement, { flowId: 'flw_1', publishableKey: 'pk_test_1', baseUrl: 'http://127.0.0.1:4010' }),
      (error: unknown) => error instanceof CaptureError && error.code === 'invalid_options',
    );
  });
});
