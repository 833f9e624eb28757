// escalations.waitFor (and the plain reads) with a fetch double: Retry-After honoured and capped, the fallback
// interval, abort, timeout, and an escalation that ends otherwise than the caller needs.
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { createClient, type SvcClient } from '../lib/client.js';
import {
  SvcAbortError,
  SvcConfigurationError,
  SvcEscalationOutcomeError,
  SvcNotFoundError,
  SvcTimeoutError,
  isSvcError,
} from '../lib/errors.js';
import type { Escalation } from '@svc/schemas';
import { escalationOf } from '../testing/delegations.test.helper.js';
import { rejection } from '../testing/rejection.test.helper.js';
import { MAX_ESCALATION_POLL_MS } from './escalations.js';

type Answer = { status?: number; escalation?: Escalation; body?: unknown; retryAfter?: string };

/** A client whose reads are answered from `answers` in turn (the last one repeats), recording when each came. */
function pollerWith(answers: Answer[]) {
  const reads: { url: string; at: number }[] = [];
  const svc: SvcClient = createClient({
    baseUrl: 'https://api.example.test',
    apiToken: 'test-token',
    fetch: async (url) => {
      const answer = answers[Math.min(reads.length, answers.length - 1)]!;
      reads.push({ url, at: performance.now() });
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (answer.retryAfter !== undefined) headers['retry-after'] = answer.retryAfter;
      return new Response(JSON.stringify(answer.body ?? { escalation: answer.escalation }), { status: answer.status ?? 200, headers });
    },
  });
  return { svc, reads };
}

const pending = (retryAfter?: string): Answer => ({ escalation: escalationOf(), retryAfter });
const ended = (changes: Partial<Escalation>): Answer => ({
  escalation: escalationOf({ decided_at: '2026-11-24T12:01:00.000Z', ...changes }),
});
const gaps = (reads: { at: number }[]) => reads.slice(1).map((read, i) => read.at - reads[i]!.at);

