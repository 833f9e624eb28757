// The `svc delegations …`, `svc escalations …`, `svc authority check` and `svc agents trust-score` commands: the
// request the flags make and the usage errors raised before anything is sent, then the whole command line (run())
// against a reference server, with a signed-in person's stored credentials and SVC_AGENT_TOKEN.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { SvcClient } from '../lib/client.js';
import type { AuthorityCheckResult } from '../resources/authority.js';
import type { DelegationGrant, Escalation, TokenExchangeResponse, TrustScore } from '@svc/schemas';
import { runSvc, storeSignIn } from '../testing/cli.test.helper.js';
import { answerAsAddressee } from '../testing/participant.test.helper.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { commands, delegationRequestOf, EXIT_ESCALATED, type Invocation } from './commands.js';
import { CliUsageError, type CliConfig } from './config.js';
import { EXIT } from './run.js';
import { checkedAt, escalationOf, proposedAction } from '../testing/delegations.test.helper.js';

describe('svc delegations create: the request its flags make', () => {
  it('makes an agent grant with every bound, in the wire shape', () => {
    const request = delegationRequestOf({
      delegate: 'agt_dev_1',
      scopes: 'payments:write,bookings:read',
      'max-per-day': '20',
      expires: '2027-01-01T00:00:00Z',
      actions: 'read,write',
      'max-value': '100',
      currency: 'eur',
      jurisdictions: 'de, fr',
      escalation: true,
      'min-trust': '40',
      'not-before': '2026-12-01T00:00:00Z',
      'not-after': '2026-12-31T00:00:00Z',
      'allow-sub-delegation': true,
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
      delegate_id: 'prs_2',
      delegation_grant: { delegation_type: 'caregiver', delegated_scopes: ['records:read'] },
    });
    assert.deepEqual(
      delegationRequestOf({ delegate: 'agt_dev_2', parent: 'dlg_dev_1', 'not-after': '2026-12-31T00:00:00Z' }).delegation_grant,
      {
        delegation_type: 'ai_agent',
        bounds: { time: { not_after: '2026-12-31T00:00:00Z' } },
        parent_grant_id: 'dlg_dev_1',
      },
    );
  });

  for (const [what, flags, message] of [
    ['no delegate', {}, /needs --delegate/],
    ['a person without a type', { delegate: 'prs_2' }, /needs --type, one of guardian, caregiver/],
    ['an unknown type', { delegate: 'prs_2', type: 'butler' }, /--type is one of/],
    [
      'bounds for a person',
      { delegate: 'prs_2', type: 'peer', 'max-value': '5', currency: 'EUR' },
      /bounds .* are for a delegation to an agent/,
    ],
    ['a value without a currency', { delegate: 'agt_dev_1', 'max-value': '5' }, /--max-value and --currency go together/],
    ['an unknown action', { delegate: 'agt_dev_1', actions: 'read,launch' }, /--actions takes/],
    ['a value that is no number', { delegate: 'agt_dev_1', 'max-value': 'lots', currency: 'EUR' }, /--max-value must be a number/],
    ['a fractional daily limit', { delegate: 'agt_dev_1', 'max-per-day': '2.5' }, /--max-per-day must be a whole number/],
  ] as const) {
    it(`refuses ${what}`, () => {
      assert.throws(
        () => delegationRequestOf(flags as Invocation['flags']),
        (err: unknown) => err instanceof CliUsageError && message.test(err.message),
      );
    });
  }
});

