// `svc mailing …`: the organisation's mailing tool connected to a flow's purpose (Mailchimp audiences, Brevo lists),
// whose unsubscribes withdraw the purpose. An API token with `admin` connects and disconnects; `read` lists. The
// provider's API key is read from a file.
import { readFileSync } from 'node:fs';
import type { MailingConnection } from '@svc/schemas';
import type { Command } from './commands.js';
import { CliUsageError } from './config.js';
import { collect, flag, limitOption, oneOf } from './flags.js';
import { lines, table } from './output.js';

const connectionLines = (c: MailingConnection) =>
  lines([
    ['mailing connection', c.id],
    ['provider', c.provider],
    ['list', c.list_id],
    ['flow', c.flow_id],
    ['purpose', c.purpose],
    ['marketing permission', c.marketing_permission_id ?? '(none)'],
    ['status', c.status],
    ['webhook', c.webhook_url],
    ['created', c.created_at],
  ]);

/** The mailing commands, merged into the command list by `run`. */
export const mailingCommands: Record<string, Command> = {
  'mailing connect': {
    usage:
      'mailing connect --provider mailchimp|brevo --list <id> --flow <flow_id> --purpose <key> [--permission <id>] [--api-base-url <url>] --api-key-file <path>',
    summary: "Connect a mailing list to a flow's purpose: its unsubscribes withdraw it (admin)",
    options: {
      provider: { type: 'string' },
      list: { type: 'string' },
      flow: { type: 'string' },
      purpose: { type: 'string' },
      permission: { type: 'string' },
      'api-base-url': { type: 'string' },
      'api-key-file': { type: 'string' },
    },
    async run(svc, { flags }) {
      const provider = oneOf(flags, 'provider', ['mailchimp', 'brevo'] as const);
      const [list, flow, purpose] = [flag(flags, 'list'), flag(flags, 'flow'), flag(flags, 'purpose')];
      if (!provider || !list || !flow || !purpose)
        throw new CliUsageError('mailing connect needs --provider, --list, --flow and --purpose');
      // The key is a secret: read from a file, never an argument, which the shell's history and the process list keep.
      const file = flag(flags, 'api-key-file');
      if (!file) throw new CliUsageError("mailing connect reads the provider's API key from --api-key-file <path>");
      let key: string;
      try {
        key = readFileSync(file, 'utf8').trim();
      } catch (error) {
        throw new CliUsageError(`cannot read the API key file ${file}: ${(error as Error).message}`);
      }
      if (!key) throw new CliUsageError(`the API key file ${file} is empty`);
      const permission = flag(flags, 'permission');
      const base = flag(flags, 'api-base-url');
      const made = await svc.mailingConnections.create({
        provider,
        api_key: key,
        list_id: list,
        flow_id: flow,
        purpose,
        ...(permission ? { marketing_permission_id: permission } : {}),
        ...(base ? { api_base_url: base } : {}),
      });
      return { json: made, human: connectionLines(made) };
    },
  },
  'mailing list': {
    usage: 'mailing list [--limit <n>]',
    summary: 'List the mailing connections',
    options: limitOption,
    async run(svc, { flags }) {
      const connections = await collect((limit) => svc.mailingConnections.list({ limit }), flags);
      return {
        json: connections,
        human: table(
          connections,
          [
            ['id', (c) => c.id],
            ['provider', (c) => c.provider],
            ['list', (c) => c.list_id],
            ['purpose', (c) => c.purpose],
            ['status', (c) => c.status],
          ],
          'No mailing connections.',
        ),
      };
    },
  },
  'mailing disconnect': {
    usage: 'mailing disconnect <id>',
    summary: "Disconnect a mailing list: the service's webhook is removed at the provider (admin)",
    args: ['id'],
    async run(svc, { args: [id] }) {
      await svc.mailingConnections.delete(id!);
      return { json: { disconnected: id }, human: `Disconnected ${id}.` };
    },
  },
};
