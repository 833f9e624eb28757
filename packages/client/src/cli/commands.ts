import type { ParseArgsConfig } from 'node:util';
import type { SvcClient } from '../lib/client.js';
import type { AuthorityCheckResult } from '../resources/authority.js';
import {
  AGENT_TYPES,
  AUTHORITY_ACTIONS,
  BOUND_NAMES,
  ESCALATION_TRIGGERS,
  HUMAN_DELEGATION_TYPES,
  type AgentIdentity,
  type AgentIdentityStatus,
  type AgentType,
  type ApiToken,
  type AuthorityAction,
  type ConsentRecord,
  type CreateDelegationRequest,
  type Decision,
  type DelegationBounds,
  type DelegationGrant,
  type DelegationStatus,
  type DelegationType,
  type DeliveryMode,
  type Escalation,
  type EscalationStatus,
  type Permission,
  type ReceiptRecord,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventSelector,
  type WithdrawEventChannel,
} from '@svc/schemas';
import type { ConsentStatusQuery } from '../resources/consent-status.js';
import { verifyReceipt } from '../verify/receipt.js';
import { auditVerify } from './audit-verify.js';
import { CliUsageError, type CliConfig } from './config.js';
import { appOption, application, collect, flag, jsonObject, limitOption, listOf, oneOf } from './flags.js';
import { lines, table, type Cell } from './output.js';
import { recordsList } from './records-list.js';
import type { CliIo } from './run.js';
import type { AgentUse } from './session.js';

/** What a command hands back: the value `--json` prints, and the lines a person reads. */
export interface Output {
  json: unknown;
  human: string;
  /** Exit code when the command ran but its answer is a failure (a chain that does not verify); default 0. */
  exitCode?: number;
}

/** The parsed command line a command runs with. */
export interface Invocation {
  args: string[];
  flags: Record<string, string | boolean | (string | boolean)[] | undefined>;
  config: CliConfig;
}

/** One `svc` command. */
export interface Command {
  /** Synopsis after `svc `, e.g. `tokens create --name <name>`. */
  usage: string;
  /** One line for `svc --help`. */
  summary: string;
  /** Flags besides the global ones. */
  options?: NonNullable<ParseArgsConfig['options']>;
  /** Names of the positional arguments, all required. */
  args?: string[];
  /** Whether the command acts as an agent with `SVC_AGENT_TOKEN` (see `chooseCredential`). */
  agent?: AgentUse;
  /** `io` is for a command that reports as it goes (`records import`); the others only return their output. */
  run(svc: SvcClient, invocation: Invocation, io?: CliIo): Promise<Output>;
}

// ---- flag helpers --------------------------------------------------------------------------------------

const permissionsOf = (value: string | undefined): Permission[] | undefined => {
  if (value === undefined) return undefined;
  const list = value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const wrong = list.filter((p) => !['read', 'write', 'admin'].includes(p));
  if (wrong.length || list.length === 0) throw new CliUsageError('--permissions takes a comma-separated list of read, write, admin');
  return list as Permission[];
};

// ---- commands --------------------------------------------------------------------------------------------

const tokenColumns: [string, (token: ApiToken) => Cell][] = [
  ['id', (t) => t.id],
  ['name', (t) => t.name],
  ['permissions', (t) => t.permissions.join(',')],
  ['expires', (t) => t.expires_at],
  ['last used', (t) => t.last_used_at],
];

