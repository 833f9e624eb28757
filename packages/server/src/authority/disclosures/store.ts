// Disclosure receipts: an organisation records that a flow disclosed an agent to a person. The result is a notice
// record (system-mediated: one `notice shown` event, never `consent given`), anonymous because the request names no
// person, with its receipt frozen at issue and served in every flavor by the receipt routes.
import {
  RECEIPT_CONFORMS_TO,
  RECEIPT_SCHEMA_VERSION,
  type ConsentReceiptRecord,
  type CreateDisclosureReceiptRequest,
  type DisclosureReceipt,
} from '@svc/schemas';
import { findAgentIdentity } from '../agents/store.js';
import { appendAuditEvent } from '../../consent/audit/chain.js';
import { getActivatedVersions, type FlowVersionRecord } from '../../platform/flows/store.js';
import { findApplication } from '../../platform/application-store.js';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { ApiError, unprocessable } from '../../infra/errors.js';
import { homedId } from '../../infra/ids.js';
import { transaction } from '../../infra/transaction.js';
import { PLATFORM_PARTY_ID, PLATFORM_PARTY_NAME } from '../../consent/receipts/canonical.js';
import { noticeHash, noticeReference } from '../../consent/receipts/notice.js';
import { agentDisclosuresOf } from './agents.js';

interface NoticeRow {
  id: string;
  account_id: string;
  application_id: string;
  flow_id: string;
  flow_version: number;
  agent_id: string;
  locale: string;
  disclosed_at: string;
  recorded_at: string;
  receipt: string;
}

const refuse = (path: string, code: string, message: string): ApiError => unprocessable(message, code, [{ path, code, message }]);

/** The flow version in force at `at`: the last one activated at or before it. */
function versionAt(versions: readonly FlowVersionRecord[], at: number): FlowVersionRecord | undefined {
  return versions.filter((v) => v.activated_at !== null && Date.parse(v.activated_at) <= at).at(-1);
}

/** A notice record id shaped like the ones this module issues. */
export function isNoticeRecordId(id: string): boolean {
  return /^nr_(?:[a-z]{2}_)?[A-Za-z0-9]{20}$/.test(id);
}

/**
 * Records a disclosure (Errors rule 9): the flow must be the account's and, in the version in force at
 * `disclosed_at`, declare the agent; `disclosed_at` is neither in the future nor before the agent's registration.
 * Each refusal is 422 naming its field. Makes the notice record, its frozen receipt and a `disclosure.recorded` audit
 * event in one transaction.
 */
