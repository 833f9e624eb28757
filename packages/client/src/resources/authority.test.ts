// authority.check with a fetch double: the three answers an agent branches on (allowed, escalated, denied) and the
// refusals that still throw, as the service words them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createClient, type SvcClient } from '../lib/client.js';
import {
  SvcAuthenticationError,
  SvcHttpError,
  SvcPermissionError,
  SvcResponseValidationError,
  SvcValidationError,
  type SvcError,
} from '../lib/errors.js';
import type { AuthorityCheckRequest } from '@svc/schemas';
import { checkedAt, escalationOf, proposedAction } from '../testing/delegations.test.helper.js';
import { rejection } from '../testing/rejection.test.helper.js';

const at = checkedAt;
const action = proposedAction;
const request: AuthorityCheckRequest = {
  scope: 'payments:write',
  action: 'write',
  value: 240,
  currency: 'EUR',
  description: 'Pay the plumber',
};
const pendingEscalation = escalationOf();

/** A client whose every call is answered by `answer` (status, body, headers), recording what it sent. */
function agentWith(answer: { status: number; body: unknown; headers?: Record<string, string> }) {
  const sent: { url: string; init: RequestInit }[] = [];
  const svc: SvcClient = createClient({
    baseUrl: 'https://api.example.test',
    agentToken: 'ra_agent_0123456789abcdefghij',
    maxRetries: 3,
    fetch: async (url, init) => {
      sent.push({ url, init });
      return new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'content-type': 'application/json', ...answer.headers },
      });
    },
  });
  return { svc, sent };
}

describe('authority.check', () => {
  it('resolves allowed on 200, posting the action with the agent token', async () => {
    const check = { outcome: 'allowed', action, delegation_grant_id: 'dlg_dev_1', remaining_today: 4, checked_at: at };
    const { svc, sent } = agentWith({ status: 200, body: { authority_check: check } });
    const result = await svc.authority.check(request);
    assert.equal(result.outcome, 'allowed');
    assert.deepEqual(result.outcome === 'allowed' && result.check, check);
    assert.equal(sent[0]!.url, 'https://api.example.test/api/v1/authorities/check');
    assert.equal(sent[0]!.init.method, 'POST');
    assert.equal((sent[0]!.init.headers as Record<string, string>).authorization, 'Bearer ra_agent_0123456789abcdefghij');
    assert.deepEqual(JSON.parse(sent[0]!.init.body as string), request);
  });

  it('resolves escalated on 202 with the escalation and the Retry-After to wait', async () => {
    const check = {
      outcome: 'escalated',
      action,
      delegation_grant_id: 'dlg_dev_1',
      bound: 'value',
      escalation: pendingEscalation,
      checked_at: at,
    };
    const { svc } = agentWith({
      status: 202,
      body: { authority_check: check },
      headers: { 'retry-after': '5', location: '/api/v1/oap/escalations/esc_Ab12' },
    });
    const result = await svc.authority.check(request);
    assert.equal(result.outcome, 'escalated');
    if (result.outcome !== 'escalated') return;
    assert.equal(result.escalation.id, 'esc_Ab12');
    assert.equal(result.check.bound, 'value');
    assert.equal(result.retryAfter, 5);
  });

  it('resolves denied on 403 bound_exceeded, naming the bound, and never retries it', async () => {
    const body = {
      message: 'The action is beyond the jurisdiction bound: US is not among DE, FR.',
      code: 'bound_exceeded',
      errors: [{ path: 'jurisdiction', code: 'jurisdiction', message: 'US is not among DE, FR.' }],
    };
    const { svc, sent } = agentWith({ status: 403, body });
    const result = await svc.authority.check({ ...request, jurisdiction: 'US' }, { idempotencyKey: 'k1' });
    assert.deepEqual(result, { outcome: 'denied', bound: 'jurisdiction', message: body.message, errors: body.errors });
    assert.equal(sent.length, 1);
  });

  it('lets an agent switch on the outcome', async () => {
    const { svc } = agentWith({
      status: 403,
      body: { message: 'Daily limit reached.', code: 'bound_exceeded', errors: [{ path: '', code: 'sequence', message: '5 of 5 today' }] },
    });
    const result = await svc.authority.check(request);
    let said = '';
    switch (result.outcome) {
      case 'allowed':
        said = `go ${result.check.remaining_today}`;
        break;
      case 'escalated':
        said = `wait for ${result.escalation.id}`;
        break;
      case 'denied':
        said = `stop: ${result.bound}`;
        break;
    }
    assert.equal(said, 'stop: sequence');
  });

  for (const [what, status, body, type, reason] of [
    [
      'an expired agent token',
      401,
      { message: 'The agent token has expired.', code: 'invalid_token' },
      SvcAuthenticationError,
      'invalid_token',
    ],
    [
      'a suspended grant',
      403,
      { message: 'The delegation grant is suspended.', code: 'grant_suspended' },
      SvcPermissionError,
      'grant_suspended',
    ],
    [
      'an escalation not approved',
      409,
      { message: 'The escalation is pending.', code: 'escalation_not_approved' },
      SvcHttpError,
      'escalation_not_approved',
    ],
    ['an escalation used already', 409, { message: 'The escalation was used.', code: 'escalation_used' }, SvcHttpError, 'escalation_used'],
    [
      'an invalid request',
      422,
      {
        message: 'Invalid request.',
        code: 'validation_failed',
        errors: [{ path: 'currency', code: 'custom', message: 'value and currency go together' }],
      },
      SvcValidationError,
      'validation_failed',
    ],
  ] as [string, number, { message: string; code: string }, abstract new (...args: never[]) => SvcError, string][]) {
    it(`throws on ${what} (${status} ${reason})`, async () => {
      const { svc } = agentWith({ status, body });
      const err = await rejection(svc.authority.check(request), type);
      assert.equal(err.reason, reason);
      assert.equal(err.message, body.message);
    });
  }

  it('refuses a 403 bound_exceeded that names no known bound, rather than guessing', async () => {
    const { svc } = agentWith({
      status: 403,
      body: { message: 'Beyond.', code: 'bound_exceeded', errors: [{ path: '', code: 'mood', message: '?' }] },
    });
    const err = await rejection(svc.authority.check(request), SvcResponseValidationError);
    assert.ok(err.cause instanceof SvcPermissionError);
  });

  it('refuses an answer whose status and outcome disagree, and an escalation without its escalation', async () => {
    const allowed = { outcome: 'allowed', action, delegation_grant_id: 'dlg_dev_1', checked_at: at };
    await rejection(
      agentWith({ status: 202, body: { authority_check: allowed } }).svc.authority.check(request),
      SvcResponseValidationError,
    );
    const escalated = { outcome: 'escalated', action, delegation_grant_id: 'dlg_dev_1', bound: 'value', checked_at: at };
    await rejection(
      agentWith({ status: 202, body: { authority_check: escalated } }).svc.authority.check(request),
      SvcResponseValidationError,
    );
    await rejection(
      agentWith({ status: 200, body: { authority_check: { ...escalated, escalation: pendingEscalation } } }).svc.authority.check(request),
      SvcResponseValidationError,
    );
  });
});
