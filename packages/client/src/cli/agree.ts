// `svc agreements vote`, `svc multi-party …`, `svc collaborations …`: the Agree surface. A party votes with their own
// sign-in (svc login); multi-party agreements are read and created with an API token; collaborations are managed by
// an API token or their initiator, and each member signs with their own sign-in.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Collaboration, CollaborationDetail, CollaborationMembership, MultiPartyAgreement, QuorumVoteCast } from '@svc/schemas';
import type { Command } from './commands.js';
import { CliUsageError } from './config.js';
import { collect, flag, jsonObject, listFlag, oneOf } from './flags.js';
import { lines, table, type Cell } from './output.js';

const AGREEMENT_STATUSES = ['pending', 'partially_signed', 'active'] as const;

const agreementLines = (a: MultiPartyAgreement) =>
  `${lines([
    ['agreement', `${a.title} (${a.id})`],
    ['status', a.status],
    ['quorum', `${a.signed_count} of ${a.quorum} signatures (${a.quorum_status})`],
    ['document', `sha256 ${a.document_sha256}`],
    ['created', a.created_at],
    ['active since', a.activated_at],
    ['signing ends', a.expires_at],
  ])}\n\n${table(
    a.party_details,
    [
      ['party', (p) => p.id],
      ['email', (p) => p.email],
      ['country', (p) => p.home_country],
      ['status', (p) => p.status],
      ['vote', (p) => p.vote],
      ['comment', (p) => p.comment],
    ],
    'No parties.',
  )}`;

const collaborationLines = (c: Collaboration) =>
  lines([
    ['collaboration', c.id],
    ['status', c.status],
    ['initiator', c.initiator_id],
    ['members', `${c.member_count} (${c.signed_count} signed)`],
    ['terms', JSON.stringify(c.terms)],
    ['created', c.created_at],
    ['active since', c.activated_at],
    ['dissolved', c.dissolved_at],
  ]);

const membershipColumns: [string, (m: CollaborationMembership) => Cell][] = [
  ['membership', (m) => m.id],
  ['person', (m) => m.user_id],
  ['role', (m) => m.role],
  ['status', (m) => m.status],
  ['shares', (m) => m.shared_data_categories.join(',')],
  ['signed', (m) => m.signed_at],
  ['revoked', (m) => m.revoked_at],
];

const detailLines = (c: CollaborationDetail) => `${collaborationLines(c)}\n\n${table(c.memberships, membershipColumns, 'No members.')}`;
const membershipLines = (m: CollaborationMembership) => table([m], membershipColumns, '');

/** `--parties a@x.de:DE,b@y.com:US` as the request's parties. */
function partiesOf(value: string | undefined): { email: string; home_country: string }[] {
  const parties = (value ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      const at = p.lastIndexOf(':');
      if (at < 1 || !/^[A-Za-z]{2}$/.test(p.slice(at + 1)))
        throw new CliUsageError('--parties takes email:COUNTRY pairs, e.g. ana@example.pt:PT,ben@example.com:US');
      return { email: p.slice(0, at), home_country: p.slice(at + 1).toUpperCase() };
    });
  if (parties.length < 2) throw new CliUsageError('a multi-party agreement needs --parties with at least two email:COUNTRY pairs');
  return parties;
}

