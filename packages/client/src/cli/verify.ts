// `svc trust-scores get`, `svc vouches …`: the Verify surface's trust scores (an API token, or a signed-in person for
// their own) and vouches (a signed-in person vouches, lists and revokes; an API token reads the account's).
import type { TrustScore, Vouch } from '@svc/schemas';
import type { Command } from './commands.js';
import { collect, flag, oneOf } from './flags.js';
import { lines, table, type Cell } from './output.js';

/** A score with its factors, as a person reads it. */
export function scoreLines(score: TrustScore): string {
  const signed = (n: number) => (n > 0 ? `+${n}` : String(n));
  return (
    `${lines([
      [score.subject_type, score.subject_id],
      ['score', `${score.score} / 100 (50 and the contributions)`],
      ['computed', score.computed_at],
    ])}\n\n` +
    table(
      score.factors,
      [
        ['factor', (f) => f.name],
        ['value', (f) => f.value],
        ['weight', (f) => f.weight],
        ['cap', (f) => f.cap],
        ['contribution', (f) => signed(f.contribution)],
      ],
      'No factors.',
    )
  );
}

const vouchLines = (v: Vouch) =>
  lines([
    ['vouch', v.id],
    ['voucher', v.voucher_id],
    ['vouchee', `${v.vouchee_id} (${v.vouchee_type})`],
    ['statement', v.statement],
    ['status', v.status],
    ['created', v.created_at],
    ['revoked', v.revoked_at],
  ]);

const vouchColumns: [string, (v: Vouch) => Cell][] = [
  ['id', (v) => v.id],
  ['voucher', (v) => v.voucher_id],
  ['vouchee', (v) => v.vouchee_id],
  ['status', (v) => v.status],
  ['created', (v) => v.created_at],
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
      const vouches = await collect(
        (limit) => svc.vouches.list({ limit, direction, status, ...(vouchee ? { vouchee_id: vouchee } : {}) }),
        flags,
      );
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
