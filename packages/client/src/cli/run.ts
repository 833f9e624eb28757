import { parseArgs, type ParseArgsConfig } from 'node:util';
import { createClient } from '../lib/client.js';
import { isSvcError, type AnySvcError } from '../lib/errors.js';
import type { FetchImplementation } from '../lib/options.js';
import { commands, type Command } from './commands.js';
import { CliUsageError, loadConfig } from './config.js';
import { exchangeCommands } from './exchange.js';
import { chooseCredential, sessionCommands, type SessionCommand } from './session.js';
import { transparencyCommands } from './transparency.js';
import { groupLines, topicLines } from './help.js';
import { crossBorderCommands } from './cross-border.js';
import { connectCommands } from './connect.js';
import { protectCommands } from './protect.js';
import { complyCommands } from './comply.js';
import { verifyCommands } from './verify.js';
import { agreeCommands } from './agree.js';
import { importCommands } from './import.js';

/** Where the command line reads its environment and writes its output (the process, or a test's buffers). */
export interface CliIo {
  env: Record<string, string | undefined>;
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Where a long command draws a progress bar: stderr, when stdout and stderr are both a terminal. */
  terminal?: NodeJS.WritableStream | undefined;
}

/** Exit codes: success, an error the API (or the network) reported, a usage or setup mistake. */
export const EXIT = { ok: 0, api: 1, usage: 2 } as const;

const globalOptions = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const satisfies ParseArgsConfig['options'];

/** Every command by its words: the API commands, the token exchange, then `login` and `logout`. */
const allCommands: Record<string, Command | SessionCommand> = {
  ...commands,
  ...crossBorderCommands,
  ...connectCommands,
  ...protectCommands,
  ...complyCommands,
  ...verifyCommands,
  ...agreeCommands,
  ...importCommands,
  ...transparencyCommands,
  ...exchangeCommands,
  ...sessionCommands,
};

function help(): string {
  return [
    'Usage: svc <command> [options] [--json]',
    '       svc <group> --help    the commands of one group, e.g. svc records --help',
    '',
    'Commands, by product surface:',
    ...groupLines(allCommands),
    '',
    'Options:',
    '  --json     print the result as JSON (on stderr one JSON line: the error, or the country that answered)',
    '  -h, --help show this help',
    '',
    'The service comes from SVC_BASE_URL, or else from the sandbox.json that the reference server writes into its',
    'data directory (SVC_DATA_DIR, default .svc in the current directory). The credential, first found wins:',
    '  1. SVC_API_TOKEN;',
    '  2. the person svc login signed in at that base URL ($XDG_CONFIG_HOME/svc/credentials.json, else',
    '     ~/.config/svc/credentials.json, mode 0600), whose access token is refreshed when it is about to expire;',
    "  3. the sandbox.json's api_token.",
    'svc logout (or setting SVC_API_TOKEN) goes back to the API token. svc login signs in with --client-id, else',
    "SVC_OAUTH_CLIENT_ID, else the sandbox's client; a confidential client's secret comes from --client-secret,",
    'SVC_OAUTH_CLIENT_SECRET or the sandbox (prefer the variable: a flag shows in the process list).',
    'The commands an agent runs (me, authority check, escalations) act as the agent when SVC_AGENT_TOKEN is set; authority',
    "check needs it. svc delegations exchange prints one, as the agent's OAuth client: --client-id or SVC_AGENT_CLIENT_ID,",
    "the secret from SVC_AGENT_CLIENT_SECRET (or the sandbox's client and secret).",
    'Every answer names the country cell that gave it (country: DE on stderr). A resource homed in another country is',
    "asked again there once, at that cell's base URL from the sandbox.json's countries, or else as the service lists it.",
    'Exit codes: 0 success, 1 the API refused or could not be reached (or a receipt or audit trail did not verify, or an',
    'authority check was denied), 2 usage or setup error, 3 an authority check was escalated to the principal, 130 an',
    'import stopped by Ctrl-C (svc records import prints the command that resumes it).',
    '',
  ].join('\n');
}

/** Finds the command named by the leading words of `argv` (`tokens create ...`). */
function findCommand(argv: string[]): { command: Command | SessionCommand; rest: string[] } | undefined {
  for (const words of [2, 1]) {
    const key = argv.slice(0, words).join(' ');
    const command = allCommands[key];
    if (command && argv.slice(0, words).every((w) => !w.startsWith('-'))) return { command, rest: argv.slice(words) };
  }
  return undefined;
}

