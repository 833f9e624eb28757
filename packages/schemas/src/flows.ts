import { z } from 'zod/mini';
import { dateTime, listOf } from './common.js';

/** Lawful basis of a purpose. */
export const purposeBasis = z.enum(['consent', 'legitimate_interest', 'contract', 'legal_obligation']);
export type PurposeBasis = z.infer<typeof purposeBasis>;

/** How a purpose is asked: explicit or informed consent, an opt-out (right to object), or notice only. */
export const purposeMechanism = z.enum(['explicit', 'informed', 'opt_out', 'notice']);
export type PurposeMechanism = z.infer<typeof purposeMechanism>;

// Which mechanisms each basis admits: consent is always asked, a contract or legal obligation is only noticed,
// and a legitimate interest is noticed with or without a right to object.
const mechanismsByBasis: Record<PurposeBasis, readonly PurposeMechanism[]> = {
  consent: ['explicit', 'informed'],
  legitimate_interest: ['opt_out', 'notice'],
  contract: ['notice'],
  legal_obligation: ['notice'],
};

const text = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));

/** One purpose of a flow; `key` is what captures and records name it by. */
export const flowPurpose = z.strictObject({
  key: z.string().check(z.regex(/^[a-z][a-z0-9_]{0,63}$/, 'key must be 1-64 characters of a-z, 0-9 and _, starting with a letter')),
  label: text(200),
  description: z.optional(z.string().check(z.maxLength(2000))),
  basis: purposeBasis,
  mechanism: purposeMechanism,
  required: z._default(z.boolean(), false),
});
export type FlowPurpose = z.infer<typeof flowPurpose>;

/**
 * One step of a hosted flow. The standard path is `sign_in` (authenticating), `verify` (verifying), `review`
 * (reviewing); the informed-consent path is `disclosure` (informed) then `comprehension_check` (evidenced).
 */
export const flowStep = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('sign_in'), method: z._default(z.enum(['email']), 'email'), title: z.optional(text(200)) }),
  z.strictObject({ type: z.literal('verify'), title: z.optional(text(200)) }),
  z.strictObject({ type: z.literal('review'), title: z.optional(text(200)) }),
  z.strictObject({ type: z.literal('disclosure'), title: text(200), body: text(20000) }),
  z
    .strictObject({
      type: z.literal('comprehension_check'),
      question: text(500),
      choices: z.array(text(200)).check(z.minLength(2), z.maxLength(10)),
      /** Zero-based index of the right choice. */
      answer: z.int().check(z.gte(0), z.lte(9)),
    })
    .check(z.refine((s) => s.answer < s.choices.length, { message: 'answer must index one of the choices', path: ['answer'] })),
]);
export type FlowStep = z.infer<typeof flowStep>;

/** An agent a flow discloses, and what it does in the flow (shown to auditors on the receipts). */
export const disclosedAgent = z.strictObject({
  agent_id: z.string().check(z.regex(/^agt_[a-z]+_[A-Za-z0-9]{1,40}$/, 'must be an agent identity id (agt_...)')),
  role: z.optional(text(500)),
});
export type DisclosedAgent = z.infer<typeof disclosedAgent>;

// z.iso.duration() accepts "P0D"; a consent that lasts no time at all is a mistake, so one field must be non-zero.
const isoDuration = z.iso.duration().check(z.refine((d) => /[1-9]/.test(d), 'consent_duration must be longer than zero'));

