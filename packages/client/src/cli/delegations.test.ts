// The `svc delegations …`, `svc escalations …` and `svc authority check` commands without a service: the request
// the flags make, and the usage errors raised before anything is sent.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SvcClient } from '../lib/client.js';
import { commands, delegationRequestOf, EXIT_ESCALATED, type Invocation } from './commands.js';
import { CliUsageError, type CliConfig } from './config.js';
import { checkedAt, escalationOf, proposedAction } from '../testing/delegations.test.helper.js';

describe('svc delegations create: the request its flags make', () => {
  it('makes an agent grant with every bound, in the wire shape', () => {
    const request = delegationRequestOf({
      delegate: 'agt_dev_1', scopes: 'payments:write,bookings:read', 'max-per-day': '20', expires: '2027-01-01T00:00:00Z',
      actions: 'read,write', 'max-value': '100', currency: 'eur', jurisdictions: 'de, fr', escalation: true, 'min-trust': '40',
      'not-before': '2026-12-01T00:00:00Z', 'not-after': '2026-12-31T00:00:00Z', 'allow-sub-delegation': true,
    });
    assert.deepEqual(request, {
      delegate_id: 'agt_dev_1',
      delegation_grant: {
        delegation_type: 'ai_agent',
        delegated_scopes: ['payments:write', 'bookings:read'],
        allow_sub_delegation: true,
        max_actions_per_day: 20,
        expires_at: '2027-01-01T00:00:00Z',
        bounds: {
          actions: ['read', 'write'],
          value: { max_per_transaction: 100, currency: 'EUR' },
          time: { not_before: '2026-12-01T00:00:00Z', not_after: '2026-12-31T00:00:00Z' },
          escalation: { allowed: true },
          reputation: { min_trust_score: 40 },
          jurisdiction: { allowed: ['DE', 'FR'] },
        },
      },
    });
  });

  it('makes a person grant of a human type, and a sub-delegation', () => {
    assert.deepEqual(delegationRequestOf({ delegate: 'prs_2', type: 'caregiver', scopes: 'records:read' }), {
      delegate_id: 'prs_2', delegation_grant: { delegation_type: 'caregiver', delegated_scopes: ['records:read'] },
    });
    assert.deepEqual(delegationRequestOf({ delegate: 'agt_dev_2', parent: 'dlg_dev_1', 'not-after': '2026-12-31T00:00:00Z' }).delegation_grant, {
      delegation_type: 'ai_agent', bounds: { time: { not_after: '2026-12-31T00:00:00Z' } }, parent_grant_id: 'dlg_dev_1',
    });
  });

  for (const [what, flags, message] of [
    ['no delegate', {}, /needs --delegate/],
    ['a person without a type', { delegate: 'prs_2' }, /needs --type, one of guardian, caregiver/],
    ['an unknown type', { delegate: 'prs_2', type: 'butler' }, /--type is one of/],
    ['bounds for a person', { delegate: 'prs_2', type: 'peer', 'max-value': '5', currency: 'EUR' }, /bounds .* are for a delegation to an agent/],
    ['a value without a currency', { delegate: 'agt_dev_1', 'max-value': '5' }, /--max-value and --currency go together/],
    ['an unknown action', { delegate: 'agt_dev_1', actions: 'read,launch' }, /--actions takes/],
    ['a value that is no number', { delegate: 'agt_dev_1', 'max-value': 'lots', currency: 'EUR' }, /--max-value must be a number/],
    ['a fractional daily limit', { delegate: 'agt_dev_1', 'max-per-day': '2.5' }, /--max-per-day must be a whole number/],
  ] as const) {
    it(`refuses ${what}`, () => {
      assert.throws(() => delegationRequestOf(flags as Invocation['flags']), (err: unknown) => err instanceof CliUsageError && message.test(err.message));
    });
  }
});

describe('svc authority check and escalations: usage and output, with a stand-in client', () => {
  const config = { baseUrl: 'http://127.0.0.1:1' } as CliConfig;
  const check = { action: proposedAction, delegation_grant_id: 'dlg_dev_1', checked_at: checkedAt };
  const standIn = (result: unknown) => ({ authority: { check: async () => result } }) as unknown as SvcClient;
  const run = (svc: SvcClient, name: string, flags: Invocation['flags'], args: string[] = []) => commands[name]!.run(svc, { args, flags, config });
  const flags = { scope: 'payments:write', action: 'write', value: '240', currency: 'EUR', description: 'Pay the plumber' };

  it('is an agent command: authority check requires the agent token, escalations prefer it', () => {
    assert.equal(commands['authority check']!.agent, 'required');
    for (const name of ['escalations list', 'escalations get', 'escalations wait']) assert.equal(commands[name]!.agent, 'preferred', name);
    for (const name of ['delegations create', 'delegations list', 'agents trust-score']) assert.equal(commands[name]!.agent, undefined, name);
  });

  it('exits 0 when allowed, 1 when denied naming the bound, 3 when escalated with the next step', async () => {
    const allowed = await run(standIn({ outcome: 'allowed', check: { ...check, outcome: 'allowed', remaining_today: 2 } }), 'authority check', flags);
    assert.equal(allowed.exitCode ?? 0, 0);
    assert.equal(allowed.human, 'Allowed: write payments:write 240 EUR: Pay the plumber (2 more today)');

    const denied = await run(standIn({ outcome: 'denied', bound: 'jurisdiction', message: 'US is not among DE, FR.', errors: [] }), 'authority check', flags);
    assert.equal(denied.exitCode, 1);
    assert.equal(denied.human, 'Denied (beyond the jurisdiction bound): US is not among DE, FR.');

    const escalation = escalationOf();
    const escalated = await run(standIn({ outcome: 'escalated', check: { ...check, outcome: 'escalated', bound: 'value', escalation }, escalation, retryAfter: 5 }), 'authority check', flags);
    assert.equal(escalated.exitCode, EXIT_ESCALATED);
    assert.match(escalated.human, /^Escalated to the principal \(beyond the value bound\)/);
    assert.match(escalated.human, /svc escalations wait esc_Ab12 --outcome approved/);
  });

  it('refuses incomplete or inconsistent flags before calling the service', async () => {
    const untouched = {} as SvcClient;
    for (const [name, bad] of [
      ['authority check', { scope: 'payments:write', action: 'write' }],
      ['authority check', { ...flags, action: 'launch' }],
      ['authority check', { ...flags, currency: undefined }],
      ['authority check', { ...flags, value: 'much' }],
      ['escalations list', { status: 'open' }],
      ['escalations list', { trigger: 'jurisdiction' }],
      ['delegations list', { role: 'owner' }],
      ['escalations wait', { outcome: 'pending' }],
      ['escalations wait', { timeout: '0' }],
    ] as const) {
      await assert.rejects(run(untouched, name, bad as Invocation['flags'], ['esc_1']), CliUsageError, `${name} ${JSON.stringify(bad)}`);
    }
  });
});
