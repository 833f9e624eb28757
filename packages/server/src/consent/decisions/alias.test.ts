// The deprecated `/api/v1/consent_sessions` speaks the spec's own shape: the Consent session create request
// (`flow_id` req; `delivery_mode` iframe|popup|redirect|inline; `redirect_uri`; `meeting_id`; `metadata`) and the
// Consent session resource (`id`, `flow_id`, `status`, `delivery_mode`, `embed_url`, `created_at`, `expires_at`,
// `session_token`), whose `status` is always one of the nine consent token statuses.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ConsentSession, consentSessionEnvelope, type Decision } from '@svc/schemas';
import { startTestServer, type TestServer } from '../../testing.js';
import { ALIAS_SUNSET } from './routes.js';
import { allowOrigin, grantStandard, ok } from './test-support.js';

const NINE = ['pending', 'authenticating', 'verifying', 'reviewing', 'informed', 'evidenced', 'fulfilled', 'expired', 'revoked'];

describe('/api/v1/consent_sessions with the Consent session shape', () => {
  let server: TestServer;
  const post = (json: Record<string, unknown>, headers: Record<string, string> = {}) =>
    server.api('/api/v1/consent_sessions', { method: 'POST', json, headers });
  const create = async (json: Record<string, unknown>, headers?: Record<string, string>): Promise<ConsentSession> => {
    const res = await post({ flow_id: server.sandbox.flow_id, ...json }, headers);
    const body = await res.json();
    assert.equal(res.status, 201, JSON.stringify(body));
    return consentSessionEnvelope.parse(body).consent_session;
  };
  const read = async (token: string): Promise<ConsentSession> => {
    const res = await server.api(`/api/v1/consent_sessions/${token}`);
    assert.equal(res.status, 200);
    return consentSessionEnvelope.parse(await res.json()).consent_session;
  };
  const decisionOf = async (token: string) =>
    ((await (await server.api(`/api/v1/decisions/${token}`)).json()) as { decision: Decision }).decision;
  const refusal = async (res: Response) => {
    assert.equal(res.status, 422);
    assert.equal(res.headers.get('sunset'), ALIAS_SUNSET, 'refusals keep the deprecation headers');
    return (await res.json()) as { code: string; message: string; errors: { path: string; code: string }[] };
  };
  const sandboxOrigins = () =>
    server.context.db.prepare('SELECT origin FROM allowed_origins WHERE application_id = ?').pluck().all(server.sandbox.application_id);

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  it("answers the spec's Consent session resource, with Deprecation, Sunset and Link headers", async () => {
    const res = await post({ flow_id: server.sandbox.flow_id, delivery_mode: 'iframe', metadata: { order: 'o-1' } });
    assert.equal(res.status, 201);
    assert.match(res.headers.get('deprecation') ?? '', /^@\d+$/);
    assert.equal(res.headers.get('sunset'), ALIAS_SUNSET);
    assert.equal(res.headers.get('link'), `<${server.url}/api/v1/decisions>; rel="successor-version"`);
    const body = (await res.json()) as { consent_session: Record<string, unknown> };
    const session = body.consent_session;
    for (const field of ['id', 'flow_id', 'status', 'delivery_mode', 'embed_url', 'created_at', 'expires_at', 'session_token']) {
      assert.ok(session[field] !== undefined && session[field] !== null, `${field} is present`);
    }
    assert.equal(session.flow_id, server.sandbox.flow_id);
    assert.equal(session.status, 'pending');
    assert.equal(session.delivery_mode, 'iframe', 'the mode as sent');
    assert.equal(session.embed_url, `${server.context.trustUrl}/decisions/${session.session_token}/embed`);
    assert.deepEqual(session.metadata, { order: 'o-1' });
    assert.equal(res.headers.get('location'), `/api/v1/consent_sessions/${session.session_token}`);
    assert.deepEqual(await read(session.session_token as string), consentSessionEnvelope.parse(body).consent_session);
  });

  it('maps iframe to an embed decision on the application allowed origin; popup and redirect as they are', async () => {
    const origins = sandboxOrigins();
    assert.equal(origins.length, 1, 'the sandbox application has one allowed origin');
    const iframe = await decisionOf((await create({ delivery_mode: 'iframe' })).session_token);
    assert.deepEqual([iframe.kind, iframe.delivery_mode, iframe.embed_origin], ['consent', 'embed', origins[0]]);
    const popup = await create({ delivery_mode: 'popup' });
    assert.equal(popup.delivery_mode, 'popup');
    assert.equal((await decisionOf(popup.session_token)).delivery_mode, 'popup');
    const redirect = await create({ delivery_mode: 'redirect', redirect_uri: `${server.url}/done` });
    assert.deepEqual([redirect.delivery_mode, redirect.redirect_uri], ['redirect', `${server.url}/done`]);
    assert.equal((await decisionOf(redirect.session_token)).delivery_mode, 'redirect');
  });

  it('a page with the publishable key creates an iframe session embedded on its own origin', async () => {
    const [origin] = sandboxOrigins() as string[];
    const session = await create({ delivery_mode: 'iframe' }, { 'x-publishable-key': server.sandbox.publishable_key, origin: origin! });
    assert.equal(session.delivery_mode, 'iframe');
    assert.equal((await decisionOf(session.session_token)).embed_origin, origin);
  });

  it('embeds on the Origin that creates it, checked against the allowed origins', async () => {
    await allowOrigin(server, 'https://shop.example');
    const fromPage = await create({ delivery_mode: 'iframe' }, { origin: 'https://shop.example' });
    assert.equal((await decisionOf(fromPage.session_token)).embed_origin, 'https://shop.example');
    const sent = await create({ delivery_mode: 'iframe', embed_origin: 'https://shop.example' });
    assert.equal((await decisionOf(sent.session_token)).embed_origin, 'https://shop.example');
    const foreign = await refusal(await post({ flow_id: server.sandbox.flow_id, embed_origin: 'https://evil.example' }));
    assert.equal(foreign.code, 'embed_origin_not_allowed');
    // Two allowed origins and nothing to tell which one embeds: refused by name, never guessed.
    const ambiguous = await refusal(await post({ flow_id: server.sandbox.flow_id, delivery_mode: 'iframe' }));
    assert.equal(ambiguous.code, 'embed_origin_required');
    assert.equal(ambiguous.errors[0]?.path, 'embed_origin');
  });

  it('refuses inline by name (422 delivery_mode_unsupported) and validates the request strictly', async () => {
    const inline = await refusal(await post({ flow_id: server.sandbox.flow_id, delivery_mode: 'inline' }));
    assert.equal(inline.code, 'delivery_mode_unsupported');
    assert.match(inline.message, /inline/);
    assert.equal(inline.errors[0]?.path, 'delivery_mode');
    const embed = await refusal(await post({ flow_id: server.sandbox.flow_id, delivery_mode: 'embed' }));
    assert.equal(embed.errors[0]?.path, 'delivery_mode');
    const extra = await refusal(await post({ flow_id: server.sandbox.flow_id, delivery_mode: 'popup', scope: 'x' }));
    assert.equal(extra.code, 'validation_failed');
    assert.equal((await post({ flow_id: 'flw_missing', delivery_mode: 'popup' })).status, 404);
  });

  it('answers only the nine consent token statuses: declined and cancelled are expired, the ending in outcome', async () => {
    const granted = await create({ delivery_mode: 'popup' });
    await grantStandard(server, granted.session_token);
    const declined = await create({ delivery_mode: 'popup' });
    await ok(server, declined.session_token, { action: 'decline' });
    const cancelled = await create({ delivery_mode: 'popup' });
    await ok(server, cancelled.session_token, { action: 'cancel', cancelled_by: 'user' });
    const late = await create({ delivery_mode: 'popup' });
    const endings = [];
    for (const s of [granted, declined, cancelled]) endings.push(await read(s.session_token));
    assert.deepEqual(
      endings.map((s) => `${s.status}:${s.outcome}`),
      ['fulfilled:granted', 'expired:declined', 'expired:cancelled'],
    );
    assert.equal((await decisionOf(declined.session_token)).status, 'declined', 'the Decision API keeps its finer status');
    server.advance(48 * 3600);
    const expired = await read(late.session_token);
    assert.deepEqual([expired.status, expired.outcome], ['expired', null]);
    for (const s of [...endings, expired]) assert.ok(NINE.includes(s.status), s.status);
  });
});
