// The built-in policy template catalogue: static, the same in every cell. Each template's `config` schema is the
// zod schema in `@svc/client/schemas` (`policyTemplateConfigs`); the catalogue publishes it as JSON Schema.
import { DEAL_TEMPLATE_IDS, POLICY_TEMPLATE_IDS, policyTemplateConfigs, type PolicyTemplate, type PolicyTemplateId } from '@svc/schemas';
import { z } from 'zod/mini';

/** The version every template has today; a policy records the version it was made from. */
export const TEMPLATE_VERSION = 1;

const about: Record<PolicyTemplateId, { name: string; description: string }> = {
  data_license: {
    name: 'Data license',
    description:
      'Licenses data categories for named purposes, optionally for a number of accesses or days; a deal policy, negotiated with data offers.',
  },
  data_offer: {
    name: 'Data offer',
    description:
      'Offers data categories to an organisation, optionally for a price and a duration; a deal policy, negotiated with data offers.',
  },
  bounty: {
    name: 'Bounty',
    description: 'A reward for data categories, claimable a number of times; a deal policy.',
  },
  broadcast: {
    name: 'Broadcast',
    description: 'Makes data categories available to an audience with a message; a deal policy.',
  },
  retention: {
    name: 'Retention',
    description: 'How long data categories are kept, and whether they are deleted or anonymised afterwards.',
  },
  portability: {
    name: 'Portability',
    description: 'Which data categories may be moved between applications and in which formats; portability transfers name it.',
  },
};

function configSchema(id: PolicyTemplateId): Record<string, unknown> {
  const { $schema: _s, ...rest } = z.toJSONSchema(policyTemplateConfigs[id], {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return rest;
}

/** Every template, in catalogue order (built once). */
export const POLICY_TEMPLATES: readonly PolicyTemplate[] = POLICY_TEMPLATE_IDS.map((id) => ({
  id,
  ...about[id],
  version: TEMPLATE_VERSION,
  deal: DEAL_TEMPLATE_IDS.includes(id),
  config_schema: configSchema(id),
}));

/** The template `id`, or undefined. */
export function findTemplate(id: string): PolicyTemplate | undefined {
  return POLICY_TEMPLATES.find((t) => t.id === id);
}
