// Every method of the client against a running reference server: no mocks.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, type SvcClient, type SvcPublishableClient } from './client.js';
import { SvcAuthenticationError, SvcBadRequestError, SvcNotFoundError, SvcPermissionError, SvcValidationError } from './errors.js';
import type { SvcWarning } from './options.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { rejection } from '../testing/rejection.test.helper.js';

/** Asserts that `promise` rejects with an instance of `type` and returns the error for further checks. */

describe('createClient against the reference server', () => {
  let server: TestServer;
  let svc: SvcClient;
  let browser: SvcPublishableClient;

  before(async () => {
    server = await startTestServer();
    svc = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
    browser = createClient({ baseUrl: server.url, publishableKey: server.sandbox.publishable_key });
  });
  after(() => server.dispose());

  /** Walks a decision's hosted page through `steps` and returns the exchange token of its completion. */
  async function completeDecision(sessionToken: string, steps: object[]): Promise<string> {
    let body: { completion?: { exchange_token: string } } = {};
    for (const step of steps) {
      const res = await fetch(`${server.url}/decisions/${sessionToken}/transitions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(step),
      });
      assert.equal(res.status, 200, await res.clone().text());
      body = (await res.json()) as typeof body;
    }
    assert.ok(body.completion, 'the decision completed');
    return body.completion.exchange_token;
  }

  describe('me', () => {
    it('returns the calling API token and its account', async () => {
      const me = await svc.me();
      assert.equal(me.kind, 'api_token');
      assert.match(me.account.id, /^acct_/);
      assert.deepEqual(me.api_token.permissions, ['read', 'write', 'admin']);
    });

    it('throws SvcAuthenticationError (401) for an unknown token', async () => {
      const stranger = createClient({ baseUrl: server.url, apiToken: 'not-a-token' });
      const err = await rejection(stranger.me(), SvcAuthenticationError);
      assert.equal(err.code, 'ERR_SVC_AUTHENTICATION');
      assert.equal(err.status, 401);
      assert.equal(err.message, 'The bearer token is not valid: not an API token, nor a current access token.');
      assert.equal(err.method, 'GET');
      assert.equal(err.path, '/api/v1/me');
    });
  });

  describe('apiTokens', () => {
    it('creates a token whose raw value works, once', async () => {
      const token = await svc.apiTokens.create({ name: 'reader', permissions: ['read'] });
      assert.match(token.id, /^api_token_/);
      assert.deepEqual(token.permissions, ['read']);
      assert.equal(typeof token.token, 'string');
      const me = await createClient({ baseUrl: server.url, apiToken: token.token }).me();
      assert.equal(me.kind === 'api_token' && me.api_token.id, token.id);
      const listed = (await svc.apiTokens.list({ limit: 100 }).page()).items.find((t) => t.id === token.id);
      assert.equal(listed?.token, undefined, 'the value is never shown again');
    });

    it('defaults permissions to read', async () => {
      assert.deepEqual((await svc.apiTokens.create({ name: 'default' })).permissions, ['read']);
    });

    it('pages through more than one page with for await', async () => {
      for (const name of ['page-a', 'page-b', 'page-c']) await svc.apiTokens.create({ name });
      const first = await svc.apiTokens.list({ limit: 2 }).page();
      assert.equal(first.items.length, 2);
      assert.equal(typeof first.nextCursor, 'string');
      const second = await svc.apiTokens.list({ limit: 2, cursor: first.nextCursor! }).page();
      assert.notDeepEqual(
        second.items.map((t) => t.id),
        first.items.map((t) => t.id),
      );

      const names: string[] = [];
      for await (const token of svc.apiTokens.list({ limit: 2 })) names.push(token.name);
      let pages = 0;
      for await (const page of svc.apiTokens.list({ limit: 2 }).pages()) pages += page.items.length > 0 ? 1 : 0;
      assert.ok(pages >= 3, `walked ${pages} pages`);
      assert.equal(new Set(names).size, names.length, 'no token twice');
      for (const name of ['Sandbox admin', 'page-a', 'page-b', 'page-c']) assert.ok(names.includes(name), name);
    });

    it('rotates a token: the new value works, the old one is refused', async () => {
      const token = await svc.apiTokens.create({ name: 'rotating', permissions: ['read'] });
      const rotated = await svc.apiTokens.rotate(token.id);
      assert.equal(rotated.id, token.id);
      assert.notEqual(rotated.token, token.token);
      await createClient({ baseUrl: server.url, apiToken: rotated.token }).me();
      await rejection(createClient({ baseUrl: server.url, apiToken: token.token }).me(), SvcAuthenticationError);
    });

    it('deletes a token; deleting it again is SvcNotFoundError (404)', async () => {
      const token = await svc.apiTokens.create({ name: 'doomed' });
      assert.equal(await svc.apiTokens.delete(token.id), undefined);
      await rejection(createClient({ baseUrl: server.url, apiToken: token.token }).me(), SvcAuthenticationError);
      const err = await rejection(svc.apiTokens.delete(token.id), SvcNotFoundError);
      assert.equal(err.code, 'ERR_SVC_NOT_FOUND');
      assert.equal(err.status, 404);
      assert.equal(err.path, `/api/v1/api_tokens/${token.id}`);
    });

    it('throws SvcPermissionError (403) when a read token creates a token', async () => {
      const reader = await svc.apiTokens.create({ name: 'read-only', permissions: ['read'] });
      const err = await rejection(
        createClient({ baseUrl: server.url, apiToken: reader.token }).apiTokens.create({ name: 'x' }),
        SvcPermissionError,
      );
      assert.equal(err.code, 'ERR_SVC_PERMISSION');
      assert.equal(err.reason, 'insufficient_permissions');
    });

    it('throws SvcPermissionError when a write token issues an admin token', async () => {
      const writer = await svc.apiTokens.create({ name: 'writer', permissions: ['write'] });
      const client = createClient({ baseUrl: server.url, apiToken: writer.token });
      await rejection(client.apiTokens.create({ name: 'escalate', permissions: ['admin'] }), SvcPermissionError);
    });

    it('throws SvcValidationError (422) naming the field of an invalid request', async () => {
      const err = await rejection(svc.apiTokens.create({ name: '' }), SvcValidationError);
      assert.equal(err.code, 'ERR_SVC_VALIDATION');
      assert.equal(err.status, 422);
      assert.equal(err.reason, 'validation_failed');
      assert.equal(err.errors[0]?.path, 'api_token.name');
    });

    it('throws SvcBadRequestError (400) for a cursor the server did not issue', async () => {
      const err = await rejection(svc.apiTokens.list({ cursor: 'not-a-cursor' }).page(), SvcBadRequestError);
      assert.equal(err.code, 'ERR_SVC_BAD_REQUEST');
      assert.equal(err.reason, 'invalid_cursor');
      assert.equal(err.path, '/api/v1/api_tokens?cursor=not-a-cursor');
    });

    it('throws SvcBadRequestError (400) for malformed JSON', async () => {
      // The client always sends valid JSON, so a fetch wrapper cuts the body short on its way out.
      const truncating = createClient({
        baseUrl: server.url,
        apiToken: server.sandbox.api_token,
        fetch: (url, init) => fetch(url, { ...init, body: String(init.body).slice(0, -2) }),
      });
      const err = await rejection(truncating.apiTokens.create({ name: 'cut' }), SvcBadRequestError);
      assert.equal(err.status, 400);
      assert.equal(err.reason, 'malformed_json');
    });
  });

  describe('applications', () => {
    it('creates, reads, updates and lists applications', async () => {
      const created = await svc.applications.create({ name: 'Shop' });
      assert.match(created.application.id, /^tp_dev_/);
      assert.match(created.publishable_key, /^pk_test_/);
      assert.equal(created.application.environment, 'development');

      assert.deepEqual(await svc.applications.get(created.application.id), created.application);
      const renamed = await svc.applications.update(created.application.id, { name: 'Shop (renamed)', browser_commit_enabled: true });
      assert.equal(renamed.name, 'Shop (renamed)');
      assert.equal(renamed.browser_commit_enabled, true);

      const ids: string[] = [];
      for await (const application of svc.applications.list({ limit: 1 })) ids.push(application.id);
      assert.ok(ids.includes(server.sandbox.application_id));
      assert.ok(ids.includes(created.application.id));
    });

    it('throws SvcNotFoundError for an unknown application', async () => {
      await rejection(svc.applications.get('tp_dev_nothing'), SvcNotFoundError);
    });

    it('lists the activity of an application, filtered by type', async () => {
      // A preflight from an origin the application never registered is recorded against the flow's application.
      const res = await fetch(`${server.url}/api/v1/flows/${server.sandbox.flow_id}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://unknown.example', 'access-control-request-method': 'GET' },
      });
      await res.body?.cancel();
      const events = [];
      for await (const event of svc.applications.activity(server.sandbox.application_id, { type: 'cors.preflight_denied' })) {
        events.push(event);
      }
      assert.equal(events.length, 1);
      assert.equal(events[0]?.type, 'cors.preflight_denied');
      assert.equal(events[0]?.data.origin, 'https://unknown.example');
    });
  });

  describe('applications.allowedOrigins', () => {
    it('registers, lists and removes an origin', async () => {
      const applicationId = server.sandbox.application_id;
      const origin = await svc.applications.allowedOrigins.create(applicationId, { origin: 'https://shop.example' });
      assert.equal(origin.origin, 'https://shop.example');
      assert.equal(origin.last_seen_at, null);

      const listed = async () => {
        const origins: string[] = [];
        for await (const o of svc.applications.allowedOrigins.list(applicationId)) origins.push(o.origin);
        return origins;
      };
      assert.ok((await listed()).includes('https://shop.example'));
      assert.ok((await listed()).includes(new URL(server.url).origin), 'the server itself is seeded');

      await svc.applications.allowedOrigins.delete(applicationId, 'https://shop.example');
      assert.ok(!(await listed()).includes('https://shop.example'));
      await rejection(svc.applications.allowedOrigins.delete(applicationId, 'https://shop.example'), SvcNotFoundError);
    });

    it('refuses an origin with a path as SvcValidationError', async () => {
      const err = await rejection(
        svc.applications.allowedOrigins.create(server.sandbox.application_id, { origin: 'https://shop.example/checkout' }),
        SvcValidationError,
      );
      assert.equal(err.errors[0]?.path, 'allowed_origin.origin');
    });
  });

  describe('flows', () => {
    const config = {
      consent_duration: 'P1Y',
      purposes: [{ key: 'newsletter', label: 'Newsletter', basis: 'consent', mechanism: 'explicit' }],
    } as const;

    it('creates a draft, edits it, activates it, publishes a version and reads both versions', async () => {
      const draft = await svc.flows.create({
        pattern: 'standard',
        title: 'Newsletter',
        config: { ...config, purposes: [...config.purposes] },
      });
      assert.match(draft.id, /^flw_dev_/);
      assert.equal(draft.status, 'draft');
      assert.equal(draft.config.locale, 'en', 'defaults come back filled in');

      assert.equal((await svc.flows.update(draft.id, { title: 'Monthly newsletter' })).title, 'Monthly newsletter');
      const active = await svc.flows.activate(draft.id);
      assert.equal(active.status, 'active');
      assert.equal(active.active_version, 1);

      const next = await svc.flows.createVersion(draft.id, { title: 'Weekly newsletter' });
      assert.equal(next.version, 2);
      assert.equal((await svc.flows.get(draft.id)).title, 'Weekly newsletter');
      assert.equal((await svc.flows.getVersion(draft.id, 1)).title, 'Monthly newsletter');

      const versions = [];
      for await (const version of svc.flows.listVersions(draft.id, { limit: 1 })) versions.push(version.version);
      assert.deepEqual(versions, [1, 2]);

      const ids = [];
      for await (const flow of svc.flows.list()) ids.push(flow.id);
      assert.ok(ids.includes(draft.id) && ids.includes(server.sandbox.flow_id!));
    });

    it('throws SvcValidationError for terms that do not fit together', async () => {
      const err = await rejection(
        svc.flows.create({
          pattern: 'standard',
          title: 'Bad',
          config: { purposes: [{ key: 'x', label: 'X', basis: 'contract', mechanism: 'explicit' }] },
        }),
        SvcValidationError,
      );
      assert.equal(err.errors[0]?.path, 'flow.config.purposes.0.mechanism');
    });

    it('throws SvcNotFoundError for an unknown flow', async () => {
      await rejection(svc.flows.get('flw_dev_nothing'), SvcNotFoundError);
    });
  });

  describe('decisions and consent tokens', () => {
    it('creates a decision with an API token and reads it back', async () => {
      const created = await svc.decisions.create({
        kind: 'consent',
        subject_ref: server.sandbox.flow_id!,
        delivery_mode: 'redirect',
        state: 's1',
      });
      assert.match(created.session_token, /^dts_/);
      assert.equal(created.status, 'pending');
      const read = await svc.decisions.get(created.session_token);
      assert.equal(read.id, created.id);
      assert.equal(read.state, 's1');
    });

    it('creates a decision with a publishable key from an allowed origin', async () => {
      const created = await browser.decisions.create({
        kind: 'consent',
        subject_ref: server.sandbox.flow_id!,
        delivery_mode: 'embed',
        embed_origin: new URL(server.url).origin,
      });
      assert.equal(created.delivery_mode, 'embed');
      assert.equal(created.embed_origin, new URL(server.url).origin);
    });

    it('refuses an embed origin outside the allowed origins as SvcValidationError', async () => {
      const err = await rejection(
        browser.decisions.create({
          kind: 'consent',
          subject_ref: server.sandbox.flow_id!,
          delivery_mode: 'embed',
          embed_origin: 'https://elsewhere.example',
        }),
        SvcValidationError,
      );
      assert.ok(
        err.errors.some((e) => e.path === 'embed_origin'),
        JSON.stringify(err.errors),
      );
    });

    it('throws SvcPermissionError (403) when a publishable key reaches a server-only endpoint', async () => {
      // The types offer a publishable client no `get`; the raw request shows the server refuses it too.
      assert.equal('get' in browser.decisions, false);
      const err = await rejection(browser.request({ method: 'GET', path: '/api/v1/me' }), SvcPermissionError);
      assert.equal(err.reason, 'publishable_key_not_allowed');
    });

    it('throws SvcNotFoundError for an unknown session token', async () => {
      await rejection(svc.decisions.get(`dts_${'A'.repeat(43)}`), SvcNotFoundError);
    });

    it('exchanges a completed consent and verifies its consent token exactly once', async () => {
      const flowId = server.sandbox.informed_flow_id!;
      const decision = await svc.decisions.create({ kind: 'consent', subject_ref: flowId, delivery_mode: 'redirect' });
      const exchangeToken = await completeDecision(decision.session_token, [
        { action: 'begin' },
        { action: 'acknowledge' },
        { action: 'answer', answer: 0 },
        { action: 'agree', granted: ['research'], objected: [] },
      ]);

      const exchanged = await svc.decisions.exchange(decision.session_token, exchangeToken);
      assert.equal(exchanged.outcome, 'granted');
      assert.equal(exchanged.token_type, 'consent_token');
      assert.equal(exchanged.claims.kind, 'consent');
      if (exchanged.claims.kind === 'consent') assert.deepEqual(exchanged.claims.purposes_granted, ['research']);
      assert.equal((await svc.decisions.get(decision.session_token)).status, 'fulfilled');

      const first = await svc.consentTokens.verify(exchanged.access_token!);
      assert.equal(first.valid, true);
      assert.equal(first.status, 'fulfilled');
      assert.equal(first.flow_id, flowId);
      const again = await svc.consentTokens.verify(exchanged.access_token!);
      assert.equal(again.valid, false);
      assert.equal(again.status, 'expired');

      const err = await rejection(svc.decisions.exchange(decision.session_token, exchangeToken), SvcValidationError);
      assert.equal(err.reason, 'exchange_token_used');
    });

    it('reports an unknown consent token as invalid', async () => {
      assert.deepEqual(await svc.consentTokens.verify('never-issued'), { valid: false, status: 'invalid', expires_at: null });
    });
  });

  describe('testClock', () => {
    it('moves the server clock, which expires an unexchanged token', async () => {
      const decision = await svc.decisions.create({
        kind: 'consent',
        subject_ref: server.sandbox.informed_flow_id!,
        delivery_mode: 'redirect',
      });
      const exchangeToken = await completeDecision(decision.session_token, [{ action: 'begin' }, { action: 'decline' }]);
      const clock = await svc.testClock.advance(301);
      assert.ok(clock.offset_seconds >= 301);
      const err = await rejection(svc.decisions.exchange(decision.session_token, exchangeToken), SvcValidationError);
      assert.equal(err.reason, 'exchange_token_expired');
    });
  });

  describe('deprecated alias', () => {
    it('warns once per path, naming the successor, and still answers', async () => {
      const warnings: SvcWarning[] = [];
      const client = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token, onWarning: (w) => warnings.push(w) });
      const body = { kind: 'consent', subject_ref: server.sandbox.flow_id, delivery_mode: 'redirect' };
      await client.request({ method: 'POST', path: '/api/v1/consent_sessions', body });
      await client.request({ method: 'POST', path: '/api/v1/consent_sessions', body });
      assert.equal(warnings.length, 1);
      assert.equal(warnings[0]?.path, '/api/v1/consent_sessions');
      assert.equal(warnings[0]?.successor, `${server.url}/api/v1/decisions`);
      assert.match(
        warnings[0]?.message ?? '',
        /is deprecated; it stops working after .* 2027 .*; use http:\/\/127\.0\.0\.1:\d+\/api\/v1\/decisions instead\./,
      );
    });
  });
});