/** Which country answered: the `Svc-Country` header of each answer, read by the `fetch` the client is given. */
function countryWatch(): { fetch: FetchImplementation; answered(): { country: string; reissuedFrom?: string } | undefined } {
  const answers: { country: string; status: number }[] = [];
  return {
    fetch: async (url, init) => {
      const response = await globalThis.fetch(url, init);
      const country = response.headers.get('svc-country');
      if (country) answers.push({ country, status: response.status });
      return response;
    },
    answered() {
      const last = answers.at(-1);
      if (!last) return undefined;
      // A 421 before the last answer: the client re-issued the call at the resource's home country.
      const misdirected = answers.slice(0, -1).findLast((a) => a.status === 421 && a.country !== last.country);
      return { country: last.country, ...(misdirected && { reissuedFrom: misdirected.country }) };
    },
  };
}

function describeError(err: AnySvcError): string {
  // Errors without a status (network, timeout) already name the request in their message.
  const where = err.status ? ` (${err.status} ${err.method} ${err.path})` : '';
  const fields = err.errors.length > 1 ? `; ${err.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}` : '';
  return `${err.message}${fields}${where}`;
}

/** Runs one `svc` invocation and resolves to its exit code. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const json = argv.includes('--json');
  const fail = (code: number, message: string, details: object = {}) => {
    io.stderr(json ? `${JSON.stringify({ error: { message, ...details } })}\n` : `svc: ${message}\n`);
    return code;
  };

  const found = findCommand(argv);
  if (!found) {
    const asksHelp = argv.includes('--help') || argv.includes('-h');
    const topic = asksHelp && argv[0] && !argv[0].startsWith('-') ? topicLines(allCommands, argv[0]) : [];
    if (topic.length) {
      io.stdout(`Usage: svc ${argv[0]} <command> [options] [--json]\n\n${topic.join('\n')}\n`);
      return EXIT.ok;
    }
    if (argv.length === 0 || asksHelp) {
      io.stdout(help());
      return EXIT.ok;
    }
    return fail(
      EXIT.usage,
      `unknown command "${argv
        .filter((a) => !a.startsWith('-'))
        .slice(0, 2)
        .join(' ')}"; run svc --help`,
    );
  }
  const { command, rest } = found;

  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options: { ...globalOptions, ...command.options }, allowPositionals: true, strict: true });
  } catch (err) {
    // parseArgs explains at length how to pass a positional that starts with '-'; its first sentence is the point.
    return fail(EXIT.usage, `${(err as Error).message.split(/\.\s/)[0]}; usage: svc ${command.usage}`);
  }
  if (parsed.values.help) {
    io.stdout(`Usage: svc ${command.usage}\n\n${command.summary}.\n`);
    return EXIT.ok;
  }
  const expected = command.args ?? [];
  if (parsed.positionals.length !== expected.length) {
    return fail(EXIT.usage, `usage: svc ${command.usage}`);
  }

  const watch = countryWatch();
  try {
    const args = { args: parsed.positionals, flags: parsed.values };
    let output;
    if ('session' in command) {
      output = await command.run({ ...args, config: () => loadConfig(io.env, io.cwd), env: io.env, stderr: io.stderr });
    } else {
      const config = loadConfig(io.env, io.cwd);
      const svc = createClient({
        baseUrl: config.baseUrl,
        ...chooseCredential(config, io.env, command.agent),
        ...(config.countries && { countries: config.countries }),
        fetch: watch.fetch,
        onWarning: (w) => io.stderr(`${w.message}\n`),
      });
      output = await command.run(svc, { ...args, config }, io);
    }
    io.stdout(json ? `${JSON.stringify(output.json, null, 2)}\n` : `${output.human}\n`);
    // Which country answered, on stderr so that stdout stays the result alone.
    const answered = watch.answered();
    if (answered) {
      const { country, reissuedFrom } = answered;
      io.stderr(
        json
          ? `${JSON.stringify({ country, ...(reissuedFrom && { reissued_from: reissuedFrom }) })}\n`
          : `country: ${country}${reissuedFrom ? ` (re-issued there: ${reissuedFrom} answered that the resource lives in ${country})` : ''}\n`,
      );
    }
    return output.exitCode ?? EXIT.ok;
  } catch (err) {
    if (err instanceof CliUsageError) return fail(EXIT.usage, err.message);
    if (isSvcError(err)) {
      const usage = err.code === 'ERR_SVC_CONFIGURATION';
      return fail(usage ? EXIT.usage : EXIT.api, describeError(err), {
        code: err.code,
        status: err.status,
        reason: err.reason,
        errors: err.errors,
        method: err.method,
        path: err.path,
        home_country: err.homeCountry,
        country: watch.answered()?.country,
      });
    }
    throw err;
  }
}
