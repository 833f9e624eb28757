// The sandbox's demo flows: one for the standard path, one for the informed-consent path, and a capturable one for
// consent taken in the organisation's own form (the consent field and the snippet).
import { flowConfig, type FlowConfigInput } from '@svc/schemas';
import type { ServerContext } from '../../infra/context.js';
import type { SandboxSeeded, SandboxSeeder } from '../account/sandbox.js';
import { activateFlow, createFlow, getFlow } from './store.js';

/** `settings` key holding the id of the sandbox's informed-consent demo flow. */
export const INFORMED_FLOW_SETTING = 'sandbox_informed_flow_id';
/** `settings` key holding the id of the sandbox's capturable demo flow. */
export const CAPTURE_FLOW_SETTING = 'sandbox_capture_flow_id';

const policyUrl = 'https://example.com/privacy';

/** Standard path: sign in, verify, review; one purpose of each kind. */
export const demoFlowConfig: FlowConfigInput = {
  locale: 'en',
  policy_url: policyUrl,
  consent_duration: 'P1Y',
  purposes: [
    {
      key: 'newsletter',
      label: 'Email newsletter',
      description: 'A monthly email about new features and offers.',
      basis: 'consent',
      mechanism: 'explicit',
      required: false,
    },
    {
      key: 'analytics',
      label: 'Product analytics',
      description: 'Measuring how the product is used so we can improve it. You may object.',
      basis: 'legitimate_interest',
      mechanism: 'opt_out',
      required: false,
    },
    {
      key: 'service',
      label: 'Providing the service',
      description: 'Processing your account data to provide what you signed up for.',
      basis: 'contract',
      mechanism: 'notice',
      required: true,
    },
    {
      key: 'invoices',
      label: 'Keeping invoices',
      description: 'Tax law requires us to keep invoices for ten years.',
      basis: 'legal_obligation',
      mechanism: 'notice',
      required: true,
    },
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
    {
      key: 'research',
      label: 'Taking part in the research study',
      description: 'Your answers are used in a six-month study on sleep habits.',
      basis: 'consent',
      mechanism: 'informed',
      required: false,
    },
    {
      key: 'study_administration',
      label: 'Running the study',
      description: 'Contacting you about appointments.',
      basis: 'contract',
      mechanism: 'notice',
      required: true,
    },
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

/**
 * Capturable (spec: "its consent needs just a decision ... and it declares a consent duration"): a single review
 * step, no sign-in or verification, and one purpose of each kind a form asks: a consent, a legitimate interest the
 * person may object to, and a contract purpose that is only noticed. The records service, the consent field and
 * the snippet accept it.
 */
export const captureFlowConfig: FlowConfigInput = {
  locale: 'en',
  policy_url: policyUrl,
  consent_duration: 'P1Y',
  purposes: [
    {
      key: 'newsletter',
      label: 'Email newsletter',
      description: 'A monthly email about new features and offers.',
      basis: 'consent',
      mechanism: 'explicit',
      required: false,
    },
    {
      key: 'analytics',
      label: 'Product analytics',
      description: 'Measuring how the product is used so we can improve it. You may object.',
      basis: 'legitimate_interest',
      mechanism: 'opt_out',
      required: false,
    },
    {
      key: 'service',
      label: 'Providing the service',
      description: 'Processing your account data to provide what you signed up for.',
      basis: 'contract',
      mechanism: 'notice',
      required: true,
    },
  ],
  steps: [{ type: 'review', title: 'Your choices' }],
};

function seedFlow(
  ctx: ServerContext,
  { accountId, applicationId }: SandboxSeeded,
  pattern: string,
  title: string,
  description: string,
  config: FlowConfigInput,
): string {
  const created = createFlow(ctx, { accountId, applicationId, pattern, title, description, config: flowConfig.parse(config) });
  activateFlow(ctx, accountId, created.id);
  return created.id;
}

function setting(ctx: ServerContext, key: string): string | undefined {
  return ctx.db.prepare('SELECT value FROM settings WHERE key = ?').pluck().get(key) as string | undefined;
}

/**
 * The sandbox's capturable demo flow: the one already seeded (when its flow still exists), else a new one, active,
 * remembered in `settings`. Idempotent, so it serves the first start and every later one.
 */
export function ensureCaptureFlow(ctx: ServerContext, seeded: SandboxSeeded): string {
  const known = setting(ctx, CAPTURE_FLOW_SETTING);
  if (known && getFlow(ctx, seeded.accountId, known)) return known;
  const id = seedFlow(
    ctx,
    seeded,
    'standard',
    'Demo: signup form consent',
    "The sandbox's capturable flow, for consent taken in your own form (consent field, snippet, Record API).",
    captureFlowConfig,
  );
  ctx.db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)').run(CAPTURE_FLOW_SETTING, id);
  return id;
}

/**
 * Seeds the demo flows, active, in the sandbox application; `sandbox.json` gets `flow_id`, `informed_flow_id` and
 * `capture_flow_id`. A data directory seeded before the capturable flow existed gains it on its next start.
 */
export const demoFlowSeeder: SandboxSeeder = Object.assign(
  (ctx: ServerContext, seeded: SandboxSeeded) => {
    const flowId = seedFlow(
      ctx,
      seeded,
      'standard',
      'Demo: newsletter and analytics',
      'The sandbox demo flow: one purpose of each kind.',
      demoFlowConfig,
    );
    const informedId = seedFlow(
      ctx,
      seeded,
      'informed',
      'Demo: research study',
      'The sandbox informed-consent flow with a comprehension check.',
      informedFlowConfig,
    );
    ctx.db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)').run(INFORMED_FLOW_SETTING, informedId);
    return { flow_id: flowId, informed_flow_id: informedId, capture_flow_id: ensureCaptureFlow(ctx, seeded) };
  },
  {
    ensure: (ctx: ServerContext, seeded: SandboxSeeded) => ({ capture_flow_id: ensureCaptureFlow(ctx, seeded) }),
  },
);

/** The id of the sandbox's informed-consent demo flow, or undefined before the sandbox is seeded. */
export function sandboxInformedFlowId(ctx: ServerContext): string | undefined {
  return setting(ctx, INFORMED_FLOW_SETTING);
}

/** The id of the sandbox's capturable demo flow, or undefined before the sandbox is seeded. */
export function sandboxCaptureFlowId(ctx: ServerContext): string | undefined {
  return setting(ctx, CAPTURE_FLOW_SETTING);
}
