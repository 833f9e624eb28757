// flows.render, captures.create, decisions.authorize and applications.formConnections against a running
// reference server: no mocks. The publishable client runs as a page would, with its Origin on every request.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createClient, type SvcClient, type SvcPublishableClient } from '../lib/client.js';
import { SvcNotFoundError, SvcPermissionError, SvcValidationError } from '../lib/errors.js';
import type { FetchImplementation } from '../lib/options.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { rejection } from '../testing/rejection.test.helper.js';

/** A fetch that sends `Origin` as a browser on that origin would. */
const fromOrigin =
  (origin: string): FetchImplementation =>
  (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('origin', origin);
    return globalThis.fetch(input, { ...init, headers });
  };

const config = {
  locale: 'en',
  policy_url: 'https://example.com/privacy',
  consent_duration: 'P1Y',
  purposes: [
    {
      key: 'newsletter',
      label: 'Email newsletter',
      description: 'Monthly news.',
      basis: 'consent' as const,
      mechanism: 'explicit' as const,
    },
    { key: 'analytics', label: 'Analytics', basis: 'legitimate_interest' as const, mechanism: 'opt_out' as const },
  ],
  steps: [],
};

describe('captures with the client', () => {
  let server: TestServer;
  let svc: SvcClient;
  let page: SvcPublishableClient;
  let flowId: string;

  before(async () => {
    server = await startTestServer();
    svc = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
    page = createClient({
      baseUrl: server.url,
      publishableKey: server.sandbox.publishable_key,
      fetch: fromOrigin(new URL(server.url).origin),
    });
    const flow = await svc.flows.create({ pattern: 'standard', title: 'Signup', config });
    await svc.flows.activate(flow.id);
    flowId = flow.id;
  });
  after(() => server.dispose());

  describe('flows.render (publishable)', () => {
    it('returns the presentation, notice hash and render proof', async () => {
      const rendered = await page.flows.render(flowId, { locale: 'en' });
      assert.equal(rendered.flow_id, flowId);
      assert.equal(rendered.version, 1);
      assert.deepEqual(
        rendered.purposes.map((p) => p.key),
        ['newsletter', 'analytics'],
      );
      assert.match(rendered.notice_hash, /^sha256:[0-9a-f]{64}$/);
      assert.equal(rendered.render_proof.split('.').length, 3);
    });

    it('throws SvcPermissionError (403 origin_required) without a browser origin', async () => {
      const serverSide = createClient({ baseUrl: server.url, publishableKey: server.sandbox.publishable_key });
      const err = await rejection(serverSide.flows.render(flowId), SvcPermissionError);
      assert.equal(err.reason, 'origin_required');
    });

    it('throws SvcNotFoundError for an unknown flow', async () => {
      await rejection(page.flows.render('flw_dev_nope'), SvcNotFoundError);
    });
  });

  describe('captures.create and decisions.authorize', () => {
    it('captures with the render proof and commits the token: an embedded_field record', async () => {
      const rendered = await page.flows.render(flowId);
      const capture = await page.captures.create(
        { flow_id: flowId, decisions: { newsletter: { decision: 'granted' } }, notice_hash: rendered.notice_hash },
        { renderProof: rendered.render_proof },
      );
      assert.match(capture.session_token, /^dts_/);
      assert.equal(capture.committed, false);
      assert.equal(capture.wording_verdict, 'match');
      const decision = await svc.decisions.authorize(capture.session_token, { subject: { email: 'ada@example.com', external_id: 'c-1' } });
      assert.equal(decision.status, 'fulfilled');
      assert.equal(decision.channel, 'embedded_field');
      assert.match(decision.record_id, /^cr_/);
      assert.deepEqual(decision.subject, { email: 'ada@example.com', external_id: 'c-1' });
    });

    it("answers the spec's ConsentAuthorized: a consent token that verifies once, with its expiry", async () => {
      const capture = await page.captures.create({ flow_id: flowId, decisions: { newsletter: { decision: 'granted' } } });
      const authorized = await svc.decisions.authorize(capture.session_token, { subject: { email: 'cy@example.com' } });
      assert.equal(authorized.status, 'fulfilled');
      const { consent_token: consentToken, consent_token_expires_at: expiresAt } = authorized;
      assert.ok(consentToken !== null && expiresAt !== null, 'a granted capture carries its consent token');
      assert.match(consentToken, /^[A-Za-z0-9_-]{43}$/);
      assert.ok(Date.parse(expiresAt) > Date.parse(authorized.committed_at));
      const first = await svc.consentTokens.verify(consentToken);
      assert.deepEqual([first.valid, first.status, first.expires_at], [true, 'fulfilled', expiresAt]);
      assert.equal((await svc.consentTokens.verify(consentToken)).status, 'expired');
    });

    it('captures without a proof (form_capture)', async () => {
      const capture = await page.captures.create({ flow_id: flowId, decisions: { newsletter: { decision: 'declined' } } });
      const decision = await svc.decisions.authorize(capture.session_token, {
        subject: { email: 'bo@example.com' },
        suppress_receipt: true,
      });
      assert.equal(decision.channel, 'form_capture');
      assert.equal(decision.receipt_email_queued, false);
    });

    it('throws SvcValidationError naming a refused purpose', async () => {
      const err = await rejection(
        page.captures.create({ flow_id: flowId, decisions: { newsletter: { decision: 'granted', default_checked: true } } }),
        SvcValidationError,
      );
      assert.equal(err.reason, 'attestation_refused');
      assert.deepEqual(
        err.errors.map((e) => [e.path, e.code]),
        [['decisions.newsletter', 'default_checked']],
      );
    });

    it('throws SvcValidationError for a bad render proof and for browser commit the application did not enable', async () => {
      const proof = await rejection(
        page.captures.create({ flow_id: flowId, decisions: { newsletter: { decision: 'granted' } } }, { renderProof: 'x.y.z' }),
        SvcValidationError,
      );
      assert.equal(proof.reason, 'render_proof_invalid');
      const commit = await rejection(
        page.captures.create({
          flow_id: flowId,
          decisions: { newsletter: { decision: 'granted' } },
          commit: true,
          subject: { email: 'a@example.com' },
        }),
        SvcValidationError,
      );
      assert.equal(commit.reason, 'browser_commit_not_allowed');
    });

    it('throws SvcValidationError (capture_already_committed) on a second commit, SvcNotFoundError for an unknown token', async () => {
      const { session_token } = await page.captures.create({ flow_id: flowId, decisions: { newsletter: { decision: 'granted' } } });
      await svc.decisions.authorize(session_token, { subject: { email: 'c@example.com' } });
      const again = await rejection(svc.decisions.authorize(session_token, { subject: { email: 'c@example.com' } }), SvcValidationError);
      assert.equal(again.reason, 'capture_already_committed');
      await rejection(svc.decisions.authorize(`dts_${'A'.repeat(43)}`, { subject: { email: 'c@example.com' } }), SvcNotFoundError);
    });

    it('throws SvcValidationError (capture_expired) after 24 hours', async () => {
      const { session_token } = await page.captures.create({ flow_id: flowId, decisions: { newsletter: { decision: 'granted' } } });
      await svc.testClock.advance(24 * 3600);
      const err = await rejection(svc.decisions.authorize(session_token, { subject: { email: 'late@example.com' } }), SvcValidationError);
      assert.equal(err.reason, 'capture_expired');
    });
  });

  describe('applications.formConnections', () => {
    const request = () => ({
      name: 'Typeform signup',
      flow_id: flowId,
      fields: [
        { id: 'f_email', type: 'email' as const, required: true },
        { id: 'f_news', type: 'yes_no' as const },
      ],
      subject: { email: { field: 'f_email' } },
      purposes: { newsletter: { field: 'f_news' } },
    });

    it('creates, reads, lists, rotates and deletes a connection; its secret verifies submissions', async () => {
      const appId = server.sandbox.application_id;
      const created = await svc.applications.formConnections.create(appId, request());
      assert.match(created.secret!, /^fcsec_/);
      const read = await svc.applications.formConnections.get(appId, created.id);
      assert.equal(read.secret, undefined);
      const ids = [];
      for await (const c of svc.applications.formConnections.list(appId)) ids.push(c.id);
      assert.ok(ids.includes(created.id));

      const raw = JSON.stringify({
        event_type: 'form_response',
        form_response: {
          form_id: 'F',
          token: 't-1',
          answers: [
            { type: 'email', email: 'ada@example.com', field: { id: 'f_email', type: 'email' } },
            { type: 'boolean', boolean: true, field: { id: 'f_news', type: 'yes_no' } },
          ],
        },
      });
      const res = await fetch(created.webhook_url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'typeform-signature': `sha256=${createHmac('sha256', created.secret!).update(raw).digest('base64')}`,
        },
        body: raw,
      });
      assert.equal(res.status, 200);

      const rotated = await svc.applications.formConnections.rotateSecret(appId, created.id);
      assert.notEqual(rotated.secret, created.secret);
      assert.ok(rotated.previous_secret_expires_at);
      await svc.applications.formConnections.delete(appId, created.id);
      await rejection(svc.applications.formConnections.get(appId, created.id), SvcNotFoundError);
    });

    it('throws SvcValidationError (mapping_refused) for a consent purpose bound to a required field', async () => {
      const bad = {
        ...request(),
        fields: [
          { id: 'f_email', type: 'email' as const },
          { id: 'f_news', type: 'yes_no' as const, required: true },
        ],
      };
      const err = await rejection(svc.applications.formConnections.create(server.sandbox.application_id, bad), SvcValidationError);
      assert.equal(err.reason, 'mapping_refused');
      assert.deepEqual(
        err.errors.map((e) => e.code),
        ['consent_field_required'],
      );
    });
  });
});
