// What `svc` says about a command line it cannot run: the close match of a mistyped command, sub-command or flag
// ("did you mean"), and `svc <group> --help` for a group named without one of its commands.

/**
 * Edit distance with adjacent transpositions (optimal string alignment): `recrods` is one edit from `records`,
 * as a person mistypes it, where plain Levenshtein counts two.
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The candidate closest to `typed`, when it is close enough to be the one meant: within one edit for short words,
 * two from five letters, three from nine; or the only candidate that starts with what was typed (three letters or
 * more). Undefined when nothing is that close, or when two candidates are equally close.
 */
export function closest(typed: string, candidates: readonly string[]): string | undefined {
  const word = typed.toLowerCase();
  const allowed = word.length < 5 ? 1 : word.length < 9 ? 2 : 3;
  const scored = candidates.map((c) => ({ c, d: editDistance(word, c.toLowerCase()) })).sort((x, y) => x.d - y.d);
  const [first, second] = scored;
  if (first && first.d <= allowed && (!second || second.d > first.d)) return first.c;
  const prefixed = word.length >= 3 ? candidates.filter((c) => c.toLowerCase().startsWith(word)) : [];
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

const firstWord = (key: string) => key.split(' ')[0]!;

/** The sub-commands of `group` (`list`, `create`, ...), in the order they are declared. */
const subCommands = (keys: readonly string[], group: string): string[] =>
  keys.filter((k) => firstWord(k) === group && k.includes(' ')).map((k) => k.slice(group.length + 1));

/** The command meant by `words` (one or two), by close match; undefined when there is none or it is what was typed. */
function meant(keys: readonly string[], words: string[]): string | undefined {
  const [typed, next] = words as [string, string | undefined];
  const firsts = [...new Set(keys.map(firstWord))];
  const group = firsts.includes(typed) ? typed : closest(typed, firsts);
  if (!group) return undefined;
  const subs = subCommands(keys, group);
  if (subs.length === 0) return group === typed ? undefined : group;
  const sub = next === undefined ? undefined : subs.includes(next) ? next : closest(next, subs);
  if (sub) return `${group} ${sub}`;
  return group === typed ? undefined : group;
}

/**
 * The message for a command line that names no command: `keys` are every command's words (`tokens list`, `me`),
 * `words` what was typed before the flags. Points at `svc <group> --help` when the group is known or meant.
 */
export function unknownCommandMessage(keys: readonly string[], words: string[]): string {
  const typed = words.slice(0, 2).join(' ');
  const [group, next] = words as [string, string | undefined];
  const subs = subCommands(keys, group);
  if (subs.length && next === undefined) return `${group} needs a command (${subs.join(', ')}); see svc ${group} --help`;
  const suggestion = meant(keys, words);
  if (suggestion) {
    // As many words as the suggestion has: the rest are its arguments, not part of the command.
    const meantWords = words.slice(0, suggestion.split(' ').length).join(' ');
    const help = subCommands(keys, firstWord(suggestion)).length ? `svc ${firstWord(suggestion)} --help` : `svc ${suggestion} --help`;
    return `unknown command "${meantWords}"; did you mean svc ${suggestion}? See ${help}`;
  }
  if (subs.length) return `unknown command "${typed}"; svc ${group} takes ${subs.join(', ')}; see svc ${group} --help`;
  return `unknown command "${typed}"; run svc --help`;
}

/**
 * A close match for the flag `parseArgs` did not know, read from its message (`Unknown option '--limt'`), among
 * `names` (the command's flags and the global ones); undefined when the message is another or nothing is close.
 */
export function flagSuggestion(parseError: string, names: readonly string[]): string | undefined {
  const unknown = /^Unknown option '--([^'=]+)'/.exec(parseError)?.[1];
  if (unknown === undefined) return undefined;
  const match = closest(unknown, names);
  return match === undefined ? undefined : `--${match}`;
}