/** Every command, keyed by its words (`tokens create`). */
export const commands: Record<string, Command> = {
  me: {
    usage: 'me',
    summary: 'Show the calling identity (an API token, a signed-in person, or the agent of SVC_AGENT_TOKEN) and its account',
    agent: 'preferred',
    async run(svc) {
      const me = await svc.me();
      return {
        json: me,
        human: lines(
          me.kind === 'person'
            ? [
                ['account', `${me.account.name} (${me.account.id})`],
                ['person', `${me.person.email} (${me.person.id})`],
                ['client', `${me.client.name} (${me.client.client_id})`],
                ['scopes', me.scopes.join(' ')],
                ...(me.delegation
                  ? ([
                      ['delegate', `${me.delegation.delegate.email} (${me.delegation.delegate.id})`],
                      [
                        'grant',
                        `${me.delegation.delegation_grant_id} (${me.delegation.delegation_type}: ${me.delegation.delegated_scopes.join(' ')})`,
                      ],
                    ] satisfies [string, Cell][])
                  : []),
              ]
            : me.kind === 'agent'
              ? [
                  ['account', `${me.account.name} (${me.account.id})`],
                  ['agent', `${me.agent_identity.display_name} (${me.agent_identity.id})`],
                  ['grant', `${me.delegation_grant.id} for ${me.delegation_grant.principal_id}`],
                  ['scopes', me.token.scopes.join(' ')],
                  ['expires', me.token.expires_at],
                ]
              : [
                  ['account', `${me.account.name} (${me.account.id})`],
                  ['api token', `${me.api_token.name} (${me.api_token.id})`],
                  ['permissions', me.api_token.permissions.join(', ')],
                  ['expires', me.api_token.expires_at],
                ],
        ),
      };
    },
  },

  'tokens list': {
    usage: 'tokens list [--limit <n>]',
    summary: "List the account's API tokens",
    options: limitOption,
    async run(svc, { flags }) {
      const tokens = await collect((limit) => svc.apiTokens.list({ limit }), flags);
      return { json: tokens, human: table(tokens, tokenColumns, 'No API tokens.') };
    },
  },
  'tokens create': {
    usage: 'tokens create --name <name> [--permissions read,write,admin] [--expires-at <date-time>]',
    summary: 'Create an API token and print its value (shown once)',
    options: { name: { type: 'string' }, permissions: { type: 'string' }, 'expires-at': { type: 'string' } },
    async run(svc, { flags }) {
      const name = flag(flags, 'name');
      if (!name) throw new CliUsageError('tokens create needs --name <name>');
      const token = await svc.apiTokens.create({
        name,
        permissions: permissionsOf(flag(flags, 'permissions')),
        expires_at: flag(flags, 'expires-at'),
      });
      return {
        json: token,
        human:
          `${lines([
            ['id', token.id],
            ['name', token.name],
            ['permissions', token.permissions.join(', ')],
            ['expires', token.expires_at],
          ])}\n\n` + `Token (shown once, store it now):\n${token.token}`,
      };
    },
  },
  'tokens rotate': {
    usage: 'tokens rotate <id>',
    summary: "Replace a token's value; the old value stops working",
    args: ['id'],
    async run(svc, { args: [id] }) {
      const token = await svc.apiTokens.rotate(id!);
      return { json: token, human: `Rotated ${token.name} (${token.id}). New token (shown once):\n${token.token}` };
    },
  },
  'tokens delete': {
    usage: 'tokens delete <id>',
    summary: 'Revoke an API token',
    args: ['id'],
    async run(svc, { args: [id] }) {
      await svc.apiTokens.delete(id!);
      return { json: { deleted: id }, human: `Revoked ${id}.` };
    },
  },

  'apps list': {
    usage: 'apps list [--limit <n>]',
    summary: "List the account's applications",
    options: limitOption,
    async run(svc, { flags }) {
      const apps = await collect((limit) => svc.applications.list({ limit }), flags);
      return {
        json: apps,
        human: table(
          apps,
          [
            ['id', (a) => a.id],
            ['name', (a) => a.name],
            ['environment', (a) => a.environment],
            ['active', (a) => a.active],
          ],
          'No applications.',
        ),
      };
    },
  },
  'apps get': {
    usage: 'apps get [--app <id>]',
    summary: 'Show an application (default: the sandbox application)',
    options: appOption,
    async run(svc, invocation) {
      const app = await svc.applications.get(application(invocation));
      return {
        json: app,
        human: lines([
          ['id', app.id],
          ['name', app.name],
          ['environment', app.environment],
          ['region', app.region],
          ['active', app.active],
          ['browser commit', app.browser_commit_enabled],
          ['updated', app.updated_at],
        ]),
      };
    },
  },

  'origins list': {
    usage: 'origins list [--app <id>]',
    summary: "List an application's allowed origins",
    options: appOption,
    async run(svc, invocation) {
      const origins = await collect((limit) => svc.applications.allowedOrigins.list(application(invocation), { limit }), {});
      return {
        json: origins,
        human: table(
          origins,
          [
            ['origin', (o) => o.origin],
            ['last seen', (o) => o.last_seen_at],
          ],
          'No allowed origins.',
        ),
      };
    },
  },
  'origins add': {
    usage: 'origins add <origin> [--app <id>]',
    summary: 'Allow a browser origin, e.g. http://localhost:5173',
    options: appOption,
    args: ['origin'],
    async run(svc, invocation) {
      const origin = await svc.applications.allowedOrigins.create(application(invocation), { origin: invocation.args[0]! });
      return { json: origin, human: `Allowed ${origin.origin}.` };
    },
  },
  'origins remove': {
    usage: 'origins remove <origin> [--app <id>]',
    summary: 'Remove an allowed origin',
    options: appOption,
    args: ['origin'],
    async run(svc, invocation) {
      await svc.applications.allowedOrigins.delete(application(invocation), invocation.args[0]!);
      return { json: { deleted: invocation.args[0] }, human: `Removed ${invocation.args[0]}.` };
    },
  },

  'flows list': {
    usage: 'flows list [--limit <n>]',
    summary: "List the account's flows",
    options: limitOption,
    async run(svc, { flags }) {
      const flows = await collect((limit) => svc.flows.list({ limit }), flags);
      return {
        json: flows,
        human: table(
          flows,
          [
            ['id', (f) => f.id],
            ['status', (f) => f.status],
            ['version', (f) => f.version],
            ['title', (f) => f.title],
          ],
          'No flows.',
        ),
      };
    },
  },
  'flows get': {
    usage: 'flows get <id>',
    summary: 'Show a flow and its purposes',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const flow = await svc.flows.get(id!);
      const purposes = flow.config.purposes.map((p) => `${p.key} (${p.basis}, ${p.mechanism}${p.required ? ', required' : ''})`);
      return {
        json: flow,
        human: lines([
          ['id', flow.id],
          ['title', flow.title],
          ['status', flow.status],
          ['version', flow.version],
          ['active version', flow.active_version],
          ['purposes', purposes.join('; ')],
        ]),
      };
    },
  },
  'flows activate': {
    usage: 'flows activate <id>',
    summary: 'Activate a draft flow, freezing its terms',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const flow = await svc.flows.activate(id!);
      return { json: flow, human: `Activated ${flow.id} at version ${flow.active_version}.` };
    },
  },

  'decisions create': {
    usage: 'decisions create [--flow <id>] [--mode redirect|popup|embed] [--embed-origin <origin>] [--redirect-uri <url>] [--state <s>]',
    summary: 'Create a consent decision (default: the sandbox flow, redirect mode)',
    options: {
      flow: { type: 'string' },
      mode: { type: 'string' },
      'embed-origin': { type: 'string' },
      'redirect-uri': { type: 'string' },
      state: { type: 'string' },
    },
    async run(svc, { flags, config }) {
      const flow = flag(flags, 'flow') ?? config.flowId;
      if (!flow) throw new CliUsageError('decisions create needs --flow <flow_id>');
      const mode = flag(flags, 'mode') ?? 'redirect';
      if (!['redirect', 'popup', 'embed'].includes(mode)) throw new CliUsageError('--mode is one of redirect, popup, embed');
      const decision = await svc.decisions.create({
        kind: 'consent',
        subject_ref: flow,
        delivery_mode: mode as DeliveryMode,
        embed_origin: flag(flags, 'embed-origin'),
        redirect_uri: flag(flags, 'redirect-uri'),
        state: flag(flags, 'state'),
      });
      return { json: decision, human: decisionRecord(decision) };
    },
  },
  'decisions get': {
    usage: 'decisions get <session_token>',
    summary: 'Show a decision',
    args: ['session_token'],
    async run(svc, { args: [token] }) {
      const decision = await svc.decisions.get(token!);
      return { json: decision, human: decisionRecord(decision) };
    },
  },
  'decisions exchange': {
    usage: 'decisions exchange <session_token> <exchange_token>',
    summary: "Exchange a completed decision's exchange token for its outcome",
    args: ['session_token', 'exchange_token'],
    async run(svc, { args: [token, exchangeToken] }) {
      const result = await svc.decisions.exchange(token!, exchangeToken!);
      return {
        json: result,
        human: lines([
          ['outcome', result.outcome],
          ['status', result.status],
          ['transaction', result.consent_transaction_id],
          ['consent token', result.access_token],
          ['expires in', result.expires_in === undefined ? undefined : `${result.expires_in} s`],
        ]),
      };
    },
  },

  verify: {
    usage: 'verify <consent_token>',
    summary: 'Verify (and consume) a consent token',
    args: ['consent_token'],
    async run(svc, { args: [token] }) {
      const result = await svc.consentTokens.verify(token!);
      return {
        json: result,
        human: lines([
          ['valid', result.valid ? 'yes' : 'no'],
          ['status', result.status],
          ['flow', result.flow_id],
          ['expires', result.expires_at],
        ]),
      };
    },
  },

  'records list': recordsList,
  'records create': {
    usage:
      'records create --email <email> --grant <keys> [--decline <keys>] [--flow <id>] [--external-id <id>] [--idempotency-key <key>] [--captured-at <date-time>] [--suppress-receipt]',
    summary: "Record decisions made in your own systems (Record API; default: the sandbox's capturable flow)",
    options: {
      email: { type: 'string' },
      'external-id': { type: 'string' },
      flow: { type: 'string' },
      grant: { type: 'string' },
      decline: { type: 'string' },
      'idempotency-key': { type: 'string' },
      'captured-at': { type: 'string' },
      'suppress-receipt': { type: 'boolean' },
    },
    async run(svc, { flags, config }) {
      const flow = flag(flags, 'flow') ?? config.captureFlowId;
      if (!flow) throw new CliUsageError('records create needs --flow <flow_id> (a flow without sign-in or verification steps)');
      const email = flag(flags, 'email');
      if (!email) throw new CliUsageError('records create needs --email <email>');
      const granted = listOf(flags, 'grant');
      const declined = listOf(flags, 'decline');
      if (granted.length + declined.length === 0)
        throw new CliUsageError('records create needs --grant <keys> and/or --decline <keys> (comma-separated purpose keys)');
      const twice = granted.filter((key) => declined.includes(key));
      if (twice.length) throw new CliUsageError(`a purpose is either granted or declined, not both: ${twice.join(', ')}`);
      const externalId = flag(flags, 'external-id');
      const record = await svc.consentRecords.create(
        {
          flow_id: flow,
          subject: externalId === undefined ? { email } : { email, external_id: externalId },
          decisions: Object.fromEntries([
            ...granted.map((key) => [key, { decision: 'granted' as const }]),
            ...declined.map((key) => [key, { decision: 'declined' as const }]),
          ]),
          captured_at: flag(flags, 'captured-at'),
          suppress_receipt: flags['suppress-receipt'] === true ? true : undefined,
        },
        // Sent as the record's idempotency_key, which also lets the client retry a lost answer safely.
        { idempotencyKey: flag(flags, 'idempotency-key') },
      );
      return { json: record, human: consentRecordLines(record) };
    },
  },
  'records get': {
    usage: 'records get <id>',
    summary: 'Show a consent record and its purpose outcomes',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const record = await svc.consentRecords.get(id!);
      return { json: record, human: consentRecordLines(record) };
    },
  },
  'records withdraw': {
    usage: 'records withdraw <id> [--purposes <keys>] [--channel <event_channel>]',
    summary: 'Withdraw some purposes of a record (default: all of them)',
    options: { purposes: { type: 'string' }, channel: { type: 'string' } },
    args: ['id'],
    async run(svc, { args: [id], flags }) {
      const purposes = listOf(flags, 'purposes');
      const record = await svc.consentRecords.withdraw(id!, {
        purposes: purposes.length ? purposes : undefined,
        event_channel: flag(flags, 'channel') as WithdrawEventChannel | undefined, // the server names the channels it takes
      });
      return { json: record, human: consentRecordLines(record) };
    },
  },

  'receipts get': {
    usage: 'receipts get <record_id> [--flavor canonical|dpv|signed]',
    summary: "Show a record's receipt; a signed one is verified against the service's JWKS",
    options: { flavor: { type: 'string' } },
    args: ['record_id'],
    async run(svc, { args: [id], flags }) {
      const flavor = flag(flags, 'flavor') ?? 'canonical';
      if (flavor === 'dpv') {
        const dpv = await svc.receipts.getDpv(id!);
        return { json: dpv, human: JSON.stringify(dpv, null, 2) };
      }
      if (flavor === 'signed') {
        const [signed, jwks] = await Promise.all([svc.receipts.getSigned(id!), svc.receipts.jwks()]);
        // A receipt that does not verify is an error (exit 1), never printed as if it were evidence.
        const receipt = await verifyReceipt(signed, jwks);
        const header = JSON.parse(Buffer.from(signed.signature.split('.')[0]!, 'base64url').toString('utf8')) as {
          kid?: string;
          alg?: string;
        };
        return { json: signed, human: `${lines([['signature', `valid (${header.alg}, key ${header.kid})`]])}\n${receiptLines(receipt)}` };
      }
      if (flavor !== 'canonical') throw new CliUsageError('--flavor is one of canonical, dpv, signed');
      const receipt = await svc.receipts.get(id!);
      return { json: receipt, human: receiptLines(receipt) };
    },
  },

  status: {
    usage: 'status (--email <email> | --external-id <id> | --person-id <id>) [--flow <id>] [--app <id>]',
    summary: "Show one person's consent status with an application",
    options: {
      ...appOption,
      email: { type: 'string' },
      'external-id': { type: 'string' },
      'person-id': { type: 'string' },
      flow: { type: 'string' },
    },
    async run(svc, invocation) {
      const { flags } = invocation;
      const email = flag(flags, 'email');
      const externalId = flag(flags, 'external-id');
      const personId = flag(flags, 'person-id');
      if ([email, externalId, personId].filter((v) => v !== undefined).length !== 1) {
        throw new CliUsageError('status takes exactly one of --email, --external-id, --person-id');
      }
      const who: ConsentStatusQuery =
        email !== undefined
          ? { subject: { email } }
          : externalId !== undefined
            ? { subject: { external_id: externalId } }
            : { person_id: personId! };
      const status = await svc.consentStatus.get(application(invocation), { ...who, flow_id: flag(flags, 'flow') });
      return {
        json: status,
        human:
          `${lines([
            ['person', status.user_id],
            ['email', status.subject_ref?.email],
            ['external id', status.subject_ref?.external_id],
            ['overall', status.overall_status],
          ])}\n\n` +
          table(
            status.purposes,
            [
              ['purpose', (p) => p.purpose],
              ['status', (p) => p.status],
              ['granted', (p) => p.granted_at],
              ['expires', (p) => p.expires_at],
              ['record', (p) => p.record_id],
            ],
            'No purposes.',
          ),
      };
    },
  },

  'webhooks list': {
    usage: 'webhooks list [--app <id>] [--limit <n>]',
    summary: "List an application's webhook endpoints",
    options: { ...appOption, ...limitOption },
    async run(svc, invocation) {
      const endpoints = await collect((limit) => svc.webhookEndpoints.list(application(invocation), { limit }), invocation.flags);
      return { json: endpoints, human: table(endpoints, endpointColumns, 'No webhook endpoints.') };
    },
  },
  'webhooks create': {
    usage: 'webhooks create --url <url> [--events <types>] [--description <text>] [--app <id>]',
    summary: 'Subscribe a URL to events (default: every type) and print its signing secret (shown once)',
    options: { ...appOption, url: { type: 'string' }, events: { type: 'string' }, description: { type: 'string' } },
    async run(svc, invocation) {
      const url = flag(invocation.flags, 'url');
      if (!url) throw new CliUsageError('webhooks create needs --url <url>');
      const events = listOf(invocation.flags, 'events');
      const endpoint = await svc.webhookEndpoints.create(application(invocation), {
        url,
        events: (events.length ? events : ['*']) as WebhookEventSelector[],
        description: flag(invocation.flags, 'description'),
      });
      return { json: endpoint, human: `${endpointLines(endpoint)}\n\nSigning secret (shown once, store it now):\n${endpoint.secret}` };
    },
  },
  'webhooks rotate': {
    usage: 'webhooks rotate <id> [--app <id>]',
    summary: "Replace an endpoint's signing secret; the previous one also signs for a day",
    options: appOption,
    args: ['id'],
    async run(svc, invocation) {
      const endpoint = await svc.webhookEndpoints.rotateSecret(application(invocation), invocation.args[0]!);
      return {
        json: endpoint,
        human:
          `Rotated the secret of ${endpoint.id}; the previous one also signs until ${endpoint.previous_secret_expires_at}.\n` +
          `New signing secret (shown once):\n${endpoint.secret}`,
      };
    },
  },
  'webhooks test': {
    usage: 'webhooks test <id> [--app <id>]',
    summary: 'Send a signed webhook.test delivery to an endpoint now',
    options: appOption,
    args: ['id'],
    async run(svc, invocation) {
      const delivery = await svc.webhookEndpoints.test(application(invocation), invocation.args[0]!);
      const attempt = delivery.attempts.at(-1);
      return {
        json: delivery,
        human: lines([
          ['delivery', delivery.id],
          ['event', `${delivery.event_type} (${delivery.event_id})`],
          ['status', delivery.status],
          ['answer', attempt?.status_code ?? attempt?.error],
          ['took', attempt?.duration_ms === null || attempt?.duration_ms === undefined ? undefined : `${attempt.duration_ms} ms`],
        ]),
      };
    },
  },
  'webhooks deliveries': {
    usage: 'webhooks deliveries <id> [--status pending|acknowledged|failed] [--app <id>] [--limit <n>]',
    summary: "List an endpoint's deliveries, newest first",
    options: { ...appOption, ...limitOption, status: { type: 'string' } },
    args: ['id'],
    async run(svc, invocation) {
      const status = flag(invocation.flags, 'status');
      if (status !== undefined && !['pending', 'acknowledged', 'failed'].includes(status))
        throw new CliUsageError('--status is one of pending, acknowledged, failed');
      const deliveries = await collect(
        (limit) =>
          svc.webhookEndpoints.deliveries(application(invocation), invocation.args[0]!, {
            limit,
            status: status as WebhookDelivery['status'] | undefined,
          }),
        invocation.flags,
      );
      return {
        json: deliveries,
        human: table(
          deliveries,
          [
            ['id', (d) => d.id],
            ['event', (d) => d.event_type],
            ['status', (d) => d.status],
            ['attempts', (d) => d.attempt_count],
            ['test', (d) => (d.test ? 'yes' : '')],
            ['created', (d) => d.created_at],
          ],
          'No deliveries.',
        ),
      };
    },
  },
  'webhooks delete': {
    usage: 'webhooks delete <id> [--app <id>]',
    summary: 'Delete a webhook endpoint',
    options: appOption,
    args: ['id'],
    async run(svc, invocation) {
      await svc.webhookEndpoints.delete(application(invocation), invocation.args[0]!);
      return { json: { deleted: invocation.args[0] }, human: `Deleted ${invocation.args[0]}.` };
    },
  },

  'agents list': {
    usage: 'agents list [--status active|suspended|revoked] [--limit <n>]',
    summary: "List the account's agent identities",
    options: { ...limitOption, status: { type: 'string' } },
    async run(svc, { flags }) {
      const status = flag(flags, 'status');
      if (status !== undefined && !AGENT_STATUSES.includes(status))
        throw new CliUsageError('--status is one of active, suspended, revoked');
      const agents = await collect(
        (limit) => svc.agentIdentities.list({ limit, status: status as AgentIdentityStatus | undefined }),
        flags,
      );
      return { json: agents, human: table(agents, agentColumns, 'No agent identities.') };
    },
  },
  'agents create': {
    usage: 'agents create --name <display name> [--type assistant|autonomous|workflow] [--oauth-client <client_id>] [--metadata <json>]',
    summary: "Register an agent identity, optionally linked to one of the account's OAuth clients",
    options: { name: { type: 'string' }, type: { type: 'string' }, 'oauth-client': { type: 'string' }, metadata: { type: 'string' } },
    async run(svc, { flags }) {
      const name = flag(flags, 'name');
      if (!name) throw new CliUsageError('agents create needs --name <display name>');
      const type = flag(flags, 'type');
      if (type !== undefined && !AGENT_TYPE_NAMES.includes(type)) throw new CliUsageError(`--type is one of ${AGENT_TYPES.join(', ')}`);
      const metadata = jsonObject(flags, 'metadata', '{"model":"x-1"}');
      const agent = await svc.agentIdentities.create({
        display_name: name,
        ...(type === undefined ? {} : { agent_type: type as AgentType }),
        ...(flag(flags, 'oauth-client') === undefined ? {} : { oauth_application_id: flag(flags, 'oauth-client') }),
        ...(metadata === undefined ? {} : { metadata }),
      });
      return { json: agent, human: agentLines(agent) };
    },
  },
  'agents get': {
    usage: 'agents get <id>',
    summary: 'Show an agent identity',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const agent = await svc.agentIdentities.get(id!);
      return { json: agent, human: agentLines(agent) };
    },
  },
  'agents suspend': {
    usage: 'agents suspend <id>',
    summary: 'Suspend an active agent identity (it can be resumed)',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const agent = await svc.agentIdentities.suspend(id!);
      return { json: agent, human: `${agent.id} is ${agent.status} (since ${agent.suspended_at}).` };
    },
  },
  'agents resume': {
    usage: 'agents resume <id>',
    summary: 'Resume a suspended agent identity',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const agent = await svc.agentIdentities.resume(id!);
      return { json: agent, human: `${agent.id} is ${agent.status}.` };
    },
  },
  'agents revoke': {
    usage: 'agents revoke <id>',
    summary: 'Revoke an agent identity for good',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const agent = await svc.agentIdentities.revoke(id!);
      return { json: agent, human: `${agent.id} is revoked (since ${agent.revoked_at}); this cannot be undone.` };
    },
  },

  'agents trust-score': {
    usage: 'agents trust-score <id>',
    summary: "Show an agent identity's trust score (0-100) and the factors that make it",
    args: ['id'],
    async run(svc, { args: [id] }) {
      const score = await svc.agentIdentities.trustScore(id!);
      return {
        json: score,
        human:
          `${lines([
            ['agent', score.subject_id],
            ['score', `${score.score} / 100`],
            ['computed', score.computed_at],
          ])}\n\n` +
          table(
            score.factors,
            [
              ['factor', (f) => f.name],
              ['value', (f) => f.value],
              ['contribution', (f) => (f.contribution > 0 ? `+${f.contribution}` : f.contribution)],
            ],
            'No factors.',
          ),
      };
    },
  },

  'delegations list': {
    usage: 'delegations list [--role principal|delegate] [--status active|suspended|revoked|expired] [--limit <n>]',
    summary: 'List delegation grants (a signed-in person: the ones they made or received)',
    options: { ...limitOption, role: { type: 'string' }, status: { type: 'string' } },
    async run(svc, { flags }) {
      const role = oneOf(flags, 'role', ['principal', 'delegate'] as const);
      const status = oneOf(flags, 'status', DELEGATION_STATUSES);
      const grants = await collect((limit) => svc.delegations.list({ limit, role, status }), flags);
      return { json: grants, human: table(grants, grantColumns, 'No delegation grants.') };
    },
  },
  'delegations create': {
    usage:
      'delegations create --delegate <agt_...|prs_...> [--type <type>] [--scopes <scopes>] [--max-per-day <n>] [--expires <date-time>] ' +
      '[--actions read,write,delete] [--max-value <amount> --currency <code>] [--jurisdictions DE,FR] [--escalation] [--min-trust <0-100>] ' +
      '[--not-before <date-time>] [--not-after <date-time>] [--allow-sub-delegation] [--parent <dlg_...>]',
    summary: 'Delegate authority to an agent (bounded) or a person, as the signed-in person (svc login)',
    options: {
      delegate: { type: 'string' },
      type: { type: 'string' },
      scopes: { type: 'string' },
      'max-per-day': { type: 'string' },
      expires: { type: 'string' },
      actions: { type: 'string' },
      'max-value': { type: 'string' },
      currency: { type: 'string' },
      jurisdictions: { type: 'string' },
      escalation: { type: 'boolean' },
      'min-trust': { type: 'string' },
      'not-before': { type: 'string' },
      'not-after': { type: 'string' },
      'allow-sub-delegation': { type: 'boolean' },
      parent: { type: 'string' },
    },
    async run(svc, { flags }) {
      const grant = await svc.delegations.create(delegationRequestOf(flags));
      return { json: grant, human: grantLines(grant) };
    },
  },
  'delegations get': {
    usage: 'delegations get <id>',
    summary: 'Show a delegation grant and its bounds',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const grant = await svc.delegations.get(id!);
      return { json: grant, human: grantLines(grant) };
    },
  },
  'delegations suspend': {
    usage: 'delegations suspend <id>',
    summary: "Pause a delegation grant: the delegate's tokens stop until it is resumed",
    args: ['id'],
    async run(svc, { args: [id] }) {
      const grant = await svc.delegations.suspend(id!);
      return { json: grant, human: `${grant.id} is ${grant.status} (since ${grant.suspended_at}).` };
    },
  },
  'delegations resume': {
    usage: 'delegations resume <id>',
    summary: 'Resume a suspended delegation grant',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const grant = await svc.delegations.resume(id!);
      return { json: grant, human: `${grant.id} is ${grant.status}.` };
    },
  },
  'delegations revoke': {
    usage: 'delegations revoke <id>',
    summary: 'Revoke a delegation grant, its sub-delegations and every token issued from them, for good',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const grant = await svc.delegations.revoke(id!);
      return {
        json: grant,
        human: `${grant.id} is revoked (since ${grant.revoked_at}) with every grant made from it; this cannot be undone.`,
      };
    },
  },

  'escalations list': {
    usage: 'escalations list [--status pending|approved|denied|countered|expired] [--trigger <bound>] [--limit <n>]',
    summary: "List escalations (an agent's own with SVC_AGENT_TOKEN, a person's as principal, else the account's)",
    options: { ...limitOption, status: { type: 'string' }, trigger: { type: 'string' } },
    agent: 'preferred',
    async run(svc, { flags }) {
      const status = oneOf(flags, 'status', ESCALATION_STATUSES);
      const trigger = oneOf(flags, 'trigger', ESCALATION_TRIGGERS);
      const escalations = await collect((limit) => svc.escalations.list({ limit, status, trigger }), flags);
      return { json: escalations, human: table(escalations, escalationColumns, 'No escalations.') };
    },
  },
  'escalations get': {
    usage: 'escalations get <id>',
    summary: 'Show an escalation: the action, why, and its status',
    args: ['id'],
    agent: 'preferred',
    async run(svc, { args: [id] }) {
      const escalation = await svc.escalations.get(id!);
      return { json: escalation, human: escalationLines(escalation) };
    },
  },
  'escalations wait': {
    usage: 'escalations wait <id> [--outcome approved|denied|countered|expired] [--timeout <seconds>] [--interval <seconds>]',
    summary: 'Wait until the principal decides an escalation (exit 1 when it ends otherwise than --outcome, or on --timeout)',
    options: { outcome: { type: 'string' }, timeout: { type: 'string' }, interval: { type: 'string' } },
    args: ['id'],
    agent: 'preferred',
    async run(svc, { args: [id], flags }, io) {
      const outcome = oneOf(flags, 'outcome', ESCALATION_STATUSES.filter((s) => s !== 'pending') as Exclude<EscalationStatus, 'pending'>[]);
      const seconds = (name: string) => {
        const value = number(flags, name);
        if (value !== undefined && !(value > 0)) throw new CliUsageError(`--${name} is a positive number of seconds`);
        return value === undefined ? undefined : Math.round(value * 1000);
      };
      const timeoutMs = seconds('timeout');
      const pollIntervalMs = seconds('interval');
      // At once, on stderr: a wait can be long, and stdout stays the escalation alone.
      io?.stderr(waitingLine(id!, timeoutMs, flags.json === true));
      const escalation = await svc.escalations.waitFor(id!, { outcome, timeoutMs, pollIntervalMs });
      return { json: escalation, human: escalationLines(escalation) };
    },
  },

  'authority check': {
    usage:
      'authority check --scope <scope> --action read|write|delete --description <text> [--value <amount> --currency <code>] ' +
      '[--jurisdiction <country>] [--escalation-id <esc_...>]',
    summary: 'As the agent (SVC_AGENT_TOKEN), ask whether an action is within its grant (exit 0 allowed, 1 denied, 3 escalated)',
    options: {
      scope: { type: 'string' },
      action: { type: 'string' },
      description: { type: 'string' },
      value: { type: 'string' },
      currency: { type: 'string' },
      jurisdiction: { type: 'string' },
      'escalation-id': { type: 'string' },
    },
    agent: 'required',
    async run(svc, { flags }) {
      const scope = flag(flags, 'scope');
      const description = flag(flags, 'description');
      const action = oneOf(flags, 'action', AUTHORITY_ACTIONS);
      if (!scope || !action || !description) throw new CliUsageError('authority check needs --scope, --action and --description');
      const value = number(flags, 'value');
      const currency = flag(flags, 'currency');
      if ((value === undefined) !== (currency === undefined)) throw new CliUsageError('--value and --currency go together');
      const result = await svc.authority.check({
        scope,
        action,
        description,
        ...(value === undefined ? {} : { value, currency }),
        ...(flag(flags, 'jurisdiction') === undefined ? {} : { jurisdiction: flag(flags, 'jurisdiction') }),
        ...(flag(flags, 'escalation-id') === undefined ? {} : { escalation_id: flag(flags, 'escalation-id') }),
      });
      return authorityOutput(result);
    },
  },

  'audit events': {
    usage: 'audit events [--app <id>] [--limit <n>]',
    summary: "List an application's hash-chained audit events, oldest first",
    options: { ...appOption, ...limitOption },
    async run(svc, { flags }) {
      const events = await collect((limit) => svc.audit.events({ application_id: flag(flags, 'app'), limit }), flags);
      return {
        json: events,
        human: table(
          events,
          [
            ['seq', (e) => e.sequence],
            ['type', (e) => e.type],
            ['occurred', (e) => e.occurred_at],
            ['hash', (e) => `${e.hash.slice(0, 16)}...`],
            ['anchor', (e) => e.anchor_id],
          ],
          'No audit events.',
        ),
      };
    },
  },
  'audit anchors': {
    usage: 'audit anchors [--app <id>] [--limit <n>]',
    summary: "List an application's audit anchors (signed Merkle roots), oldest first",
    options: { ...appOption, ...limitOption },
    async run(svc, { flags }) {
      const anchors = await collect((limit) => svc.audit.anchors({ application_id: flag(flags, 'app'), limit }), flags);
      return {
        json: anchors,
        human: table(
          anchors,
          [
            ['id', (a) => a.id],
            ['events', (a) => `${a.sequence_from}..${a.sequence_to}`],
            ['root', (a) => `${a.merkle_root.slice(0, 16)}...`],
            ['key', (a) => a.key_version],
            ['created', (a) => a.created_at],
          ],
          'No anchors yet (events are anchored every fifteen minutes).',
        ),
      };
    },
  },
  'audit verify': {
    usage: 'audit verify [--app <id>] [--require-witness] [--tsa-ca <file.pem>] [--require-external-witness]',
    summary:
      "Fetch an application's audit trail and verify it offline, RFC 3161 time-stamps against --tsa-ca (exit 1 when it does not verify)",
    options: {
      ...appOption,
      'require-witness': { type: 'boolean' },
      'tsa-ca': { type: 'string' },
      'require-external-witness': { type: 'boolean' },
    },
    async run(svc, { flags }) {
      return auditVerify(svc, {
        applicationId: flag(flags, 'app'),
        requireWitness: flags['require-witness'] === true,
        requireExternalWitness: flags['require-external-witness'] === true,
        tsaCa: flag(flags, 'tsa-ca'),
      });
    },
  },

  'clock advance': {
    usage: 'clock advance <seconds>',
    summary: "Move a test server's clock forward (SVC_TEST_CLOCK=1)",
    args: ['seconds'],
    async run(svc, { args: [seconds] }) {
      const value = Number(seconds);
      if (!Number.isFinite(value) || value < 0) throw new CliUsageError('clock advance takes a number of seconds');
      const clock = await svc.testClock.advance(value);
      return { json: clock, human: `Server time is now ${clock.now} (${clock.offset_seconds} s ahead).` };
    },
  },
};

