import assert from 'node:assert/strict';
import { afterEach, describe, it, mock } from 'node:test';
import { define } from './define.js';

class First {}
class Second {}

describe('define', () => {
  afterEach(() => {
    delete (globalThis as { customElements?: unknown }).customElements;
    mock.restoreAll();
  });

  it('does nothing where there is no custom element registry (server side)', () => {
    assert.doesNotThrow(() => define('svc-test', First as unknown as CustomElementConstructor));
  });

  it('defines once, ignores the same class again and warns once for another copy', () => {
    const defined = new Map<string, unknown>();
    (globalThis as { customElements?: unknown }).customElements = {
      get: (tag: string) => defined.get(tag),
      define: (tag: string, constructor: unknown) => {
        if (defined.has(tag)) throw new Error(`${tag} already defined`);
        defined.set(tag, constructor);
      },
    };
    const warn = mock.method(console, 'warn', () => undefined);
    define('svc-test', First as unknown as CustomElementConstructor);
    define('svc-test', First as unknown as CustomElementConstructor);
    assert.equal(warn.mock.callCount(), 0);
    define('svc-test', Second as unknown as CustomElementConstructor);
    assert.equal(defined.get('svc-test'), First);
    assert.equal(warn.mock.callCount(), 1);
    assert.match(String(warn.mock.calls[0]!.arguments[0]), /<svc-test> is already defined/);
  });
});
