// `consent.granted` carries the consent token on every path that issues one (the spec's event table): a capture
// committed by the organisation's server (authorize, ConsentAuthorized) and one committed by the browser. One
// single-use token, whichever of the API answer or the webhook reaches verification first; sealed in the outbox,
// never in the audit trail, the logs or the receipt; only the capture's own application's endpoints get it.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { verifyWebhook, type WebhookEvent } from '@svc/client';
import { startTestServer, type TestServer } from '../../testing.js';
import { verify } from '../decisions/test-support.js';
import { createEndpoint, drain, startReceiver, type Receiver } from '../../platform/webhooks/test-support.js';
import { authorize, capture, createActiveFlow, createCommitApplication, originOf, render, validDecisions } from './test-support.js';

interface Hook {
  receiver: Receiver;
  secret: string;
}

interface Verification {
  valid: boolean;
  status: string;
  flow_id?: string;
  expires_at: string | null;
}

describe('consent.granted carries the consent token of a committed capture', () => {
  let server: TestServer;
  let flowId: string;
  let sandbox: Hook;
  /** A second application of the account, with browser commit enabled and an endpoint of its own. */
  let shop: Hook & { id: string; key: string; flow: string };
  let logged: string[];
  const originals = { log: console.log, info: console.info, warn: console.warn, error: console.error, debug: console.debug };

  before(async () => {
    server = await startTestServer();
    flowId = await createActiveFlow(server);
    const receiver = await startReceiver(200);
    sandbox = { receiver, secret: (await createEndpoint(server, receiver.url, ['*'])).secret };
    const application = await createCommitApplication(server);
    const shopReceiver = await startReceiver(200);
    shop = {
      ...application,
      receiver: shopReceiver,
      secret: (await createEndpoint(server, shopReceiver.url, ['*'], application.id)).secret,
    };
  });
  after(async () => {
    await server.dispose();
    await sandbox.receiver.close();
    await shop.receiver.close();
  });
  beforeEach(async () => {
    await drain(server);
    sandbox.receiver.received.length = 0;
    shop.receiver.received.length = 0;
    logged = [];
    for (const level of Object.keys(originals) as (keyof typeof originals)[]) {
      console[level] = (...args: unknown[]) => logged.push(args.map((a) => (a instanceof Error ? a.stack : String(a))).join(' '));
    }
  });
  afterEach(() => Object.assign(console, originals));

  /** Drains the outbox; every delivery `hook` got since the last call, verified with its secret. */
  async function delivered(hook: Hook): Promise<WebhookEvent[]> {
    await drain(server);
    const events: WebhookEvent[] = [];
    for (const request of hook.receiver.received) {
      events.push(await verifyWebhook(request.body, request.headers, hook.secret, { now: server.context.clock.now() }));
    }
    hook.receiver.received.length = 0;
    return events;
  }

  /** The one `consent.granted` among `events`, as its data. */
  function granted(events: WebhookEvent[]): Record<string, unknown> {
    const found = events.filter((e) => e.type === 'consent.granted');
    assert.equal(found.length, 1, `one consent.granted among ${JSON.stringify(events.map((e) => e.type))}`);
    return found[0]!.data as Record<string, unknown>;
  }

  const verified = async (token: string) => (await (await verify(server, token)).json()) as Verification;

  /** Commits a sandbox capture from the organisation's server; the ConsentAuthorized answer. */
  async function serverCommit(decisions: Record<string, unknown> = validDecisions): Promise<Record<string, unknown>> {
    const token = (await capture(server, { flow_id: flowId, decisions })).session_token;
    const res = await authorize(server, token, { subject: { email: 'ada@example.com', external_id: 'crm-1' } });
    const body = (await res.json()) as { decision: Record<string, unknown> };
    assert.equal(res.status, 200, JSON.stringify(body));
    return body.decision;
  }

  /** The token is in no stored outbox body, audit event or receipt, no log line, and nothing another app got. */
  function assertKeptIn(token: string, other: Hook): void {
    const db = server.context.db;
    const bodies = db.prepare('SELECT body_enc FROM webhook_events').pluck().all() as string[];
    assert.ok(bodies.length > 0);
    assert.ok(!bodies.some((b) => b.includes(token)), 'the outbox body is sealed at rest');
    const audit = db.prepare('SELECT data FROM audit_events').pluck().all() as string[];
    assert.ok(!audit.some((d) => d.includes(token)), 'never in the audit trail');
    const receipts = db.prepare('SELECT receipt FROM consent_records').pluck().all() as string[];
    assert.ok(!receipts.some((r) => r.includes(token)), "never in a record's receipt");
    assert.ok(!logged.some((line) => line.includes(token)), 'never logged');
    assert.ok(!other.receiver.received.some((r) => r.body.includes(token)), "another application's endpoint never gets it");
    assert.equal(server.context.metrics.value('webhooks.payload_invalid_total', { type: 'consent.granted' }), 0);
  }

  it('server commit: the webhook carries the token the answer carries, with its expiry, user id and flow id; it verifies once', async () => {
    const answer = await serverCommit();
    const data = granted(await delivered(sandbox));
    assert.match(String(data.consent_token), /^[A-Za-z0-9_-]{43}$/);
    assert.equal(data.consent_token, answer.consent_token, 'one token: the same the API answer hands out');
    assert.equal(data.consent_token_expires_at, answer.consent_token_expires_at);
    assert.equal(Date.parse(String(data.consent_token_expires_at)) - Date.parse(String(answer.committed_at)), 5 * 60 * 1000);
    assert.deepEqual([data.flow_id, data.record_id], [flowId, answer.record_id]);
    assert.match(String(data.user_id), /^prs_/);
    assert.deepEqual(data.subject_ref, { email: 'ada@example.com', external_id: 'crm-1' });

    const first = await verified(String(data.consent_token));
    assert.deepEqual([first.valid, first.status, first.flow_id], [true, 'fulfilled', flowId]);
    const fromAnswer = await verified(String(answer.consent_token));
    assert.deepEqual([fromAnswer.valid, fromAnswer.status], [false, 'expired'], 'the answer copy is spent by the webhook copy');
    assertKeptIn(String(data.consent_token), shop);
  });

  it('server commit: verified first from the answer, the webhook copy then reports expired', async () => {
    const answer = await serverCommit();
    assert.deepEqual(Object.values(await verified(String(answer.consent_token))).slice(0, 2), [true, 'fulfilled']);
    const data = granted(await delivered(sandbox));
    assert.deepEqual(Object.values(await verified(String(data.consent_token))).slice(0, 2), [false, 'expired']);
  });

  it('server commit: the webhook token past 5 minutes reports expired (test clock)', async () => {
    await serverCommit();
    const data = granted(await delivered(sandbox));
    server.advance(5 * 60);
    assert.deepEqual(Object.values(await verified(String(data.consent_token))).slice(0, 2), [false, 'expired']);
  });

  it('browser commit: only the webhook carries the token (the browser never sees it); it verifies once', async () => {
    const { render_proof } = await render(server, shop.flow, { key: shop.key });
    const res = await fetch(`${server.url}/api/v1/captures`, {
      method: 'POST',
      headers: {
        'x-publishable-key': shop.key,
        origin: originOf(server),
        'content-type': 'application/json',
        'x-svc-render-proof': render_proof,
      },
      body: JSON.stringify({ flow_id: shop.flow, decisions: validDecisions, commit: true, subject: { email: 'grace@example.com' } }),
    });
    const browserAnswer = await res.text();
    assert.equal(res.status, 201, browserAnswer);
    const committed = (JSON.parse(browserAnswer) as { capture: { committed: boolean; record_id: string } }).capture;
    assert.equal(committed.committed, true);

    const data = granted(await delivered(shop));
    assert.match(String(data.consent_token), /^[A-Za-z0-9_-]{43}$/);
    assert.ok(!browserAnswer.includes(String(data.consent_token)), 'the browser is not trusted with it');
    assert.deepEqual([data.flow_id, data.record_id, data.channel], [shop.flow, committed.record_id, 'embedded_field_browser']);
    assert.match(String(data.user_id), /^prs_/);
    assert.ok(data.consent_token_expires_at);

    const first = await verified(String(data.consent_token));
    assert.deepEqual([first.valid, first.status, first.flow_id], [true, 'fulfilled', shop.flow]);
    assert.deepEqual(Object.values(await verified(String(data.consent_token))).slice(0, 2), [false, 'expired']);
    assert.equal((await delivered(sandbox)).length, 0, "the sandbox application's endpoint gets nothing of the shop's");
    assertKeptIn(String(data.consent_token), sandbox);
  });

  it('a commit that grants nothing: consent.denied keeps its shape, without a token', async () => {
    const answer = await serverCommit({ newsletter: { decision: 'declined' }, partners: { decision: 'declined' } });
    assert.equal(answer.consent_token, null);
    const events = await delivered(sandbox);
    const denied = events.filter((e) => e.type === 'consent.denied');
    assert.equal(denied.length, 1, JSON.stringify(events.map((e) => e.type)));
    assert.deepEqual([denied[0]!.data.consent_token, denied[0]!.data.consent_token_expires_at], [null, null]);
    assert.equal(events.filter((e) => e.type === 'consent.granted').length, 0);
  });
});