/** Exit code of `authority check` when the action was escalated: neither allowed (0) nor denied (1). */
export const EXIT_ESCALATED = 3;

const DELEGATION_STATUSES: readonly DelegationStatus[] = ['active', 'suspended', 'revoked', 'expired'];
const ESCALATION_STATUSES: readonly EscalationStatus[] = ['pending', 'approved', 'denied', 'countered', 'expired'];
const DELEGATION_TYPES: readonly DelegationType[] = [...HUMAN_DELEGATION_TYPES, 'ai_agent'];

/** A numeric flag, or undefined when absent. */
function number(flags: Invocation['flags'], name: string): number | undefined {
  const value = flag(flags, name);
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed)) throw new CliUsageError(`--${name} must be a number`);
  return parsed;
}

/** A whole-number flag, or undefined when absent. */
function integer(flags: Invocation['flags'], name: string): number | undefined {
  const value = number(flags, name);
  if (value !== undefined && !Number.isInteger(value)) throw new CliUsageError(`--${name} must be a whole number`);
  return value;
}

/**
 * The request of `delegations create`. The type defaults to `ai_agent` for an agent identity; a person needs one of
 * the human types. Bounds are for agents only; the service checks the rest (scopes, dates, ranges) and names the field.
 */
export function delegationRequestOf(flags: Invocation['flags']): CreateDelegationRequest {
  const delegate = flag(flags, 'delegate');
  if (!delegate) throw new CliUsageError('delegations create needs --delegate <agt_...|prs_...>');
  const type = oneOf(flags, 'type', DELEGATION_TYPES) ?? (delegate.startsWith('agt_') ? 'ai_agent' : undefined);
  if (!type) throw new CliUsageError(`a delegation to a person needs --type, one of ${HUMAN_DELEGATION_TYPES.join(', ')}`);

  const bounds: DelegationBounds = {};
  const actions = listOf(flags, 'actions');
  const wrong = actions.filter((a) => !(AUTHORITY_ACTIONS as readonly string[]).includes(a));
  if (wrong.length) throw new CliUsageError(`--actions takes a comma-separated list of ${AUTHORITY_ACTIONS.join(', ')}`);
  if (actions.length) bounds.actions = actions as AuthorityAction[];
  const maxValue = number(flags, 'max-value');
  const currency = flag(flags, 'currency');
  if ((maxValue === undefined) !== (currency === undefined)) throw new CliUsageError('--max-value and --currency go together');
  if (maxValue !== undefined) bounds.value = { max_per_transaction: maxValue, currency: currency!.toUpperCase() };
  const notBefore = flag(flags, 'not-before');
  const notAfter = flag(flags, 'not-after');
  if (notBefore !== undefined || notAfter !== undefined) {
    bounds.time = {
      ...(notBefore === undefined ? {} : { not_before: notBefore }),
      ...(notAfter === undefined ? {} : { not_after: notAfter }),
    };
  }
  if (flags.escalation === true) bounds.escalation = { allowed: true };
  const minTrust = integer(flags, 'min-trust');
  if (minTrust !== undefined) bounds.reputation = { min_trust_score: minTrust };
  const countries = listOf(flags, 'jurisdictions').map((c) => c.toUpperCase());
  if (countries.length) bounds.jurisdiction = { allowed: countries };
  if (Object.keys(bounds).length && type !== 'ai_agent')
    throw new CliUsageError('bounds (--actions, --max-value, --jurisdictions, ...) are for a delegation to an agent');

  const scopes = listOf(flags, 'scopes');
  return {
    delegate_id: delegate,
    delegation_grant: {
      delegation_type: type,
      ...(scopes.length ? { delegated_scopes: scopes } : {}),
      ...(flags['allow-sub-delegation'] === true ? { allow_sub_delegation: true } : {}),
      ...(integer(flags, 'max-per-day') === undefined ? {} : { max_actions_per_day: integer(flags, 'max-per-day') }),
      ...(flag(flags, 'expires') === undefined ? {} : { expires_at: flag(flags, 'expires') }),
      ...(Object.keys(bounds).length ? { bounds } : {}),
      ...(flag(flags, 'parent') === undefined ? {} : { parent_grant_id: flag(flags, 'parent') }),
    },
  };
}