describe('svc authority check and escalations: usage and output, with a stand-in client', () => {
  const config = { baseUrl: 'http://127.0.0.1:1' } as CliConfig;
  const check = { action: proposedAction, delegation_grant_id: 'dlg_dev_1', checked_at: checkedAt };
  const standIn = (result: unknown) => ({ authority: { check: async () => result } }) as unknown as SvcClient;
  const run = (svc: SvcClient, name: string, flags: Invocation['flags'], args: string[] = []) =>
    commands[name]!.run(svc, { args, flags, config });
  const flags = { scope: 'payments:write', action: 'write', value: '240', currency: 'EUR', description: 'Pay the plumber' };

  it('is an agent command: authority check requires the agent token, escalations prefer it', () => {
    assert.equal(commands['authority check']!.agent, 'required');
    for (const name of ['me', 'escalations list', 'escalations get', 'escalations wait'])
      assert.equal(commands[name]!.agent, 'preferred', name);
    for (const name of ['delegations create', 'delegations list', 'agents trust-score'])
      assert.equal(commands[name]!.agent, undefined, name);
  });

  it('exits 0 when allowed, 1 when denied naming the bound, 3 when escalated with the next step', async () => {
    const allowed = await run(
      standIn({ outcome: 'allowed', check: { ...check, outcome: 'allowed', remaining_today: 2 } }),
      'authority check',
      flags,
    );
    assert.equal(allowed.exitCode ?? 0, 0);
    assert.equal(allowed.human, 'Allowed: write payments:write 240 EUR: Pay the plumber (2 more today)');

    const denied = await run(
      standIn({ outcome: 'denied', bound: 'jurisdiction', message: 'US is not among DE, FR.', errors: [] }),
      'authority check',
      flags,
    );
    assert.equal(denied.exitCode, 1);
    assert.equal(denied.human, 'Denied (beyond the jurisdiction bound): US is not among DE, FR.');

    const escalation = escalationOf();
    const escalated = await run(
      standIn({ outcome: 'escalated', check: { ...check, outcome: 'escalated', bound: 'value', escalation }, escalation, retryAfter: 5 }),
      'authority check',
      flags,
    );
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

describe('svc delegations, escalations, authority check and agents trust-score against the reference server', () => {
  let server: TestServer;
  let configHome: string;
  let agentId: string;
  let clientId: string;
  let clientSecret: string;

  /** Runs `svc <argv>` in this process with only the given environment; answers exit code and output. */
  function svc(argv: string[], env: Record<string, string> = {}) {
    return runSvc(argv, { SVC_BASE_URL: server.url, XDG_CONFIG_HOME: configHome, ...env }, configHome);
  }
  const json = async <T>(argv: string[], env: Record<string, string> = {}): Promise<T> => {
    const result = await svc([...argv, '--json'], env);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout) as T;
  };

  before(async () => {
    server = await startTestServer();
    configHome = mkdtempSync(join(tmpdir(), 'svc-delegations-'));
    // Ada signed in with svc login: her stored access token is what the delegation commands act with.
    await storeSignIn(server, configHome, 'ada@example.com');
    const res = await server.api(`/api/v1/applications/${server.sandbox.application_id}/oauth_clients`, {
      method: 'POST',
      json: {
        oauth_client: {
          name: 'CLI agent runtime',
          client_type: 'confidential',
          redirect_uris: ['https://agent.example/cb'],
          grant_types: ['urn:ietf:params:oauth:grant-type:token-exchange'],
        },
      },
    });
    assert.equal(res.status, 201, await res.clone().text());
    ({ client_id: clientId, client_secret: clientSecret } = (
      (await res.json()) as { oauth_client: { client_id: string; client_secret: string } }
    ).oauth_client);
    const agent = await json<{ id: string }>(['agents', 'create', '--name', 'CLI agent', '--oauth-client', clientId], {
      SVC_API_TOKEN: server.sandbox.api_token,
    });
    agentId = agent.id;
  });
  after(async () => {
    rmSync(configHome, { recursive: true, force: true });
    await server.dispose();
  });

  /** Ada grants the agent 100 EUR a payment in DE or FR, escalation allowed; the agent's token for it. */
  async function grantAndExchange(): Promise<{ grant: DelegationGrant; agentEnv: Record<string, string> }> {
    const grant = await json<DelegationGrant>([
      'delegations',
      'create',
      '--delegate',
      agentId,
      '--scopes',
      'payments:write',
      '--max-per-day',
      '5',
      '--actions',
      'write',
      '--max-value',
      '100',
      '--currency',
      'EUR',
      '--jurisdictions',
      'DE,FR',
      '--escalation',
    ]);
    const exchanged = await json<TokenExchangeResponse>(['delegations', 'exchange', grant.id, '--client-id', clientId], {
      SVC_AGENT_CLIENT_SECRET: clientSecret,
    });
    return { grant, agentEnv: { SVC_AGENT_TOKEN: exchanged.access_token } };
  }

  it('the signed-in person creates a bounded grant, shows it with its bounds, and lists it as principal', async () => {
    const created = await svc([
      'delegations',
      'create',
      '--delegate',
      agentId,
      '--scopes',
      'payments:write',
      '--max-value',
      '100',
      '--currency',
      'EUR',
      '--jurisdictions',
      'DE,FR',
      '--escalation',
      '--max-per-day',
      '5',
      '--min-trust',
      '10',
    ]);
    assert.equal(created.code, 0, created.stderr);
    const id = /^id\s+(dlg_\w+)$/m.exec(created.stdout)?.[1];
    assert.ok(id, created.stdout);
    assert.match(created.stdout, /^delegate\s+agt_dev_\w+ \(agent\)$/m);
    assert.match(created.stdout, /^ {2}value\s+at most 100 EUR per action$/m);
    assert.match(created.stdout, /^ {2}jurisdiction\s+DE, FR$/m);
    assert.match(created.stdout, /^ {2}sequence\s+5 actions a day$/m);
    const listed = await json<DelegationGrant[]>(['delegations', 'list', '--role', 'principal']);
    assert.ok(listed.some((g) => g.id === id));
    assert.equal((await json<DelegationGrant>(['delegations', 'get', id])).bounds.reputation?.min_trust_score, 10);
  });

  it('the agent checks with SVC_AGENT_TOKEN: exit 0 allowed, 3 escalated, 1 denied; waits for the approval and uses it', async () => {
    const { agentEnv } = await grantAndExchange();
    const me = await json<{ kind: string }>(['me'], agentEnv);
    assert.equal(me.kind, 'agent');

    const action = [
      'authority',
      'check',
      '--scope',
      'payments:write',
      '--action',
      'write',
      '--currency',
      'EUR',
      '--jurisdiction',
      'FR',
      '--description',
      'Pay the hotel',
    ];
    const allowed = await svc([...action, '--value', '40'], agentEnv);
    assert.equal(allowed.code, EXIT.ok, allowed.stderr);
    assert.equal(allowed.stdout, 'Allowed: write payments:write 40 EUR in FR: Pay the hotel (4 more today)\n');

    const denied = await svc([...action, '--value', '40', '--jurisdiction', 'US'], agentEnv);
    assert.equal(denied.code, 1);
    assert.match(denied.stdout, /^Denied \(beyond the jurisdiction bound\): /);

    const escalated = await svc([...action, '--value', '240', '--json'], agentEnv);
    assert.equal(escalated.code, EXIT_ESCALATED, escalated.stderr);
    const result = JSON.parse(escalated.stdout) as Extract<AuthorityCheckResult, { outcome: 'escalated' }>;
    const escalationId = result.escalation.id;
    assert.equal(result.check.bound, 'value');

    const pending = await json<Escalation[]>(['escalations', 'list', '--status', 'pending'], agentEnv);
    assert.deepEqual(
      pending.map((e) => e.id),
      [escalationId],
      'the agent sees its own',
    );
    // The principal approves on the hosted decision (the organisation reads it with the API token).
    const asOrganisation = await json<Escalation>(['escalations', 'get', escalationId], { SVC_API_TOKEN: server.sandbox.api_token });
    await answerAsAddressee(server.url, asOrganisation.decision!.session_token, 'approve');
    const waited = await svc(['escalations', 'wait', escalationId, '--outcome', 'approved', '--timeout', '20'], agentEnv);
    assert.equal(waited.code, 0, waited.stderr);
    assert.match(waited.stdout, /^status\s+approved$/m);
    assert.equal(waited.stderr.split('\n')[0], `Waiting for escalation ${escalationId} to be decided (timeout 20s; Ctrl-C to stop)...`);
    const used = await svc([...action, '--value', '240', '--escalation-id', escalationId], agentEnv);
    assert.equal(used.code, 0, used.stderr);
    const replay = await svc([...action, '--value', '240', '--escalation-id', escalationId], agentEnv);
    assert.equal(replay.code, EXIT.api);
    assert.match(replay.stderr, /already used/);
  });

  it('escalations wait exits 1 when the escalation ends otherwise than --outcome, and on --timeout', async () => {
    const { agentEnv } = await grantAndExchange();
    const check = async (value: string) => {
      const out = await svc(
        [
          'authority',
          'check',
          '--scope',
          'payments:write',
          '--action',
          'write',
          '--value',
          value,
          '--currency',
          'EUR',
          '--jurisdiction',
          'DE',
          '--description',
          'Pay',
          '--json',
        ],
        agentEnv,
      );
      assert.equal(out.code, EXIT_ESCALATED, out.stderr);
      return (JSON.parse(out.stdout) as Extract<AuthorityCheckResult, { outcome: 'escalated' }>).escalation.id;
    };
    const pendingId = await check('150');
    const timedOut = await svc(['escalations', 'wait', pendingId, '--timeout', '0.5', '--json'], agentEnv);
    assert.equal(timedOut.code, EXIT.api);
    // A JSON line when the wait begins, then the error's.
    const [waiting, failure] = timedOut.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(waiting, { event: 'waiting', escalation_id: pendingId, timeout_seconds: 0.5 });
    assert.equal((failure as { error: { code: string } }).error.code, 'ERR_SVC_TIMEOUT');

    const deniedId = await check('160');
    const { decision } = await json<Escalation>(['escalations', 'get', deniedId], { SVC_API_TOKEN: server.sandbox.api_token });
    await answerAsAddressee(server.url, decision!.session_token, 'deny');
    const otherwise = await svc(['escalations', 'wait', deniedId, '--outcome', 'approved'], agentEnv);
    assert.equal(otherwise.code, EXIT.api);
    assert.match(otherwise.stderr, /ended denied, not approved/);
  });

  it("authority check without SVC_AGENT_TOKEN is a usage error; the exchange needs the agent client's secret", async () => {
    const check = await svc(['authority', 'check', '--scope', 'payments:write', '--action', 'read', '--description', 'Look']);
    assert.equal(check.code, EXIT.usage);
    assert.match(check.stderr, /set SVC_AGENT_TOKEN/);
    const noSecret = await svc(['delegations', 'exchange', 'dlg_dev_x', '--client-id', clientId]);
    assert.equal(noSecret.code, EXIT.usage);
    assert.match(noSecret.stderr, /set SVC_AGENT_CLIENT_SECRET/);
    const refused = await svc(['delegations', 'exchange', 'dlg_dev_nope', '--client-id', clientId], {
      SVC_AGENT_CLIENT_SECRET: clientSecret,
    });
    assert.equal(refused.code, EXIT.api);
    assert.match(refused.stderr, /not a delegation grant made to this client's agent/);
  });

  it('the person suspends, resumes and revokes; the agent token stops', async () => {
    const { grant, agentEnv } = await grantAndExchange();
    assert.match((await svc(['delegations', 'suspend', grant.id])).stdout, /is suspended/);
    const paused = await svc(['me', '--json'], agentEnv);
    assert.equal(paused.code, EXIT.api);
    assert.equal((JSON.parse(paused.stderr) as { error: { reason: string } }).error.reason, 'grant_suspended');
    assert.match((await svc(['delegations', 'resume', grant.id])).stdout, /is active/);
    assert.match((await svc(['delegations', 'revoke', grant.id])).stdout, /is revoked .*cannot be undone/);
    const stopped = await svc(['me', '--json'], agentEnv);
    assert.equal((JSON.parse(stopped.stderr) as { error: { reason: string } }).error.reason, 'invalid_token');
  });

  it("shows an agent's trust score and its factors with the API token", async () => {
    const out = await svc(['agents', 'trust-score', agentId], { SVC_API_TOKEN: server.sandbox.api_token });
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, new RegExp(`^agent\\s+${agentId}$`, 'm'));
    assert.match(out.stdout, /^score\s+\d{1,3} \/ 100$/m);
    assert.match(out.stdout, /^FACTOR\s+VALUE\s+CONTRIBUTION$/m);
    const score = await json<TrustScore>(['agents', 'trust-score', agentId], { SVC_API_TOKEN: server.sandbox.api_token });
    assert.equal(score.subject_id, agentId);
  });
});
