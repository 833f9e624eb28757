// The client's browser entry in every engine, against a reference server that lists this page's origin as allowed
// (started by packages/client/test/wtr-sandbox-plugin.mjs).
import { expect } from '@open-wc/testing';
import {
  connect,
  createClient,
  createDecision,
  SvcAuthenticationError,
  SvcNotFoundError,
  SvcPermissionError,
  SvcValidationError,
  SvcWrongCountryError,
  type SvcError,
} from './index.js';

interface Sandbox {
  base_url: string;
  publishable_key: string;
  flow_id: string;
  application_id: string;
  /** Base URL per country cell: US (the base URL) and DE. */
  countries: Record<string, string>;
}

async function rejection<T extends SvcError>(promise: Promise<unknown>, type: abstract new (...args: never[]) => T): Promise<T> {
  try {
    await promise;
  } catch (err) {
    expect(err, String(err)).to.be.instanceOf(type);
    return err as T;
  }
  throw new Error(`expected ${type.name}, but the call succeeded`);
}

describe('@svc/client in a browser', function () {
  this.timeout(30_000); // the first test waits for the reference server to start
  let sandbox: Sandbox;

  before(async () => {
    const res = await fetch('/__svc__/sandbox.json');
    sandbox = (await res.json()) as Sandbox;
  });

  it('creates an embedded decision with a publishable key from an allowed origin', async () => {
    const svc = createClient({ baseUrl: sandbox.base_url, publishableKey: sandbox.publishable_key });
    const decision = await svc.decisions.create({
      kind: 'consent',
      subject_ref: sandbox.flow_id,
      delivery_mode: 'embed',
      embed_origin: location.origin,
    });
    expect(decision.session_token).to.match(/^dts_/);
    expect(decision.embed_origin).to.equal(location.origin);
    expect(decision.embed_url).to.equal(`${sandbox.base_url}/decisions/${decision.session_token}/embed`);
  });

  it('creates a decision through the standalone function', async () => {
    const page = connect({ baseUrl: sandbox.base_url, publishableKey: sandbox.publishable_key });
    const decision = await createDecision(page, { kind: 'consent', subject_ref: sandbox.flow_id, delivery_mode: 'popup' });
    expect(decision.delivery_mode).to.equal('popup');
  });

  it('reads a 422 across origins as SvcValidationError naming the field', async () => {
    const svc = createClient({ baseUrl: sandbox.base_url, publishableKey: sandbox.publishable_key });
    const err = await rejection(
      svc.decisions.create({
        kind: 'consent',
        subject_ref: sandbox.flow_id,
        delivery_mode: 'embed',
        embed_origin: 'https://elsewhere.example',
      }),
      SvcValidationError,
    );
    expect(err.status).to.equal(422);
    expect(err.errors.map((e) => e.path)).to.include('embed_origin');
  });

  it('reads a 404 for an unknown flow as SvcNotFoundError', async () => {
    const svc = createClient({ baseUrl: sandbox.base_url, publishableKey: sandbox.publishable_key });
    await rejection(svc.decisions.create({ kind: 'consent', subject_ref: 'flw_dev_nothing', delivery_mode: 'popup' }), SvcNotFoundError);
  });

  describe('across country cells', () => {
    // A session token homed in DE (the cells answer for the country an id names, whether or not it exists).
    const token = `dts_de_${'A'.repeat(43)}`;
    /** A fetch that records what the page asked and which cell answered (Svc-Country, exposed by CORS). */
    const recorder = () => {
      const seen: string[] = [];
      const fetch = async (url: string, init: RequestInit) => {
        const response = await globalThis.fetch(url, init);
        seen.push(`${init.method ?? 'GET'} ${url} ${response.status} ${response.headers.get('svc-country')}`);
        return response;
      };
      return { seen, fetch };
    };

    it("re-issues a request the US cell answers 421 at DE, as the US cell's list names it", async () => {
      const { seen, fetch } = recorder();
      const page = connect({ baseUrl: sandbox.base_url, publishableKey: sandbox.publishable_key, fetch });
      // A publishable key may not read a decision: DE's own refusal proves that DE was asked.
      const err = await rejection(page.request({ method: 'GET', path: `/api/v1/decisions/${token}` }), SvcPermissionError);
      expect(seen).to.deep.equal([
        `GET ${sandbox.base_url}/api/v1/decisions/${token} 421 US`,
        `GET ${sandbox.base_url}/api/v1/countries 200 US`,
        `GET ${sandbox.countries.DE}/api/v1/decisions/${token} ${err.status} DE`,
      ]);
    });

    it('fails with SvcWrongCountryError when discovery is off and DE is not configured', async () => {
      const page = connect({ baseUrl: sandbox.base_url, publishableKey: sandbox.publishable_key, discoverCountries: false });
      const err = await rejection(page.request({ method: 'GET', path: `/api/v1/decisions/${token}` }), SvcWrongCountryError);
      expect(err.homeCountry).to.equal('DE');
      expect(err.refusal).to.equal('unknown_country');
    });
  });

  it('reads a credential the service refuses as SvcAuthenticationError on an allowed origin, not as a network error', async () => {
    // A valid API token from a page is refused without CORS headers (403 api_token_in_browser, the server's tests);
    // a token the service does not know is a 401 the page may read, so an element can say "signed out".
    const svc = createClient({ baseUrl: sandbox.base_url, apiToken: 'a-token-the-service-does-not-know', maxRetries: 0 });
    const err = await rejection(svc.me(), SvcAuthenticationError);
    expect(err.status).to.equal(401);
  });
});
