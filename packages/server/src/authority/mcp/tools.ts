// The model-context gateway's tools: every tool an agent can call at /mcp/v1/agent, in one list. Each calls the
// same service function as its REST route (the authority check, escalations, consent status, /api/v1/me), so the
// bounds, the audit trail and what an agent may see are the REST API's own. Add a tool by adding an entry here.
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import {
  agentMe as agentMeSchema,
  authorityCheck,
  authorityCheckRequest,
  createDisclosureReceiptRequest,
  createEscalationRequest,
  disclosureReceipt,
  escalation as escalationSchema,
  purposeConsentStatus,
} from '@svc/schemas';
import { z } from 'zod/mini';
import { checkAuthority, requestEscalation } from '../delegations/authority.js';
import { visibleEscalation } from '../delegations/escalations.js';
import { findGrant } from '../delegations/grants.js';
import { ESCALATION_POLL_SECONDS } from '../delegations/routes.js';
import { getApplication } from '../../platform/application-store.js';
import type { Principal, ServerContext } from '../../infra/context.js';
import { ApiError, notFound } from '../../infra/errors.js';
import { findPerson } from '../../consent/records/person.js';
import { consentStatusOf } from '../../consent/records/status.js';
import { agentMe } from '../../platform/account/me.js';
import { createDisclosureReceipt } from '../disclosures/store.js';
import { transaction } from '../../infra/transaction.js';

/** The agent a gateway request acts for, resolved from its token (grant, agent and expiry checked). */
export type AgentPrincipal = Extract<Principal, { kind: 'agent' }>;

/** One tool: its MCP description, its arguments (validated as the REST body is) and its structured result. */
export interface AgentTool {
  name: string;
  title: string;
  description: string;
  /**
   * The arguments' schema. Tools that mirror a REST body use that body's own schema (`authorityCheckRequest`), so an
   * argument the REST route refuses is refused here with the same `{message, code, errors}`.
   */
  input: z.ZodMiniObject;
  /** A description of each argument, published in the tool's JSON Schema. */
  describe: Record<string, string>;
  /** The shape of `structuredContent` (published as the tool's `outputSchema`). */
  output: z.ZodMiniObject;
  annotations: ToolAnnotations;
  /** Runs the tool; a refusal is thrown as the REST route's `ApiError` and becomes a tool error result. */
  run(ctx: ServerContext, agent: AgentPrincipal, args: never): Record<string, unknown>;
}

/** Keeps each tool's `run` typed by its own input schema while the list holds them alike. */
function tool<In extends z.ZodMiniObject, Out extends z.ZodMiniObject>(
  def: Omit<AgentTool, 'input' | 'output' | 'run'> & {
    input: In;
    output: Out;
    run(ctx: ServerContext, agent: AgentPrincipal, args: z.output<In>): z.input<Out>;
  },
): AgentTool {
  return def as unknown as AgentTool;
}

const actionArguments = {
  scope: "The API scope the action is in, one of the grant's delegated scopes (e.g. payments:write).",
  action: 'What the action does: read, write or delete.',
  value: 'The money the action moves (with currency; 0 when it moves none), checked against the value bound, which needs it.',
  currency: 'ISO 4217 code of value (e.g. EUR); value and currency go together.',
  jurisdiction: 'ISO 3166-1 alpha-2 country where the action takes effect (e.g. DE), checked against the jurisdiction bound.',
  description: 'What the agent is about to do, in a sentence the principal will read if it is escalated.',
};

const pollHint = z.optional(
  z.int().check(z.describe('Seconds to wait before asking get_escalation again, while the escalation is pending.')),
);

