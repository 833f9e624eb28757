import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decisionUrls, isSessionToken } from './urls.js';

const TOKEN = `dts_${'a'.repeat(43)}`;

describe('decisionUrls', () => {
  it('builds the embed and full page URLs under the trust URL, keeping a path prefix', () => {
    assert.deepEqual(decisionUrls('https://svc.example', TOKEN), {
      serviceOrigin: 'https://svc.example',
      embed: `https://svc.example/decisions/${TOKEN}/embed`,
      page: `https://svc.example/decisions/${TOKEN}`,
    });
    assert.deepEqual(decisionUrls('http://127.0.0.1:4010/trust/?x=1#y', TOKEN), {
      serviceOrigin: 'http://127.0.0.1:4010',
      embed: `http://127.0.0.1:4010/trust/decisions/${TOKEN}/embed`,
      page: `http://127.0.0.1:4010/trust/decisions/${TOKEN}`,
    });
  });

  it('says what is wrong with a missing or unusable trust URL or token', () => {
    assert.match(decisionUrls(undefined, TOKEN) as string, /No trust URL/);
    assert.match(decisionUrls('svc.example', TOKEN) as string, /absolute URL/);
    assert.match(decisionUrls('javascript:alert(1)', TOKEN) as string, /http\(s\) URL/);
    assert.match(decisionUrls('https://svc.example', 'abc') as string, /dts_/);
    assert.match(decisionUrls('https://svc.example', 'dts_../../admin') as string, /dts_/);
  });

  it('accepts only dts_ tokens of URL-safe characters', () => {
    assert.equal(isSessionToken(TOKEN), true);
    for (const bad of ['', 'dts_', 'dts_a/b', 'dts_a?b', 'dts_a#b', 'dts_a%2Fb', 'pk_test_x', ` ${TOKEN}`]) {
      assert.equal(isSessionToken(bad), false, bad);
    }
  });
});
