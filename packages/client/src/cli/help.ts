// `svc --help` names the command groups by product surface; `svc <group> --help` lists one group's commands.
import type { Command } from './commands.js';

/** The surfaces and the first words of their commands, in the order `svc --help` shows them. */
const GROUPS: readonly { title: string; words: readonly string[] }[] = [
  { title: 'Account', words: ['me', 'login', 'logout', 'tokens', 'apps', 'origins', 'accounts', 'clock'] },
  { title: 'Consent', words: ['flows', 'decisions', 'verify', 'records', 'receipts', 'status', 'webhooks', 'mailing', 'audit'] },
  { title: 'Connect', words: ['connections', 'devices', 'device-links', 'pairings', 'trust-pairings'] },
  { title: 'Verify', words: ['credentials', 'presentations', 'trust-scores', 'trust', 'vouches'] },
  {
    title: 'Protect',
    words: [
      'policies',
      'templates',
      'data-requests',
      'dsars',
      'licenses',
      'data-licenses',
      'offers',
      'data-offers',
      'portability',
      'transfers',
    ],
  },
  { title: 'Agree', words: ['agreements', 'multi-party', 'collaborations'] },
  { title: 'Delegate', words: ['agents', 'delegations', 'escalations', 'authority', 'transparency', 'disclosures'] },
  {
    title: 'Comply',
    words: ['transfer-register', 'residency', 'breach-scope', 'evidence', 'modules', 'governance', 'clean-rooms', 'meetings'],
  },
];

const firstWord = (command: { usage: string }) => command.usage.split(' ')[0]!;

/** The groups with the first words present among `commands`; words no group names come last, under Other. */
export function commandGroups(commands: Record<string, Pick<Command, 'usage'>>): { title: string; words: string[] }[] {
  const present = [...new Set(Object.values(commands).map(firstWord))];
  const grouped = GROUPS.map(({ title, words }) => ({ title, words: words.filter((w) => present.includes(w)) }));
  const known = new Set(GROUPS.flatMap((g) => g.words));
  const other = present.filter((w) => !known.has(w));
  return [...grouped, { title: 'Other', words: other }].filter((g) => g.words.length > 0);
}

/** The group lines of `svc --help`: a title and its command words. */
export function groupLines(commands: Record<string, Pick<Command, 'usage'>>): string[] {
  const groups = commandGroups(commands);
  const column = Math.max(...groups.map((g) => g.title.length)) + 2;
  return groups.map(({ title, words }) => `  ${title.padEnd(column)}${words.join('  ')}`);
}

/** Every command whose first word is `word`, usage and summary, for `svc <word> --help`; empty when none. */
export function topicLines(commands: Record<string, Pick<Command, 'usage' | 'summary'>>, word: string): string[] {
  // Long synopses get their summary on the next line, so the short ones stay in one readable column.
  const column = 36;
  return Object.values(commands)
    .filter((c) => firstWord(c) === word)
    .map((c) =>
      c.usage.length <= column ? `  ${c.usage.padEnd(column)}  ${c.summary}` : `  ${c.usage}\n  ${''.padEnd(column)}  ${c.summary}`,
    );
}
