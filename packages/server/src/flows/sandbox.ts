// The sandbox's demo flows: one for the standard path, one for the informed-consent path.
import { flowConfig, type FlowConfigInput } from '@svc/client/schemas';
import type { ServerContext } from '../lib/context.js';
import type { SandboxSeeder } from '../sandbox.js';
import { activateFlow, createFlow } from './store.js';

/** `settings` key holding the id of the sandbox's informed-consent demo flow. */
export const INFORMED_FLOW_SETTING = 'sandbox_informed_flow_id';

const policyUrl = 'https://example.com/privacy';

/** Standard path: sign in, verify, review; one purpose of each kind. */
export const demoFlowConfig: FlowConfigInput = {
  locale: 'en',
  policy_url: policyUrl,
  consent_duration: 'P1Y',
  purposes: [
    { key: 'newsletter', label: 'Email newsletter', description: 'A monthly email about new features and offers.', basis: 'consent', mechanism: 'explicit', required: false },
    { key: 'analytics', label: 'Product analytics', description: 'Measuring how the product is used so we can improve it. You may object.', basis: 'legitimate_interest', mechanism: 'opt_out', required: false },
    { key: 'service', label: 'Providing the service', description: 'Processing your account data to provide what you signed up for.', basis: 'contract', mechanism: 'notice', required: true },
    { key: 'invoices', label: 'Keeping invoices', description: 'Tax law requires us to keep invoices for ten years.', basis: 'legal_obligation', mechanism: 'notice', required: true },
  ],
  steps: [
    { type: 'sign_in', method: 'email', title: 'Sign in with your email' },
    { type: 'verify', title: 'Confirming it is you' },
    { type: 'review', title: 'Review and decide' },
  ],
};

/** Informed-consent path: a disclosure, then a comprehension check, then completion. */
export const informedFlowConfig: FlowConfigInput = {
  locale: 'en',
  policy_url: policyUrl,
  consent_duration: 'P1Y',
  purposes: [
    { key: 'research', label: 'Taking part in the research study', description: 'Your answers are used in a six-month study on sleep habits.', basis: 'consent', mechanism: 'informed', required: false },
    { key: 'study_administration', label: 'Running the study', description: 'Contacting you about appointments.', basis: 'contract', mechanism: 'notice', required: true },
  ],
  steps: [
    {
      type: 'disclosure',
      title: 'About the study',
      body: 'The study lasts six months. Your answers are stored pseudonymised and deleted when it ends. You can withdraw at any time without giving a reason.',
    },
    {
      type: 'comprehension_check',
      question: 'Can you withdraw from the study later?',
      choices: ['Yes, at any time', 'No, never', 'Only with a reason'],
      answer: 0,
    },
  ],
};

/** Seeds both demo flows, active, in the sandbox application; `sandbox.json` gets `flow_id` and `informed_flow_id`. */
export const demoFlowSeeder: SandboxSeeder = (ctx, { accountId, applicationId }) => {
  const seed = (pattern: string, title: string, description: string, config: FlowConfigInput) => {
    const created = createFlow(ctx, { accountId, applicationId, pattern, title, description, config: flowConfig.parse(config) });
    activateFlow(ctx, accountId, created.id);
    return created.id;
  };
  const flowId = seed('standard', 'Demo: newsletter and analytics', 'The sandbox demo flow: one purpose of each kind.', demoFlowConfig);
  const informedId = seed('informed', 'Demo: research study', 'The sandbox informed-consent flow with a comprehension check.', informedFlowConfig);
  ctx.db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)').run(INFORMED_FLOW_SETTING, informedId);
  return { flow_id: flowId, informed_flow_id: informedId };
};

/** The id of the sandbox's informed-consent demo flow, or undefined before the sandbox is seeded. */
export function sandboxInformedFlowId(ctx: ServerContext): string | undefined {
  return ctx.db.prepare('SELECT value FROM settings WHERE key = ?').pluck().get(INFORMED_FLOW_SETTING) as string | undefined;
}
