// Policies made from the built-in templates. A person's policy (made with their access token) speaks for their own
// data; an account policy (made with an API token) is the organisation's. Both live in the cell they were made in
// (a deal policy records who accepted it, which is personal), with ids naming it (`pol_us_…`). The organisation
// reads every policy of its account; a person reads only their own.
import {
  DEAL_TEMPLATE_IDS,
  policyTemplateConfigs,
  type CreatePolicyRequest,
  type Policy,
  type PolicyAcceptance,
  type PolicyOwnerType,
  type PolicyStatus,
  type PolicyTemplateId,
} from '@svc/schemas';
import { assertHomedHere } from '../../infra/cells/routing.js';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { forbidden, unprocessable } from '../../infra/errors.js';
import { homedId } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { transaction } from '../../infra/transaction.js';
import { fieldErrors } from '../../infra/validate.js';
import { illegalTransition, parsed, type Caller } from './common.js';
import { TEMPLATE_VERSION } from './templates.js';

export interface PolicyRow {
  seq: number;
  id: string;
  account_id: string;
  person_id: string | null;
  template_id: PolicyTemplateId;
  template_version: number;
  title: string;
  config: string;
  status: PolicyStatus;
  accepted_at: string | null;
  acceptance: string | null;
  created_at: string;
  updated_at: string;
  revoked_at: string | null;
}

/** The shape of a policy id this server makes (with or without a country). */
const POLICY_ID = /^pol_(?:[a-z]{2}_)?[A-Za-z0-9]{16,24}$/;

/** Whether a policy's template carries a data deal. */
export const isDeal = (row: Pick<PolicyRow, 'template_id'>) => DEAL_TEMPLATE_IDS.includes(row.template_id);

export function toPolicy(ctx: ServerContext, row: PolicyRow): Policy {
  return {
    id: row.id,
    template_id: row.template_id,
    template_version: row.template_version,
    title: row.title,
    config: parsed(row.config)!,
    owner_type: row.person_id ? 'person' : 'account',
    person_id: row.person_id,
    status: row.status,
    deal: isDeal(row),
    accepted_at: row.accepted_at,
    acceptance: parsed<PolicyAcceptance>(row.acceptance),
    home_country: ctx.country,
    created_at: row.created_at,
    updated_at: row.updated_at,
    revoked_at: row.revoked_at,
  };
}

/** The policy `id` the caller may see (the account's for the organisation, their own for a person), or undefined. */
export function findPolicy(ctx: ServerContext, caller: Caller, id: string): PolicyRow | undefined {
  if (!POLICY_ID.test(id)) return undefined;
  const row = stmt<[string], PolicyRow>(ctx.db, 'SELECT * FROM policies WHERE id = ?').get(id);
  if (!row || row.account_id !== caller.accountId) return undefined;
  if (caller.kind === 'person' && row.person_id !== caller.personId) return undefined;
  return row;
}

/** The policy named in a request body at `path` (421 when homed elsewhere), or the 422 naming it. */
export function referencedPolicy(ctx: ServerContext, caller: Caller, id: string, path = 'policy_id'): PolicyRow {
  assertHomedHere(ctx, id);
  const row = findPolicy(ctx, caller, id);
  if (!row) {
    const message = caller.kind === 'person' ? `No policy ${id} of yours.` : `No policy ${id} in this account.`;
    throw unprocessable(message, 'policy_not_found', [{ path, code: 'policy_not_found', message }]);
  }
  return row;
}

/**
 * Makes a policy from a template: `config` must meet the template's schema (422 `invalid_config`, each failing path
 * under `config.`); the stored config is the validated one, with the template's defaults filled in.
 */
export function createPolicy(ctx: ServerContext, caller: Caller, input: CreatePolicyRequest): PolicyRow {
  const template = input.template_id;
  const result = policyTemplateConfigs[template].safeParse(input.config ?? {});
  if (!result.success) {
    const errors = fieldErrors(result.error.issues as Parameters<typeof fieldErrors>[0], ['config']);
    throw unprocessable(
      `config does not meet the ${template} template${errors[0] ? `: ${errors[0].path}: ${errors[0].message}` : '.'}`,
      'invalid_config',
      errors,
    );
  }
  const personId = caller.kind === 'person' ? caller.personId : null;
  if (personId) assertHomedHere(ctx, personId);
  const id = homedId(ctx.country, 'pol_', 20);
  const now = isoNow(ctx.clock);
  const title = input.title ?? `${template.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase())} policy`;
  stmt(
    ctx.db,
    `INSERT INTO policies (id, account_id, person_id, template_id, template_version, title, config, status, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, 'active', ?, ?)`,
  ).run(id, caller.accountId, personId, template, TEMPLATE_VERSION, title, JSON.stringify(result.data), now, now);
  return stmt<[string], PolicyRow>(ctx.db, 'SELECT * FROM policies WHERE id = ?').get(id)!;
}

/** A page of the policies the caller may see, oldest first. */
export function listPolicies(
  ctx: ServerContext,
  caller: Caller,
  page: {
    limit: number;
    cursor?: string | undefined;
    template_id?: PolicyTemplateId | undefined;
    status?: PolicyStatus | undefined;
    owner_type?: PolicyOwnerType | undefined;
  },
) {
  const person = caller.kind === 'person' ? caller.personId : null;
  const template = page.template_id ?? null;
  const status = page.status ?? null;
  const owner = page.owner_type ?? null;
  const rows = stmt<unknown[], PolicyRow>(
    ctx.db,
    `SELECT * FROM policies WHERE account_id = ? AND seq > ?
      AND (? IS NULL OR person_id = ?) AND (? IS NULL OR template_id = ?) AND (? IS NULL OR status = ?)
      AND (? IS NULL OR (? = 'person') = (person_id IS NOT NULL))
    ORDER BY seq LIMIT ?`,
  ).all(caller.accountId, decodeCursor(page.cursor), person, person, template, template, status, status, owner, owner, page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.seq);
  return { policies: items.map((r) => toPolicy(ctx, r)), next_cursor };
}

/**
 * Revokes a policy (`active -> revoked`, final; again is 409 `illegal_transition`). A person's policy is theirs to
 * revoke (an API token is 403 `policy_owner_only`); an account policy the organisation's.
 */
export function revokePolicy(ctx: ServerContext, caller: Caller, row: PolicyRow): PolicyRow {
  if (row.person_id && caller.kind !== 'person') {
    throw forbidden(`Policy ${row.id} is a person's own: only they revoke it, with their access token.`, 'policy_owner_only');
  }
  return transaction(ctx.db, () => {
    const now = isoNow(ctx.clock);
    const changed = stmt(
      ctx.db,
      "UPDATE policies SET status = 'revoked', revoked_at = ?, updated_at = ? WHERE id = ? AND status = 'active'",
    ).run(now, now, row.id);
    if (changed.changes === 0) throw illegalTransition('A policy cannot go from revoked to revoked: revocation is final.');
    return stmt<[string], PolicyRow>(ctx.db, 'SELECT * FROM policies WHERE id = ?').get(row.id)!;
  });
}
