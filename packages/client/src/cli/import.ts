// `svc records import <file>`: a CSV or JSON Lines file of decisions captured elsewhere, mapped column by column onto
// import rows and sent to `POST /api/v1/consent_records/imports` in chunks of at most 5,000 rows: a dry run of the
// whole file first, then the real run. Every row carries an idempotency key derived from the flow and the row's
// content, so a rerun (after Ctrl-C, a lost connection, or a fix to a few refused rows) creates nothing twice.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, writeFileSync, readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import cliProgress from 'cli-progress';
import { CsvError, parse, type Info } from 'csv-parse';
import type { SvcClient } from '../lib/client.js';
import { canonicalJson } from '../verify/jcs.js';
import { IMPORT_MAX_ROWS, type ConsentImport, type ImportAllowance, type ImportResult, type ImportRow } from '@svc/schemas';
import type { Command, Invocation, Output } from './commands.js';
import { CliUsageError } from './config.js';
import { checkText, readHead } from './import-file.js';
import { lines } from './output.js';
import type { CliIo } from './run.js';

/** Exit code of an import stopped by Ctrl-C (128 + SIGINT, as shells report it). */
export const EXIT_INTERRUPTED = 130;

/** The row fields a column can fill; every other mapping target is a purpose key. */
const FIELDS = ['email', 'external_id', 'captured_at', 'country', 'locale', 'notice_hash'] as const;
type Field = (typeof FIELDS)[number];

/** Cell values read as a decision (case-insensitive, trimmed); a mapping file's `values` adds to them. */
export const GRANTED_VALUES = [
  'yes',
  'y',
  'true',
  't',
  '1',
  'granted',
  'grant',
  'accepted',
  'agreed',
  'opt-in',
  'opted-in',
  'optin',
  'subscribed',
  'on',
];
export const DECLINED_VALUES = [
  'no',
  'n',
  'false',
  'f',
  '0',
  'declined',
  'decline',
  'refused',
  'rejected',
  'opt-out',
  'opted-out',
  'optout',
  'unsubscribed',
  'off',
];
const TRUE_VALUES = new Set(['yes', 'y', 'true', 't', '1', 'on']);
const FALSE_VALUES = new Set(['no', 'n', 'false', 'f', '0', 'off']);

/** Codes of the rows refused before sending (the service's own codes are those of `refusalCode`). */
export type LocalRefusalCode = 'unparseable' | 'unknown_decision_value' | 'invalid_value';

/** One line of the refusal report. */
export interface Refusal {
  /** The row's line in the file (a CSV's header is row 1). */
  row: number;
  purpose: string | null;
  code: string;
  message: string;
}

interface PurposeColumns {
  column: string;
  default_checked?: string;
  mandatory?: string;
}

/** Which column fills what, and the words read as a decision. */
export interface Mapping {
  fields: Partial<Record<Field, string>>;
  purposes: Record<string, PurposeColumns>;
  granted: Set<string>;
  declined: Set<string>;
}

// ---- reading the file ------------------------------------------------------------------------------------------

/** A row as read: its cells by column, an import row as such (JSON Lines), or why it could not be read. */
type Item =
  | { row: number; cells: Record<string, string> }
  | { row: number; native: Record<string, unknown> }
  | { row: number; error: string };

type Format = 'csv' | 'jsonl';

interface Source {
  path: string;
  format: Format;
  delimiter: string;
}

/** A CSV file's rows after the header, numbered by the line each starts on. */
async function* csvRows(source: Source, onHeader: (columns: string[]) => void): AsyncGenerator<Item> {
  const input = createReadStream(source.path);
  const parser = parse({ bom: true, delimiter: source.delimiter, relax_column_count: true, skip_empty_lines: true, info: true });
  input.on('error', (err) => parser.destroy(err));
  input.pipe(parser);
  let header: string[] | undefined;
  let ended = 0;
  let empty = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: Info }>) {
      // The record starts after the previous one ended and after the empty lines skipped since.
      const row = ended + 1 + (info.empty_lines - empty);
      ended = info.lines;
      empty = info.empty_lines;
      if (!header) {
        header = record.map((name) => name.trim());
        onHeader(header);
        continue;
      }
      if (record.length !== header.length) {
        yield { row, error: `the row has ${record.length} fields; the header has ${header.length}` };
        continue;
      }
      yield { row, cells: Object.fromEntries(header.map((name, i) => [name, record[i]!])) };
    }
  } catch (err) {
    // csv-parse's own errors (an unclosed quote, a quote inside a field) are the file's, not the program's.
    if (err instanceof CsvError) {
      const text = err.message.length > 160 ? `${err.message.slice(0, 160)}...` : err.message;
      throw new CliUsageError(`${source.path} is not valid CSV at line ${(err as { lines?: number }).lines ?? '?'}: ${text}`);
    }
    throw err;
  }
  if (!header) onHeader([]);
}

