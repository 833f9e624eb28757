// POST /api/v1/captures against a running server: every attestation rule, the wording verdict, the snapshot limit,
// the render proof (embedded_field) and browser commit (Errors rules 2 and 3).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { decodeProtectedHeader, generateKeyPair, SignJWT } from 'jose';
import { startTestServer, type TestServer } from '../../testing.js';
import {
  authorize,
  capture,
  captureFlowConfig,
  captureRequest,
  createActiveFlow,
  expectError,
  originOf,
  recordCount,
  render,
  validDecisions,
} from './test-support.js';

const sha = (text: string) => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

// What the capture helper hashes for a page that shows the flow's wording next to each control.
const texts = {
  newsletter: 'Email newsletter A monthly email about new features.',
  partners: 'Offers from partners We share your email with partners.',
  analytics: 'Product analytics Measuring use of the product. You may object.',
  service: 'Providing the service Processing your account data.',
};

interface Committed {
  decision: {
    status: string;
    record_id: string;
    channel: string;
    purposes: { key: string; outcome: string }[];
    wording_verdict: string | null;
  };
}

describe('POST /api/v1/captures', () => {
  let server: TestServer;
  let flowId: string;
  const body = (extra: Record<string, unknown> = {}) => ({ flow_id: flowId, decisions: validDecisions, ...extra });

  before(async () => {
    server = await startTestServer();
    flowId = await createActiveFlow(server);
  });
  after(() => server.dispose());

  /** Commits a capture token and returns the decision it became. */
  async function commit(token: string, extra: Record<string, unknown> = {}): Promise<Committed['decision']> {
    const res = await authorize(server, token, { subject: { email: 'ada@example.com' }, ...extra });
    const json = (await res.json()) as Committed;
    assert.equal(res.status, 200, JSON.stringify(json));
    return json.decision;
  }

  describe('the snippet path (no render proof)', () => {
    it('answers a capture token that leaves no record until committed', async () => {
      const before = recordCount(server);
      const res = await captureRequest(server, body({ form_id: 'signup', page_url: 'https://shop.example/signup', locale: 'en' }));
      assert.equal(res.status, 201);
      const { capture: result } = (await res.json()) as { capture: Record<string, unknown> };
      assert.match(String(result.session_token), /^dts_us_[A-Za-z0-9_-]{43}$/);
      assert.match(String(result.attestation_id), /^att_/);
      assert.equal(result.committed, false);
      assert.equal(result.record_id, null);
      assert.equal(result.wording_verdict, null);
      assert.equal(recordCount(server), before);
    });

    it('accepts a page_url on a development origin (localhost, 127.0.0.1) and refuses non-http schemes', async () => {
      for (const page_url of ['http://localhost:5173/signup', 'http://127.0.0.1:3000/form']) {
        const res = await captureRequest(server, body({ page_url }));
        assert.equal(res.status, 201, page_url);
      }
      const res = await captureRequest(server, body({ page_url: 'javascript:alert(1)' }));
      assert.equal(res.status, 422);
      assert.equal(((await res.json()) as { errors: { path: string }[] }).errors[0]?.path, 'page_url');
    });

    it('stores the capture token only hashed', async () => {
      const { session_token } = await capture(server, body());
      const found = server.context.db
        .prepare('SELECT count(*) FROM captures WHERE token_hash = ?')
        .pluck()
        .get(createHash('sha256').update(session_token).digest('hex'));
      assert.equal(found, 1);
      const raw = server.context.db.prepare("SELECT count(*) FROM captures WHERE instr(token_hash, 'dts_') > 0").pluck().get();
      assert.equal(raw, 0);
    });

    it('commits to a form_capture record', async () => {
      const { session_token } = await capture(server, body());
      const decision = await commit(session_token);
      assert.equal(decision.channel, 'form_capture');
    });

    it('answers CORS for an allowed origin, and lets the preflight send the render proof header', async () => {
      const res = await captureRequest(server, body());
      assert.equal(res.status, 201);
      assert.equal(res.headers.get('access-control-allow-origin'), originOf(server));
      const preflight = await fetch(`${server.url}/api/v1/captures`, {
        method: 'OPTIONS',
        headers: {
          origin: originOf(server),
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-publishable-key,x-svc-render-proof',
        },
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), originOf(server));
      assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /X-Svc-Render-Proof/i);
    });

    it('refuses a foreign origin (403), an API token (403) and no key (401)', async () => {
      await expectError(await captureRequest(server, body(), { origin: 'https://evil.example' }), 403, 'origin_not_allowed');
      const viaToken = await server.api('/api/v1/captures', { method: 'POST', json: body() });
      await expectError(viaToken, 403, 'publishable_key_required');
      const anonymous = await fetch(`${server.url}/api/v1/captures`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body()),
      });
      assert.equal(anonymous.status, 401);
    });
  });

  describe('attestation rules (spec table, Errors rule 3)', () => {
    async function outcomes(decisions: Record<string, unknown>): Promise<Record<string, string>> {
      const { session_token } = await capture(server, body({ decisions }));
      const decision = await commit(session_token);
      return Object.fromEntries(decision.purposes.map((p) => [p.key, p.outcome]));
    }

    async function refused(decisions: Record<string, unknown>): Promise<{ path: string; code: string }[]> {
      const res = await captureRequest(server, body({ decisions }));
      const json = await expectError(res, 422, 'attestation_refused');
      return (json.errors ?? []).map(({ path, code }) => ({ path, code }));
    }

    it('consent: a ticked box is granted, an unticked box is a decline', async () => {
      const result = await outcomes({ newsletter: { decision: 'granted' }, partners: { decision: 'declined' } });
      assert.equal(result.newsletter, 'granted');
      assert.equal(result.partners, 'declined');
    });

    it('consent shown ticked by default is refused, naming the purpose', async () => {
      assert.deepEqual(await refused({ ...validDecisions, newsletter: { decision: 'granted', default_checked: true } }), [
        { path: 'decisions.newsletter', code: 'default_checked' },
      ]);
    });

    it('a default-ticked consent box is refused even when unticked by the person', async () => {
      assert.deepEqual(await refused({ ...validDecisions, partners: { decision: 'declined', default_checked: true } }), [
        { path: 'decisions.partners', code: 'default_checked' },
      ]);
    });

    it('consent required to submit (mandatory) is refused, naming the purpose', async () => {
      assert.deepEqual(await refused({ ...validDecisions, newsletter: { decision: 'granted', mandatory: true } }), [
        { path: 'decisions.newsletter', code: 'mandatory' },
      ]);
    });

    it('legitimate interest: ticked is noticed, even default-ticked; unticked is an objection', async () => {
      const ticked = await outcomes({ ...validDecisions, analytics: { decision: 'granted', default_checked: true } });
      assert.equal(ticked.analytics, 'noticed');
      const unticked = await outcomes({ ...validDecisions, analytics: { decision: 'declined' } });
      assert.equal(unticked.analytics, 'objected');
    });

    it('legitimate interest without a decision is noticed', async () => {
      const { analytics: _a, ...rest } = validDecisions;
      assert.equal((await outcomes(rest)).analytics, 'noticed');
    });

    it('notice-only purposes need no decision and are noticed', async () => {
      const result = await outcomes(validDecisions);
      assert.equal(result.service, 'noticed');
    });

    it('a purpose the flow does not resolve is refused by name', async () => {
      assert.deepEqual(await refused({ ...validDecisions, lottery: { decision: 'granted' } }), [
        { path: 'decisions.lottery', code: 'unknown_purpose' },
      ]);
    });

    it('a missing consent purpose is refused by name', async () => {
      const { partners: _p, ...rest } = validDecisions;
      assert.deepEqual(await refused(rest), [{ path: 'decisions.partners', code: 'purpose_missing' }]);
    });

    it('names every refused purpose at once', async () => {
      const errors = await refused({
        newsletter: { decision: 'granted', default_checked: true },
        partners: { decision: 'granted', mandatory: true },
        typo: { decision: 'granted' },
      });
      assert.deepEqual(errors.map((e) => `${e.path}:${e.code}`).sort(), [
        'decisions.newsletter:default_checked',
        'decisions.partners:mandatory',
        'decisions.typo:unknown_purpose',
      ]);
    });

    it('a refused capture issues no token and no record', async () => {
      const before = recordCount(server);
      const rows = server.context.db.prepare('SELECT count(*) FROM captures').pluck().get();
      await refused({ newsletter: { decision: 'granted', default_checked: true } });
      assert.equal(server.context.db.prepare('SELECT count(*) FROM captures').pluck().get(), rows);
      assert.equal(recordCount(server), before);
    });
  });

  describe('the request', () => {
    it('admits no additional properties (a render proof in the body is refused)', async () => {
      const json = await expectError(await captureRequest(server, body({ render_proof: 'x' })), 422, 'validation_failed');
      assert.deepEqual(
        json.errors?.map((e) => [e.path, e.code]),
        [['render_proof', 'unknown_field']],
      );
    });

    it('takes a snapshot of 16384 bytes and refuses one byte more (also counted in UTF-8 bytes)', async () => {
      await capture(server, body({ snapshot: 'x'.repeat(16384) }));
      const over = await expectError(await captureRequest(server, body({ snapshot: 'x'.repeat(16385) })), 422, 'validation_failed');
      assert.equal(over.errors?.[0]?.path, 'snapshot');
      const multibyte = await expectError(await captureRequest(server, body({ snapshot: 'é'.repeat(8193) })), 422, 'validation_failed');
      assert.equal(multibyte.errors?.[0]?.path, 'snapshot');
    });

    it('answers 404 for an unknown flow, 422 for a draft and for a flow that is not capturable', async () => {
      await expectError(await captureRequest(server, body({ flow_id: 'flw_dev_nope' })), 404, 'flow_not_found');
      const draft = await server.api('/api/v1/flows', {
        method: 'POST',
        json: { flow: { pattern: 'standard', title: 'Draft', config: captureFlowConfig } },
      });
      const draftId = ((await draft.json()) as { flow: { id: string } }).flow.id;
      await expectError(await captureRequest(server, body({ flow_id: draftId })), 422, 'flow_not_active');
      await expectError(await captureRequest(server, body({ flow_id: server.sandbox.flow_id })), 422, 'flow_not_capturable');
    });

    it('refuses malformed JSON (400) and a body over its limit (413)', async () => {
      assert.equal((await captureRequest(server, '{"flow_id":')).status, 400);
      assert.equal((await captureRequest(server, JSON.stringify(body({ snapshot: 'x'.repeat(300_000) })))).status, 413);
    });
  });

  describe('wording (match or wording_drift, never refused)', () => {
    it('matches the render endpoint notice_hash', async () => {
      const { notice_hash } = await render(server, flowId);
      assert.equal((await capture(server, body({ notice_hash }))).wording_verdict, 'match');
    });

    it('matches the capture helper digests of the published label and description texts', async () => {
      const shown = ['newsletter', 'partners', 'analytics'] as const;
      const result = await capture(
        server,
        body({
          notice_hash: sha(shown.map((k) => texts[k]).join('\n')),
          notice_hashes: Object.fromEntries(shown.map((k) => [k, sha(texts[k])])),
        }),
      );
      assert.equal(result.wording_verdict, 'match');
    });

    it('matches whole-notice digests in the flow order, with the texts normalised', async () => {
      const all = Object.values(texts).join('\n');
      assert.equal((await capture(server, body({ notice_hash: sha(all) }))).wording_verdict, 'match');
      assert.equal((await capture(server, body({ notice_hash: sha(all).toUpperCase().replace('SHA256:', '') }))).wording_verdict, 'match');
    });

    it('records drift for other wording, accepts the capture and carries the verdict to the record', async () => {
      const result = await capture(server, body({ notice_hash: sha('Tick to get spam') }));
      assert.equal(result.wording_verdict, 'wording_drift');
      const perPurpose = await capture(
        server,
        body({ notice_hashes: { newsletter: sha(texts.newsletter), partners: sha('Other words') } }),
      );
      assert.equal(perPurpose.wording_verdict, 'wording_drift');
      const decision = await commit(perPurpose.session_token);
      assert.equal(decision.wording_verdict, 'wording_drift');
    });
  });

  describe('wording on the record', () => {
    // The records service compares a record's notice_hash with the privacy_notice digest only; a capture also
    // knows the helper's text digests, and hands its own verdict over as `wordingVerdict`.
    it('keeps the capture verdict for the snippet text digests', async () => {
      const shown = ['newsletter', 'partners', 'analytics'] as const;
      const result = await capture(server, body({ notice_hash: sha(shown.map((k) => texts[k]).join('\n')) }));
      assert.equal(result.wording_verdict, 'match');
      const decision = await commit(result.session_token);
      const stored = server.context.db.prepare('SELECT wording_verdict FROM consent_records WHERE id = ?').pluck().get(decision.record_id);
      assert.equal(stored, 'match');
    });
  });

  describe('the render proof (embedded_field)', () => {
    it('makes the capture embedded_field, with rendering evidence on the record', async () => {
      const rendered = await render(server, flowId);
      const result = await capture(server, body({ notice_hash: rendered.notice_hash }), { proof: rendered.render_proof });
      assert.equal(result.wording_verdict, 'match');
      const decision = await commit(result.session_token);
      assert.equal(decision.channel, 'embedded_field');
      const row = server.context.db
        .prepare('SELECT rendering_evidence FROM captures WHERE id = ?')
        .pluck()
        .get(result.attestation_id) as string;
      const evidence = JSON.parse(row) as Record<string, unknown>;
      assert.match(String(evidence.render_proof_id), /^rp_/);
      assert.equal(evidence.notice_hash, rendered.notice_hash);
      assert.equal(evidence.origin, originOf(server));
      assert.ok(evidence.issued_at);
      const record = server.context.db.prepare('SELECT channel, receipt FROM consent_records WHERE id = ?').get(decision.record_id) as {
        channel: string;
        receipt: string;
      };
      assert.equal(record.channel, 'embedded_field');
      const receipt = JSON.parse(record.receipt) as { extensions: Record<string, unknown> };
      assert.equal(receipt.extensions.collection_channel, 'embedded_field');
      assert.deepEqual((receipt.extensions.rendering_evidence as Record<string, unknown>).render_proof_id, evidence.render_proof_id);
    });

    it('counts the rendered wording as a match when the field sends no digest', async () => {
      const rendered = await render(server, flowId);
      assert.equal((await capture(server, body(), { proof: rendered.render_proof })).wording_verdict, 'match');
    });

    it('refuses a tampered proof (422 render_proof_invalid), never downgrading it to form_capture', async () => {
      const { render_proof } = await render(server, flowId);
      const [h, p, s] = render_proof.split('.');
      const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
      const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, flow_version: 7 })).toString('base64url')}.${s}`;
      const json = await expectError(await captureRequest(server, body(), { proof: forged }), 422, 'render_proof_invalid');
      assert.equal(json.errors?.[0]?.path, 'X-Svc-Render-Proof');
      const flipped = `${h}.${p}.${s!.startsWith('A') ? 'B' : 'A'}${s!.slice(1)}`;
      await expectError(await captureRequest(server, body(), { proof: flipped }), 422, 'render_proof_invalid');
      await expectError(await captureRequest(server, body(), { proof: 'not-a-jws' }), 422, 'render_proof_invalid');
      await expectError(await captureRequest(server, body(), { proof: '' }), 422, 'render_proof_invalid');
    });

    it('refuses a proof signed by another key, even under the server kid', async () => {
      const { render_proof } = await render(server, flowId);
      const { kid } = decodeProtectedHeader(render_proof);
      const claims = JSON.parse(Buffer.from(render_proof.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
      const { privateKey } = await generateKeyPair('ES256');
      const forged = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', kid: kid!, typ: 'svc-render-proof+jwt' })
        .sign(privateKey);
      await expectError(await captureRequest(server, body(), { proof: forged }), 422, 'render_proof_invalid');
    });

    it('refuses a JWT of the server key that is not a render proof (typ)', async () => {
      const { render_proof } = await render(server, flowId);
      const claims = JSON.parse(Buffer.from(render_proof.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
      const other = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', kid: server.context.keys.kid, typ: 'JWT' })
        .sign(server.context.keys.privateKey);
      await expectError(await captureRequest(server, body(), { proof: other }), 422, 'render_proof_invalid');
    });

    it('refuses an expired proof (one hour, server clock)', async () => {
      const { render_proof } = await render(server, flowId);
      server.advance(3590);
      await capture(server, body(), { proof: render_proof });
      server.advance(11);
      await expectError(await captureRequest(server, body(), { proof: render_proof }), 422, 'render_proof_expired');
    });

    it('refuses a proof rendered for another origin', async () => {
      const other = 'http://localhost:5173';
      const added = await server.api(`/api/v1/applications/${server.sandbox.application_id}/allowed_origins`, {
        method: 'POST',
        json: { allowed_origin: { origin: other } },
      });
      assert.ok(added.status < 300, await added.text());
      const { render_proof } = await render(server, flowId, { origin: other });
      await expectError(await captureRequest(server, body(), { proof: render_proof }), 422, 'render_proof_mismatch');
      await expectError(await captureRequest(server, body(), { proof: render_proof, origin: null }), 422, 'render_proof_mismatch');
      await capture(server, body(), { proof: render_proof, origin: other });
    });

    it('refuses a proof rendered for another flow', async () => {
      const otherFlow = await createActiveFlow(server, captureFlowConfig, { title: 'Another form' });
      const { render_proof } = await render(server, otherFlow);
      await expectError(await captureRequest(server, body(), { proof: render_proof }), 422, 'render_proof_mismatch');
    });

    it('refuses a proof of an earlier version once the flow published another (render_proof_stale)', async () => {
      const flow = await createActiveFlow(server);
      const { render_proof } = await render(server, flow);
      await server.api(`/api/v1/flows/${flow}/versions`, { method: 'POST', json: { flow: { title: 'Signup consent, revised' } } });
      await expectError(await captureRequest(server, body({ flow_id: flow }), { proof: render_proof }), 422, 'render_proof_stale');
    });

    it('refuses a proof of another application', async () => {
      const created = await server.api('/api/v1/applications', { method: 'POST', json: { application: { name: 'Second shop' } } });
      const { application, publishable_key } = (await created.json()) as { application: { id: string }; publishable_key: string };
      await server.api(`/api/v1/applications/${application.id}/allowed_origins`, {
        method: 'POST',
        json: { allowed_origin: { origin: originOf(server) } },
      });
      const theirFlow = await createActiveFlow(server, captureFlowConfig, { application_id: application.id });
      const { render_proof } = await render(server, theirFlow, { key: publishable_key });
      // Their proof, sent by the sandbox application for its own flow.
      await expectError(await captureRequest(server, body(), { proof: render_proof }), 422, 'render_proof_mismatch');
    });
  });

  describe('browser commit (Errors rule 2)', () => {
    const withSubject = (extra: Record<string, unknown> = {}) =>
      body({ commit: true, subject: { email: 'grace@example.com', external_id: 'cust-42' }, ...extra });

    async function application(options: { browserCommit: boolean; origins: string[] }): Promise<{ id: string; key: string; flow: string }> {
      const created = await server.api('/api/v1/applications', {
        method: 'POST',
        json: { application: { name: 'Commit shop', browser_commit_enabled: options.browserCommit } },
      });
      const { application: app, publishable_key } = (await created.json()) as { application: { id: string }; publishable_key: string };
      for (const origin of options.origins) {
        await server.api(`/api/v1/applications/${app.id}/allowed_origins`, { method: 'POST', json: { allowed_origin: { origin } } });
      }
      const flow = await createActiveFlow(server, captureFlowConfig, { application_id: app.id });
      return { id: app.id, key: publishable_key, flow };
    }

    it('is refused when the application has not enabled it', async () => {
      const json = await expectError(await captureRequest(server, withSubject()), 422, 'browser_commit_not_allowed');
      assert.deepEqual(
        json.errors?.map((e) => e.path),
        ['commit'],
      );
    });

    it('is refused when the application lists no allowed origins', async () => {
      const app = await application({ browserCommit: true, origins: [] });
      const res = await captureRequest(server, withSubject({ flow_id: app.flow }), { key: app.key, origin: null });
      await expectError(res, 422, 'browser_commit_not_allowed');
    });

    it('is refused when the request does not come from an allowed origin', async () => {
      const app = await application({ browserCommit: true, origins: ['https://shop.example'] });
      // Without an Origin (a server calling with the page's key), and from a foreign one: the same 422.
      await expectError(
        await captureRequest(server, withSubject({ flow_id: app.flow }), { key: app.key, origin: null }),
        422,
        'browser_commit_not_allowed',
      );
      await expectError(
        await captureRequest(server, withSubject({ flow_id: app.flow }), { key: app.key, origin: 'https://evil.example' }),
        422,
        'browser_commit_not_allowed',
      );
    });

    it('creates the record at once when enabled, from an allowed origin: form_capture_browser', async () => {
      const app = await application({ browserCommit: true, origins: [originOf(server)] });
      const before = recordCount(server);
      const result = await capture(server, withSubject({ flow_id: app.flow }), { key: app.key });
      assert.equal(result.committed, true);
      assert.match(String(result.record_id), /^cr_/);
      assert.equal(recordCount(server), before + 1);
      const record = server.context.db.prepare('SELECT channel, external_id FROM consent_records WHERE id = ?').get(result.record_id) as {
        channel: string;
        external_id: string;
      };
      assert.equal(record.channel, 'form_capture_browser');
      assert.equal(record.external_id, 'cust-42');
      await expectError(await authorize(server, result.session_token), 422, 'capture_already_committed');
    });

    it('gives embedded_field_browser with a render proof', async () => {
      const app = await application({ browserCommit: true, origins: [originOf(server)] });
      const { render_proof } = await render(server, app.flow, { key: app.key });
      const result = await capture(server, withSubject({ flow_id: app.flow }), { key: app.key, proof: render_proof });
      const channel = server.context.db.prepare('SELECT channel FROM consent_records WHERE id = ?').pluck().get(result.record_id);
      assert.equal(channel, 'embedded_field_browser');
    });

    it('needs subject.email to bind the person', async () => {
      const app = await application({ browserCommit: true, origins: [originOf(server)] });
      const json = await expectError(
        await captureRequest(server, body({ flow_id: app.flow, commit: true }), { key: app.key }),
        422,
        'subject_email_required',
      );
      assert.equal(json.errors?.[0]?.path, 'subject.email');
    });

    it('still applies the attestation rules', async () => {
      const app = await application({ browserCommit: true, origins: [originOf(server)] });
      const res = await captureRequest(
        server,
        withSubject({ flow_id: app.flow, decisions: { ...validDecisions, newsletter: { decision: 'granted', default_checked: true } } }),
        { key: app.key },
      );
      await expectError(res, 422, 'attestation_refused');
    });
  });
});
