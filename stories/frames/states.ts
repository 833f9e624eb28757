// The states the story-local decision page can be put in. The page is a stand-in for the service's hosted decision
// page (`{trust_url}/decisions/{token}/embed` and `{trust_url}/decisions/{token}`): the token names the state, so
// `<svc-decision token="dts_story_consent_step_2" trust-url="{storybook}/svc">` loads it. It posts real protocol v2
// messages through `createFramePort`, so the element behaves exactly as it does against the service.
import type { Kind } from '@svc/protocol';

/** Where the page starts and what it does by itself. */
export interface FrameState {
  kind: Kind;
  /** Which flow of screens the page shows. */
  flow: 'consent' | 'informed' | 'approval' | 'signature';
  /** Zero-based step to open on. */
  step?: number;
  /** Seconds until the decision's deadline (none when absent). */
  deadlineSeconds?: number;
  /** Never posts `svc:ready` (the element stays loading, then reports `frame_unavailable`). */
  quiet?: boolean;
  /** Finishes on its own right after `svc:ready` with this outcome. */
  complete?: 'granted' | 'declined' | 'approved' | 'denied' | 'countered' | 'signed';
  /** Posts this `svc:error` right after `svc:ready` and shows it. */
  error?: { code: string; message: string; fatal: boolean; recoverable_via: string | null };
  /** Branding name the page reports. */
  brand?: string;
}

export const FRAME_STATES = {
  loading: { kind: 'consent', flow: 'consent', quiet: true },
  consent_step_1: { kind: 'consent', flow: 'consent', step: 0 },
  consent_step_2: { kind: 'consent', flow: 'consent', step: 1 },
  consent_step_3: { kind: 'consent', flow: 'consent', step: 2 },
  informed_step_1: { kind: 'consent', flow: 'informed', step: 0 },
  informed_step_2: { kind: 'consent', flow: 'informed', step: 1 },
  informed_step_3: { kind: 'consent', flow: 'informed', step: 2 },
  informed_step_4: { kind: 'consent', flow: 'informed', step: 3 },
  approval: { kind: 'approval', flow: 'approval' },
  approval_approved: { kind: 'approval', flow: 'approval', complete: 'approved' },
  approval_denied: { kind: 'approval', flow: 'approval', complete: 'denied' },
  approval_countered: { kind: 'approval', flow: 'approval', complete: 'countered' },
  signature: { kind: 'signature_request', flow: 'signature' },
  deadline_warning: { kind: 'consent', flow: 'consent', step: 2, deadlineSeconds: 28 },
  expired: { kind: 'consent', flow: 'consent', step: 2, deadlineSeconds: 3 },
  completed: { kind: 'consent', flow: 'consent', complete: 'granted' },
  error: {
    kind: 'consent',
    flow: 'consent',
    step: 0,
    error: { code: 'service_unavailable', message: 'The service could not load this request.', fatal: true, recoverable_via: 'reload' },
  },
  popup: { kind: 'consent', flow: 'consent', step: 0 },
} satisfies Record<string, FrameState>;

export type FrameStateName = keyof typeof FRAME_STATES;

/** The session token that opens `state`. */
export const tokenOf = (state: FrameStateName): string => `dts_story_${state}`;
