// GET /api/v1/flows/{id}/render against a running server: presentation, notice hash, the render proof and who may ask.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { startTestServer, type TestServer } from '../../testing.js';
import { getActiveFlowVersion } from '../../platform/flows/store.js';
import { noticeDigest } from '../receipts/notice.js';
import { captureFlowConfig, createActiveFlow, expectError, originOf, render, renderRequest } from '../captures/test-support.js';

describe('GET /api/v1/flows/{id}/render', () => {
  let server: TestServer;
  let flowId: string;
  before(async () => {
    server = await startTestServer();
    flowId = await createActiveFlow(server);
  });
  after(() => server.dispose());

  it('answers the presentation, the privacy_notice hash and a render proof', async () => {
    const body = await render(server, flowId);
    assert.equal(body.flow_id, flowId);
    assert.equal(body.version, 1);
    assert.equal(body.locale, 'en');
    assert.equal(body.title, 'Signup consent');
    assert.equal(body.description, 'Consent asked in the signup form.');
    assert.equal(body.policy_url, 'https://example.com/privacy');
    assert.deepEqual(
      body.purposes.map((p) => [p.key, p.basis, p.mechanism, p.required]),
      [
        ['newsletter', 'consent', 'explicit', false],
        ['partners', 'consent', 'explicit', false],
        ['analytics', 'legitimate_interest', 'opt_out', false],
        ['service', 'contract', 'notice', true],
      ],
    );
    assert.equal(body.purposes[0]!.label, 'Email newsletter');
    assert.equal(body.purposes[0]!.description, 'A monthly email about new features.');
    assert.equal(body.notice_hash, noticeDigest(getActiveFlowVersion(server.context, flowId)!));
    assert.match(body.notice_hash, /^sha256:[0-9a-f]{64}$/);
    assert.match(body.render_proof, /^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('signs the proof with a key of the JWKS, binding application, flow, version, origin, notice hash, times and an id', async () => {
    const body = await render(server, flowId);
    const header = decodeProtectedHeader(body.render_proof);
    assert.equal(header.alg, 'ES256');
    assert.equal(header.typ, 'svc-render-proof+jwt');
    const jwks = (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as JSONWebKeySet;
    assert.ok(
      jwks.keys.some((k) => k.kid === header.kid),
      'kid is published',
    );
    const { payload } = await jwtVerify(body.render_proof, createLocalJWKSet(jwks), { typ: 'svc-render-proof+jwt' });
    assert.equal(payload.application_id, server.sandbox.application_id);
    assert.equal(payload.flow_id, flowId);
    assert.equal(payload.flow_version, 1);
    assert.equal(payload.origin, originOf(server));
    assert.equal(payload.notice_hash, body.notice_hash);
    assert.equal(payload.iss, server.url);
    assert.equal(payload.aud, `${server.url}/api/v1/captures`);
    assert.equal(payload.exp! - payload.iat!, 3600);
    assert.equal(new Date(payload.exp! * 1000).toISOString(), body.render_proof_expires_at);
    assert.match(String(payload.jti), /^rp_/);
    const again = await render(server, flowId);
    const { payload: second } = await jwtVerify(again.render_proof, createLocalJWKSet(jwks));
    assert.notEqual(second.jti, payload.jti, 'each proof has its own id');
  });

  it('reads the server clock for iat', async () => {
    server.advance(7200);
    const body = await render(server, flowId);
    const { payload } = await jwtVerify(
      body.render_proof,
      createLocalJWKSet((await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as JSONWebKeySet),
      {
        currentDate: new Date(server.context.clock.now()),
      },
    );
    assert.ok(Math.abs(payload.iat! * 1000 - server.context.clock.now()) < 5000);
    assert.ok(payload.iat! * 1000 > Date.now() + 7000 * 1000);
  });

  it('is never cached', async () => {
    const res = await renderRequest(server, flowId);
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });

  it('answers CORS for an allowed origin, and its preflight', async () => {
    const res = await renderRequest(server, flowId);
    assert.equal(res.headers.get('access-control-allow-origin'), originOf(server));
    const preflight = await fetch(`${server.url}/api/v1/flows/${flowId}/render`, {
      method: 'OPTIONS',
      headers: { origin: originOf(server), 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-publishable-key' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), originOf(server));
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /X-Publishable-Key/i);
  });

  it('refuses an origin that is not allowed (403, readable by that page so its developer sees why, never with credentials)', async () => {
    const res = await renderRequest(server, flowId, { origin: 'https://evil.example' });
    const refused = await expectError(res, 403, 'origin_not_allowed');
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://evil.example');
    assert.equal(res.headers.get('access-control-allow-credentials'), null);
    assert.match(refused.message, /Allow it with `svc origins add https:\/\/evil\.example --app tp_/, 'says what to do');
  });

  it('refuses a call without a browser origin: the proof binds one', async () => {
    await expectError(await renderRequest(server, flowId, { origin: null }), 403, 'origin_required');
  });

  it('takes a same-origin browser GET (no Origin header, Sec-Fetch-Site: same-origin) as the server origin', async () => {
    const res = await fetch(`${server.url}/api/v1/flows/${flowId}/render`, {
      headers: { 'x-publishable-key': server.sandbox.publishable_key, 'sec-fetch-site': 'same-origin' },
    });
    assert.equal(res.status, 200);
    const { payload } = await jwtVerify(
      ((await res.json()) as { render_proof: string }).render_proof,
      createLocalJWKSet((await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as JSONWebKeySet),
      { currentDate: new Date(server.context.clock.now()) },
    );
    assert.equal(payload.origin, originOf(server));
  });

  it('refuses an API token: render data is for pages', async () => {
    const res = await server.api(`/api/v1/flows/${flowId}/render`, { headers: { origin: originOf(server) } });
    await expectError(res, 403, 'publishable_key_required');
  });

  it('refuses a missing or wrong publishable key (401)', async () => {
    assert.equal((await fetch(`${server.url}/api/v1/flows/${flowId}/render`, { headers: { origin: originOf(server) } })).status, 401);
    assert.equal((await renderRequest(server, flowId, { key: 'pk_test_000000000000000000000000' })).status, 401);
  });

  it('answers 404 for an unknown flow, a draft, and a flow of another application', async () => {
    await expectError(await renderRequest(server, 'flw_dev_nope'), 404, 'flow_not_found');
    const draft = await server.api('/api/v1/flows', {
      method: 'POST',
      json: { flow: { pattern: 'standard', title: 'Draft', config: captureFlowConfig } },
    });
    const draftId = ((await draft.json()) as { flow: { id: string } }).flow.id;
    await expectError(await renderRequest(server, draftId), 404, 'flow_not_found');
    const other = await server.api('/api/v1/applications', { method: 'POST', json: { application: { name: 'Other shop' } } });
    const otherApp = ((await other.json()) as { application: { id: string } }).application.id;
    const otherFlow = await createActiveFlow(server, captureFlowConfig, { application_id: otherApp });
    await expectError(await renderRequest(server, otherFlow), 404, 'flow_not_found');
  });

  it('refuses a flow that is not capturable (422 flow_not_capturable): sign-in, verification or comprehension steps, or no consent duration', async () => {
    // The sandbox demo flow signs in and verifies before the decision; the informed flow asks a comprehension question.
    const demo = await expectError(await renderRequest(server, server.sandbox.flow_id!), 422, 'flow_not_capturable');
    assert.ok(
      demo.errors?.some((e) => /sign_in step/.test(e.message)),
      JSON.stringify(demo),
    );
    assert.ok(
      demo.errors?.some((e) => /verify step/.test(e.message)),
      JSON.stringify(demo),
    );
    const informed = await expectError(await renderRequest(server, server.sandbox.informed_flow_id!), 422, 'flow_not_capturable');
    assert.ok(
      informed.errors?.some((e) => /comprehension_check step/.test(e.message)),
      JSON.stringify(informed),
    );
    const { consent_duration: _d, ...withoutDuration } = captureFlowConfig;
    const flow = await createActiveFlow(server, withoutDuration);
    const body = await expectError(await renderRequest(server, flow), 422, 'flow_not_capturable');
    assert.ok(
      body.errors?.some((e) => /consent_duration/.test(e.message)),
      JSON.stringify(body),
    );
  });

  it('serves the flow wording whatever locale is asked, and says which; refuses a malformed locale (400)', async () => {
    const res = await renderRequest(server, flowId, { query: '?locale=ar' });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { locale: string }).locale, 'en');
    await expectError(await renderRequest(server, flowId, { query: '?locale=<script>' }), 400, 'invalid_parameters');
  });

  it('renders the newest version once a flow publishes another, with its own notice hash', async () => {
    const flow = await createActiveFlow(server);
    const first = await render(server, flow);
    const revised = await server.api(`/api/v1/flows/${flow}/versions`, {
      method: 'POST',
      json: {
        flow: {
          config: {
            ...captureFlowConfig,
            purposes: captureFlowConfig.purposes.map((p) => (p.key === 'newsletter' ? { ...p, label: 'Weekly newsletter' } : p)),
          },
        },
      },
    });
    assert.equal(revised.status, 200, await revised.text());
    const second = await render(server, flow);
    assert.equal(second.version, 2);
    assert.notEqual(second.notice_hash, first.notice_hash);
    assert.equal(second.purposes[0]!.label, 'Weekly newsletter');
  });
});