/** The bounds in one line each, in the spec's order (scope and sequence are the grant's own fields). */
function boundLines(grant: DelegationGrant): [string, Cell][] {
  const { actions, value, time, escalation, reputation, jurisdiction } = grant.bounds;
  const shown: Partial<Record<(typeof BOUND_NAMES)[number], Cell>> = {
    scope: grant.delegated_scopes.join(' ') || undefined,
    action: actions?.join(', '),
    value: value && `at most ${value.max_per_transaction} ${value.currency} per action`,
    time: time && `${time.not_before ?? '…'} to ${time.not_after ?? '…'}`,
    escalation: escalation && (escalation.allowed ? 'allowed' : 'not allowed'),
    reputation: reputation && `trust score at least ${reputation.min_trust_score}`,
    jurisdiction: jurisdiction?.allowed.join(', '),
    sequence: grant.max_actions_per_day === null ? undefined : `${grant.max_actions_per_day} actions a day`,
  };
  return BOUND_NAMES.filter((name) => shown[name] !== undefined).map((name) => [`  ${name}`, shown[name]]);
}

const grantColumns: [string, (grant: DelegationGrant) => Cell][] = [
  ['id', (g) => g.id],
  ['status', (g) => g.status],
  ['type', (g) => g.delegation_type],
  ['principal', (g) => g.principal_id],
  ['delegate', (g) => g.delegate_id],
  ['expires', (g) => g.expires_at],
];

