// `svc policies …`, `svc data-requests …`, `svc data-licenses …`, `svc data-offers …`, `svc portability …`: the
// Protect surface. The organisation acts with its API token; a person signed in with `svc login` acts on their own
// policies, data requests, offers and transfers (they alone file requests and make and revise offers).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  DATA_OFFER_STATUSES,
  DSAR_TYPES,
  POLICY_TEMPLATE_IDS,
  type DataLicense,
  type DataLicenseAccess,
  type DataOffer,
  type DataRequest,
  type DsarScope,
  type Policy,
  type PolicyTemplate,
  type PortabilityTransfer,
} from '@svc/schemas';
import type { Command, Invocation } from './commands.js';
import { CliUsageError } from './config.js';
import { application, collect, flag, jsonObject, limitOption, oneOf, required } from './flags.js';
import { lines, table } from './output.js';

type Flags = Invocation['flags'];

function integer(flags: Flags, name: string): number | undefined {
  const value = flag(flags, name);
  if (value === undefined) return undefined;
  if (!/^\d{1,10}$/.test(value)) throw new CliUsageError(`--${name} must be a whole number`);
  return Number(value);
}

/** A flag holding a JSON object (`config`, `terms`). */
const jsonObjectOf = (flags: Flags, name: string) => jsonObject(flags, name, '{"key": "value"}');

