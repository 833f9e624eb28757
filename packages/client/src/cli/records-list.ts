// `svc records list`: the account's consent records, newest first, one page at a time (the next page's command on
// stderr) or every page with --all; a table, or under --json the page itself ({consent_records, next_cursor}).
import { type ConsentRecord, consentRecordStatus } from '@svc/schemas';
import type { ConsentRecordQuery } from '../resources/consent-records.js';
import type { Command, Invocation } from './commands.js';
import { CliUsageError } from './config.js';
import { flag, oneOf } from './flags.js';
import { type Cell, table } from './output.js';

/** The filter flags, each with the query field it sets, in the order the next page's command repeats them. */
const FILTERS = ['flow', 'status', 'purpose', 'email', 'external-id', 'since'] as const;

const recordColumns: [string, (r: ConsentRecord) => Cell][] = [
  ['id', (r) => r.id],
  ['status', (r) => r.status],
  ['flow', (r) => r.flow_id],
  ['subject', (r) => (r.subject.external_id ? `${r.subject.email} (${r.subject.external_id})` : r.subject.email)],
  ['purposes', (r) => r.purposes.map((p) => `${p.key} ${p.outcome}`).join('; ')],
  ['captured', (r) => r.captured_at],
];

// Quoted for a POSIX shell only where needed, as `records import` quotes the command that resumes it.
const quote = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);

/** `--since`: an RFC 3339 date-time, or a date, read as midnight UTC. */
function since(value: string | undefined): string | undefined {
  return value !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
}

/** The page size: `--limit` (1 to 100), else 100 a page under --all and 20 otherwise. */
function pageSize(flags: Invocation['flags']): number {
  if (flags.limit === undefined) return flags.all === true ? 100 : 20;
  const limit = Number(flags.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new CliUsageError('--limit must be a whole number from 1 to 100');
  return limit;
}

/** The list query the flags ask for. */
function queryOf(flags: Invocation['flags']): ConsentRecordQuery {
  const email = flag(flags, 'email');
  const externalId = flag(flags, 'external-id');
  return {
    flow_id: flag(flags, 'flow'),
    status: oneOf(flags, 'status', consentRecordStatus.options),
    purpose: flag(flags, 'purpose'),
    subject: email === undefined && externalId === undefined ? undefined : { email, external_id: externalId },
    captured_since: since(flag(flags, 'since')),
    limit: pageSize(flags),
    cursor: flag(flags, 'cursor'),
  };
}

/** The command that fetches the page at `cursor` with the same filters and page size. */
function nextCommand(flags: Invocation['flags'], cursor: string): string {
  const words = ['svc', 'records', 'list'];
  for (const name of [...FILTERS, 'limit']) {
    const value = flag(flags, name);
    if (value !== undefined) words.push(`--${name}`, value);
  }
  words.push('--cursor', cursor);
  return words.map(quote).join(' ');
}

export const recordsList: Command = {
  usage:
    'records list [--flow <id>] [--status fulfilled|revoked|expired] [--purpose <key>] [--email <email>] [--external-id <id>] ' +
    '[--since <date-time|date>] [--limit <n>] [--cursor <cursor>] [--all]',
  summary:
    "List the account's consent records in this country's cell, newest first: one page (--limit, default 20; the next page's command on stderr) or every page with --all",
  options: {
    ...Object.fromEntries(FILTERS.map((name) => [name, { type: 'string' as const }])),
    limit: { type: 'string' },
    cursor: { type: 'string' },
    all: { type: 'boolean' },
  },
  async run(svc, { flags }, io) {
    const list = svc.consentRecords.list(queryOf(flags));
    const records: ConsentRecord[] = [];
    let next: string | null = null;
    for await (const page of list.pages()) {
      records.push(...page.items);
      next = page.nextCursor;
      if (flags.all !== true) break;
    }
    // On stderr, so that stdout stays the table alone; under --json the cursor is in the page printed.
    if (next !== null && flags.json !== true) io?.stderr(`more: ${nextCommand(flags, next)}  (or --all for every page)\n`);
    return { json: { consent_records: records, next_cursor: next }, human: table(records, recordColumns, 'No consent records.') };
  },
};