function grantLines(grant: DelegationGrant): string {
  const bounds = boundLines(grant);
  return lines([
    ['id', grant.id],
    ['status', grant.status],
    ['type', grant.delegation_type],
    ['principal', grant.principal_id],
    ['delegate', `${grant.delegate_id} (${grant.delegate_type})`],
    ['parent', grant.parent_grant_id],
    ['sub-delegation', grant.allow_sub_delegation ? 'allowed' : 'not allowed'],
    ['expires', grant.expires_at],
    ['created', grant.created_at],
    ['suspended', grant.suspended_at],
    ['revoked', grant.revoked_at],
    ['authorization', grant.authorization_record_id],
    ['bounds', bounds.length ? '' : 'none beyond its scopes'],
    ...bounds,
  ]);
}

const describeAction = (a: Escalation['action']): string =>
  `${a.action} ${a.scope}${a.value === null ? '' : ` ${a.value} ${a.currency}`}${a.jurisdiction ? ` in ${a.jurisdiction}` : ''}: ${a.description}`;

const escalationColumns: [string, (escalation: Escalation) => Cell][] = [
  ['id', (e) => e.id],
  ['status', (e) => e.status],
  ['trigger', (e) => e.trigger],
  ['agent', (e) => e.agent_identity_id],
  ['expires', (e) => e.expires_at],
  ['action', (e) => describeAction(e.action)],
];

