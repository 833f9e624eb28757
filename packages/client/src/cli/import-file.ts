// The file `svc records import` is given, checked before anything is sent: that it can be read, that it is text
// (not a workbook, an archive or UTF-16), and that a CSV header splits with the delimiter it will be read with.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { CliUsageError } from './config.js';

/** How much of the file's start is read to judge it: the header and the first rows. */
const HEAD_BYTES = 64 * 1024;

const REASONS: Record<string, string> = {
  ENOENT: 'there is no such file',
  ENOTDIR: 'there is no such file',
  EISDIR: 'it is a directory; pass a CSV or JSON Lines file',
  EACCES: 'permission denied (check its mode, e.g. ls -l)',
  EPERM: 'permission denied (check its mode, e.g. ls -l)',
};

/** The usage error for a file that cannot be read: why, in words, with the system's code when it has no words here. */
export function unreadable(file: string, err: unknown): CliUsageError {
  const code = (err as NodeJS.ErrnoException).code;
  // Node's messages already start with the code ("EBUSY: resource busy"): never say it twice.
  const message = (err as Error).message;
  const reason = (code && REASONS[code]) ?? (code && !message.startsWith(code) ? `${code}: ${message}` : message);
  return new CliUsageError(`cannot read ${file}: ${reason}`);
}

/** The first bytes of the file at `path`; a usage error naming `file` when it cannot be read or is no file. */
export function readHead(path: string, file: string): Buffer {
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) throw Object.assign(new Error('a directory'), { code: 'EISDIR' });
    if (!stat.isFile()) throw new Error('not a regular file');
    const fd = openSync(path, 'r');
    try {
      const head = Buffer.alloc(Math.min(HEAD_BYTES, stat.size));
      return head.subarray(0, readSync(fd, head, 0, head.length, 0));
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw unreadable(file, err);
  }
}

/** Signatures of the binary files people export instead of CSV, and what to call them. */
const SIGNATURES: [Buffer, string][] = [
  [Buffer.from('PK\x03\x04', 'latin1'), 'a ZIP archive (an Excel .xlsx workbook is one)'],
  [Buffer.from('d0cf11e0a1b11ae1', 'hex'), 'an Excel .xls workbook'],
  [Buffer.from('1f8b', 'hex'), 'gzip-compressed'],
  [Buffer.from('%PDF', 'latin1'), 'a PDF'],
  [Buffer.from('fffe', 'hex'), 'UTF-16 text'],
  [Buffer.from('feff', 'hex'), 'UTF-16 text'],
];

/** What the file is when it is not text (a known signature, NUL bytes, mostly control bytes), else undefined. */
export function binaryKind(head: Buffer): string | undefined {
  const known = SIGNATURES.find(([magic]) => head.subarray(0, magic.length).equals(magic));
  if (known) return known[1];
  if (head.includes(0)) return 'binary (it holds NUL bytes)';
  // Tab, line feed, form feed and carriage return are text; the other C0 controls are not.
  const controls = head.filter((byte) => byte < 32 && ![9, 10, 12, 13].includes(byte)).length;
  return controls > head.length / 10 ? 'binary (it is mostly control bytes)' : undefined;
}

const NAMES: Record<string, string> = { ',': 'commas', ';': 'semicolons', '\t': 'tabs', '|': 'pipes' };
const FLAGS: Record<string, string> = { ',': "','", ';': "';'", '\t': "'\\t'", '|': "'|'" };

/**
 * The delimiter a CSV header is split by, when it reads as a single column with `delimiter` but splits with another
 * (a semicolon-separated export, as spreadsheets write in many locales); undefined when the header looks right.
 */
export function likelyDelimiter(head: Buffer, delimiter: string): string | undefined {
  const line =
    head
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/, 1)[0] ?? '';
  let header: string[];
  try {
    [header = []] = parse(line, { delimiter, relax_quotes: true, relax_column_count: true }) as string[][];
  } catch {
    return undefined; // the streaming read reports the line itself
  }
  if (header.length !== 1) return undefined;
  const counts = Object.keys(NAMES)
    .filter((d) => d !== delimiter)
    .map((d) => [d, line.split(d).length - 1] as const)
    .sort((a, b) => b[1] - a[1]);
  return counts[0] && counts[0][1] > 0 ? counts[0][0] : undefined;
}

/** Refuses a file that is not text, and a CSV whose header the delimiter does not split, saying what to pass. */
export function checkText(file: string, head: Buffer, format: 'csv' | 'jsonl', delimiter: string): void {
  const kind = binaryKind(head);
  if (kind) throw new CliUsageError(`${file} is ${kind}, not a CSV or JSON Lines file: export or save it as CSV (UTF-8) first`);
  if (format !== 'csv') return;
  const other = likelyDelimiter(head, delimiter);
  if (other === undefined) return;
  const header = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/, 1)[0]!;
  const shown = header.length > 60 ? `${header.slice(0, 60)}...` : header;
  const current = NAMES[delimiter] ?? `"${delimiter}"`;
  throw new CliUsageError(
    `${file} looks separated by ${NAMES[other]}, not ${current} (its header: ${JSON.stringify(shown)}): pass --delimiter ${FLAGS[other]}`,
  );
}
