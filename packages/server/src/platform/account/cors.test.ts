import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ActivityEvent, AllowedOrigin } from '@svc/schemas';
import { startTestServer, type TestServer } from '../../testing.js';

type Body = { message: string; code?: string };

describe('CORS for publishable-key browser calls', () => {
  let server: TestServer;
  let other: { id: string; key: string };
  const shop = 'https://shop.example.com';
  const partner = 'https://partner.example.net';

  const preflight = (origin: string, path = '/api/v1/decisions', headers = 'content-type,x-publishable-key') =>
    fetch(`${server.url}${path}`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers },
    });
  const activity = async (appId: string) =>
    (
      (await (await server.api(`/api/v1/applications/${appId}/activity?type=cors.preflight_denied&limit=100`)).json()) as {
        activity_events: ActivityEvent[];
      }
    ).activity_events;
  const origins = async (appId: string) =>
    ((await (await server.api(`/api/v1/applications/${appId}/allowed_origins`)).json()) as { allowed_origins: AllowedOrigin[] })
      .allowed_origins;

  before(async () => {
    server = await startTestServer();
    await server.api(`/api/v1/applications/${server.sandbox.application_id}/allowed_origins`, {
      method: 'POST',
      json: { allowed_origin: { origin: shop } },
    });
    const res = await server.api('/api/v1/applications', { method: 'POST', json: { application: { name: 'Partner' } } });
    const created = (await res.json()) as { application: { id: string }; publishable_key: string };
    other = { id: created.application.id, key: created.publishable_key };
    await server.api(`/api/v1/applications/${other.id}/allowed_origins`, { method: 'POST', json: { allowed_origin: { origin: partner } } });
  });
  after(() => server.dispose());

  it('answers a preflight from an allowed origin with the exact origin, never *, and records last_seen_at', async () => {
    const before = (await origins(server.sandbox.application_id)).find((o) => o.origin === shop);
    assert.equal(before?.last_seen_at, null);
    const res = await preflight(shop);
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), shop);
    assert.match(res.headers.get('vary') ?? '', /Origin/);
    const allowHeaders = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(',');
    assert.deepEqual(allowHeaders.sort(), ['authorization', 'content-type', 'idempotency-key', 'x-publishable-key', 'x-svc-render-proof']);
    assert.match(res.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.equal(res.headers.get('access-control-allow-credentials'), null);
    const after = (await origins(server.sandbox.application_id)).find((o) => o.origin === shop);
    const seen = Date.parse(after?.last_seen_at ?? '');
    assert.ok(seen <= server.context.clock.now() && seen > server.context.clock.now() - 5000, 'stamped by the server clock just now');
  });

  it('lets a browser client read the deprecation, rate-limit and answering-country headers', async () => {
    const res = await fetch(`${server.url}/api/v1/consent_sessions`, {
      method: 'POST',
      headers: { origin: shop, 'x-publishable-key': server.sandbox.publishable_key, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'consent', subject_ref: server.sandbox.flow_id, delivery_mode: 'redirect' }),
    });
    assert.equal(res.headers.get('access-control-allow-origin'), shop);
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(',').sort();
    assert.deepEqual(exposed, ['deprecation', 'link', 'ratelimit', 'ratelimit-policy', 'retry-after', 'sunset', 'svc-country']);
    assert.ok(res.headers.get('deprecation'), 'the alias is deprecated');
  });

  it('denies a preflight from an unregistered origin without CORS headers and records it for the related application', async () => {
    const denied = 'http://shop.example.com'; // the https origin is registered: a likely misconfiguration
    const res = await preflight(denied);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
    const events = await activity(server.sandbox.application_id);
    const event = events.find((e) => e.data.origin === denied);
    assert.ok(event, 'a cors.preflight_denied event');
    assert.equal(event.type, 'cors.preflight_denied');
    assert.equal(event.application_id, server.sandbox.application_id);
    assert.equal(event.data.path, '/api/v1/decisions');
    assert.equal(event.data.request_method, 'POST');
    assert.equal((await activity(other.id)).length, 0, 'not written to unrelated applications');
  });

  it('attributes a denied preflight to the flow its path names', async () => {
    const res = await preflight('https://stranger.example', `/api/v1/flows/${server.sandbox.flow_id}/other`);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
    const events = await activity(server.sandbox.application_id);
    assert.ok(events.some((e) => e.data.origin === 'https://stranger.example'));
  });

  it("lets the consent field's page read why its origin is refused: render preflight answered, 403 readable", async () => {
    const stranger = 'https://field.stranger.example';
    const path = `/api/v1/flows/${server.sandbox.flow_id}/render`;
    const pre = await preflight(stranger, path);
    assert.equal(pre.headers.get('access-control-allow-origin'), stranger);
    assert.equal(pre.headers.get('access-control-allow-credentials'), null, 'never with credentials');
    const events = await activity(server.sandbox.application_id);
    assert.ok(
      events.some((e) => e.type === 'cors.preflight_denied' && e.data.origin === stranger),
      'still recorded as denied',
    );
    const res = await fetch(`${server.url}${path}`, { headers: { origin: stranger, 'x-publishable-key': server.sandbox.publishable_key } });
    assert.equal(res.status, 403);
    assert.equal(res.headers.get('access-control-allow-origin'), stranger);
    assert.equal(res.headers.get('access-control-allow-credentials'), null);
    assert.match(res.headers.get('vary') ?? '', /Origin/);
    const body = (await res.json()) as Body;
    assert.equal(body.code, 'origin_not_allowed');
    assert.match(body.message, new RegExp(`svc origins add ${stranger.replace(/\./g, '\\.')} --app ${server.sandbox.application_id}`));
    assert.equal((await preflight('null', path)).headers.get('access-control-allow-origin'), null, 'not for the "null" origin');
  });

  it('counts an unattributable denial in /metrics only', async () => {
    const before = server.context.metrics.value('cors.preflight_denied_total');
    await preflight('https://nobody.invalid');
    assert.equal(server.context.metrics.value('cors.preflight_denied_total'), before + 1);
    for (const app of [server.sandbox.application_id, other.id]) {
      assert.equal(
        (await activity(app)).some((e) => e.data.origin === 'https://nobody.invalid'),
        false,
      );
    }
  });

  it('records one event per origin per minute, so a flood cannot fill the log', async () => {
    const origin = 'https://www.shop.example.com';
    for (let i = 0; i < 5; i++) await preflight(origin);
    assert.equal((await activity(server.sandbox.application_id)).filter((e) => e.data.origin === origin).length, 1);
    server.advance(61);
    await preflight(origin);
    assert.equal((await activity(server.sandbox.application_id)).filter((e) => e.data.origin === origin).length, 2);
  });

  it('caps denials per application per minute, however many distinct origins a flood uses', async () => {
    server.advance(61);
    const long = `https://${'a'.repeat(400)}.shop.example.com`;
    for (let i = 0; i < 3; i++) await preflight(long);
    await Promise.all(Array.from({ length: 80 }, (_, i) => preflight(`https://flood${i}.shop.example.com`)));
    const since = server.context.clock.now() - 60_000;
    const recent = (await activity(server.sandbox.application_id)).filter((e) => Date.parse(e.created_at) > since);
    assert.equal(recent.filter((e) => String(e.data.origin).startsWith('https://aaa')).length, 1, 'a long origin is deduplicated too');
    assert.equal(recent.length, 60);
  });

  it("echoes the exact origin on the actual request of the key's own application, errors included", async () => {
    const res = await fetch(`${server.url}/api/v1/flows`, {
      headers: { origin: shop, 'x-publishable-key': server.sandbox.publishable_key },
    });
    assert.equal(res.status, 403, 'listing flows is not a publishable-key ability');
    assert.equal(((await res.json()) as Body).code, 'publishable_key_not_allowed');
    assert.equal(res.headers.get('access-control-allow-origin'), shop);
    assert.match(res.headers.get('vary') ?? '', /Origin/);
  });

  it("lets a page on an allowed origin read that its person's token was refused (401, not a network error), and no other page", async () => {
    const refused = await fetch(`${server.url}/api/v1/inbox`, { headers: { origin: shop, authorization: 'Bearer not-a-token' } });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('access-control-allow-origin'), shop);
    assert.match(refused.headers.get('access-control-expose-headers') ?? '', /WWW-Authenticate/);
    assert.equal(refused.headers.get('access-control-allow-credentials'), null);
    const stranger = await fetch(`${server.url}/api/v1/inbox`, {
      headers: { origin: 'https://stranger.example', authorization: 'Bearer not-a-token' },
    });
    assert.equal(stranger.status, 401);
    assert.equal(stranger.headers.get('access-control-allow-origin'), null);
  });

  it('refuses a publishable key from an origin of another application: preflight passes, request is a readable 403', async () => {
    assert.equal((await preflight(partner)).headers.get('access-control-allow-origin'), partner, 'allowed for some application');
    const res = await fetch(`${server.url}/api/v1/flows`, {
      headers: { origin: partner, 'x-publishable-key': server.sandbox.publishable_key },
    });
    assert.equal(res.status, 403);
    const body = (await res.json()) as Body;
    assert.equal(body.code, 'origin_not_allowed');
    assert.match(body.message, /partner\.example\.net/);
    // The page may read its refusal (no credentials are allowed), so its developer sees the code, not "network".
    assert.equal(res.headers.get('access-control-allow-origin'), partner);
    assert.equal(res.headers.get('access-control-allow-credentials'), null);
    const own = await fetch(`${server.url}/api/v1/flows`, { headers: { origin: partner, 'x-publishable-key': other.key } });
    assert.equal(own.headers.get('access-control-allow-origin'), partner);
  });

  it('refuses the "null" origin of sandboxed frames and file pages', async () => {
    const res = await fetch(`${server.url}/api/v1/flows`, {
      headers: { origin: 'null', 'x-publishable-key': server.sandbox.publishable_key },
    });
    assert.equal(res.status, 403);
    assert.equal(((await res.json()) as Body).code, 'origin_not_allowed');
    assert.equal((await preflight('null')).headers.get('access-control-allow-origin'), null);
  });

  it('gives API-token calls no CORS headers, whatever their Origin', async () => {
    const res = await server.api('/api/v1/me', { headers: { origin: shop } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
    assert.equal(res.headers.get('access-control-expose-headers'), null);
  });

  it("refuses an API token in a browser's cross-origin call before it does anything", async () => {
    const before = (await (await server.api('/api/v1/api_tokens')).json()) as { api_tokens: unknown[] };
    const res = await server.api('/api/v1/api_tokens', {
      method: 'POST',
      headers: { origin: shop, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' },
      json: { api_token: { name: 'from a page' } },
    });
    assert.equal(res.status, 403);
    assert.equal(((await res.json()) as Body).code, 'api_token_in_browser');
    const after = (await (await server.api('/api/v1/api_tokens')).json()) as { api_tokens: unknown[] };
    assert.equal(after.api_tokens.length, before.api_tokens.length);
  });

  it("lets a preflight ask for Authorization (a person's access token from a single-page app)", async () => {
    const res = await fetch(`${server.url}/api/v1/me`, {
      method: 'OPTIONS',
      headers: { origin: shop, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    assert.equal(res.headers.get('access-control-allow-origin'), shop);
    assert.ok((res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(',').includes('authorization'));
  });

  it("lets a publishable key without Origin (not a browser) through to the route's own rules", async () => {
    const res = await fetch(`${server.url}/api/v1/flows`, { headers: { 'x-publishable-key': server.sandbox.publishable_key } });
    assert.equal(((await res.json()) as Body).code, 'publishable_key_not_allowed');
  });

  it('ignores the origins of a deactivated application', async () => {
    const res = await server.api('/api/v1/applications', { method: 'POST', json: { application: { name: 'Retired' } } });
    const id = ((await res.json()) as { application: { id: string } }).application.id;
    const retired = 'https://retired.example';
    await server.api(`/api/v1/applications/${id}/allowed_origins`, { method: 'POST', json: { allowed_origin: { origin: retired } } });
    assert.equal((await preflight(retired)).headers.get('access-control-allow-origin'), retired);
    await server.api(`/api/v1/applications/${id}`, { method: 'PATCH', json: { application: { active: false } } });
    assert.equal((await preflight(retired)).headers.get('access-control-allow-origin'), null);
  });
});