function escalationLines(escalation: Escalation): string {
  return lines([
    ['id', escalation.id],
    ['status', escalation.status],
    ['trigger', escalation.trigger],
    ['action', describeAction(escalation.action)],
    ['reason', escalation.reason],
    ['counter-proposal', escalation.counter_proposal],
    ['grant', escalation.delegation_grant_id],
    ['agent', escalation.agent_identity_id],
    ['principal', escalation.principal_id],
    ['decision', escalation.decision?.url],
    ['created', escalation.created_at],
    ['expires', escalation.expires_at],
    ['decided', escalation.decided_at],
    ['used', escalation.used_at],
  ]);
}

/** A duration for people: `45s`, `5m`, `1m30s`, `2h`, `0.5s`. */
export function duration(ms: number): string {
  const total = ms / 1000;
  if (total < 60) return `${Number(total.toFixed(3))}s`;
  const whole = Math.round(total);
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  return [h && `${h}h`, m && `${m}m`, s && `${s}s`].filter(Boolean).join('');
}

/** The line `escalations wait` prints before it starts waiting (a JSON line under `--json`). */
export function waitingLine(id: string, timeoutMs: number | undefined, json: boolean): string {
  if (json)
    return `${JSON.stringify({ event: 'waiting', escalation_id: id, timeout_seconds: timeoutMs === undefined ? null : timeoutMs / 1000 })}\n`;
  const limit = timeoutMs === undefined ? 'no timeout' : `timeout ${duration(timeoutMs)}`;
  return `Waiting for escalation ${id} to be decided (${limit}; Ctrl-C to stop)...\n`;
}

