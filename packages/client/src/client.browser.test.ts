// The client's browser entry in Chromium, against a reference server that lists this page's origin as allowed
// (started by packages/client/test/wtr-sandbox-plugin.mjs).
import { expect } from '@open-wc/testing';
import {
  connect,
  createClient,
  createDecision,
  SvcNetworkError,
  SvcNotFoundError,
  SvcValidationError,
  type SvcError,
} from './index.js';

interface Sandbox {
  base_url: string;
  publishable_key: string;
  flow_id: string;
  application_id: string;
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
      svc.decisions.create({ kind: 'consent', subject_ref: sandbox.flow_id, delivery_mode: 'embed', embed_origin: 'https://elsewhere.example' }),
      SvcValidationError,
    );
    expect(err.status).to.equal(422);
    expect(err.errors.map((e) => e.path)).to.include('embed_origin');
  });

  it('reads a 404 for an unknown flow as SvcNotFoundError', async () => {
    const svc = createClient({ baseUrl: sandbox.base_url, publishableKey: sandbox.publishable_key });
    await rejection(svc.decisions.create({ kind: 'consent', subject_ref: 'flw_dev_nothing', delivery_mode: 'popup' }), SvcNotFoundError);
  });

  it('cannot use a server credential from a page: CORS blocks it, which surfaces as SvcNetworkError', async () => {
    const svc = createClient({ baseUrl: sandbox.base_url, apiToken: 'a-server-token-in-a-page', maxRetries: 0 });
    const err = await rejection(svc.me(), SvcNetworkError);
    expect(err.message).to.match(/^GET \/api\/v1\/me got no response: /);
  });
});