export function createDisclosureReceipt(ctx: ServerContext, accountId: string, input: CreateDisclosureReceiptRequest): DisclosureReceipt {
  const disclosedAt = Date.parse(input.disclosed_at);
  const now = ctx.clock.now();
  if (disclosedAt > now)
    throw refuse('disclosed_at', 'in_the_future', 'disclosed_at is in the future: a disclosure is recorded after it was made.');
  const flow = getActivatedVersions(ctx, accountId, input.flow_id);
  if (!flow) throw refuse('flow_id', 'unknown_flow', 'flow_id names no flow of this account.');
  const agent = findAgentIdentity(ctx, input.agent_id);
  if (!agent || agent.account_id !== accountId)
    throw refuse('agent_id', 'unknown_agent', 'agent_id names no agent identity of this account.');
  if (disclosedAt < Date.parse(agent.created_at)) {
    throw refuse('disclosed_at', 'before_registration', `disclosed_at is before agent ${agent.id} was registered (${agent.created_at}).`);
  }
  const version = versionAt(flow.versions, disclosedAt);
  if (!version)
    throw refuse(
      'flow_id',
      'flow_not_active',
      `Flow ${input.flow_id} was not active at disclosed_at: no version of it disclosed anything then.`,
    );
  if (!(version.config.agents ?? []).some((a) => a.agent_id === agent.id)) {
    throw refuse(
      'agent_id',
      'agent_not_disclosed',
      `Version ${version.version} of flow ${input.flow_id} (in force at disclosed_at) does not disclose agent ${agent.id}: declare it in the flow's config.agents.`,
    );
  }

  const id = homedId(ctx.country, 'nr_', 20);
  const recordedAt = isoNow(ctx.clock);
  const at = new Date(disclosedAt).toISOString();
  const locale = input.locale ?? version.config.locale;
  const application = findApplication(ctx, version.application_id);
  const hash = noticeHash({ title: version.title, description: version.description, config: version.config });
  const disclosure = agentDisclosuresOf(ctx, { agents: version.config.agents!.filter((a) => a.agent_id === agent.id) }, at);
  const receipt: ConsentReceiptRecord = {
    schema_version: RECEIPT_SCHEMA_VERSION,
    conforms_to: RECEIPT_CONFORMS_TO,
    record_id: id,
    record_type: 'notice_record',
    anonymous: true,
    pii_processing: {
      language: locale,
      jurisdiction: 'unspecified',
      purposes: [],
      privacy_notice: { reference: noticeReference(version.flow_id, hash), sha256: hash },
      collection_method: 'Disclosure of an agent declared by the organisation through the disclosure receipts API',
      storage_locations: [ctx.country],
    },
    party_identification: [
      {
        party_id: version.application_id,
        party_name: application?.name ?? version.application_id,
        party_role: 'controller',
        party_type: 'organization',
        provenance: 'declared',
      },
      { party_id: PLATFORM_PARTY_ID, party_name: PLATFORM_PARTY_NAME, party_role: 'processor', party_type: 'organization' },
    ],
    // System-mediated: the organisation's system showed the notice; nobody acknowledged or consented to anything.
    event: [{ event_time: at, entity_id: version.application_id, event_type: 'regular', event_state: 'notice shown' }],
    extensions: {
      consent_flow_id: version.flow_id,
      collection_channel: 'controller_attested',
      captured_at: at,
      recorded_at: recordedAt,
      agent_disclosures: disclosure as unknown as Record<string, unknown>[],
    },
  };
  transaction(ctx.db, () => {
    stmt(
      ctx.db,
      `INSERT INTO notice_records (id, account_id, application_id, flow_id, flow_version, agent_id, locale, disclosed_at, recorded_at, receipt)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      accountId,
      version.application_id,
      version.flow_id,
      version.version,
      agent.id,
      locale,
      at,
      recordedAt,
      JSON.stringify(receipt),
    );
    appendAuditEvent(ctx, {
      applicationId: version.application_id,
      type: 'disclosure.recorded',
      occurredAt: recordedAt,
      data: {
        record_id: id,
        record_type: 'notice_record',
        flow_id: version.flow_id,
        flow_version: version.version,
        agent_identity_id: agent.id,
        disclosed_at: at,
      },
    });
  });
  return {
    record_id: id,
    record_type: 'notice_record',
    flow_id: version.flow_id,
    flow_version: version.version,
    agent_id: agent.id,
    application_id: version.application_id,
    locale,
    disclosed_at: at,
    recorded_at: recordedAt,
  };
}

/** The account's disclosure receipt `id`, or undefined. */
export function getDisclosureReceipt(ctx: ServerContext, accountId: string, id: string): DisclosureReceipt | undefined {
  if (!isNoticeRecordId(id)) return undefined;
  const row = stmt<[string], NoticeRow>(ctx.db, 'SELECT * FROM notice_records WHERE id = ?').get(id);
  if (!row || row.account_id !== accountId) return undefined;
  return {
    record_id: row.id,
    record_type: 'notice_record',
    flow_id: row.flow_id,
    flow_version: row.flow_version,
    agent_id: row.agent_id,
    application_id: row.application_id,
    locale: row.locale,
    disclosed_at: row.disclosed_at,
    recorded_at: row.recorded_at,
  };
}

/** The receipt of the account's notice record `id` (frozen at issue; a notice has no later events), or undefined. */
export function readNoticeReceipt(ctx: ServerContext, accountId: string, id: string): ConsentReceiptRecord | undefined {
  if (!isNoticeRecordId(id)) return undefined;
  const row = stmt<[string], NoticeRow>(ctx.db, 'SELECT * FROM notice_records WHERE id = ?').get(id);
  return row && row.account_id === accountId ? (JSON.parse(row.receipt) as ConsentReceiptRecord) : undefined;
}
