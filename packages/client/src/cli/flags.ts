// Reading a `svc` command's flags: a string flag, a comma-separated list, a choice among fixed values, a required
// flag, the application (`--app` or the sandbox's), and `--limit` for the commands that list.
import type { SvcList } from '../lib/pagination.js';
import type { Invocation } from './commands.js';
import { CliUsageError } from './config.js';

type Flags = Invocation['flags'];

/** The flags of a command that takes `--limit <n>` / `--app <application_id>`. */
export const limitOption = { limit: { type: 'string' } } as const;
export const appOption = { app: { type: 'string' } } as const;

/** A string flag's value, or undefined when it is not given. */
export const flag = (flags: Flags, name: string): string | undefined =>
  typeof flags[name] === 'string' ? (flags[name] as string) : undefined;

/** A comma-separated flag as a list of its trimmed, non-empty items; undefined when it is not given. */
export const listFlag = (flags: Flags, name: string): string[] | undefined => {
  const value = flag(flags, name);
  return value === undefined
    ? undefined
    : value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
};

/** A comma-separated flag as a list (empty when not given). */
export const listOf = (flags: Flags, name: string): string[] => listFlag(flags, name) ?? [];

/** `value` when it is one of `allowed` (or undefined); otherwise a usage error naming `label` (`--status`, `<key>`). */
export function oneOfValues<T extends string>(value: string | undefined, label: string, allowed: readonly T[]): T | undefined {
  if (value !== undefined && !allowed.includes(value as T)) throw new CliUsageError(`${label} is one of ${allowed.join(', ')}`);
  return value as T | undefined;
}

/** A flag that must be one of `allowed`, or undefined when it is not given. */
export const oneOf = <T extends string>(flags: Flags, name: string, allowed: readonly T[]): T | undefined =>
  oneOfValues(flag(flags, name), `--${name}`, allowed);

/**
 * A flag holding a JSON object, or undefined when it is not given. Text that is not JSON is a usage error that shows
 * `example` when given; JSON that is not an object (an array, a string, null) is one too.
 */
export function jsonObject(flags: Flags, name: string, example?: string): Record<string, unknown> | undefined {
  const value = flag(flags, name);
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new CliUsageError(`--${name} must be a JSON object${example === undefined ? '' : `, e.g. '${example}'`}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new CliUsageError(`--${name} must be a JSON object`);
  return parsed as Record<string, unknown>;
}

/** A flag that must be given and not be empty; the usage error shows `--name <what>` when `what` is given. */
export function required(flags: Flags, name: string, what?: string): string {
  const value = flag(flags, name);
  if (value === undefined || value === '') throw new CliUsageError(`--${name}${what === undefined ? '' : ` <${what}>`} is required`);
  return value;
}

/** The application: `--app`, else the sandbox's. */
export function application({ flags, config }: Pick<Invocation, 'flags' | 'config'>): string {
  const id = flag(flags, 'app') ?? config.applicationId;
  if (!id) throw new CliUsageError('no application: pass --app <application_id>');
  return id;
}

/** The first `limit` items of a list (all of them when the limit is Infinity). */
export async function take<T>(list: AsyncIterable<T>, limit: number): Promise<T[]> {
  const items: T[] = [];
  for await (const item of list) {
    items.push(item);
    if (items.length >= limit) break;
  }
  return items;
}

/** Collects a list's items, at most `--limit` of them (all when not given), asking for pages of up to 100. */
export async function collect<T>(list: (pageSize: number) => SvcList<T>, flags: Flags): Promise<T[]> {
  const limit = flags.limit === undefined ? Infinity : Number(flags.limit);
  if (limit !== Infinity && !(Number.isInteger(limit) && limit >= 1))
    throw new CliUsageError('--limit must be a whole number of at least 1');
  return take(list(Number.isFinite(limit) ? Math.min(limit, 100) : 100), limit);
}