describe('escalations.waitFor', () => {
  it('honours Retry-After between reads, not the fallback interval, and resolves to the decided escalation', async () => {
    const { svc, reads } = pollerWith([pending('1'), ended({ status: 'approved', authorization_record_id: 'ar_1' })]);
    const escalation = await svc.escalations.waitFor('esc_Ab12', { outcome: 'approved', pollIntervalMs: 10 });
    assert.equal(escalation.status, 'approved');
    assert.equal(escalation.authorization_record_id, 'ar_1');
    assert.deepEqual(
      reads.map((r) => r.url),
      Array(2).fill('https://api.example.test/api/v1/oap/escalations/esc_Ab12'),
    );
    assert.ok(gaps(reads)[0]! >= 990, `waited ${gaps(reads)[0]} ms for Retry-After: 1`);
  });

  it('falls back to pollIntervalMs when the service sends no Retry-After', async () => {
    const { svc, reads } = pollerWith([pending(), pending(), pending(), ended({ status: 'denied' })]);
    const escalation = await svc.escalations.waitFor('esc_Ab12', { pollIntervalMs: 120 });
    assert.equal(escalation.status, 'denied', 'without an outcome, any end resolves');
    assert.equal(reads.length, 4);
    for (const gap of gaps(reads)) assert.ok(gap >= 110 && gap < 900, `waited ${gap} ms`);
  });

  it('never waits longer than 30 s between reads, whatever Retry-After asks', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const { svc, reads } = pollerWith([pending('3600'), ended({ status: 'approved' })]);
      const waiting = svc.escalations.waitFor('esc_Ab12');
      const settle = () => new Promise((resolve) => setImmediate(resolve));
      await settle();
      assert.equal(reads.length, 1);
      mock.timers.tick(MAX_ESCALATION_POLL_MS - 1);
      await settle();
      assert.equal(reads.length, 1);
      mock.timers.tick(1);
      await settle();
      assert.equal(reads.length, 2);
      assert.equal((await waiting).status, 'approved');
    } finally {
      mock.timers.reset();
    }
  });

  it('rejects with SvcAbortError carrying the reason as soon as the signal aborts, and stops reading', async () => {
    const { svc, reads } = pollerWith([pending('10')]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user cancelled')), 100);
    const started = performance.now();
    const err = await rejection(svc.escalations.waitFor('esc_Ab12', { signal: controller.signal }), SvcAbortError);
    assert.ok(performance.now() - started < 2_000);
    assert.equal((err.cause as Error).message, 'user cancelled');
    assert.equal(reads.length, 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(reads.length, 1, 'no read after the abort');

    const already = new AbortController();
    already.abort();
    await rejection(svc.escalations.waitFor('esc_Ab12', { signal: already.signal }), SvcAbortError);
    assert.equal(reads.length, 1, 'an aborted signal reads nothing');
  });

  it("rejects with the client's SvcTimeoutError after timeoutMs, without waiting out Retry-After", async () => {
    const { svc, reads } = pollerWith([pending('1')]);
    const started = performance.now();
    const err = await rejection(svc.escalations.waitFor('esc_Ab12', { timeoutMs: 300 }), SvcTimeoutError);
    const took = performance.now() - started;
    assert.ok(took >= 290 && took < 900, `took ${took} ms`);
    assert.equal(err.code, 'ERR_SVC_TIMEOUT');
    assert.match(err.message, /esc_Ab12 was still pending after 300 ms/);
    assert.equal(reads.length, 1);
  });

  for (const [status, changes] of [
    ['denied', {}],
    ['countered', { counter_proposal: 'Pay 200 EUR instead' }],
    ['expired', { decided_at: null }],
  ] as const) {
    it(`rejects with SvcEscalationOutcomeError carrying the escalation when it ends ${status} instead of approved`, async () => {
      const { svc } = pollerWith([pending(), ended({ status, ...changes })]);
      const err = await rejection(
        svc.escalations.waitFor('esc_Ab12', { outcome: 'approved', pollIntervalMs: 10 }),
        SvcEscalationOutcomeError,
      );
      assert.ok(isSvcError(err) && err.code === 'ERR_SVC_ESCALATION_OUTCOME');
      assert.equal(err.escalation.status, status);
      assert.equal(err.expected, 'approved');
      assert.match(err.message, new RegExp(`ended ${status}, not approved`));
      if (status === 'countered') assert.match(err.message, /Pay 200 EUR instead/);
    });
  }

  it('resolves at once, with one read, when the escalation is already decided', async () => {
    const { svc, reads } = pollerWith([ended({ status: 'approved' })]);
    assert.equal((await svc.escalations.waitFor('esc_Ab12', { outcome: 'approved' })).status, 'approved');
    assert.equal(reads.length, 1);
  });

  it('lets a failed read fail the wait (an unknown escalation)', async () => {
    const { svc } = pollerWith([{ status: 404, body: { message: 'No such escalation.', code: 'not_found' } }]);
    await rejection(svc.escalations.waitFor('esc_nope'), SvcNotFoundError);
  });

  it('refuses nonsensical intervals and timeouts', async () => {
    const { svc, reads } = pollerWith([pending()]);
    await rejection(svc.escalations.waitFor('esc_Ab12', { pollIntervalMs: 0 }), SvcConfigurationError);
    await rejection(svc.escalations.waitFor('esc_Ab12', { timeoutMs: -5 }), SvcConfigurationError);
    assert.equal(reads.length, 0);
  });
});

describe('escalations reads', () => {
  it('lists with status and trigger filters, and reads one by id', async () => {
    const { svc, reads } = pollerWith([{ body: { escalations: [escalationOf()], next_cursor: null } }, pending('5')]);
    const listed = await svc.escalations.list({ status: 'pending', trigger: 'value', limit: 10 }).page();
    assert.deepEqual(
      listed.items.map((e) => e.id),
      ['esc_Ab12'],
    );
    assert.equal(reads[0]!.url, 'https://api.example.test/api/v1/oap/escalations?status=pending&trigger=value&limit=10');
    assert.equal((await svc.escalations.get('esc_Ab12')).status, 'pending');
  });
});