/** The Agree commands, merged into the command list by `run`. */
export const agreeCommands: Record<string, Command> = {
  'agreements vote': {
    usage: 'agreements vote <agreement_id> --vote approve|deny [--comment <text>]',
    summary: 'Cast your quorum vote as a party (a signed-in person: svc login); approve signs, deny declines',
    options: { vote: { type: 'string' }, comment: { type: 'string' } },
    args: ['agreement_id'],
    async run(svc, { args: [id], flags }) {
      const vote = oneOf(flags, 'vote', ['approve', 'deny'] as const);
      if (!vote) throw new CliUsageError('agreements vote needs --vote approve or --vote deny');
      const comment = flag(flags, 'comment');
      const cast: QuorumVoteCast = await svc.agreements.castQuorumVote(id!, { vote, ...(comment !== undefined ? { comment } : {}) });
      return {
        json: cast,
        human: lines([
          ['vote', `${cast.quorum_vote.vote} (party ${cast.quorum_vote.party_id})`],
          ['comment', cast.quorum_vote.comment],
          ['cast', cast.quorum_vote.cast_at],
          ['agreement', `${cast.agreement.id}: ${cast.agreement.status}, quorum ${cast.agreement.quorum_status}`],
        ]),
      };
    },
  },

  'multi-party create': {
    usage: 'multi-party create --title <t> --document <file> --parties <email:CC,...> --quorum <n>',
    summary: "Create a multi-party agreement (quorum two or more); prints each party's signing URL",
    options: {
      title: { type: 'string' },
      document: { type: 'string' },
      parties: { type: 'string' },
      quorum: { type: 'string' },
      app: { type: 'string' },
    },
    async run(svc, { flags }) {
      const title = flag(flags, 'title');
      const file = flag(flags, 'document');
      const quorum = flag(flags, 'quorum');
      if (!title || !file) throw new CliUsageError('multi-party create needs --title and --document <file>');
      if (!quorum || !/^\d{1,3}$/.test(quorum) || Number(quorum) < 2)
        throw new CliUsageError('--quorum must be a whole number of at least 2');
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        throw new CliUsageError(`cannot read ${file}: ${(err as Error).message}`);
      }
      const app = flag(flags, 'app');
      const agreement = await svc.multiPartyAgreements.create({
        multi_party_agreement: {
          title,
          document: { text, sha256: createHash('sha256').update(text, 'utf8').digest('hex') },
          parties: partiesOf(flag(flags, 'parties')),
          quorum: Number(quorum),
          ...(app ? { application_id: app } : {}),
        },
      });
      const urls = agreement.party_details.map((p) => `  ${p.email}  ${p.url}`).join('\n');
      return { json: agreement, human: `${agreementLines(agreement)}\n\nSigning pages (hand each party theirs):\n${urls}` };
    },
  },
  'multi-party list': {
    usage: 'multi-party list [--status <status>] [--limit <n>]',
    summary: "List the account's multi-party agreements",
    options: { status: { type: 'string' }, limit: { type: 'string' } },
    async run(svc, { flags }) {
      const status = oneOf(flags, 'status', AGREEMENT_STATUSES);
      const items = await collect((limit) => svc.multiPartyAgreements.list({ limit, status }), flags);
      return {
        json: items,
        human: table(
          items,
          [
            ['id', (a) => a.id],
            ['title', (a) => a.title],
            ['status', (a) => a.status],
            ['signed', (a) => `${a.signed_count}/${a.quorum}`],
            ['created', (a) => a.created_at],
          ],
          'No multi-party agreements.',
        ),
      };
    },
  },
  'multi-party get': {
    usage: 'multi-party get <id>',
    summary: 'Show a multi-party agreement, its parties and their votes',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const agreement = await svc.multiPartyAgreements.get(id!);
      return { json: agreement, human: agreementLines(agreement) };
    },
  },

  'collaborations create': {
    usage: 'collaborations create [--participants <prs_,...>] [--terms <json>] [--app <id>]',
    summary: 'Create a collaboration (signed in, you are its initiator)',
    options: { participants: { type: 'string' }, terms: { type: 'string' }, app: { type: 'string' } },
    async run(svc, { flags }) {
      const terms = jsonObject(flags, 'terms');
      const participants = listFlag(flags, 'participants');
      const app = flag(flags, 'app');
      const c = await svc.collaborations.create({
        ...(participants ? { participant_ids: participants } : {}),
        ...(terms ? { terms } : {}),
        ...(app ? { application_id: app } : {}),
      });
      return { json: c, human: detailLines(c) };
    },
  },
  'collaborations list': {
    usage: 'collaborations list [--status pending|active|dissolved] [--limit <n>]',
    summary: "List collaborations (the account's, or a signed-in person's own)",
    options: { status: { type: 'string' }, limit: { type: 'string' } },
    async run(svc, { flags }) {
      const status = oneOf(flags, 'status', ['pending', 'active', 'dissolved'] as const);
      const items = await collect((limit) => svc.collaborations.list({ limit, status }), flags);
      return {
        json: items,
        human: table(
          items,
          [
            ['id', (c) => c.id],
            ['status', (c) => c.status],
            ['members', (c) => c.member_count],
            ['signed', (c) => c.signed_count],
            ['created', (c) => c.created_at],
          ],
          'No collaborations.',
        ),
      };
    },
  },
  'collaborations get': {
    usage: 'collaborations get <id>',
    summary: 'Show a collaboration and its memberships',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const c = await svc.collaborations.get(id!);
      return { json: c, human: detailLines(c) };
    },
  },
  'collaborations add': {
    usage: 'collaborations add <id> <person_id> [--role member|observer] [--shares <a,b>]',
    summary: 'Add a member to a pending collaboration (the initiator or an API token)',
    options: { role: { type: 'string' }, shares: { type: 'string' } },
    args: ['id', 'person_id'],
    async run(svc, { args: [id, person], flags }) {
      const role = oneOf(flags, 'role', ['member', 'observer'] as const);
      const shares = listFlag(flags, 'shares');
      const m = await svc.collaborations.addMember(id!, {
        user_id: person!,
        ...(role ? { role } : {}),
        ...(shares ? { shared_data_categories: shares } : {}),
      });
      return { json: m, human: membershipLines(m) };
    },
  },
  'collaborations sign': {
    usage: 'collaborations sign <id> <membership_id> [--shares <a,b>]',
    summary: 'Sign your membership (a signed-in member), choosing what you share',
    options: { shares: { type: 'string' } },
    args: ['id', 'membership_id'],
    async run(svc, { args: [id, membership], flags }) {
      const shares = listFlag(flags, 'shares');
      const m = await svc.collaborations.signMembership(id!, membership!, shares ? { shared_data_categories: shares } : {});
      return { json: m, human: membershipLines(m) };
    },
  },
  'collaborations revoke': {
    usage: 'collaborations revoke <id> <membership_id>',
    summary: 'End a membership (the member, the initiator or an API token)',
    args: ['id', 'membership_id'],
    async run(svc, { args: [id, membership] }) {
      const m = await svc.collaborations.revokeMembership(id!, membership!);
      return { json: m, human: membershipLines(m) };
    },
  },
  'collaborations dissolve': {
    usage: 'collaborations dissolve <id>',
    summary: 'Dissolve a collaboration for good (the initiator or an API token)',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const c = await svc.collaborations.dissolve(id!);
      return { json: c, human: detailLines(c) };
    },
  },
};