/** A JSON Lines file's rows: one object per line, blank lines skipped. */
async function* jsonlRows(source: Source): AsyncGenerator<Item> {
  const input = createReadStream(source.path);
  const reader = createInterface({ input, crlfDelay: Infinity });
  let row = 0;
  for await (const read of reader) {
    row++;
    const line = row === 1 ? read.replace(/^\uFEFF/, '') : read;
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      yield { row, error: `not JSON: ${(err as Error).message}` };
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      yield { row, error: 'the line is not a JSON object' };
      continue;
    }
    const object = value as Record<string, unknown>;
    // A line with `decisions` is an import row already (as the API takes it); any other is cells by name.
    if (typeof object.decisions === 'object' && object.decisions !== null) {
      yield { row, native: object };
      continue;
    }
    const cells: Record<string, string> = {};
    let nested: string | undefined;
    for (const [key, cell] of Object.entries(object)) {
      if (cell !== null && typeof cell === 'object') nested ??= key;
      else cells[key] = cell === null || cell === undefined ? '' : String(cell);
    }
    yield nested === undefined ? { row, cells } : { row, error: `"${nested}" holds an object or a list; a cell holds one value` };
  }
}

function rowsOf(source: Source, onColumns: (columns: string[]) => void): AsyncGenerator<Item> {
  return source.format === 'csv' ? csvRows(source, onColumns) : jsonlRows(source);
}

/** What a first pass over the file finds: its columns (a CSV's header, the names used in JSON Lines) and its rows. */
async function survey(source: Source, fromRow: number): Promise<{ columns: string[]; rows: number; last: number }> {
  const columns = new Set<string>();
  let rows = 0;
  let last = 0;
  for await (const item of rowsOf(source, (header) => header.forEach((c) => columns.add(c)))) {
    if ('cells' in item && source.format === 'jsonl') Object.keys(item.cells).forEach((c) => columns.add(c));
    last = item.row;
    if (item.row >= fromRow) rows++;
  }
  return { columns: [...columns], rows, last };
}

// ---- the mapping -----------------------------------------------------------------------------------------------

const isField = (target: string): target is Field => (FIELDS as readonly string[]).includes(target);

/** Adds `target=column` pairs to a mapping: a field, a purpose key, or `<purpose>.default_checked|mandatory`. */
function addTargets(mapping: Mapping, pairs: [string, string][], where: string): void {
  const seen = new Set<string>();
  for (const [target, column] of pairs) {
    if (!target || !column) throw new CliUsageError(`${where}: each entry is target=Column, e.g. email=Email or newsletter=Newsletter`);
    if (seen.has(target)) throw new CliUsageError(`${where}: ${target} is mapped twice`);
    seen.add(target);
    const attestation = /^(.+)\.(default_checked|mandatory)$/.exec(target);
    if (isField(target)) mapping.fields[target] = column;
    else if (attestation) {
      const [, purpose, flag] = attestation as unknown as [string, string, 'default_checked' | 'mandatory'];
      mapping.purposes[purpose] ??= { column: '' };
      mapping.purposes[purpose]![flag] = column;
    } else {
      mapping.purposes[target] = { ...mapping.purposes[target], column };
    }
  }
}

/** `--map email=Email,newsletter=Newsletter` as pairs. */
export function parseMapFlag(value: string): [string, string][] {
  return value
    .split(',')
    .filter((entry) => entry.trim() !== '')
    .map((entry) => {
      const at = entry.indexOf('=');
      return (at < 0 ? [entry.trim(), ''] : [entry.slice(0, at).trim(), entry.slice(at + 1).trim()]) as [string, string];
    });
}

const words = (list: unknown, where: string): string[] => {
  if (!Array.isArray(list) || !list.every((w) => typeof w === 'string')) throw new CliUsageError(`${where} is a list of strings`);
  return list.map((w) => w.trim().toLowerCase());
};

/**
 * A mapping file: `{"email": "Email", "captured_at": "SignupDate", "newsletter": "Newsletter",
 * "purposes": {"analytics": "Analytics" | {"column", "default_checked", "mandatory"}},
 * "values": {"granted": ["oui"], "declined": ["non"]}}`.
 */
