// Test support for the record, receipt, audit and webhook suites (excluded from the published files by `*.test.*`).
import type { SvcClient } from '../lib/client.js';

/** A capturable flow (no verification step, a one-year term): one purpose of each kind. */
export async function createRecordFlow(svc: SvcClient, title = 'Shop signup'): Promise<string> {
  const flow = await svc.flows.create({
    pattern: 'standard',
    title,
    description: 'Signing up to the shop.',
    config: {
      locale: 'en',
      policy_url: 'https://shop.example/privacy',
      consent_duration: 'P1Y',
      purposes: [
        {
          key: 'newsletter',
          label: 'Email newsletter',
          description: 'A monthly email about offers.',
          basis: 'consent',
          mechanism: 'explicit',
        },
        {
          key: 'research',
          label: 'Research panel',
          description: 'Invitations to take part in studies.',
          basis: 'consent',
          mechanism: 'informed',
        },
        {
          key: 'analytics',
          label: 'Product analytics',
          description: 'Measuring use. You may object.',
          basis: 'legitimate_interest',
          mechanism: 'opt_out',
        },
        { key: 'service', label: 'Providing the service', basis: 'contract', mechanism: 'notice', required: true },
      ],
      steps: [
        { type: 'disclosure', title: 'Before you decide', body: 'How we use your data, in plain words.' },
        { type: 'review', title: 'Decide' },
      ],
    },
  });
  await svc.flows.activate(flow.id);
  return flow.id;
}

/** Decisions every purpose accepts: both consents granted, analytics not objected to. */
export const grantAll = {
  newsletter: { decision: 'granted' },
  research: { decision: 'granted' },
  analytics: { decision: 'granted' },
} as const;

let people = 0;
/** A fresh email address per call. */
export const freshEmail = (prefix = 'person'): string => `${prefix}-${++people}-${process.pid}@example.com`;
