// `svc modules …`, `svc governance …`, `svc clean-rooms …`, `svc meetings …`: the Comply surface's modules and
// governance settings, clean rooms and their queries, and meeting consents (an API token: read to look, write to
// create, admin for modules and governance).
import {
  MODULE_KEYS,
  type CleanRoom,
  type CleanRoomQuery,
  type CleanRoomStatus,
  type ComputationType,
  type CreateCleanRoomQueryRequest,
  type CreateMeetingConsentRequest,
  type Governance,
  type MeetingConsent,
  type MeetingConsentStatus,
  type ModuleKey,
  type UpdateGovernanceRequest,
} from '@svc/schemas';
import type { Command, Invocation } from './commands.js';
import { CliUsageError } from './config.js';
import { collect, flag, limitOption, listFlag, oneOf, oneOfValues } from './flags.js';
import { lines, table } from './output.js';

/** A whole number flag, or undefined (or null for `none` when `clearable`); anything else is a usage error. */
function whole(flags: Invocation['flags'], name: string): number | undefined;
function whole(flags: Invocation['flags'], name: string, clearable: true): number | null | undefined;
function whole(flags: Invocation['flags'], name: string, clearable = false): number | null | undefined {
  const value = flag(flags, name);
  if (value === undefined) return undefined;
  if (clearable && value === 'none') return null;
  if (!/^\d{1,9}$/.test(value)) throw new CliUsageError(`--${name} must be a whole number${clearable ? ' or none' : ''}`);
  return Number(value);
}

function decimal(flags: Invocation['flags'], name: string): number | undefined {
  const value = flag(flags, name);
  if (value === undefined) return undefined;
  if (!/^\d{1,6}(\.\d{1,3})?$/.test(value)) throw new CliUsageError(`--${name} must be a number with at most three decimals`);
  return Number(value);
}

function governanceLines(g: Governance): string {
  return lines([
    ['api token approvals', g.api_token_approvals_required],
    ['default retention days', g.default_retention_days ?? "the flow's own term"],
    ['allowed countries', g.allowed_countries?.join(', ') ?? 'every country cell'],
    ['dsar due days', g.dsar_due_days],
    ['clean-room min cohort', g.clean_room_min_cohort],
    ['clean-room epsilon budget', g.clean_room_epsilon_budget],
    ['clean-room noise required', g.clean_room_require_noise ? 'yes' : 'no'],
    ['default meeting template', g.default_meeting_template ?? 'the oldest active flow'],
    ['updated', g.updated_at ? `${g.updated_at} by ${g.updated_by}` : 'never (defaults)'],
  ]);
}

function roomLines(room: CleanRoom): string {
  return lines([
    ['clean room', room.id],
    ['status', room.ended_at ? `${room.status} at ${room.ended_at}` : room.status],
    ['agreement', room.agreement_id],
    ['participants', room.participants.join(', ')],
    ['home country', room.home_country],
    ['min cohort', room.min_cohort],
    ['epsilon', `${room.privacy_budget.epsilon_spent} of ${room.privacy_budget.epsilon_total} spent`],
    ['created', room.created_at],
    ['expires', room.expires_at],
  ]);
}

function queryLines(query: CleanRoomQuery): string {
  const result = query.result;
  const head = lines([
    ['query', query.id],
    ['computation', query.computation_type],
    ['status', query.status],
    ['completed', query.completed_at],
    [
      'noise',
      result?.noise
        ? `${result.noise.mechanism}, epsilon ${result.noise.epsilon}, sensitivity ${result.noise.sensitivity}`
        : 'none (exact counts)',
    ],
    ['min cohort', result?.min_cohort],
  ]);
  const buckets = result
    ? table(
        result.buckets,
        [
          ['bucket', (b) => b.key],
          ['count', (b) => (b.suppressed ? 'suppressed' : b.count)],
        ],
        'No buckets.',
      )
    : 'No result.';
  return `${head}\n\n${buckets}`;
}

