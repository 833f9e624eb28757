import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TransitionResult } from './participant-types.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { createConsent, createDecision, ok, step, toReview } from './test-support.js';

async function refused(res: Response, code: string, status = 422): Promise<void> {
  const json = (await res.json()) as { code: string; message: string };
  assert.equal(res.status, status, JSON.stringify(json));
  assert.equal(json.code, code);
  assert.ok(json.message);
}

const path = (r: TransitionResult) =>
  r.transition && [r.transition.from, r.transition.to, r.transition.step_index, r.transition.total_steps];

describe('participant API: POST /decisions/{token}/transitions', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  it('walks the standard path: pending, authenticating, verifying, reviewing, fulfilled', async () => {
    const d = await createConsent(server);
    const [begun, signedIn, verified] = await toReview(server, d.session_token);
    assert.deepEqual(path(begun!), ['pending', 'authenticating', 1, 5]);
    assert.deepEqual(path(signedIn!), ['authenticating', 'verifying', 2, 5]);
    assert.match(signedIn!.sandbox_code ?? '', /^\d{6}$/);
    assert.deepEqual(path(verified!), ['verifying', 'reviewing', 3, 5]);
    const done = await ok(server, d.session_token, { action: 'agree', granted: ['newsletter'], objected: ['analytics'] });
    assert.deepEqual(path(done), ['reviewing', 'fulfilled', 4, 5]);
    assert.equal(done.progress.subject_email, 'ada@example.com');
    assert.equal(done.completion?.outcome, 'granted');
    assert.ok(done.completion?.completed_at);
  });

  it('walks the informed-consent path: pending, informed, evidenced (comprehension check), fulfilled', async () => {
    const informed = server.sandbox.informed_flow_id!;
    assert.ok(informed);
    const d = await createConsent(server, { subject_ref: informed });
    const begun = await ok(server, d.session_token, { action: 'begin' });
    assert.deepEqual(path(begun), ['pending', 'informed', 1, 5]);
    const read = await ok(server, d.session_token, { action: 'acknowledge' });
    assert.deepEqual(path(read), ['informed', 'informed', 2, 5]);
    await refused(await step(server, d.session_token, { action: 'answer', answer: 1 }), 'wrong_answer');
    const answered = await ok(server, d.session_token, { action: 'answer', answer: 0 });
    assert.deepEqual(path(answered), ['informed', 'evidenced', 3, 5]);
    const done = await ok(server, d.session_token, { action: 'agree', granted: ['research'], objected: [] });
    assert.deepEqual(path(done), ['evidenced', 'fulfilled', 4, 5]);
    const evidence = JSON.parse(server.context.db.prepare('SELECT evidence FROM decisions WHERE id = ?').pluck().get(d.id) as string) as {
      correct: boolean;
    }[];
    assert.deepEqual(
      evidence.map((e) => e.correct),
      [false, true],
    );
  });

  it('refuses a wrong sign-in code, and voids the code after five wrong tries', async () => {
    const d = await createConsent(server);
    await ok(server, d.session_token, { action: 'begin' });
    const signedIn = await ok(server, d.session_token, { action: 'sign_in', email: 'Grace@Example.com' });
    const wrong = signedIn.sandbox_code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 4; i += 1) await refused(await step(server, d.session_token, { action: 'verify', code: wrong }), 'wrong_code');
    await refused(await step(server, d.session_token, { action: 'verify', code: wrong }), 'code_required');
    await refused(await step(server, d.session_token, { action: 'verify', code: signedIn.sandbox_code! }), 'code_required');
    const resent = await ok(server, d.session_token, { action: 'send_code' });
    assert.equal(resent.transition, null);
    assert.equal(resent.progress.subject_email, 'grace@example.com');
    const verified = await ok(server, d.session_token, { action: 'verify', code: resent.sandbox_code! });
    assert.equal(verified.progress.status, 'reviewing');
  });

  it('refuses steps that do not fit the current screen, and stale step indexes', async () => {
    const d = await createConsent(server);
    await refused(await step(server, d.session_token, { action: 'agree', granted: [], objected: [] }), 'invalid_transition');
    await refused(await step(server, d.session_token, { action: 'approve' }), 'invalid_transition');
    await refused(await step(server, d.session_token, { action: 'acknowledge' }), 'invalid_transition');
    await ok(server, d.session_token, { action: 'begin', step_index: 0 });
    // A double click sends the same step twice: the second is refused instead of skipping a screen.
    await refused(await step(server, d.session_token, { action: 'begin', step_index: 0 }), 'stale_step');
  });

  it('refuses unknown, non-consent and missing required purposes by name', async () => {
    const d = await createConsent(server);
    await toReview(server, d.session_token);
    await refused(await step(server, d.session_token, { action: 'agree', granted: ['nope'], objected: [] }), 'unknown_purpose');
    await refused(await step(server, d.session_token, { action: 'agree', granted: ['service'], objected: [] }), 'not_a_consent_purpose');
    await refused(await step(server, d.session_token, { action: 'agree', granted: [], objected: ['newsletter'] }), 'not_objectable');
    const flow = await server.api('/api/v1/flows', {
      method: 'POST',
      json: {
        flow: {
          pattern: 'standard',
          title: 'Required',
          config: {
            steps: [{ type: 'review' }],
            purposes: [{ key: 'core', label: 'Core', basis: 'consent', mechanism: 'explicit', required: true }],
          },
        },
      },
    });
    const {
      flow: { id },
    } = (await flow.json()) as { flow: { id: string } };
    await server.api(`/api/v1/flows/${id}/activate`, { method: 'POST' });
    const r = await createConsent(server, { subject_ref: id });
    await ok(server, r.session_token, { action: 'begin' });
    await refused(await step(server, r.session_token, { action: 'agree', granted: [], objected: [] }), 'required_purpose_missing');
    await ok(server, r.session_token, { action: 'agree', granted: ['core'], objected: [] });
  });

  it('walks a flow without steps as the standard path', async () => {
    const flow = await server.api('/api/v1/flows', {
      method: 'POST',
      json: {
        flow: {
          pattern: 'standard',
          title: 'No steps',
          config: { purposes: [{ key: 'a', label: 'A', basis: 'consent', mechanism: 'explicit' }] },
        },
      },
    });
    const {
      flow: { id },
    } = (await flow.json()) as { flow: { id: string } };
    await server.api(`/api/v1/flows/${id}/activate`, { method: 'POST' });
    const d = await createConsent(server, { subject_ref: id });
    const [begun] = await toReview(server, d.session_token);
    assert.deepEqual(path(begun!), ['pending', 'authenticating', 1, 5]);
  });

  it('refuses every step once the decision is complete, cancelled or expired', async () => {
    const done = await createConsent(server);
    await ok(server, done.session_token, { action: 'decline' });
    await refused(await step(server, done.session_token, { action: 'begin' }), 'decision_completed');

    const cancelled = await createConsent(server);
    const c = await ok(server, cancelled.session_token, { action: 'cancel', cancelled_by: 'host', reason: 'closed' });
    assert.deepEqual(path(c), ['pending', 'cancelled', 4, 5]);
    assert.equal(c.completion, undefined);
    await refused(await step(server, cancelled.session_token, { action: 'begin' }), 'decision_completed');

    const late = await createConsent(server);
    await ok(server, late.session_token, { action: 'begin' });
    server.advance(15 * 60);
    await refused(await step(server, late.session_token, { action: 'sign_in', email: 'a@b.example' }), 'decision_expired');
  });

  it('takes approve, deny and counter for approvals only, a counter with a proposal', async () => {
    const d = await createDecision(server, { kind: 'approval', subject_ref: 'esc_9', delivery_mode: 'popup' });
    await refused(await step(server, d.session_token, { action: 'begin' }), 'invalid_transition');
    const blank = await step(server, d.session_token, { action: 'counter', proposal: '   ' });
    assert.equal(blank.status, 422);
    const done = await ok(server, d.session_token, { action: 'counter', proposal: 'Half now, half in May' });
    assert.equal(done.completion?.outcome, 'countered');
    assert.equal(done.progress.total_steps, 1);
  });

  it('answers only same-origin JSON: other origins 403, other content types 400, unknown tokens 404', async () => {
    const d = await createConsent(server);
    const url = `${server.url}/decisions/${d.session_token}/transitions`;
    const foreign = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: '{"action":"begin"}',
    });
    await refused(foreign, 'cross_origin', 403);
    const crossSite = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      body: '{"action":"begin"}',
    });
    assert.equal(crossSite.status, 403);
    const form = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"action":"begin"}' });
    await refused(form, 'unsupported_content_type', 400);
    const missing = await step(server, 'dts_' + 'A'.repeat(43), { action: 'begin' });
    assert.equal(missing.status, 404);
    const badJson = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    assert.equal(badJson.status, 400);
    const unknownAction = await step(server, d.session_token, { action: 'teleport' });
    assert.equal(unknownAction.status, 422);
  });
});