function readMappingFile(path: string, mapping: Mapping): void {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new CliUsageError(`cannot read the mapping file ${path}: ${(err as Error).message}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new CliUsageError(`${path}: a mapping file holds one JSON object`);
  const pairs: [string, string][] = [];
  for (const [key, value] of Object.entries(json as Record<string, unknown>)) {
    if (key === 'values') {
      const values = (value ?? {}) as { granted?: unknown; declined?: unknown };
      if (values.granted !== undefined) words(values.granted, `${path}: values.granted`).forEach((w) => mapping.granted.add(w));
      if (values.declined !== undefined) words(values.declined, `${path}: values.declined`).forEach((w) => mapping.declined.add(w));
    } else if (key === 'purposes') {
      for (const [purpose, columns] of Object.entries((value ?? {}) as Record<string, unknown>)) {
        if (typeof columns === 'string') pairs.push([purpose, columns]);
        else if (typeof columns === 'object' && columns !== null) {
          const { column, default_checked: checked, mandatory } = columns as Record<string, unknown>;
          if (typeof column !== 'string') throw new CliUsageError(`${path}: purposes.${purpose}.column names the column of its decision`);
          pairs.push([purpose, column]);
          if (typeof checked === 'string') pairs.push([`${purpose}.default_checked`, checked]);
          if (typeof mandatory === 'string') pairs.push([`${purpose}.mandatory`, mandatory]);
        } else throw new CliUsageError(`${path}: purposes.${purpose} is a column name or {"column": ...}`);
      }
    } else if (typeof value === 'string') pairs.push([key, value]);
    else throw new CliUsageError(`${path}: ${key} maps to a column name (a string)`);
  }
  addTargets(mapping, pairs, path);
}

/**
 * The mapping: the mapping file, then `--map` over it; with neither, the columns named like a row field or one of
 * the flow's purposes (case-insensitive). Checked against the file's columns and the flow's purposes.
 */
function buildMapping(
  flags: Invocation['flags'],
  cwd: string,
  columns: string[],
  purposes: Set<string>,
): { mapping: Mapping; ignored: string[] } {
  const mapping: Mapping = { fields: {}, purposes: {}, granted: new Set(GRANTED_VALUES), declined: new Set(DECLINED_VALUES) };
  const file = typeof flags.mapping === 'string' ? flags.mapping : undefined;
  const map = typeof flags.map === 'string' ? flags.map : undefined;
  if (file) readMappingFile(resolve(cwd, file), mapping);
  if (map) addTargets(mapping, parseMapFlag(map), '--map');
  const both = [...mapping.granted].filter((w) => mapping.declined.has(w));
  if (both.length) throw new CliUsageError(`a value cannot mean both granted and declined: ${both.join(', ')}`);

  let ignored: string[] = [];
  if (!file && !map) {
    const byName = new Map(columns.map((c) => [c.toLowerCase(), c]));
    for (const field of FIELDS) if (byName.has(field)) mapping.fields[field] = byName.get(field)!;
    for (const purpose of purposes)
      if (byName.has(purpose.toLowerCase())) mapping.purposes[purpose] = { column: byName.get(purpose.toLowerCase())! };
    const used = new Set([...Object.values(mapping.fields), ...Object.values(mapping.purposes).map((p) => p.column)]);
    ignored = columns.filter((c) => !used.has(c));
  }

  const missingPurposeColumn = Object.entries(mapping.purposes)
    .filter(([, p]) => !p.column)
    .map(([key]) => key);
  if (missingPurposeColumn.length)
    throw new CliUsageError(`map the decision of ${missingPurposeColumn.join(', ')} too, e.g. ${missingPurposeColumn[0]}=<Column>`);
  const unknown = Object.keys(mapping.purposes).filter((key) => !purposes.has(key));
  if (unknown.length) {
    throw new CliUsageError(
      `the flow has no purpose ${unknown.map((k) => `"${k}"`).join(', ')}; its purposes: ${[...purposes].join(', ')}`,
    );
  }
  const mapped = [
    ...Object.values(mapping.fields),
    ...Object.values(mapping.purposes).flatMap((p) => [p.column, p.default_checked, p.mandatory]),
  ].filter((c): c is string => c !== undefined);
  const absent = [...new Set(mapped.filter((c) => !columns.includes(c)))];
  if (columns.length && absent.length) {
    throw new CliUsageError(`no column ${absent.map((c) => `"${c}"`).join(', ')} in the file; its columns: ${columns.join(', ')}`);
  }
  return { mapping, ignored };
}

// ---- rows ------------------------------------------------------------------------------------------------------

/** A date-time for `captured_at`: ISO 8601 with a zone as is; a date, or a time without zone, read as UTC. */
export function capturedAt(cell: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?\s*(Z|z|[+-]\d{2}:?\d{2})?)?$/.exec(cell);
  if (!m) return undefined;
  const [, date, time, seconds, zone] = m;
  const zoned = zone ? (/^[+-]\d{4}$/.test(zone) ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone.toUpperCase()) : 'Z';
  const text = `${date}T${time ?? '00:00'}${seconds ?? ':00'}${zoned}`;
  return Number.isNaN(Date.parse(text)) ? undefined : text;
}

/** The idempotency key of a row: the flow and the row's content, so the same row in any file or run is one record. */
export function rowKey(flowId: string, row: Omit<ImportRow, 'idempotency_key'>): string {
  const digest = createHash('sha256')
    .update(canonicalJson({ v: 1, flow_id: flowId, row }))
    .digest('hex');
  return `svc-import-${digest}`;
}

type Converted = { row: number; record: ImportRow } | { row: number; refusals: Refusal[] };

/** One item of the file as an import row, or the reasons it is refused before sending. */
function convert(item: Item, mapping: Mapping, flowId: string): Converted {
  const { row } = item;
  if ('error' in item) return { row, refusals: [{ row, purpose: null, code: 'unparseable', message: item.error }] };
  if ('native' in item) {
    const { idempotency_key: key, ...rest } = item.native as ImportRow;
    return { row, record: { ...rest, idempotency_key: typeof key === 'string' ? key : rowKey(flowId, rest) } as ImportRow };
  }
  const cell = (column: string | undefined) => (column === undefined ? '' : (item.cells[column] ?? '').trim());
  const refusals: Refusal[] = [];
  const subject: ImportRow['subject'] = { email: cell(mapping.fields.email) };
  const externalId = cell(mapping.fields.external_id);
  if (externalId) subject.external_id = externalId;
  const country = cell(mapping.fields.country);
  if (country) subject.country = country.toUpperCase();

  const when = cell(mapping.fields.captured_at);
  const at = capturedAt(when);
  if (!at) {
    refusals.push({
      row,
      purpose: null,
      code: 'invalid_value',
      message:
        when === ''
          ? `captured_at (column ${mapping.fields.captured_at}) is empty: an import needs when each decision was made`
          : `captured_at ${JSON.stringify(when)} is not a date (write 2024-03-01 or 2024-03-01T10:00:00Z)`,
    });
  }

  const decisions: ImportRow['decisions'] = {};
  for (const [purpose, columns] of Object.entries(mapping.purposes)) {
    const value = cell(columns.column).toLowerCase();
    if (value === '') continue; // no decision recorded: the service says whether the purpose needed one
    const decision = mapping.granted.has(value) ? 'granted' : mapping.declined.has(value) ? 'declined' : undefined;
    if (!decision) {
      refusals.push({
        row,
        purpose,
        code: 'unknown_decision_value',
        message: `${JSON.stringify(cell(columns.column))} (column ${columns.column}) is neither granted (${[...mapping.granted].slice(0, 6).join(', ')}, …) nor declined (${[...mapping.declined].slice(0, 6).join(', ')}, …)`,
      });
      continue;
    }
    const entry: ImportRow['decisions'][string] = { decision };
    for (const flag of ['default_checked', 'mandatory'] as const) {
      const column = columns[flag];
      const said = cell(column).toLowerCase();
      if (column === undefined || said === '') continue;
      // yes/no, or the words that mean granted/declined (a mapping file's own words too).
      if (TRUE_VALUES.has(said) || mapping.granted.has(said)) entry[flag] = true;
      else if (FALSE_VALUES.has(said) || mapping.declined.has(said)) entry[flag] = false;
      else
        refusals.push({
          row,
          purpose,
          code: 'invalid_value',
          message: `${flag} ${JSON.stringify(cell(column))} (column ${column}) is neither yes nor no`,
        });
    }
    decisions[purpose] = entry;
  }
  if (refusals.length) return { row, refusals };

  const record: Omit<ImportRow, 'idempotency_key'> = { subject, decisions, captured_at: at! };
  const locale = cell(mapping.fields.locale);
  if (locale) record.locale = locale;
  const notice = cell(mapping.fields.notice_hash);
  if (notice) record.notice_hash = notice;
  return { row, record: { ...record, idempotency_key: rowKey(flowId, record) } };
}

/** The report lines of a row the service refused: one per problem it named. */
function serviceRefusals(row: number, result: ImportResult): Refusal[] {
  const problems = result.errors ?? [];
  if (problems.length === 0) return [{ row, purpose: result.purpose, code: result.code ?? 'refused', message: result.code ?? 'refused' }];
  return problems.map((problem) => {
    const path = problem.path.replace(/^records\.\d+\./, '');
    const purpose = /^decisions\.([^.]+)/.exec(path)?.[1] ?? (problems.length === 1 ? result.purpose : null);
    return result.code === 'invalid_row'
      ? { row, purpose, code: 'invalid_row', message: `${path}: ${problem.message}` }
      : { row, purpose, code: problem.code, message: problem.message };
  });
}

// ---- the report ------------------------------------------------------------------------------------------------

const csvCell = (value: string | number | null): string => {
  const text = value === null ? '' : String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

function writeReport(path: string, refusals: Refusal[]): void {
  const sorted = [...refusals].sort((a, b) => a.row - b.row);
  const body = ['row,purpose,code,message', ...sorted.map((r) => [r.row, r.purpose, r.code, r.message].map(csvCell).join(','))];
  writeFileSync(path, `${body.join('\n')}\n`);
}

// ---- progress --------------------------------------------------------------------------------------------------

type Phase = 'dry_run' | 'import';

interface ChunkDone {
  phase: Phase;
  chunk: number;
  first_row: number;
  last_row: number;
  rows: number;
  accepted: number;
  created: number;
  existing: number;
  refused: number;
  import_id: string | null;
  done: number;
  total: number;
  rows_per_second: number;
  seconds_left: number;
}

/** Where the command tells how it is going: a bar on a terminal, else a line (or JSON line) per chunk on stderr. */
interface Progress {
  start(phase: Phase, total: number): void;
  chunk(done: ChunkDone): void;
  /** The phase read its last row (rows refused before sending may follow the last chunk). */
  end(read: number): void;
  note(event: Record<string, unknown>, text: string): void;
  stop(): void;
}

const n = (value: number) => value.toLocaleString('en-US');
const PHASE_NAME: Record<Phase, string> = { dry_run: 'dry run', import: 'import' };

function barProgress(terminal: NodeJS.WritableStream): Progress {
  let bar: cliProgress.SingleBar | undefined;
  const stop = () => {
    bar?.stop();
    bar = undefined;
  };
  return {
    start(phase, total) {
      stop();
      bar = new cliProgress.SingleBar(
        {
          stream: terminal,
          format: `${PHASE_NAME[phase].padEnd(7)} [{bar}] {value}/{total} rows | {rate} rows/s | {eta_formatted} left{note}`,
          hideCursor: true,
          etaBuffer: 8,
          fps: 5,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total, 0, { rate: '-', note: '' });
    },
    chunk(done) {
      bar?.update(done.done, { rate: n(done.rows_per_second) });
    },
    end(read) {
      bar?.update(read);
    },
    note(_event, text) {
      if (bar) bar.update({ note: ` | ${text}` });
      else terminal.write(`${text}\n`);
    },
    stop,
  };
}

function lineProgress(stderr: (text: string) => void, json: boolean): Progress {
  return {
    start(phase, total) {
      if (json) stderr(`${JSON.stringify({ event: 'start', phase, total })}\n`);
    },
    chunk(done) {
      if (json) {
        stderr(`${JSON.stringify({ event: 'chunk', ...done })}\n`);
        return;
      }
      const outcome =
        done.phase === 'dry_run'
          ? `${n(done.accepted)} would be accepted${done.existing ? ` (${n(done.existing)} already there)` : ''}, ${n(done.refused)} refused`
          : `${n(done.created)} created, ${n(done.existing)} already there, ${n(done.refused)} refused`;
      stderr(
        `${PHASE_NAME[done.phase]}: chunk ${done.chunk}, rows ${done.first_row}-${done.last_row}: ${outcome}; ` +
          `${n(done.done)}/${n(done.total)} rows, ${n(done.rows_per_second)} rows/s, ${n(done.seconds_left)} s left\n`,
      );
    },
    end() {},
    note(event, text) {
      stderr(json ? `${JSON.stringify(event)}\n` : `svc: ${text}\n`);
    },
    stop() {},
  };
}

// ---- the command -----------------------------------------------------------------------------------------------

const quote = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);

/** The command line that continues an import from `row`, from the flags it ran with. */
function resumeCommand(file: string, flags: Invocation['flags'], fromRow: number, skipDryRun: boolean): string {
  const words = ['svc', 'records', 'import', file];
  for (const name of ['format', 'delimiter', 'map', 'mapping', 'flow', 'report', 'chunk-size']) {
    const value = flags[name];
    if (typeof value === 'string') words.push(`--${name}`, value);
  }
  if (flags['send-receipts'] === true) words.push('--send-receipts');
  if (flags['dry-run'] === true) words.push('--dry-run');
  if (fromRow > 1) words.push('--from-row', String(fromRow));
  if ((skipDryRun || flags['no-dry-run'] === true) && flags['dry-run'] !== true) words.push('--no-dry-run');
  if (flags.json === true) words.push('--json');
  return words.map(quote).join(' ');
}

interface PhaseResult {
  accepted: number;
  created: number;
  existing: number;
  refusals: Refusal[];
  refusedLocally: number;
  importIds: string[];
  chunks: number;
  /** The last row of the last chunk the service answered (0 before the first). */
  lastSentRow: number;
  rowsSent: number;
  /** Why the phase stopped early: Ctrl-C, or the service's answer for a failed import. */
  stopped?: 'interrupted' | 'failed';
  error?: string;
  /** The import allowance as the last answer gave it. */
  allowance?: ImportAllowance;
}

function positiveInt(flags: Invocation['flags'], name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = flags[name];
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > max) throw new CliUsageError(`--${name} is a whole number from 1 to ${n(max)}`);
  return number;
}

/** The process's own streams, for a caller that runs the command without `svc`'s `run`. */
const processIo = (): CliIo => ({
  env: process.env,
  cwd: process.cwd(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});

async function runImport(svc: SvcClient, { args: [file], flags, config }: Invocation, io: CliIo = processIo()): Promise<Output> {
  const json = flags.json === true;
  if (flags['dry-run'] === true && flags['no-dry-run'] === true)
    throw new CliUsageError('--dry-run and --no-dry-run contradict each other');
  const path = resolve(io.cwd, file!);
  const head = readHead(path, file!);
  const formatFlag = flags.format;
  if (formatFlag !== undefined && formatFlag !== 'csv' && formatFlag !== 'jsonl') throw new CliUsageError('--format is csv or jsonl');
  const extension = extname(path).toLowerCase();
  const format: Format =
    (formatFlag as Format | undefined) ??
    (['.jsonl', '.ndjson'].includes(extension)
      ? 'jsonl'
      : ['.csv', '.tsv', '.txt'].includes(extension)
        ? 'csv'
        : (() => {
            throw new CliUsageError(`cannot tell the format of ${file} from its name: pass --format csv or --format jsonl`);
          })());
  const delimiter = typeof flags.delimiter === 'string' ? flags.delimiter.replace(/^\\t$/, '\t') : extension === '.tsv' ? '\t' : ',';
  checkText(file!, head, format, delimiter);
  const chunkSize = positiveInt(flags, 'chunk-size', IMPORT_MAX_ROWS, IMPORT_MAX_ROWS);
  const fromRow = positiveInt(flags, 'from-row', 1);
  const flowId = typeof flags.flow === 'string' ? flags.flow : config.captureFlowId;
  if (!flowId) throw new CliUsageError('records import needs --flow <flow_id> (a flow without sign-in or verification steps)');
  const reportPath = resolve(io.cwd, typeof flags.report === 'string' ? flags.report : `${file}.refusals.csv`);
  const dryRunFirst = flags['no-dry-run'] !== true;
  const dryRunOnly = flags['dry-run'] === true;
  const sendReceipts = flags['send-receipts'] === true;
  const source: Source = { path, format, delimiter };

  // The flow's purposes over all its versions (an imported row is judged by the version of its captured_at).
  const purposes = new Set<string>();
  for await (const version of svc.flows.listVersions(flowId)) version.config.purposes.forEach((p) => purposes.add(p.key));

  const { columns, rows: total, last: lastRow } = await survey(source, fromRow);
  const { mapping, ignored } = buildMapping(flags, io.cwd, columns, purposes);
  if (columns.length && !mapping.fields.captured_at) {
    throw new CliUsageError('map captured_at to a column (e.g. --map captured_at=SignupDate): an import needs when each decision was made');
  }
  if (columns.length && !mapping.fields.email) throw new CliUsageError('map email to a column (e.g. --map email=Email)');
  if (total === 0)
    throw new CliUsageError(fromRow > 1 ? `${file} has no rows from row ${fromRow} (its last row is ${lastRow})` : `${file} has no rows`);

  const progress = io.terminal && !json ? barProgress(io.terminal) : lineProgress(io.stderr, json);
  const mapped = [
    ...Object.entries(mapping.fields).map(([field, column]) => `${field}=${column}`),
    ...Object.entries(mapping.purposes).flatMap(([key, p]) => [
      `${key}=${p.column}`,
      ...(['default_checked', 'mandatory'] as const).filter((f) => p[f] !== undefined).map((f) => `${key}.${f}=${p[f]}`),
    ]),
  ];
  progress.note(
    {
      event: 'plan',
      file,
      format,
      rows: total,
      from_row: fromRow,
      chunk_size: chunkSize,
      flow_id: flowId,
      dry_run_first: dryRunFirst,
      mapping: mapped,
      ignored_columns: ignored,
    },
    `importing ${file} (${n(total)} rows${fromRow > 1 ? ` from row ${fromRow}` : ''}) into ${flowId} in chunks of at most ${n(chunkSize)}` +
      `${dryRunOnly ? ', dry run only' : dryRunFirst ? ', dry run first' : ''}; ${mapped.join(', ')}${ignored.length ? `; ignoring ${ignored.join(', ')}` : ''}`,
  );

  // Ctrl-C stops after the chunk in flight; a second one stops at once (an import is atomic: its chunk is whole or absent).
  let stopping = false;
  let inFlight: [number, number] | undefined;
  const onInterrupt = () => {
    if (stopping) {
      progress.stop();
      io.stderr('svc: stopped at once; the chunk in flight was imported whole or not at all. Run the same command again to finish.\n');
      process.exit(EXIT_INTERRUPTED);
    }
    stopping = true;
    const text = inFlight
      ? `stopping after the chunk in flight (rows ${inFlight[0]}-${inFlight[1]}); Ctrl-C again to stop at once`
      : 'stopping before the next chunk; Ctrl-C again to stop at once';
    progress.note({ event: 'stopping', ...(inFlight && { first_row: inFlight[0], last_row: inFlight[1] }) }, text);
  };
  process.on('SIGINT', onInterrupt);
  const runId = randomUUID();

  const phases: Partial<Record<Phase, PhaseResult>> = {};
  const runPhase = async (phase: Phase): Promise<PhaseResult> => {
    const result: PhaseResult = {
      accepted: 0,
      created: 0,
      existing: 0,
      refusals: [],
      refusedLocally: 0,
      importIds: [],
      chunks: 0,
      lastSentRow: 0,
      rowsSent: 0,
    };
    phases[phase] = result;
    const started = Date.now();
    let read = 0;
    let pending: { row: number; record: ImportRow }[] = [];
    progress.start(phase, total);

    const send = async (): Promise<void> => {
      if (stopping) {
        result.stopped = 'interrupted';
        return;
      }
      const chunk = pending;
      pending = [];
      const [first, last] = [chunk[0]!.row, chunk.at(-1)!.row];
      inFlight = [first, last];
      let answer: ConsentImport;
      try {
        answer = await svc.consentRecords.imports.create(
          {
            flow_id: flowId,
            records: chunk.map((c) => c.record),
            ...(phase === 'dry_run' && { dry_run: true }),
            ...(sendReceipts && { send_receipts: true }),
          },
          // The header lets the client retry a lost answer without running the chunk twice; the rows' keys do the rest.
          { idempotencyKey: `svc-import-${runId}-${phase}-${result.chunks + 1}`, timeoutMs: 120_000 },
        );
      } finally {
        inFlight = undefined;
      }
      result.allowance = answer.allowance;
      if (answer.status === 'failed') {
        result.stopped = 'failed';
        result.error = answer.error ?? 'the import failed; none of its rows were written';
        return;
      }
      result.chunks++;
      if (phase === 'import') result.importIds.push(answer.id);
      let created = 0;
      let existing = 0;
      let refused = 0;
      for (const outcome of answer.results) {
        const row = chunk[outcome.index]?.row ?? 0;
        if (outcome.outcome === 'refused') {
          refused++;
          result.refusals.push(...serviceRefusals(row, outcome));
        } else if (outcome.existing) existing++;
        else created++;
      }
      result.accepted += created + existing;
      result.created += phase === 'import' ? created : 0;
      result.existing += existing;
      result.lastSentRow = last;
      result.rowsSent += chunk.length;
      // Every row read so far is done: the chunk is sent as soon as it is full.
      const rate = Math.round(read / Math.max((Date.now() - started) / 1000, 0.001));
      progress.chunk({
        phase,
        chunk: result.chunks,
        first_row: first,
        last_row: last,
        rows: chunk.length,
        accepted: created + existing,
        created: phase === 'import' ? created : 0,
        existing,
        refused,
        import_id: phase === 'import' ? answer.id : null,
        done: read,
        total,
        rows_per_second: rate,
        seconds_left: rate > 0 ? Math.ceil((total - read) / rate) : 0,
      });
      if (stopping) result.stopped = 'interrupted';
    };

    for await (const item of rowsOf(source, () => {})) {
      if (item.row < fromRow) continue;
      read++;
      const converted = convert(item, mapping, flowId);
      if ('refusals' in converted) {
        result.refusals.push(...converted.refusals);
        result.refusedLocally++;
      } else pending.push(converted);
      if (pending.length >= chunkSize) {
        await send();
        if (result.stopped) break;
      }
    }
    if (!result.stopped && pending.length) await send();
    progress.end(read);
    return result;
  };

  let failure: unknown;
  let skipped: 'none_accepted' | 'up_to_date' | 'allowance' | undefined;
  try {
    const dry = dryRunFirst ? await runPhase('dry_run') : undefined;
    if (dry && !dry.stopped && !dryRunOnly) {
      const remaining = dry.allowance?.remaining;
      if (dry.accepted === 0) skipped = 'none_accepted';
      // A rerun of a finished import: every row the dry run accepted found its record.
      else if (dry.existing === dry.accepted) skipped = 'up_to_date';
      // The whole file is checked against the allowance before anything is written, not chunk by chunk.
      else if (remaining !== undefined && remaining !== null && dry.accepted - dry.existing > remaining) skipped = 'allowance';
    }
    if (!dryRunOnly && !dry?.stopped && !skipped) await runPhase('import');
  } catch (err) {
    failure = err;
  } finally {
    process.off('SIGINT', onInterrupt);
    progress.stop();
  }

  const { dry_run: dry, import: real } = phases;
  const last = (real ?? dry)!;
  writeReport(reportPath, last.refusals);
  const interrupted = last.stopped === 'interrupted';
  const failed = last.stopped === 'failed';
  const nextRow = real && real.lastSentRow > 0 ? real.lastSentRow + 1 : fromRow;
  // Once the real run has begun the dry run is behind us; before, the same command (dry run and all) is the way on.
  const resume = resumeCommand(file!, flags, nextRow, real !== undefined);

  if (failure !== undefined) {
    // The API (or the network) failed mid-run: say where it got to, then let `svc` report the error itself.
    io.stderr(
      json
        ? `${JSON.stringify({ event: 'failed', rows_sent: real?.rowsSent ?? 0, next_row: nextRow, report: reportPath, resume_command: resume })}\n`
        : `svc: ${real?.rowsSent ? `${n(real.rowsSent)} rows were imported before this error` : 'nothing was imported'}; the refusals so far are in ${reportPath}. ` +
            `Resume with: ${resume}\n`,
    );
    throw failure;
  }

  const refusedCount = new Set(last.refusals.map((r) => r.row)).size;
  const refusalCodes = Object.fromEntries(
    [...last.refusals.reduce((m, r) => m.set(r.code, (m.get(r.code) ?? 0) + 1), new Map<string, number>())].sort(),
  );
  const summary = {
    file,
    format,
    flow_id: flowId,
    rows: total,
    from_row: fromRow,
    /** Records made by this run, and rows that found the record an earlier run made. */
    created: real?.created ?? 0,
    existing: real?.existing ?? (skipped === 'up_to_date' ? dry!.existing : 0),
    /** Rows refused (by the service, or before sending as `refused_locally`). */
    refused: refusedCount,
    refused_locally: last.refusedLocally,
    chunks: real?.chunks ?? 0,
    rows_sent: real?.rowsSent ?? 0,
    import_ids: real?.importIds ?? [],
    dry_run: dry
      ? { accepted: dry.accepted, existing: dry.existing, refused: new Set(dry.refusals.map((r) => r.row)).size, chunks: dry.chunks }
      : null,
    report: reportPath,
    refusal_codes: refusalCodes,
    allowance: last.allowance ?? null,
    /** Why the real run did not happen after the dry run: no row accepted, nothing new, or over the allowance. */
    skipped: skipped ?? null,
    interrupted,
    ...((interrupted || failed) && { next_row: nextRow, resume_command: resume }),
    ...(failed && { error: last.error }),
  };

  const pairs: [string, string | number | null][] = [
    ['file', file!],
    ['flow', flowId],
    ['rows', n(total)],
  ];
  if (dry)
    pairs.push([
      'dry run',
      `${n(dry.accepted)} would be accepted (${n(dry.existing)} already there), ${n(summary.dry_run!.refused)} refused`,
    ]);
  if (!dryRunOnly) {
    pairs.push(['created', n(summary.created)], ['already there', n(summary.existing)]);
    pairs.push(['refused', `${n(refusedCount)}${last.refusedLocally ? ` (${n(last.refusedLocally)} before sending)` : ''}`]);
    pairs.push(['imports', summary.import_ids.join(', ') || '-']);
  }
  pairs.push(['refusals', `${reportPath} (row, purpose, code, message)`]);
  const wrongCountry = refusalCodes.wrong_country;
  const notes: string[] = [];
  if (wrongCountry)
    notes.push(
      `${n(wrongCountry)} ${wrongCountry === 1 ? 'row belongs' : 'rows belong'} to a person homed in another country: import ${wrongCountry === 1 ? 'it' : 'them'} at that country's cell.`,
    );
  if (skipped === 'up_to_date') notes.push('Every row the dry run accepted is already imported: nothing new to import.');
  if (skipped === 'allowance') {
    notes.push(
      `The import would create ${n(dry!.accepted - dry!.existing)} records and the import allowance has ${n(dry!.allowance!.remaining!)} left: nothing was imported.`,
    );
  }
  if (interrupted) {
    notes.push(
      real
        ? `Interrupted: ${n(real.rowsSent)} rows were sent (up to row ${real.lastSentRow}). Resume with:\n  ${resume}\n(running the same command again also works: no row is created twice)`
        : `Interrupted during the dry run: nothing was written. Run the same command again:\n  ${resume}`,
    );
  }
  if (failed) notes.push(`The import failed: ${summary.error}. Resume with:\n  ${resume}`);
  if (skipped === 'none_accepted') notes.push('The dry run accepted no row, so nothing was imported: check the mapping and the refusals.');
  if (dryRunOnly && !interrupted) notes.push('Dry run only: nothing was written.');

  const exitCode = interrupted ? EXIT_INTERRUPTED : failed || skipped === 'none_accepted' || skipped === 'allowance' ? 1 : 0;
  return { json: summary, human: [lines(pairs), ...notes].join('\n'), exitCode };
}

/** `svc records import`. */
export const importCommands: Record<string, Command> = {
  'records import': {
    usage:
      'records import <file> [--format csv|jsonl] [--map <field=Column,...>] [--mapping <file.json>] [--flow <id>] [--report <file>] [--dry-run | --no-dry-run] [--from-row <n>] [--chunk-size <n>] [--delimiter <c>] [--send-receipts]',
    summary:
      'Import decisions captured elsewhere from a CSV or JSON Lines file: a dry run of the whole file, then chunks of up to 5,000 rows; rerunning creates nothing twice',
    options: {
      format: { type: 'string' },
      map: { type: 'string' },
      mapping: { type: 'string' },
      flow: { type: 'string' },
      report: { type: 'string' },
      'dry-run': { type: 'boolean' },
      'no-dry-run': { type: 'boolean' },
      'from-row': { type: 'string' },
      'chunk-size': { type: 'string' },
      delimiter: { type: 'string' },
      'send-receipts': { type: 'boolean' },
    },
    args: ['file'],
    run: runImport,
  },
};