function meetingLines(m: MeetingConsent): string {
  return lines([
    ['meeting consent', m.id],
    ['title', m.title],
    ['status', m.status],
    ['starts', m.starts_at],
    ['ends', `${m.ends_at} (${m.duration_minutes} min)`],
    ['platform', m.platform],
    ['external id', m.external_meeting_id],
    ['template', m.template],
    ['agents', m.agent_ids.join(', ')],
    ['cancelled', m.cancelled_at],
  ]);
}

const moduleKey = (key: string): ModuleKey => oneOfValues(key, '<key>', MODULE_KEYS)!;
const COMPUTATIONS: readonly ComputationType[] = ['count', 'count_by_purpose', 'overlap', 'histogram'];
const ROOM_STATUSES: readonly CleanRoomStatus[] = ['active', 'closed', 'expired'];
const MEETING_STATUSES: readonly MeetingConsentStatus[] = ['scheduled', 'in_progress', 'ended', 'cancelled'];

/** `--flag none` clears a nullable setting. */
const nullable = <T>(value: string | undefined, parse: (v: string) => T): T | null | undefined =>
  value === undefined ? undefined : value === 'none' || value === 'all' ? null : parse(value);

/** The Comply commands, merged into the command list by `run`. */
export const complyCommands: Record<string, Command> = {
  'modules list': {
    usage: 'modules list',
    summary: "List the account's product modules and whether each is enabled",
    async run(svc) {
      const modules = await collect((limit) => svc.modules.list({ limit }), {});
      return {
        json: modules,
        human: table(
          modules,
          [
            ['key', (m) => m.key],
            ['enabled', (m) => (m.enabled ? 'yes' : 'no')],
            ['since', (m) => (m.enabled ? m.enabled_at : m.disabled_at)],
            ['covers', (m) => m.surfaces.join(' ')],
          ],
          'No modules.',
        ),
      };
    },
  },
  'modules enable': {
    usage: 'modules enable <key>',
    summary: 'Enable a product module (admin)',
    args: ['key'],
    async run(svc, { args: [key] }) {
      const m = await svc.modules.enable(moduleKey(key!));
      return { json: m, human: `${m.name} is enabled (since ${m.enabled_at}).` };
    },
  },
  'modules disable': {
    usage: 'modules disable <key>',
    summary: 'Disable a product module (admin)',
    args: ['key'],
    async run(svc, { args: [key] }) {
      const m = await svc.modules.disable(moduleKey(key!));
      return { json: m, human: `${m.name} is disabled (since ${m.disabled_at}).` };
    },
  },

  'governance show': {
    usage: 'governance show',
    summary: "Show the account's governance settings",
    async run(svc) {
      const g = await svc.governance.get();
      return { json: g, human: governanceLines(g) };
    },
  },
  'governance set': {
    usage: 'governance set [--dsar-due-days <n>] [--min-cohort <n>] [--epsilon-budget <x>] [...]',
    summary:
      'Change governance settings (admin); also --require-noise, --allowed-countries, --retention-days, --token-approvals, --meeting-template',
    options: {
      'dsar-due-days': { type: 'string' },
      'min-cohort': { type: 'string' },
      'epsilon-budget': { type: 'string' },
      'require-noise': { type: 'string' },
      'allowed-countries': { type: 'string' },
      'retention-days': { type: 'string' },
      'token-approvals': { type: 'string' },
      'meeting-template': { type: 'string' },
    },
    async run(svc, { flags }) {
      const requireNoise = oneOf(flags, 'require-noise', ['yes', 'no', 'true', 'false'] as const);
      const changes: UpdateGovernanceRequest['governance'] = {
        dsar_due_days: whole(flags, 'dsar-due-days'),
        clean_room_min_cohort: whole(flags, 'min-cohort'),
        clean_room_epsilon_budget: decimal(flags, 'epsilon-budget'),
        clean_room_require_noise: requireNoise === undefined ? undefined : requireNoise === 'yes' || requireNoise === 'true',
        allowed_countries: nullable(flag(flags, 'allowed-countries'), (v) =>
          v
            .split(',')
            .map((c) => c.trim().toUpperCase())
            .filter(Boolean),
        ),
        default_retention_days: whole(flags, 'retention-days', true),
        api_token_approvals_required: whole(flags, 'token-approvals'),
        default_meeting_template: nullable(flag(flags, 'meeting-template'), (v) => v),
      };
      const named = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      if (Object.keys(named).length === 0)
        throw new CliUsageError('governance set needs at least one setting; see svc governance set --help');
      const g = await svc.governance.update(named);
      return { json: g, human: governanceLines(g) };
    },
  },
  'governance changes': {
    usage: 'governance changes [--limit <n>]',
    summary: 'List the governance change log (settings and modules), oldest first',
    options: limitOption,
    async run(svc, { flags }) {
      const changes = await collect((limit) => svc.governance.changes({ limit }), flags);
      return {
        json: changes,
        human: table(
          changes,
          [
            ['at', (c) => c.created_at],
            ['type', (c) => c.type],
            ['by', (c) => `${c.actor.kind}:${c.actor.id}`],
            [
              'changes',
              (c) =>
                Object.entries(c.changes)
                  .map(([k, v]) => `${k} ${JSON.stringify(v.from)} -> ${JSON.stringify(v.to)}`)
                  .join('; '),
            ],
          ],
          'No changes.',
        ),
      };
    },
  },

  'clean-rooms create': {
    usage: 'clean-rooms create --agreement <id> --participants <app,app> [--expires-at <date-time>]',
    summary: "Open a clean room under an active agreement over the named applications' consent records",
    options: { agreement: { type: 'string' }, participants: { type: 'string' }, 'expires-at': { type: 'string' } },
    async run(svc, { flags }) {
      const agreement = flag(flags, 'agreement');
      const participants = listFlag(flags, 'participants');
      if (!agreement || !participants?.length)
        throw new CliUsageError('clean-rooms create needs --agreement <id> and --participants <application,application>');
      const room = await svc.cleanRooms.create({
        agreement_id: agreement,
        participants,
        ...(flag(flags, 'expires-at') ? { expires_at: flag(flags, 'expires-at') } : {}),
      });
      return { json: room, human: roomLines(room) };
    },
  },
  'clean-rooms list': {
    usage: 'clean-rooms list [--status <status>] [--limit <n>]',
    summary: "List the account's clean rooms of this cell",
    options: { ...limitOption, status: { type: 'string' } },
    async run(svc, { flags }) {
      const status = oneOf(flags, 'status', ROOM_STATUSES);
      const rooms = await collect((limit) => svc.cleanRooms.list({ limit, status }), flags);
      return {
        json: rooms,
        human: table(
          rooms,
          [
            ['id', (r) => r.id],
            ['status', (r) => r.status],
            ['agreement', (r) => r.agreement_id],
            ['participants', (r) => r.participants.join(',')],
            ['expires', (r) => r.expires_at],
          ],
          'No clean rooms.',
        ),
      };
    },
  },
  'clean-rooms show': {
    usage: 'clean-rooms show <id>',
    summary: 'Show a clean room and its privacy budget',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const room = await svc.cleanRooms.get(id!);
      return { json: room, human: roomLines(room) };
    },
  },
  'clean-rooms close': {
    usage: 'clean-rooms close <id>',
    summary: 'Close an active clean room',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const room = await svc.cleanRooms.close(id!);
      return { json: room, human: roomLines(room) };
    },
  },
  'clean-rooms query': {
    usage: 'clean-rooms query <id> --type <computation> [--epsilon <x>] [...]',
    summary:
      'Run count, count_by_purpose, overlap or histogram; also --participants, --purpose, --purposes, --from, --to, --min-cohort, --sensitivity',
    args: ['id'],
    options: {
      type: { type: 'string' },
      participants: { type: 'string' },
      purpose: { type: 'string' },
      purposes: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      'min-cohort': { type: 'string' },
      epsilon: { type: 'string' },
      sensitivity: { type: 'string' },
    },
    async run(svc, { args: [id], flags }) {
      const type = oneOf(flags, 'type', COMPUTATIONS);
      if (!type) throw new CliUsageError(`clean-rooms query needs --type, one of ${COMPUTATIONS.join(', ')}`);
      const epsilon = decimal(flags, 'epsilon');
      const sensitivity = whole(flags, 'sensitivity');
      if (sensitivity !== undefined && epsilon === undefined) throw new CliUsageError('--sensitivity goes with --epsilon');
      const definition: CreateCleanRoomQueryRequest['query_definition'] = Object.fromEntries(
        Object.entries({
          participants: listFlag(flags, 'participants'),
          purpose: flag(flags, 'purpose'),
          purposes: listFlag(flags, 'purposes'),
          from: flag(flags, 'from'),
          to: flag(flags, 'to'),
          min_cohort: whole(flags, 'min-cohort'),
        }).filter(([, v]) => v !== undefined),
      );
      const query = await svc.cleanRooms.query(id!, {
        computation_type: type,
        query_definition: definition,
        ...(epsilon !== undefined ? { privacy_parameters: { epsilon, ...(sensitivity !== undefined ? { sensitivity } : {}) } } : {}),
      });
      return { json: query, human: queryLines(query) };
    },
  },
  'clean-rooms queries': {
    usage: 'clean-rooms queries <id> [--limit <n>]',
    summary: "List a clean room's queries",
    args: ['id'],
    options: limitOption,
    async run(svc, { args: [id], flags }) {
      const queries = await collect((limit) => svc.cleanRooms.queries(id!, { limit }), flags);
      return {
        json: queries,
        human: table(
          queries,
          [
            ['id', (q) => q.id],
            ['computation', (q) => q.computation_type],
            ['status', (q) => q.status],
            ['completed', (q) => q.completed_at],
          ],
          'No queries.',
        ),
      };
    },
  },
  'clean-rooms result': {
    usage: 'clean-rooms result <id> <query_id>',
    summary: "Show a clean-room query's result",
    args: ['id', 'query_id'],
    async run(svc, { args: [id, queryId] }) {
      const query = await svc.cleanRooms.getQuery(id!, queryId!);
      return { json: query, human: queryLines(query) };
    },
  },

  'meetings create': {
    usage: 'meetings create [--title <t>] [--scheduled-at <date-time>] [--duration <min>] [...]',
    summary: 'Create a meeting consent; also --description, --platform, --external-id, --template <flow>, --agents <agent,agent>',
    options: {
      title: { type: 'string' },
      description: { type: 'string' },
      platform: { type: 'string' },
      'external-id': { type: 'string' },
      'scheduled-at': { type: 'string' },
      duration: { type: 'string' },
      template: { type: 'string' },
      agents: { type: 'string' },
    },
    async run(svc, { flags }) {
      const request: CreateMeetingConsentRequest = Object.fromEntries(
        Object.entries({
          title: flag(flags, 'title'),
          description: flag(flags, 'description'),
          platform: flag(flags, 'platform'),
          external_meeting_id: flag(flags, 'external-id'),
          scheduled_at: flag(flags, 'scheduled-at'),
          duration_minutes: whole(flags, 'duration'),
          template: flag(flags, 'template'),
          agent_ids: listFlag(flags, 'agents'),
        }).filter(([, v]) => v !== undefined),
      );
      const m = await svc.meetingConsents.create(request);
      return { json: m, human: meetingLines(m) };
    },
  },
  'meetings list': {
    usage: 'meetings list [--status <status>] [--limit <n>]',
    summary: "List the account's meeting consents",
    options: { ...limitOption, status: { type: 'string' } },
    async run(svc, { flags }) {
      const status = oneOf(flags, 'status', MEETING_STATUSES);
      const meetings = await collect((limit) => svc.meetingConsents.list({ limit, status }), flags);
      return {
        json: meetings,
        human: table(
          meetings,
          [
            ['id', (m) => m.id],
            ['status', (m) => m.status],
            ['starts', (m) => m.starts_at],
            ['minutes', (m) => m.duration_minutes],
            ['title', (m) => m.title],
          ],
          'No meeting consents.',
        ),
      };
    },
  },
  'meetings show': {
    usage: 'meetings show <id>',
    summary: 'Show a meeting consent',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const m = await svc.meetingConsents.get(id!);
      return { json: m, human: meetingLines(m) };
    },
  },
  'meetings cancel': {
    usage: 'meetings cancel <id>',
    summary: 'Cancel a scheduled or running meeting consent',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const m = await svc.meetingConsents.cancel(id!);
      return { json: m, human: meetingLines(m) };
    },
  },
};
