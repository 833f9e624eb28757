import type { SvcFieldError } from './errors.js';

/** The parts of a zod issue this module reads (zod/mini and classic share them). */
interface Issue {
  readonly code?: string | undefined;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly expected?: string;
  readonly format?: string;
  readonly keys?: readonly string[];
  readonly values?: readonly unknown[];
  readonly minimum?: number | bigint;
  readonly maximum?: number | bigint;
  readonly input?: unknown;
}

const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

// zod/mini ships no messages unless a locale is configured, so the client words the common issues itself.
function describe(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? `missing (expected ${issue.expected})` : `expected ${issue.expected}, got ${typeOf(issue.input)}`;
    case 'invalid_format':
      return `not a valid ${issue.format}`;
    case 'invalid_value':
      return `expected one of ${(issue.values ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_small':
      return `too small (at least ${issue.minimum})`;
    case 'too_big':
      return `too big (at most ${issue.maximum})`;
    case 'unrecognized_keys':
      return `unexpected field${issue.keys?.length === 1 ? '' : 's'} ${(issue.keys ?? []).join(', ')}`;
    default:
      return issue.message && issue.message !== 'Invalid input' ? issue.message : (issue.code ?? 'invalid');
  }
}

/** Turns schema issues into field errors with a dotted `path` and a readable `message`. */
export function fieldErrors(issues: readonly Issue[]): SvcFieldError[] {
  return issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(body)',
    code: issue.code ?? 'invalid',
    message: describe(issue),
  }));
}
