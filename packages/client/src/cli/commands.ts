import type { ParseArgsConfig } from 'node:util';
import type { SvcClient } from '../lib/client.js';
import type { SvcList } from '../lib/pagination.js';
import type { ApiToken, Permission } from '../schemas/api-tokens.js';
import type { Decision, DeliveryMode } from '../schemas/decisions.js';
import { CliUsageError, type CliConfig } from './config.js';

/** What a command hands back: the value `--json` prints, and the lines a person reads. */
export interface Output {
  json: unknown;
  human: string;
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
  run(svc: SvcClient, invocation: Invocation): Promise<Output>;
}

// ---- output helpers --------------------------------------------------------------------------------------

type Cell = string | number | boolean | null | undefined;

const show = (value: Cell): string => (value === null || value === undefined || value === '' ? '-' : String(value));

/** Aligned `label  value` lines for one record. */
function record(pairs: [string, Cell][]): string {
  const width = Math.max(...pairs.map(([label]) => label.length));
  return pairs.map(([label, value]) => `${label.padEnd(width)}  ${show(value)}`).join('\n');
}

/** Aligned columns, one line per item; a note when there are none. */
function table<T>(items: T[], columns: [string, (item: T) => Cell][], empty: string): string {
  if (items.length === 0) return empty;
  const cells = [columns.map(([title]) => title.toUpperCase()), ...items.map((item) => columns.map(([, cell]) => show(cell(item))))];
  const widths = columns.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  return cells.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}

const limitOption = { limit: { type: 'string' } } as const;

/** Collects a list's items, at most `--limit` of them (all when not given). */
async function collect<T>(list: (pageSize: number | undefined) => SvcList<T>, flags: Invocation['flags']): Promise<T[]> {
  const limit = flags.limit === undefined ? Infinity : Number(flags.limit);
  if (limit !== Infinity && !(Number.isInteger(limit) && limit >= 1)) throw new CliUsageError('--limit must be a whole number of at least 1');
  const items: T[] = [];
  for await (const item of list(Number.isFinite(limit) ? Math.min(limit, 100) : 100)) {
    items.push(item);
    if (items.length >= limit) break;
  }
  return items;
}

const string = (flags: Invocation['flags'], name: string): string | undefined => {
  const value = flags[name];
  return typeof value === 'string' ? value : undefined;
};

function application(invocation: Invocation): string {
  const id = string(invocation.flags, 'app') ?? invocation.config.applicationId;
  if (!id) throw new CliUsageError('no application: pass --app <application_id>');
  return id;
}

const permissionsOf = (value: string | undefined): Permission[] | undefined => {
  if (value === undefined) return undefined;
  const list = value.split(',').map((p) => p.trim()).filter(Boolean);
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

const appOption = { app: { type: 'string' } } as const;

/** Every command, keyed by its words (`tokens create`). */
export const commands: Record<string, Command> = {
  me: {
    usage: 'me',
    summary: 'Show the calling API token and its account',
    async run(svc) {
      const me = await svc.me();
      return {
        json: me,
        human: record([
          ['account', `${me.account.name} (${me.account.id})`],
          ['api token', `${me.api_token.name} (${me.api_token.id})`],
          ['permissions', me.api_token.permissions.join(', ')],
          ['expires', me.api_token.expires_at],
        ]),
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
      const name = string(flags, 'name');
      if (!name) throw new CliUsageError('tokens create needs --name <name>');
      const token = await svc.apiTokens.create({
        name,
        permissions: permissionsOf(string(flags, 'permissions')),
        expires_at: string(flags, 'expires-at'),
      });
      return {
        json: token,
        human: `${record([['id', token.id], ['name', token.name], ['permissions', token.permissions.join(', ')], ['expires', token.expires_at]])}\n\n` +
          `Token (shown once, store it now):\n${token.token}`,
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
        human: table(apps, [['id', (a) => a.id], ['name', (a) => a.name], ['environment', (a) => a.environment], ['active', (a) => a.active]], 'No applications.'),
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
        human: record([['id', app.id], ['name', app.name], ['environment', app.environment], ['region', app.region], ['active', app.active],
          ['browser commit', app.browser_commit_enabled], ['updated', app.updated_at]]),
      };
    },
  },

  'origins list': {
    usage: 'origins list [--app <id>]',
    summary: "List an application's allowed origins",
    options: appOption,
    async run(svc, invocation) {
      const origins = await collect((limit) => svc.applications.allowedOrigins.list(application(invocation), { limit }), {});
      return { json: origins, human: table(origins, [['origin', (o) => o.origin], ['last seen', (o) => o.last_seen_at]], 'No allowed origins.') };
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
        human: table(flows, [['id', (f) => f.id], ['status', (f) => f.status], ['version', (f) => f.version], ['title', (f) => f.title]], 'No flows.'),
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
        human: record([['id', flow.id], ['title', flow.title], ['status', flow.status], ['version', flow.version],
          ['active version', flow.active_version], ['purposes', purposes.join('; ')]]),
      };
    },
  },
  'flows activate': {
    usage: 'flows activate <id>',
    summary: "Activate a draft flow, freezing its terms",
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
      const flow = string(flags, 'flow') ?? config.flowId;
      if (!flow) throw new CliUsageError('decisions create needs --flow <flow_id>');
      const mode = string(flags, 'mode') ?? 'redirect';
      if (!['redirect', 'popup', 'embed'].includes(mode)) throw new CliUsageError('--mode is one of redirect, popup, embed');
      const decision = await svc.decisions.create({
        kind: 'consent',
        subject_ref: flow,
        delivery_mode: mode as DeliveryMode,
        embed_origin: string(flags, 'embed-origin'),
        redirect_uri: string(flags, 'redirect-uri'),
        state: string(flags, 'state'),
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
        human: record([['outcome', result.outcome], ['status', result.status], ['transaction', result.consent_transaction_id],
          ['consent token', result.access_token], ['expires in', result.expires_in === undefined ? undefined : `${result.expires_in} s`]]),
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
        human: record([['valid', result.valid ? 'yes' : 'no'], ['status', result.status], ['flow', result.flow_id], ['expires', result.expires_at]]),
      };
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

function decisionRecord(decision: Decision): string {
  return record([
    ['session token', decision.session_token],
    ['status', decision.status],
    ['outcome', decision.outcome],
    ['flow', decision.flow_id && `${decision.flow_id} v${decision.flow_version}`],
    ['mode', decision.delivery_mode],
    ['url', decision.delivery_mode === 'embed' ? decision.embed_url : decision.url],
    ['deadline', decision.deadline_at],
  ]);
}