describe('participant API: POST /decisions/{token}/drops', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  const metric = async () => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    return Number(/trust_surface_postmessage_dropped_total\{reason="origin_missing"\} (\d+)/.exec(text)?.[1] ?? 0);
  };
  const drop = (token: string, json: unknown) =>
    fetch(`${server.url}/decisions/${token}/drops`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });

  it('counts origin_missing for a page without an allowed origin, and not for one with a target', async () => {
    const withTarget = await createConsent(server);
    assert.deepEqual(await (await drop(withTarget.session_token, { reason: 'origin_missing' })).json(), { counted: 0 });
    assert.equal(await metric(), 0);

    // A popup whose opener's origin is unknown has no target origin.
    const popup = await createDecision(server, { kind: 'consent', subject_ref: server.sandbox.flow_id, delivery_mode: 'popup' });
    assert.deepEqual(await (await drop(popup.session_token, { reason: 'origin_missing', count: 3 })).json(), { counted: 3 });
    assert.equal(await metric(), 3);
  });

  it('caps the reports of one decision', async () => {
    const popup = await createDecision(server, { kind: 'approval', subject_ref: 'esc_x', delivery_mode: 'popup' });
    let counted = 0;
    for (let i = 0; i < 5; i += 1)
      counted += ((await (await drop(popup.session_token, { reason: 'target_missing', count: 50 })).json()) as { counted: number }).counted;
    assert.equal(counted, 200);
  });

  it('validates the report', async () => {
    const popup = await createDecision(server, { kind: 'approval', subject_ref: 'esc_x', delivery_mode: 'popup' });
    assert.equal((await drop(popup.session_token, { reason: 'bored' })).status, 422);
    assert.equal((await drop(popup.session_token, { reason: 'origin_missing', count: 1000 })).status, 422);
    assert.equal((await drop('dts_x', { reason: 'origin_missing' })).status, 404);
  });
});
