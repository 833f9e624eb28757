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
import { mailingCommands } from './mailing.js';
import { protectCommands } from './protect.js';
import { complyCommands } from './comply.js';
import { verifyCommands } from './verify.js';
import { agreeCommands } from './agree.js';
import { importCommands } from './import.js';
import { flagSuggestion, unknownCommandMessage } from './suggest.js';
import { baseUrlOrigin, unansweredBase, unreachableHint, wrongCountryHint } from './hints.js';

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
  ...mailingCommands,
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

/** The cells a `GET /api/v1/countries` answer lists, by country (nothing when the body is not that list). */
async function cellsListed(response: Response): Promise<Record<string, string>> {
  const body = (await response.json().catch(() => undefined)) as { countries?: { country?: unknown; base_url?: unknown }[] } | undefined;
  const cells: Record<string, string> = {};
  for (const cell of Array.isArray(body?.countries) ? body.countries : []) {
    if (typeof cell?.country === 'string' && typeof cell.base_url === 'string') cells[cell.country] = cell.base_url;
  }
  return cells;
}

/**
 * Which country answered: the `Svc-Country` header of each answer, read by the `fetch` the client is given. It also
 * keeps, for the error messages, the URL that gave no answer and the cells the service listed.
 */
function countryWatch() {
  const answers: { country: string; status: number }[] = [];
  let unanswered: string | undefined;
  let listed: Record<string, string> = {};
  const fetch: FetchImplementation = async (url, init) => {
    let response: Response;
    try {
      response = await globalThis.fetch(url, init);
    } catch (err) {
      unanswered = url;
      throw err;
    }
    const country = response.headers.get('svc-country');
    if (country) answers.push({ country, status: response.status });
    if (response.ok && new URL(url).pathname.endsWith('/api/v1/countries')) listed = await cellsListed(response.clone());
    return response;
  };
  return {
    fetch,
    answered(): { country: string; reissuedFrom?: string } | undefined {
      const last = answers.at(-1);
      if (!last) return undefined;
      // A 421 before the last answer: the client re-issued the call at the resource's home country.
      const misdirected = answers.slice(0, -1).findLast((a) => a.status === 421 && a.country !== last.country);
      return { country: last.country, ...(misdirected && { reissuedFrom: misdirected.country }) };
    },
    unanswered: () => unanswered,
    listed: () => listed,
  };
}

type CountryWatch = ReturnType<typeof countryWatch>;

function describeError(err: AnySvcError): string {
  // Errors without a status (network, timeout) already name the request in their message.
  const where = err.status ? ` (${err.status} ${err.method} ${err.path})` : '';
  const fields = err.errors.length > 1 ? `; ${err.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}` : '';
  return `${err.message}${fields}${where}`;
}

type Fail = (code: number, message: string, details?: object) => number;

/**
 * An API or network error as `svc` reports it: the error, then what to do about it (the service that did not
 * answer; the cells a 421 could have gone to). `--json` gets the same message and the fields apart.
 */
function reportError(err: AnySvcError, watch: CountryWatch, io: CliIo, fail: Fail): number {
  const usage = err.code === 'ERR_SVC_CONFIGURATION';
  let hint = '';
  let extra: object = {};
  if (err.code === 'ERR_SVC_NETWORK') {
    const configured = baseUrlOrigin(io.env, io.cwd);
    hint = unreachableHint(watch.unanswered(), configured);
    extra = { base_url: unansweredBase(watch.unanswered(), configured) };
  } else if (err.code === 'ERR_SVC_WRONG_COUNTRY') {
    const cells = { ...loadedCells(io), ...watch.listed() };
    hint = wrongCountryHint(err, cells);
    extra = { known_cells: cells };
  }
  return fail(usage ? EXIT.usage : EXIT.api, `${describeError(err)}${hint}`, {
    code: err.code,
    status: err.status,
    reason: err.reason,
    errors: err.errors,
    method: err.method,
    path: err.path,
    home_country: err.homeCountry,
    country: watch.answered()?.country,
    ...extra,
  });
}

/** The sandbox's own cells, when the base URL is one of them (what the client re-issues at without asking). */
function loadedCells(io: CliIo): Record<string, string> {
  try {
    return loadConfig(io.env, io.cwd).countries ?? {};
  } catch {
    return {};
  }
}

/** A command line that names no command: help when asked for, else what was probably meant (exit 2). */
function noCommand(argv: string[], io: CliIo, fail: Fail): number {
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
  const words = argv.filter((a) => !a.startsWith('-'));
  if (words.length === 0) return fail(EXIT.usage, 'no command; run svc --help');
  return fail(EXIT.usage, unknownCommandMessage(Object.keys(allCommands), words));
}

/** The command's flags and arguments, or the usage error (with the flag probably meant) as a message. */
function parseCommandLine(command: Command | SessionCommand, rest: string[]): ReturnType<typeof parseArgs> | string {
  const options = { ...globalOptions, ...command.options };
  try {
    return parseArgs({ args: rest, options, allowPositionals: true, strict: true });
  } catch (err) {
    // parseArgs explains at length how to pass a positional that starts with '-'; its first sentence is the point.
    const message = (err as Error).message;
    const meant = flagSuggestion(message, Object.keys(options));
    return `${message.split(/\.\s/)[0]}; ${meant ? `did you mean ${meant}? ` : ''}usage: svc ${command.usage}`;
  }
}

/** Runs one `svc` invocation and resolves to its exit code. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const json = argv.includes('--json');
  const fail: Fail = (code, message, details = {}) => {
    io.stderr(json ? `${JSON.stringify({ error: { message, ...details } })}\n` : `svc: ${message}\n`);
    return code;
  };

  const found = findCommand(argv);
  if (!found) return noCommand(argv, io, fail);
  const { command, rest } = found;

  const parsed = parseCommandLine(command, rest);
  if (typeof parsed === 'string') return fail(EXIT.usage, parsed);
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
    reportCountry(watch, io, json);
    return output.exitCode ?? EXIT.ok;
  } catch (err) {
    if (err instanceof CliUsageError) return fail(EXIT.usage, err.message);
    if (isSvcError(err)) return reportError(err, watch, io, fail);
    throw err;
  }
}

/** Which country answered, on stderr so that stdout stays the result alone. */
function reportCountry(watch: CountryWatch, io: CliIo, json: boolean): void {
  const answered = watch.answered();
  if (!answered) return;
  const { country, reissuedFrom } = answered;
  io.stderr(
    json
      ? `${JSON.stringify({ country, ...(reissuedFrom && { reissued_from: reissuedFrom }) })}\n`
      : `country: ${country}${reissuedFrom ? ` (re-issued there: ${reissuedFrom} answered that the resource lives in ${country})` : ''}\n`,
  );
}