/** What `authority check` prints, and its exit code: 0 allowed, 1 denied, {@link EXIT_ESCALATED} escalated. */
function authorityOutput(result: AuthorityCheckResult): Output {
  switch (result.outcome) {
    case 'allowed':
      return {
        json: result,
        human:
          `Allowed: ${describeAction(result.check.action)}` +
          (result.check.remaining_today === null || result.check.remaining_today === undefined
            ? ''
            : ` (${result.check.remaining_today} more today)`),
      };
    case 'escalated':
      return {
        json: result,
        human:
          `Escalated to the principal (beyond the ${result.check.bound ?? result.escalation.trigger} bound): ${result.escalation.reason}\n` +
          `Do not act yet; wait with: svc escalations wait ${result.escalation.id} --outcome approved\n` +
          `then check again with --escalation-id ${result.escalation.id}.`,
        exitCode: EXIT_ESCALATED,
      };
    case 'denied':
      return { json: result, human: `Denied (beyond the ${result.bound} bound): ${result.message}`, exitCode: 1 };
  }
}

const AGENT_STATUSES: readonly string[] = ['active', 'suspended', 'revoked'];
const AGENT_TYPE_NAMES: readonly string[] = AGENT_TYPES;

const agentColumns: [string, (agent: AgentIdentity) => Cell][] = [
  ['id', (a) => a.id],
  ['status', (a) => a.status],
  ['type', (a) => a.agent_type],
  ['oauth client', (a) => a.oauth_application_id],
  ['name', (a) => a.display_name],
];

