// `svc trust-scores get`, `svc vouches …`: the Verify surface's trust scores (an API token, or a signed-in person for
// their own) and vouches (a signed-in person vouches, lists and revokes; an API token reads the account's).
import type { SvcList } from '../lib/pagination.js';
import type { TrustScore } from '../schemas/delegations.js';
import type { Vouch } from '../schemas/vouches.js';
import type { Command, Invocation } from './commands.js';
import { CliUsageError } from './config.js';

type Cell = string | number | boolean | null | undefined;

const show = (value: Cell): string => (value === null || value === undefined || value === '' ? '-' : String(value));

function lines(pairs: [string, Cell][]): string {
  const width = Math.max(...pairs.map(([label]) => label.length));
  return pairs.map(([label, value]) => `${label.padEnd(width)}  ${show(value)}`).join('\n');
}

function table<T>(items: T[], columns: [string, (item: T) => Cell][], empty: string): string {
  if (items.length === 0) return empty;
  const cells = [columns.map(([title]) => title.toUpperCase()), ...items.map((item) => columns.map(([, cell]) => show(cell(item))))];
  const widths = columns.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  return cells.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}

const flag = (flags: Invocation['flags'], name: string): string | undefined => (typeof flags[name] === 'string' ? (flags[name] as string) : undefined);

/** A flag that must be one of `allowed`, or undefined. */
function oneOf<T extends string>(flags: Invocation['flags'], name: string, allowed: readonly T[]): T | undefined {
  const value = flag(flags, name);
  if (value !== undefined && !allowed.includes(value as T)) throw new CliUsageError(`--${name} is one of ${allowed.join(', ')}`);
  return value as T | undefined;
}

/** Collects a list's items, at most `--limit` of them (all when not given). */
export async function collect<T>(list: (pageSize: number) => SvcList<T>, flags: Invocation['flags']): Promise<T[]> {
  const raw = flag(flags, 'limit');
  const limit = raw === undefined ? Infinity : Number(raw);
  if (raw !== undefined && !(/^\d{1,6}$/.test(raw) && limit >= 1)) throw new CliUsageError('--limit must be a whole number of at least 1');
  const items: T[] = [];
  for await (const item of list(Math.min(limit, 100))) {
    items.push(item);
    if (items.length >= limit) break;
  }
  return items;
}

/** A score with its factors, as a person reads it. */
export function scoreLines(score: TrustScore): string {
  const signed = (n: number) => (n > 0 ? `+${n}` : String(n));
  return `${lines([[score.subject_type, score.subject_id], ['score', `${score.score} / 100 (50 and the contributions)`], ['computed', score.computed_at]])}\n\n` +
    table(score.factors, [['factor', (f) => f.name], ['value', (f) => f.value], ['weight', (f) => f.weight], ['cap', (f) => f.cap], ['contribution', (f) => signed(f.contribution)]], 'No factors.');
}

const vouchLines = (v: Vouch) => lines([
  ['vouch', v.id], ['voucher', v.voucher_id], ['vouchee', `${v.vouchee_id} (${v.vouchee_type})`], ['statement', v.statement],
  ['status', v.status], ['created', v.created_at], ['revoked', v.revoked_at],
]);

const vouchColumns: [string, (v: Vouch) => Cell][] = [
  ['id', (v) => v.id], ['voucher', (v) => v.voucher_id], ['vouchee', (v) => v.vouchee_id], ['status', (v) => v.status], ['created', (v) => v.created_at],
];

/** The Verify commands, merged into the command list by `run`. */
export const verifyCommands: Record<string, Command> = {
  'trust-scores get': {
    usage: 'trust-scores get <subject_id>',
    summary: "Show a person's (prs_…) or an agent's (agt_…) trust score and the factors that make it",
    args: ['subject_id'],
    async run(svc, { args: [id] }) {
      const score = await svc.trustScores.get(id!);
      return { json: score, human: scoreLines(score) };
    },
  },

  'vouches create': {
    usage: 'vouches create <vouchee_id> [--statement <text>]',
    summary: 'Vouch for a person or an agent of the account (a signed-in person: svc login)',
    options: { statement: { type: 'string' } },
    args: ['vouchee_id'],
    async run(svc, { args: [vouchee], flags }) {
      const statement = flag(flags, 'statement');
      const vouch = await svc.vouches.create({ vouchee_id: vouchee!, ...(statement !== undefined ? { statement } : {}) });
      return { json: vouch, human: vouchLines(vouch) };
    },
  },
  'vouches list': {
    usage: 'vouches list [--direction given|received] [--status active|revoked] [--limit <n>]',
    summary: "List vouches: a signed-in person's own (given and received), or the account's",
    options: { direction: { type: 'string' }, status: { type: 'string' }, vouchee: { type: 'string' }, limit: { type: 'string' } },
    async run(svc, { flags }) {
      const direction = oneOf(flags, 'direction', ['given', 'received'] as const);
      const status = oneOf(flags, 'status', ['active', 'revoked'] as const);
      const vouchee = flag(flags, 'vouchee');
      const vouches = await collect((limit) => svc.vouches.list({ limit, direction, status, ...(vouchee ? { vouchee_id: vouchee } : {}) }), flags);
      return { json: vouches, human: table(vouches, vouchColumns, 'No vouches.') };
    },
  },
  'vouches get': {
    usage: 'vouches get <id>',
    summary: 'Show a vouch',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const vouch = await svc.vouches.get(id!);
      return { json: vouch, human: vouchLines(vouch) };
    },
  },
  'vouches revoke': {
    usage: 'vouches revoke <id>',
    summary: 'Revoke a vouch you gave (a signed-in person); it then counts against the vouchee',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const vouch = await svc.vouches.revoke(id!);
      return { json: vouch, human: vouchLines(vouch) };
    },
  },
};
