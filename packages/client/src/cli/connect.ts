// `svc accounts …`, `svc connections …`, `svc device-links …`, `svc trust-pairings …`: the Connect surface. Accounts
// take an API token; connections, device links and pairings are a person's own (sign in with `svc login`), and an
// API token lists and manages the account's connections and pairings too.
import {
  ACCOUNT_USER_ROLES,
  CONNECTION_STATUSES,
  DEVICE_LINK_STATUSES,
  type Account,
  type AccountUser,
  type Connection,
  type ConnectionDetail,
  type ConnectionStatus,
  type DeviceLink,
  type DeviceLinkStatus,
  type TrustPairing,
} from '@svc/schemas';
import type { Command } from './commands.js';
import { CliUsageError } from './config.js';
import { collect, flag, limitOption, oneOf, oneOfValues } from './flags.js';
import { lines, show, table, type Cell } from './output.js';

const userLines = (user: AccountUser) =>
  lines([
    ['account user', user.id],
    ['person', user.user_id],
    ['role', user.role],
    ['added', user.created_at],
  ]);

function accountLines(account: Account): string {
  const users = account.account_users.map((u) => `  ${u.id}  ${u.user_id}  ${u.role}${u.user_id === account.owner_id ? '  (owner)' : ''}`);
  return `${lines([
    ['account', `${account.name} (${account.id})`],
    ['owner', account.owner_id === account.id ? 'the organisation itself' : account.owner_id],
    ['personal', account.personal ? 'yes' : 'no'],
    ['created', account.created_at],
    ['updated', account.updated_at],
  ])}\n\nUsers:\n${users.length ? users.join('\n') : '  (none)'}`;
}

const connectionColumns: [string, (c: Connection) => Cell][] = [
  ['id', (c) => c.id],
  ['status', (c) => c.status],
  ['application', (c) => `${c.application_name ?? '-'} (${c.application_id ?? '-'})`],
  ['person', (c) => c.user_id],
  ['trust tier', (c) => c.trust_tier],
  ['last active', (c) => c.last_active_at],
];

function connectionLines(c: ConnectionDetail): string {
  const policies = c.active_policies.map((p) =>
    p.type === 'consent_record'
      ? `  consent ${p.id} (flow ${p.flow_id}): ${p.purposes.join(', ')}${p.expires_at ? `, until ${p.expires_at}` : ''}`
      : `  grant ${p.id} to ${p.delegate_type} ${p.delegate_id} (${p.status}): ${p.delegated_scopes.join(' ')}`,
  );
  const suspensions = c.suspensions.map(
    (s) =>
      `  ${s.suspended_at} by the ${s.suspended_by}: ${s.reason}${s.resumed_at ? ` (resumed ${s.resumed_at} by the ${s.resumed_by})` : ''}`,
  );
  return `${lines([
    ['connection', c.id],
    ['status', c.status],
    ['application', `${c.application_name ?? '-'} (${c.application_id ?? '-'})`],
    ['person', c.user_id],
    ['trust tier', c.trust_tier],
    ['connected', c.connected_at],
    ['last active', c.last_active_at],
    ['disconnected', c.disconnected_at],
  ])}\n\nIn force:\n${policies.length ? policies.join('\n') : '  (nothing)'}${suspensions.length ? `\n\nSuspensions:\n${suspensions.join('\n')}` : ''}`;
}

const linkColumns: [string, (l: DeviceLink) => Cell][] = [
  ['id', (l) => l.id],
  ['status', (l) => l.status],
  ['device', (l) => l.device_name],
  ['expires', (l) => l.expires_at],
  ['pairing', (l) => l.trust_pairing_id],
];

function linkLines(l: DeviceLink): string {
  return lines([
    ['device link', l.id],
    ['status', l.status],
    ['device', l.device_name],
    ['expires', l.expires_at],
    ['tries left', l.status === 'pending' ? l.attempts_remaining : null],
    ['claimed', l.claimed_at],
    ['pairing', l.trust_pairing_id],
  ]);
}

const pairingColumns: [string, (p: TrustPairing) => Cell][] = [
  ['id', (p) => p.id],
  ['status', (p) => p.status],
  ['person', (p) => p.user_id],
  ['devices', (p) => `${show(p.initiator.device_name)} + ${show(p.claimant.device_name)}`],
  ['paired', (p) => p.created_at],
];