function agentLines(agent: AgentIdentity): string {
  return lines([
    ['id', agent.id],
    ['name', agent.display_name],
    ['type', agent.agent_type],
    ['status', agent.status],
    ['oauth client', agent.oauth_application_id],
    ['delegation grant', agent.delegation_grant_id],
    ['created', agent.created_at],
    ['suspended', agent.suspended_at],
    ['revoked', agent.revoked_at],
    ['metadata', Object.keys(agent.metadata).length ? JSON.stringify(agent.metadata) : undefined],
  ]);
}

const endpointColumns: [string, (endpoint: WebhookEndpoint) => Cell][] = [
  ['id', (e) => e.id],
  ['status', (e) => e.status],
  ['failures', (e) => e.consecutive_failures],
  ['events', (e) => e.events.join(',')],
  ['url', (e) => e.url],
];

function endpointLines(endpoint: WebhookEndpoint): string {
  return lines([
    ['id', endpoint.id],
    ['url', endpoint.url],
    ['events', endpoint.events.join(', ')],
    ['status', endpoint.status],
    ['description', endpoint.description],
  ]);
}

function consentRecordLines(r: ConsentRecord): string {
  return lines([
    ['id', r.id],
    ['status', r.status],
    ['channel', r.channel],
    ['flow', r.flow_version === undefined ? r.flow_id : `${r.flow_id} v${r.flow_version}`],
    ['subject', r.subject.external_id ? `${r.subject.email} (${r.subject.external_id})` : r.subject.email],
    ['purposes', r.purposes.map((p) => `${p.key} ${p.outcome}`).join('; ')],
    ['captured', r.captured_at],
    ['expires', r.expires_at],
    ['receipt', r.receipt_id],
  ]);
}

function receiptLines(receipt: ReceiptRecord): string {
  const purposes = receipt.pii_processing?.purposes.map((p) => `${p.purpose_id} (${p.lawful_basis})`).join('; ');
  const events = receipt.event.map((e) => `${e.event_time}  ${e.event_state}${e.purpose_id ? ` (${e.purpose_id})` : ''}`);
  return `${lines([
    ['record', receipt.record_id],
    ['type', receipt.record_type ?? 'consent_record'],
    ['schema', `${receipt.schema_version} (${receipt.conforms_to})`],
    ['principal', receipt.pii_principal_id ?? (receipt.anonymous ? 'anonymous' : undefined)],
    ['purposes', purposes],
  ])}\n\nEvents:\n${events.map((line) => `  ${line}`).join('\n')}`;
}

function decisionRecord(decision: Decision): string {
  return lines([
    ['session token', decision.session_token],
    ['status', decision.status],
    ['outcome', decision.outcome],
    ['flow', decision.flow_id && `${decision.flow_id} v${decision.flow_version}`],
    ['mode', decision.delivery_mode],
    ['url', decision.delivery_mode === 'embed' ? decision.embed_url : decision.url],
    ['deadline', decision.deadline_at],
  ]);
}