/** Every tool of the gateway, in the order `tools/list` answers them. */
export const agentTools: AgentTool[] = [
  tool({
    name: 'check_authority',
    title: 'Check authority before acting',
    description:
      'Ask before every action. Holds the proposed action against every bound of your delegation grant now. ' +
      'allowed: go ahead (recorded as authority exercised on the audit trail). escalated: the action went beyond an ' +
      'escalatable bound and waits for your principal (poll get_escalation; once approved, call check_authority again ' +
      'with the same action and escalation_id to let it through once). Denied: a tool error naming the bound ' +
      '(code bound_exceeded); do not act.',
    input: authorityCheckRequest,
    describe: { ...actionArguments, escalation_id: 'The approved escalation (esc_…) of exactly this action, to let it through once.' },
    output: z.object({ authority_check: authorityCheck, retry_after_seconds: pollHint }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run(ctx, agent, args) {
      const { status, check } = checkAuthority(ctx, agent, args);
      return { authority_check: check, ...(status === 202 ? { retry_after_seconds: ESCALATION_POLL_SECONDS } : {}) };
    },
  }),
  tool({
    name: 'request_escalation',
    title: 'Ask the principal for approval',
    description:
      'Ask your principal to approve an action before trying it (needs a grant that allows escalation). Answers the ' +
      'escalation, pending; poll get_escalation and, once approved, pass its id to check_authority with the same action.',
    input: createEscalationRequest,
    describe: actionArguments,
    output: z.object({ escalation: escalationSchema, retry_after_seconds: pollHint }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run(ctx, agent, args) {
      return { escalation: requestEscalation(ctx, agent, args), retry_after_seconds: ESCALATION_POLL_SECONDS };
    },
  }),
  tool({
    name: 'get_escalation',
    title: 'Where an escalation stands',
    description:
      "Read one of your grant's escalations: pending, approved, denied, countered or expired (the principal's " +
      'decision page is never shown to you).',
    input: z.strictObject({ escalation_id: z.string().check(z.minLength(1), z.maxLength(100)) }),
    describe: { escalation_id: 'The escalation id (esc_…) check_authority or request_escalation answered.' },
    output: z.object({ escalation: escalationSchema, retry_after_seconds: pollHint }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run(ctx, agent, { escalation_id }) {
      const escalation = visibleEscalation(ctx, agent, escalation_id);
      return { escalation, ...(escalation.status === 'pending' ? { retry_after_seconds: ESCALATION_POLL_SECONDS } : {}) };
    },
  }),
  tool({
    name: 'check_consent_status',
    title: "Your principal's consent for a purpose",
    description:
      'Whether your principal (only them) has consented to a purpose with an application of the same organisation ' +
      '(default: the application your grant was made through): granted, declined, revoked, expired, objected, noticed, ' +
      'or pending when they have not decided it.',
    input: z.strictObject({
      purpose: z.string().check(z.minLength(1), z.maxLength(64)),
      application_id: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
      flow_id: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
    }),
    describe: {
      purpose: 'The purpose key (e.g. newsletter).',
      application_id: 'The application (default: the one your delegation grant was made through).',
      flow_id: "Only this flow's records count (as consent_status?flow_id= does).",
    },
    output: z.object({
      consent_status: z.object({
        principal_id: z.string(),
        application_id: z.string(),
        purpose: z.string(),
        status: purposeConsentStatus,
        granted_at: z.nullable(z.string()),
        expires_at: z.nullable(z.string()),
        flow_id: z.nullable(z.string()),
      }),
    }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run(ctx, agent, args) {
      const applicationId = args.application_id ?? findGrant(ctx, agent.grantId)!.application_id;
      // The REST route's own lookups, with the account and the person fixed by the token: another account's
      // application is not found, and no other person can be named.
      const application = getApplication(ctx, agent.accountId, applicationId);
      if (!application) throw notFound('No such application.');
      const person = findPerson(ctx, agent.accountId, application.id, { personId: agent.personId });
      if (!person) throw new ApiError(404, 'No consent record names your principal for the application.', 'subject_not_found');
      const status = consentStatusOf(ctx, application.id, person, { flowId: args.flow_id });
      const row = status.purposes.find((p) => p.purpose === args.purpose);
      // Only the purpose asked: not the principal's other decisions, their email or their records.
      return {
        consent_status: {
          principal_id: person.id,
          application_id: application.id,
          purpose: args.purpose,
          status: row?.status ?? 'pending',
          granted_at: row?.granted_at ?? null,
          expires_at: row?.expires_at ?? null,
          flow_id: row?.flow_id ?? null,
        },
      };
    },
  }),
  tool({
    name: 'record_disclosure',
    title: 'Record that you were disclosed to a person',
    description:
      'Record that a flow of your organisation told a person you (this agent) were acting: a disclosure receipt (a ' +
      'notice record). It is an action under your grant: scope disclosures:write, action write, checked against every ' +
      'bound like check_authority (escalated: nothing is recorded until approved). The flow must declare you.',
    input: z.strictObject({
      flow_id: createDisclosureReceiptRequest.shape.flow_id,
      disclosed_at: createDisclosureReceiptRequest.shape.disclosed_at,
      locale: createDisclosureReceiptRequest.shape.locale,
      jurisdiction: authorityCheckRequest.shape.jurisdiction,
    }),
    describe: {
      flow_id: 'The flow (flw_…) that disclosed you; its version in force at disclosed_at must declare you in config.agents.',
      disclosed_at: 'When the person was told (ISO 8601 with offset): never in the future, never before your registration.',
      locale: "The language the disclosure was shown in (BCP 47), default the flow's.",
      jurisdiction: actionArguments.jurisdiction,
    },
    output: z.object({ authority_check: authorityCheck, disclosure_receipt: z.optional(disclosureReceipt), retry_after_seconds: pollHint }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run(ctx, agent, args) {
      // One transaction: a disclosure the rules refuse leaves no exercise behind, and an exercise no disclosure.
      return transaction(ctx.db, () => {
        const { jurisdiction, ...disclosure } = args;
        // A disclosure moves no money; under a value bound it says so.
        const valueBound = findGrant(ctx, agent.grantId)?.bounds.value;
        const { status, check } = checkAuthority(ctx, agent, {
          scope: 'disclosures:write',
          action: 'write',
          description: `Record that flow ${args.flow_id} disclosed this agent`,
          ...(jurisdiction ? { jurisdiction } : {}),
          ...(valueBound ? { value: 0, currency: valueBound.currency } : {}),
        });
        if (status === 202) return { authority_check: check, retry_after_seconds: ESCALATION_POLL_SECONDS };
        const receipt = createDisclosureReceipt(ctx, agent.accountId, { ...disclosure, agent_id: agent.agentId });
        return { authority_check: check, disclosure_receipt: receipt };
      });
    },
  }),
  tool({
    name: 'whoami',
    title: 'Who you are acting as',
    description:
      "You (the agent identity), the delegation grant you act under, your principal's id and when your token expires: GET /api/v1/me's answer.",
    input: z.strictObject({}),
    describe: {},
    output: agentMeSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: (ctx, agent) => agentMe(ctx, agent),
  }),
];

/** The tool names, as the configuration document lists them. */
export const agentToolNames = (): string[] => agentTools.map((t) => t.name);