/** The digest `--hash` gives, or the SHA-256 of the file `--file` names (relative to the working directory). */
function digestOf(invocation: Invocation): string {
  const hash = flag(invocation.flags, 'hash');
  const file = flag(invocation.flags, 'file');
  if ((hash === undefined) === (file === undefined)) throw new CliUsageError('pass either --hash <sha256:hex> or --file <package>');
  if (hash !== undefined) return hash;
  let bytes: Buffer;
  try {
    bytes = readFileSync(resolve(file!));
  } catch (err) {
    throw new CliUsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

const str = { type: 'string' } as const;

// ---- what each resource looks like -------------------------------------------------------------------------------

const policyLines = (p: Policy) =>
  lines([
    ['policy', `${p.title} (${p.id})`],
    ['template', `${p.template_id} v${p.template_version}${p.deal ? ' (a deal)' : ''}`],
    ['owner', p.owner_type === 'person' ? `person ${p.person_id}` : 'the account'],
    ['status', p.status],
    ['config', JSON.stringify(p.config)],
    ['accepted', p.acceptance ? `${p.accepted_at} by the ${p.acceptance.accepted_by} (offer ${p.acceptance.data_offer_id})` : null],
    ['country', p.home_country],
    ['created', p.created_at],
  ]);

const requestLines = (r: DataRequest) =>
  lines([
    ['data request', r.id],
    ['type', r.dsar_type],
    ['status', `${r.status}${r.overdue ? ' (overdue)' : ''}`],
    ['person', r.person_id],
    ['application', r.application_id],
    ['scope', r.scope === null ? null : typeof r.scope === 'string' ? r.scope : JSON.stringify(r.scope)],
    ['received', r.received_at],
    ['due', r.extended ? `${r.due_date} (extended from ${r.original_due_date}: ${r.extension_reason})` : r.due_date],
    ['completed', r.completed_at ? `${r.completed_at}${r.completion_note ? `: ${r.completion_note}` : ''}` : null],
    ['rejected', r.rejected_at ? `${r.rejected_at}: ${r.rejection_reason}` : null],
    [
      'export',
      r.export
        ? `${r.export.consent_records.length} consent records, ${r.export.policy_ids.length} policies, ${r.export.delegation_grant_ids.length} delegation grants`
        : null,
    ],
  ]);

const licenseLines = (l: DataLicense) =>
  lines([
    ['data license', l.id],
    ['status', l.status],
    ['agreement', l.agreement_id],
    ['application', l.application_id],
    [
      'accesses',
      l.max_access_count === null
        ? `${l.access_count} (unlimited)`
        : `${l.access_count} of ${l.max_access_count} (${l.remaining_accesses} left)`,
    ],
    ['last access', l.last_accessed_at],
    ['terms', JSON.stringify(l.terms)],
    ['created', l.created_at],
  ]);

const offerLines = (o: DataOffer) =>
  lines([
    ['data offer', o.id],
    ['status', o.status],
    ['turn', o.turn],
    ['policy', o.policy_id],
    ['application', o.application_id],
    ['terms', JSON.stringify(o.terms)],
    ['counters', o.counter_count],
    ['expires', o.expires_at],
    ['decided', o.decided_at ? `${o.decided_at}${o.decline_reason ? `: ${o.decline_reason}` : ''}` : null],
    ['rounds', o.rounds.map((r) => `${r.round}. ${r.action} by ${r.by}`).join('; ') || null],
  ]);

const transferLines = (t: PortabilityTransfer) =>
  lines([
    ['transfer', t.id],
    ['status', t.status],
    ['policy', t.policy_id],
    ['from', t.source_application_id],
    ['to', t.destination_application_id],
    ['format', t.negotiated_format],
    ['data hash', t.data_hash],
    ['mismatches', t.mismatch_count],
    ['confirmed', t.confirmed_at],
    ['cancelled', t.cancelled_at],
  ]);

const one =
  <T>(render: (item: T) => string) =>
  (item: T) => ({ json: item, human: render(item) });

// ---- the commands ------------------------------------------------------------------------------------------------

/** The Protect commands, merged into the command list by `run`. */
export const protectCommands: Record<string, Command> = {
  'policies templates': {
    usage: 'policies templates',
    summary: 'List the built-in policy templates and the fields of their config',
    async run(svc) {
      const items: PolicyTemplate[] = await collect((n) => svc.policyTemplates.list({ limit: n }), {});
      return {
        json: items,
        human: table(
          items,
          [
            ['template', (t) => t.id],
            ['deal', (t) => (t.deal ? 'yes' : 'no')],
            ['config', (t) => Object.keys((t.config_schema.properties ?? {}) as object).join(', ')],
            ['about', (t) => t.description],
          ],
          'No templates.',
        ),
      };
    },
  },
  'policies create': {
    usage: 'policies create --template <id> [--config <json>]',
    summary: "Make a policy from a template (yours when signed in, else the account's)",
    options: { template: str, title: str, config: str },
    async run(svc, { flags }) {
      const template =
        oneOf(flags, 'template', POLICY_TEMPLATE_IDS) ??
        (() => {
          throw new CliUsageError(`--template is one of ${POLICY_TEMPLATE_IDS.join(', ')}`);
        })();
      const title = flag(flags, 'title');
      const config = jsonObjectOf(flags, 'config');
      return one(policyLines)(
        await svc.policies.create({ template_id: template, ...(title ? { title } : {}), ...(config ? { config } : {}) }),
      );
    },
  },
  'policies list': {
    usage: 'policies list [--template <id>] [--status <s>]',
    summary: 'List policies (your own when signed in)',
    options: { ...limitOption, template: str, status: str, owner: str },
    async run(svc, { flags }) {
      const query = {
        template_id: oneOf(flags, 'template', POLICY_TEMPLATE_IDS),
        status: oneOf(flags, 'status', ['active', 'revoked'] as const),
        owner_type: oneOf(flags, 'owner', ['person', 'account'] as const),
      };
      const items = await collect((n) => svc.policies.list({ ...query, limit: n }), flags);
      return {
        json: items,
        human: table(
          items,
          [
            ['id', (p) => p.id],
            ['template', (p) => p.template_id],
            ['title', (p) => p.title],
            ['owner', (p) => p.owner_type],
            ['status', (p) => p.status],
            ['accepted', (p) => p.accepted_at],
          ],
          'No policies.',
        ),
      };
    },
  },
  'policies get': {
    usage: 'policies get <policy_id>',
    summary: 'Show a policy and its acceptance',
    args: ['policy_id'],
    run: async (svc, { args: [id] }) => one(policyLines)(await svc.policies.get(id!)),
  },
  'policies revoke': {
    usage: 'policies revoke <policy_id>',
    summary: 'Revoke a policy (final)',
    args: ['policy_id'],
    run: async (svc, { args: [id] }) => one(policyLines)(await svc.policies.revoke(id!)),
  },

  'data-requests create': {
    usage: 'data-requests create --type <type>',
    summary: 'File a data request as the signed-in person (access, erasure, portability, rectification; --scope, --app)',
    options: { app: str, type: str, scope: str },
    async run(svc, { flags, config }) {
      const type =
        oneOf(flags, 'type', DSAR_TYPES) ??
        (() => {
          throw new CliUsageError(`--type is one of ${DSAR_TYPES.join(', ')}`);
        })();
      const raw = flag(flags, 'scope');
      let scope: DsarScope | undefined = raw;
      if (raw !== undefined && /^[[{]/.test(raw.trim())) {
        try {
          scope = JSON.parse(raw) as DsarScope;
        } catch {
          throw new CliUsageError('--scope is text, or a JSON list or object');
        }
      }
      return one(requestLines)(
        await svc.dataRequests.create({
          application_id: application({ flags, config }),
          dsar_type: type,
          ...(scope !== undefined ? { scope } : {}),
        }),
      );
    },
  },
  'data-requests list': {
    usage: 'data-requests list [--status <s>] [--type <t>]',
    summary: 'List data requests with their due dates (your own when signed in)',
    options: { ...limitOption, status: str, type: str, app: str },
    async run(svc, { flags }) {
      const query = {
        status: oneOf(flags, 'status', ['received', 'in_progress', 'completed', 'rejected'] as const),
        dsar_type: oneOf(flags, 'type', DSAR_TYPES),
        application_id: flag(flags, 'app'),
      };
      const items = await collect((n) => svc.dataRequests.list({ ...query, limit: n }), flags);
      return {
        json: items,
        human: table(
          items,
          [
            ['id', (r) => r.id],
            ['type', (r) => r.dsar_type],
            ['status', (r) => r.status],
            ['due', (r) => `${r.due_date}${r.overdue ? ' OVERDUE' : ''}`],
            ['person', (r) => r.person_id],
          ],
          'No data requests.',
        ),
      };
    },
  },
  'data-requests get': {
    usage: 'data-requests get <request_id>',
    summary: 'Show a data request (and the export of a completed access request)',
    args: ['request_id'],
    run: async (svc, { args: [id] }) => one(requestLines)(await svc.dataRequests.get(id!)),
  },
  'data-requests start': {
    usage: 'data-requests start <request_id>',
    summary: 'Start processing a data request',
    args: ['request_id'],
    run: async (svc, { args: [id] }) => one(requestLines)(await svc.dataRequests.start(id!)),
  },
  'data-requests extend': {
    usage: 'data-requests extend <request_id> --reason <text>',
    summary: 'Extend the due date once, by at most 60 days (--days)',
    args: ['request_id'],
    options: { reason: str, days: str },
    async run(svc, { args: [id], flags }) {
      const days = integer(flags, 'days');
      return one(requestLines)(
        await svc.dataRequests.extend(id!, { reason: required(flags, 'reason', 'text'), ...(days !== undefined ? { days } : {}) }),
      );
    },
  },
  'data-requests complete': {
    usage: 'data-requests complete <request_id>',
    summary: 'Complete a data request in progress (--note)',
    args: ['request_id'],
    options: { note: str },
    async run(svc, { args: [id], flags }) {
      const note = flag(flags, 'note');
      return one(requestLines)(await svc.dataRequests.complete(id!, note ? { note } : {}));
    },
  },
  'data-requests reject': {
    usage: 'data-requests reject <request_id> --reason <text>',
    summary: 'Reject a data request with the reason',
    args: ['request_id'],
    options: { reason: str },
    run: async (svc, { args: [id], flags }) =>
      one(requestLines)(await svc.dataRequests.reject(id!, { reason: required(flags, 'reason', 'text') })),
  },

  'data-licenses create': {
    usage: 'data-licenses create --agreement <id>',
    summary: 'License data under an active agreement (--max-accesses, --terms <json>, --app)',
    options: { agreement: str, app: str, 'max-accesses': str, terms: str },
    async run(svc, { flags }) {
      const max = integer(flags, 'max-accesses');
      const terms = jsonObjectOf(flags, 'terms');
      const app = flag(flags, 'app');
      return one(licenseLines)(
        await svc.dataLicenses.create({
          agreement_id: required(flags, 'agreement', 'agreement_id'),
          ...(app ? { application_id: app } : {}),
          ...(max !== undefined ? { max_access_count: max } : {}),
          ...(terms ? { terms } : {}),
        }),
      );
    },
  },
  'data-licenses list': {
    usage: 'data-licenses list [--status <s>]',
    summary: "List the account's data licenses",
    options: { ...limitOption, status: str, agreement: str },
    async run(svc, { flags }) {
      const query = { status: oneOf(flags, 'status', ['active', 'exhausted', 'revoked'] as const), agreement_id: flag(flags, 'agreement') };
      const items = await collect((n) => svc.dataLicenses.list({ ...query, limit: n }), flags);
      return {
        json: items,
        human: table(
          items,
          [
            ['id', (l) => l.id],
            ['status', (l) => l.status],
            ['agreement', (l) => l.agreement_id],
            ['accesses', (l) => (l.max_access_count === null ? `${l.access_count}` : `${l.access_count}/${l.max_access_count}`)],
          ],
          'No data licenses.',
        ),
      };
    },
  },
  'data-licenses get': {
    usage: 'data-licenses get <license_id>',
    summary: 'Show a data license and its access count',
    args: ['license_id'],
    run: async (svc, { args: [id] }) => one(licenseLines)(await svc.dataLicenses.get(id!)),
  },
  'data-licenses access': {
    usage: 'data-licenses access <license_id>',
    summary: 'Count one access (--purpose, --accessor); refused once all are used',
    args: ['license_id'],
    options: { purpose: str, accessor: str },
    async run(svc, { args: [id], flags }) {
      const purpose = flag(flags, 'purpose');
      const accessor = flag(flags, 'accessor');
      const access: DataLicenseAccess = await svc.dataLicenses.recordAccess(id!, {
        ...(purpose ? { purpose } : {}),
        ...(accessor ? { accessor } : {}),
      });
      return {
        json: access,
        human: lines([
          ['access', `#${access.sequence} (${access.id})`],
          ['at', access.accessed_at],
          ['remaining', access.remaining_accesses ?? 'unlimited'],
        ]),
      };
    },
  },
  'data-licenses accesses': {
    usage: 'data-licenses accesses <license_id>',
    summary: "List a license's counted accesses",
    args: ['license_id'],
    options: { ...limitOption },
    async run(svc, { args: [id], flags }) {
      const items = await collect((n) => svc.dataLicenses.listAccesses(id!, { limit: n }), flags);
      return {
        json: items,
        human: table(
          items,
          [
            ['#', (a) => a.sequence],
            ['at', (a) => a.accessed_at],
            ['purpose', (a) => a.purpose],
            ['accessor', (a) => a.accessor],
          ],
          'No accesses.',
        ),
      };
    },
  },
  'data-licenses revoke': {
    usage: 'data-licenses revoke <license_id>',
    summary: 'Revoke a data license (final)',
    args: ['license_id'],
    run: async (svc, { args: [id] }) => one(licenseLines)(await svc.dataLicenses.revoke(id!)),
  },

  'data-offers create': {
    usage: 'data-offers create --policy <id> --terms <json>',
    summary: 'Draft a data offer for a deal policy of yours (signed in; --app, --expires-at)',
    options: { policy: str, app: str, terms: str, 'expires-at': str },
    async run(svc, { flags, config }) {
      const terms = jsonObjectOf(flags, 'terms');
      if (!terms) throw new CliUsageError('--terms <json> is required');
      const expires = flag(flags, 'expires-at');
      return one(offerLines)(
        await svc.dataOffers.create({
          policy_id: required(flags, 'policy', 'policy_id'),
          application_id: application({ flags, config }),
          terms,
          ...(expires ? { expires_at: expires } : {}),
        }),
      );
    },
  },
  'data-offers list': {
    usage: 'data-offers list [--status <s>]',
    summary: 'List data offers and whose turn it is',
    options: { ...limitOption, status: str, policy: str },
    async run(svc, { flags }) {
      const query = { status: oneOf(flags, 'status', DATA_OFFER_STATUSES), policy_id: flag(flags, 'policy') };
      const items = await collect((n) => svc.dataOffers.list({ ...query, limit: n }), flags);
      return {
        json: items,
        human: table(
          items,
          [
            ['id', (o) => o.id],
            ['status', (o) => o.status],
            ['turn', (o) => o.turn],
            ['counters', (o) => o.counter_count],
            ['expires', (o) => o.expires_at],
            ['terms', (o) => JSON.stringify(o.terms)],
          ],
          'No data offers.',
        ),
      };
    },
  },
  'data-offers get': {
    usage: 'data-offers get <offer_id>',
    summary: 'Show a data offer and its rounds',
    args: ['offer_id'],
    run: async (svc, { args: [id] }) => one(offerLines)(await svc.dataOffers.get(id!)),
  },
  'data-offers offer': {
    usage: 'data-offers offer <offer_id>',
    summary: 'Send your draft to the organisation',
    args: ['offer_id'],
    run: async (svc, { args: [id] }) => one(offerLines)(await svc.dataOffers.offer(id!)),
  },
  'data-offers counter': {
    usage: 'data-offers counter <offer_id> --terms <json>',
    summary: "Counter the person's terms (the organisation; --message)",
    args: ['offer_id'],
    options: { terms: str, message: str },
    async run(svc, { args: [id], flags }) {
      const terms = jsonObjectOf(flags, 'terms');
      if (!terms) throw new CliUsageError('--terms <json> is required');
      const message = flag(flags, 'message');
      return one(offerLines)(await svc.dataOffers.counter(id!, { terms, ...(message ? { message } : {}) }));
    },
  },
  'data-offers revise': {
    usage: 'data-offers revise <offer_id> --terms <json>',
    summary: "Revise after the organisation's counter (signed in; --message)",
    args: ['offer_id'],
    options: { terms: str, message: str },
    async run(svc, { args: [id], flags }) {
      const terms = jsonObjectOf(flags, 'terms');
      if (!terms) throw new CliUsageError('--terms <json> is required');
      const message = flag(flags, 'message');
      return one(offerLines)(await svc.dataOffers.revise(id!, { terms, ...(message ? { message } : {}) }));
    },
  },
  'data-offers accept': {
    usage: 'data-offers accept <offer_id>',
    summary: "Accept the other side's terms (recorded on the policy)",
    args: ['offer_id'],
    run: async (svc, { args: [id] }) => one(offerLines)(await svc.dataOffers.accept(id!)),
  },
  'data-offers decline': {
    usage: 'data-offers decline <offer_id>',
    summary: "Decline the other side's terms (--reason)",
    args: ['offer_id'],
    options: { reason: str },
    async run(svc, { args: [id], flags }) {
      const reason = flag(flags, 'reason');
      return one(offerLines)(await svc.dataOffers.decline(id!, reason ? { reason } : {}));
    },
  },

  'portability create': {
    usage: 'portability create --policy <id> --from <app> --to <app>',
    summary: "Open a transfer under a person's portability policy (--format)",
    options: { policy: str, from: str, to: str, format: str },
    async run(svc, { flags }) {
      const format = flag(flags, 'format');
      return one(transferLines)(
        await svc.portabilityTransfers.create({
          policy_id: required(flags, 'policy', 'policy_id'),
          source_application_id: required(flags, 'from', 'application_id'),
          destination_application_id: required(flags, 'to', 'application_id'),
          ...(format ? { negotiated_format: format } : {}),
        }),
      );
    },
  },
  'portability list': {
    usage: 'portability list [--status <s>]',
    summary: 'List portability transfers',
    options: { ...limitOption, status: str, policy: str },
    async run(svc, { flags }) {
      const query = {
        status: oneOf(flags, 'status', ['pending', 'ready', 'confirmed', 'cancelled'] as const),
        policy_id: flag(flags, 'policy'),
      };
      const items = await collect((n) => svc.portabilityTransfers.list({ ...query, limit: n }), flags);
      return {
        json: items,
        human: table(
          items,
          [
            ['id', (t) => t.id],
            ['status', (t) => t.status],
            ['from', (t) => t.source_application_id],
            ['to', (t) => t.destination_application_id],
            ['format', (t) => t.negotiated_format],
          ],
          'No transfers.',
        ),
      };
    },
  },
  'portability get': {
    usage: 'portability get <transfer_id>',
    summary: 'Show a portability transfer',
    args: ['transfer_id'],
    run: async (svc, { args: [id] }) => one(transferLines)(await svc.portabilityTransfers.get(id!)),
  },
  'portability ready': {
    usage: 'portability ready <transfer_id> --file <package>',
    summary: "Declare the package's SHA-256 (--file, or --hash)",
    args: ['transfer_id'],
    options: { file: str, hash: str },
    run: async (svc, invocation) =>
      one(transferLines)(await svc.portabilityTransfers.markReady(invocation.args[0]!, { data_hash: digestOf(invocation) })),
  },
  'portability confirm': {
    usage: 'portability confirm <transfer_id> --file <package>',
    summary: 'Confirm receipt with the digest of what arrived (--file, or --hash)',
    args: ['transfer_id'],
    options: { file: str, hash: str },
    run: async (svc, invocation) =>
      one(transferLines)(await svc.portabilityTransfers.confirm({ transfer_id: invocation.args[0]!, data_hash: digestOf(invocation) })),
  },
  'portability cancel': {
    usage: 'portability cancel <transfer_id>',
    summary: 'Cancel a pending or ready transfer',
    args: ['transfer_id'],
    run: async (svc, { args: [id] }) => one(transferLines)(await svc.portabilityTransfers.cancel(id!)),
  },
};