function pairingLines(p: TrustPairing): string {
  return lines([
    ['trust pairing', p.id],
    ['status', p.status],
    ['person', p.user_id],
    ['first device', `${show(p.initiator.device_name)} (client ${p.initiator.client_id})`],
    ['second device', `${show(p.claimant.device_name)} (client ${p.claimant.client_id})`],
    ['device link', p.device_link_id],
    ['paired', p.created_at],
    ['revoked', p.revoked_at],
  ]);
}

/** The Connect commands, merged into the command list by `run`. */
export const connectCommands: Record<string, Command> = {
  'accounts list': {
    usage: 'accounts list [--limit <n>]',
    summary: 'List the accounts the API token sees (its own)',
    options: limitOption,
    async run(svc, { flags }) {
      const accounts = await collect((limit) => svc.accounts.list({ limit }), flags);
      return {
        json: accounts,
        human: table(
          accounts,
          [
            ['id', (a) => a.id],
            ['name', (a) => a.name],
            ['owner', (a) => a.owner_id],
            ['users', (a) => a.account_users.length],
          ],
          'No accounts.',
        ),
      };
    },
  },
  'accounts show': {
    usage: 'accounts show [--account <id>]',
    summary: 'Show the account and its users',
    options: { account: { type: 'string' } },
    async run(svc, { flags }) {
      const id = flag(flags, 'account') ?? (await svc.accounts.list({ limit: 1 }).page()).items[0]?.id;
      if (!id) throw new CliUsageError('no account: pass --account <id>');
      const account = await svc.accounts.get(id);
      return { json: account, human: accountLines(account) };
    },
  },
  'accounts update': {
    usage: 'accounts update <account_id> [--name <name>] [--owner <user_id>]',
    summary: 'Rename the account, or hand it to one of its users (admin)',
    options: { name: { type: 'string' }, owner: { type: 'string' } },
    args: ['account_id'],
    async run(svc, { args: [id], flags }) {
      const name = flag(flags, 'name');
      const owner = flag(flags, 'owner');
      if (name === undefined && owner === undefined) throw new CliUsageError('accounts update needs --name <name> or --owner <user_id>');
      const account = await svc.accounts.update(id!, {
        ...(name !== undefined ? { name } : {}),
        ...(owner !== undefined ? { owner_id: owner } : {}),
      });
      return { json: account, human: accountLines(account) };
    },
  },
  'accounts add-user': {
    usage: 'accounts add-user <account_id> <user_id> [--role admin|viewer]',
    summary: 'Add a person of the account (prs_…) as one of its users, a console viewer unless --role admin (admin)',
    options: { role: { type: 'string' } },
    args: ['account_id', 'user_id'],
    async run(svc, { args: [id, userId], flags }) {
      const role = oneOf(flags, 'role', ACCOUNT_USER_ROLES);
      const user = await svc.accounts.addUser(id!, { user_id: userId!, ...(role ? { role } : {}) });
      return { json: user, human: userLines(user) };
    },
  },
  'accounts set-role': {
    usage: 'accounts set-role <account_id> <account_user_id> admin|viewer',
    summary: "Change an account user's console role (admin)",
    args: ['account_id', 'account_user_id', 'role'],
    async run(svc, { args: [id, accountUserId, role] }) {
      const chosen = oneOfValues(role, 'the role', ACCOUNT_USER_ROLES);
      const user = await svc.accounts.updateUser(id!, accountUserId!, { role: chosen! });
      return { json: user, human: userLines(user) };
    },
  },
  'accounts remove-user': {
    usage: 'accounts remove-user <account_id> <account_user_id>',
    summary: 'Remove an account user (admin; never the owner)',
    args: ['account_id', 'account_user_id'],
    async run(svc, { args: [id, accountUserId] }) {
      await svc.accounts.removeUser(id!, accountUserId!);
      return { json: { removed: accountUserId }, human: `Removed ${accountUserId}.` };
    },
  },

  'connections list': {
    usage: 'connections list [--status <s>] [--app <id>] [--limit <n>]',
    summary: "List connections: the signed-in person's, or the account's",
    options: { ...limitOption, status: { type: 'string' }, app: { type: 'string' } },
    async run(svc, { flags }) {
      const status = oneOf<ConnectionStatus>(flags, 'status', CONNECTION_STATUSES);
      const connections = await collect((limit) => svc.connections.list({ limit, status, application_id: flag(flags, 'app') }), flags);
      return { json: connections, human: table(connections, connectionColumns, 'No connections.') };
    },
  },
  'connections show': {
    usage: 'connections show <id>',
    summary: 'Show a connection, what is in force and its suspensions',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const connection = await svc.connections.get(id!);
      return { json: connection, human: connectionLines(connection) };
    },
  },
  'connections create': {
    usage: 'connections create <application_id>',
    summary: 'Connect the signed-in person to an application (svc login)',
    args: ['application_id'],
    async run(svc, { args: [applicationId] }) {
      const connection = await svc.connections.create({ application_id: applicationId! });
      return { json: connection, human: connectionLines(connection) };
    },
  },
  'connections suspend': {
    usage: 'connections suspend <id> --reason <reason>',
    summary: 'Suspend a connection, saying why',
    options: { reason: { type: 'string' } },
    args: ['id'],
    async run(svc, { args: [id], flags }) {
      const reason = flag(flags, 'reason');
      if (!reason) throw new CliUsageError('connections suspend needs --reason <reason>');
      const connection = await svc.connections.suspend(id!, { reason });
      return { json: connection, human: connectionLines(connection) };
    },
  },
  'connections resume': {
    usage: 'connections resume <id>',
    summary: 'Resume a connection you suspended',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const connection = await svc.connections.resume(id!);
      return { json: connection, human: connectionLines(connection) };
    },
  },
  'connections disconnect': {
    usage: 'connections disconnect <id>',
    summary: 'Disconnect for good, and print what stopped working',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const result = await svc.connections.disconnect(id!);
      return {
        json: result,
        human:
          `${lines([
            ['connection', result.connection.id],
            ['status', result.connection.status],
            ['disconnected', result.connection.disconnected_at],
          ])}\n\n` + `Warnings:\n${result.warnings.map((w) => `  - ${w}`).join('\n')}`,
      };
    },
  },

  'device-links create': {
    usage: 'device-links create [--name <device>]',
    summary: 'Make a code to pair your other device (10 minutes, once)',
    options: { name: { type: 'string' } },
    async run(svc, { flags }) {
      const name = flag(flags, 'name');
      const link = await svc.deviceLinks.create(name === undefined ? {} : { device_name: name });
      return {
        json: link,
        human: `${linkLines(link)}\n\nOn your other device, signed in as you, run:\n  svc device-links claim ${link.code} --name <device>`,
      };
    },
  },
  'device-links claim': {
    usage: 'device-links claim <code> --name <device>',
    summary: 'Pair this device with the code shown on the other one',
    options: { name: { type: 'string' } },
    args: ['code'],
    async run(svc, { args: [code], flags }) {
      const name = flag(flags, 'name');
      if (!name) throw new CliUsageError('device-links claim needs --name <device>: the name of this device');
      const pairing = await svc.deviceLinks.claim({ code: code!, device_name: name });
      return { json: pairing, human: pairingLines(pairing) };
    },
  },
  'device-links list': {
    usage: 'device-links list [--status <s>] [--limit <n>]',
    summary: 'List your device links (never their codes)',
    options: { ...limitOption, status: { type: 'string' } },
    async run(svc, { flags }) {
      const status = oneOf<DeviceLinkStatus>(flags, 'status', DEVICE_LINK_STATUSES);
      const links = await collect((limit) => svc.deviceLinks.list({ limit, status }), flags);
      return { json: links, human: table(links, linkColumns, 'No device links.') };
    },
  },
  'device-links show': {
    usage: 'device-links show <id>',
    summary: 'Show a device link (pending, claimed, expired, …)',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const link = await svc.deviceLinks.get(id!);
      return { json: link, human: linkLines(link) };
    },
  },
  'device-links cancel': {
    usage: 'device-links cancel <id>',
    summary: 'Cancel a pending device link',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const link = await svc.deviceLinks.cancel(id!);
      return { json: link, human: linkLines(link) };
    },
  },

  'trust-pairings list': {
    usage: 'trust-pairings list [--status <s>] [--limit <n>]',
    summary: "List trust pairings: yours, or the account's",
    options: { ...limitOption, status: { type: 'string' } },
    async run(svc, { flags }) {
      const status = oneOf(flags, 'status', ['active', 'revoked'] as const);
      const pairings = await collect((limit) => svc.trustPairings.list({ limit, status }), flags);
      return { json: pairings, human: table(pairings, pairingColumns, 'No trust pairings.') };
    },
  },
  'trust-pairings show': {
    usage: 'trust-pairings show <id>',
    summary: 'Show a trust pairing of two devices',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const pairing = await svc.trustPairings.get(id!);
      return { json: pairing, human: pairingLines(pairing) };
    },
  },
  'trust-pairings revoke': {
    usage: 'trust-pairings revoke <id>',
    summary: 'Revoke a trust pairing',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const pairing = await svc.trustPairings.revoke(id!);
      return { json: pairing, human: pairingLines(pairing) };
    },
  },
};