/** A flow's terms: presentation, purposes, consent duration and the hosted step sequence. */
export const flowConfig = z.strictObject({
  /** BCP 47 language tag of the wording, e.g. `en` or `pt-BR`. */
  locale: z._default(z.string().check(z.regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8}){0,3}$/, 'locale must be a BCP 47 language tag')), 'en'),
  policy_url: z.optional(z.url({ protocol: /^https?$/ }).check(z.maxLength(2000))),
  /** ISO 8601 duration a consent lasts, e.g. `P1Y`; a flow without one is not capturable. */
  consent_duration: z.optional(isoDuration),
  purposes: z.array(flowPurpose).check(
    z.maxLength(50),
    z.superRefine((purposes, ctx) => {
      const seen = new Set<string>();
      purposes.forEach((p, i) => {
        if (seen.has(p.key))
          ctx.issues.push({ code: 'custom', message: `duplicate purpose key "${p.key}"`, input: p.key, path: [i, 'key'] });
        seen.add(p.key);
        const allowed = mechanismsByBasis[p.basis] ?? [];
        if (!allowed.includes(p.mechanism)) {
          ctx.issues.push({
            code: 'custom',
            message: `mechanism "${p.mechanism}" does not fit basis "${p.basis}" (allowed: ${allowed.join(', ')})`,
            input: p.mechanism,
            path: [i, 'mechanism'],
          });
        }
      });
    }),
  ),
  steps: z._default(z.array(flowStep).check(z.maxLength(20)), []),
  /**
   * The software agents this flow discloses to people (agent identities of the account), versioned with the rest of
   * the terms: consent and notice records made under a version that declares agents carry `agent_disclosures`.
   */
  agents: z.optional(
    z.array(disclosedAgent).check(
      z.maxLength(20),
      z.refine((agents) => new Set(agents.map((a) => a.agent_id)).size === agents.length, 'an agent is declared once'),
    ),
  ),
});
export type FlowConfig = z.infer<typeof flowConfig>;
export type FlowConfigInput = z.input<typeof flowConfig>;

/** `POST /api/v1/flows`: CreateFlowRequest, with our optional `application_id` (defaults to the account's first). */
export const createFlowRequest = z.strictObject({
  flow: z.strictObject({
    pattern: z
      .string()
      .check(z.regex(/^[a-z][a-z0-9_]{0,39}$/, 'pattern must be a short lower-case word such as standard, recurring or broadcast')),
    title: text(200),
    description: z.optional(z.nullable(z.string().check(z.maxLength(2000)))),
    config: z.optional(flowConfig),
    application_id: z.optional(z.string().check(z.maxLength(64))),
  }),
});
export type CreateFlowRequest = z.input<typeof createFlowRequest>;

/** `POST /api/v1/flows/{id}/versions` (and `PATCH /api/v1/flows/{id}`): the terms to change; `config` replaces the whole config. */
export const updateFlowRequest = z.strictObject({
  flow: z.strictObject({
    title: z.optional(text(200)),
    description: z.optional(z.nullable(z.string().check(z.maxLength(2000)))),
    config: z.optional(flowConfig),
  }),
});
export type UpdateFlowRequest = z.input<typeof updateFlowRequest>;

/** Flow states: a draft can change freely; an active flow's terms are frozen per version. */
export const flowStatus = z.enum(['draft', 'active']);

/** A flow as the API returns it: the newest version's terms plus its lifecycle. */
export const flow = z.object({
  id: z.string(),
  application_id: z.string(),
  pattern: z.string(),
  status: flowStatus,
  /** Newest version number (1 for a new flow). */
  version: z.int(),
  /** Version governing new consents; null while the flow is a draft. */
  active_version: z.nullable(z.int()),
  title: z.string(),
  description: z.nullable(z.string()),
  config: flowConfig,
  created_at: dateTime(),
  updated_at: dateTime(),
  activated_at: z.nullable(dateTime()),
});
export type Flow = z.infer<typeof flow>;

/** One version of a flow's terms; an activated version never changes. */
export const flowVersion = z.object({
  flow_id: z.string(),
  version: z.int(),
  status: z.enum(['draft', 'active', 'superseded']),
  title: z.string(),
  description: z.nullable(z.string()),
  config: flowConfig,
  created_at: dateTime(),
  activated_at: z.nullable(dateTime()),
  superseded_at: z.nullable(dateTime()),
});
export type FlowVersion = z.infer<typeof flowVersion>;

/** `{flow}` envelope. */
export const flowEnvelope = z.object({ flow });
/** `{flows: [...], next_cursor}`. */
export const flowList = listOf('flows', flow);
/** `{flow_version}` envelope. */
export const flowVersionEnvelope = z.object({ flow_version: flowVersion });
/** `{flow_versions: [...], next_cursor}`. */
export const flowVersionList = listOf('flow_versions', flowVersion);
