// <svc-decision> in every state. The element is the real one; the hosted decision page it embeds is the
// story-local page (stories/frames/), served by Storybook at `{storybook}/svc/decisions/{token}`, which posts real
// protocol v2 messages, so the element behaves exactly as it does against the service. The token names the state.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html, nothing } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import '@svc/elements';
import type { SvcDecision } from '@svc/elements';
import { type FrameStateName, tokenOf } from './frames/states.js';
import { storyService } from './support/service.js';
import './support/event-log.js';

interface Args {
  token: string;
  mode: 'embed' | 'popup' | 'redirect';
  label?: string;
  'trust-url'?: string;
  '--svc-decision-accent'?: string;
  '--svc-decision-radius'?: string;
  '--svc-decision-border'?: string;
  '--svc-decision-min-height'?: string;
}

const CSS_ARGS = ['--svc-decision-accent', '--svc-decision-radius', '--svc-decision-border', '--svc-decision-min-height'] as const;

const meta: Meta<Args> = {
  title: 'Elements/svc-decision',
  component: 'svc-decision',
  args: { mode: 'embed' },
  argTypes: {
    token: { control: 'text', description: 'Decision session token; `dts_story_<state>` opens a story-local page state.' },
    mode: { control: 'inline-radio', options: ['embed', 'popup', 'redirect'] },
    label: { control: 'text' },
    'trust-url': { control: 'text', description: 'Defaults to the story-local service `{storybook}/svc`.' },
    '--svc-decision-accent': { control: 'color', table: { category: 'CSS custom properties' } },
    '--svc-decision-radius': { control: 'text', table: { category: 'CSS custom properties' } },
    '--svc-decision-border': { control: 'text', table: { category: 'CSS custom properties' } },
    '--svc-decision-min-height': { control: 'text', table: { category: 'CSS custom properties' } },
  },
  render: (args) => {
    const style = CSS_ARGS.filter((k) => args[k])
      .map((k) => `${k}: ${args[k]}`)
      .join('; ');
    return html`<div class="story">
      <svc-decision token=${args.token} mode=${args.mode} trust-url=${args['trust-url'] || storyService()}
        label=${ifDefined(args.label || undefined)} style=${style || nothing}></svc-decision>
      <story-event-log></story-event-log>
    </div>`;
  },
  parameters: {
    docs: {
      description: {
        component:
          'Runs against the story-local decision page (a stand-in for the hosted page that posts real protocol v2 messages). ' +
          'Each story opens one state of it through its token `dts_story_<state>`.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<Args>;

const state = (name: FrameStateName, extra: Partial<Story> = {}): Story => ({ args: { token: tokenOf(name) }, ...extra });

/** The element inside its shadow root, and the story-local page's document once it loaded (same origin). */
async function frameDocument(canvas: HTMLElement): Promise<Document> {
  const element = canvas.querySelector<SvcDecision>('svc-decision')!;
  await element.updateComplete;
  const frame = element.shadowRoot!.querySelector('iframe')!;
  for (let i = 0; i < 100; i += 1) {
    const doc = frame.contentDocument;
    if (doc?.querySelector('main button')) return doc;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the story-local decision page did not render');
}

async function click(canvas: HTMLElement, name: string): Promise<void> {
  const doc = await frameDocument(canvas);
  const button = Array.from(doc.querySelectorAll('button')).find((b) => b.textContent === name);
  if (!button) throw new Error(`no ${name} button in the decision page`);
  button.click();
}

/** Until the hosted page says `svc:ready`: the loading view over the iframe. This page never does, so after 8 s the element gives up (`frame_unavailable`) and shows its error view. */
export const Loading = state('loading');

/** Consent, step 1 of 3: who asks. The page posts `svc:ready`, then `svc:state` at each step. */
export const ConsentStep1 = state('consent_step_1', { name: 'Consent: step 1 (about)' });
/** Consent, step 2 of 3: the purposes. */
export const ConsentStep2 = state('consent_step_2', { name: 'Consent: step 2 (purposes)' });
/** Consent, step 3 of 3: agree or decline, which posts `svc:complete`. */
export const ConsentStep3 = state('consent_step_3', { name: 'Consent: step 3 (decision)' });

/** Informed consent, step 1 of 4: the information. */
export const InformedStep1 = state('informed_step_1', { name: 'Informed consent: step 1 (information)' });
/** Informed consent, step 2 of 4: confirm having read it. */
export const InformedStep2 = state('informed_step_2', { name: 'Informed consent: step 2 (read)' });
/** Informed consent, step 3 of 4: a question checking understanding. */
export const InformedStep3 = state('informed_step_3', { name: 'Informed consent: step 3 (understanding)' });
/** Informed consent, step 4 of 4: the decision. */
export const InformedStep4 = state('informed_step_4', { name: 'Informed consent: step 4 (decision)' });

/** An approval waiting for approve, deny or counter. */
export const Approval = state('approval');
/** The approver approved: `svc-complete` with `outcome: 'approved'` (clicked in the page by the story). */
export const ApprovalApproved = state('approval', {
  name: 'Approval: approve',
  play: async ({ canvasElement }) => click(canvasElement, 'Approve'),
});
/** The approver denied: `svc-complete` with `outcome: 'denied'`. */
export const ApprovalDenied = state('approval', {
  name: 'Approval: deny',
  play: async ({ canvasElement }) => click(canvasElement, 'Deny'),
});
/** The approver made a counter-offer: `svc:state` to `countering`, then `svc-complete` with `outcome: 'countered'`. */
export const ApprovalCountered = state('approval', {
  name: 'Approval: counter',
  play: async ({ canvasElement }) => {
    await click(canvasElement, 'Counter');
    await click(canvasElement, 'Send counter-offer');
  },
});

/** A signature request (kind `signature_request`) waiting for sign, decline or a proposed change. */
export const SignatureRequest = state('signature', { name: 'Signature request' });
/** The party signed: `svc-complete` with `kind: 'signature_request'` and `outcome: 'signed'`. */
export const SignatureSigned = state('signature', {
  name: 'Signature request: sign',
  play: async ({ canvasElement }) => click(canvasElement, 'Sign'),
});
/** The party declined to sign: `svc-complete` with `outcome: 'declined'`. */
export const SignatureDeclined = state('signature', {
  name: 'Signature request: decline',
  play: async ({ canvasElement }) => click(canvasElement, 'Decline'),
});
/** The party proposed a change: `svc:state` to `countering`, then `svc-complete` with `outcome: 'countered'`. */
export const SignatureCountered = state('signature', {
  name: 'Signature request: propose a change',
  play: async ({ canvasElement }) => {
    await click(canvasElement, 'Propose a change');
    await click(canvasElement, 'Send counter-proposal');
  },
});

/** 28 seconds before the deadline: `svc-deadline` warnings at T-30 s (at once), T-15 s and T-5 s, then expiry. */
export const DeadlineWarning = state('deadline_warning', { name: 'Deadline warning' });
/** The deadline passes 3 seconds in: `svc-deadline` `expired` and the element's expired view. */
export const Expired = state('expired');
/** The person agreed: `svc-complete` with `outcome: 'granted'` and an exchange token for the server. */
export const Completed = state('completed');
/** The hosted page reports a fatal `svc:error`; the element re-dispatches it as `svc-error`. */
export const ErrorFromPage = state('error', { name: 'Error: from the page' });
/** A token that is not a `dts_` session token: the element's own error view, without loading anything. */
export const ErrorInvalidToken: Story = { name: 'Error: invalid token', args: { token: 'not-a-session-token' } };

/** Popup mode: a button that opens the hosted page in a centred window. */
export const Popup = state('popup', { args: { token: tokenOf('popup'), mode: 'popup' } });
/** Redirect mode: a button that navigates to the hosted page. */
export const Redirect = state('popup', { args: { token: tokenOf('popup'), mode: 'redirect' } });

/**
 * The browser blocked the popup: the element fires `svc-error` (`popup_blocked`) and shows a link that opens the
 * page. The story stands in for the browser's popup blocker (`window.open` returns null while it runs).
 */
export const PopupBlocked: Story = {
  name: 'Popup blocked',
  args: { token: tokenOf('popup'), mode: 'popup' },
  play: async ({ canvasElement }) => {
    const element = canvasElement.querySelector<SvcDecision>('svc-decision')!;
    await element.updateComplete;
    const open = window.open;
    window.open = () => null;
    try {
      element.shadowRoot!.querySelector<HTMLButtonElement>('button[part="button"]')!.click();
    } finally {
      window.open = open;
    }
    await element.updateComplete;
  },
};

/** Styled through its CSS custom properties. */
export const Themed = state('consent_step_1', {
  args: {
    token: tokenOf('consent_step_1'),
    '--svc-decision-accent': '#6d28d9',
    '--svc-decision-radius': '12px',
    '--svc-decision-border': '2px solid #6d28d9',
    '--svc-decision-min-height': '360px',
  },
});
