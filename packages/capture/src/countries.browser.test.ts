// askService (the capture helper's and <svc-consent-field>'s one way to the service) in every engine, across origins,
// against a reference server of two country cells, US and DE (started by packages/client/test/wtr-sandbox-plugin.mjs).
import { expect } from '@open-wc/testing';
import { askService, CaptureError } from './index.js';

describe('askService across country cells', function () {
  this.timeout(30_000); // the first test waits for the reference server to start
  let sandbox: { base_url: string; publishable_key: string; countries: Record<string, string> };
  before(async () => {
    sandbox = (await (await fetch('/__svc__/sandbox.json')).json()) as typeof sandbox;
  });
  // A session token homed in DE (the cells answer for the country an id names, whether or not it exists).
  const token = `dts_de_${'A'.repeat(43)}`;

  it("should re-issue what the US cell answers 421 at DE, as the US cell's list names it, once", async () => {
    const seen: string[] = [];
    const fetch = async (url: string, init: RequestInit) => {
      const response = await globalThis.fetch(url, init);
      // Svc-Country: which cell answered (CORS exposes it).
      seen.push(`${url} ${response.status} ${response.headers.get('svc-country')}`);
      return response;
    };
    const headers = { 'x-publishable-key': sandbox.publishable_key };
    const err = await askService(`${sandbox.base_url}/api/v1/decisions/${token}`, { headers }, { timeoutMs: 5000, fetch }).catch(
      (e: unknown) => e,
    );
    // A publishable key may not read a decision: DE's own refusal proves that DE was asked.
    expect(err).to.be.instanceOf(CaptureError).and.include({ code: 'http_403' });
    expect(seen).to.deep.equal([
      `${sandbox.base_url}/api/v1/decisions/${token} 421 US`,
      `${sandbox.base_url}/api/v1/countries 200 US`,
      `${sandbox.countries.DE}/api/v1/decisions/${token} 403 DE`,
    ]);
  });
});
