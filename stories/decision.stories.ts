// <svc-decision> in every state. The element is the real one, and so is the hosted decision page it embeds: the
// service's `<svc-decision-page>` (packages/server), served by Storybook at `{storybook}/svc/decisions/{token}` with
// the state's page data (stories/frames/states.ts); only its participant API is a story-local stand-in
// (stories/frames/participant-api.ts). The token names the state; the stories that answer click in the real page.
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
    token: { control: 'text', description: 'Decision session token; `dts_story_<state>` opens the hosted page in that state.' },
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
          "Embeds the service's real hosted decision page (`<svc-decision-page>`), served by Storybook with each state's page data; " +
          'only its participant API is a story-local stand-in. Each story opens one state through its token `dts_story_<state>`.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<Args>;

const state = (name: FrameStateName, extra: Partial<Story> = {}): Story => ({ args: { token: tokenOf(name) }, ...extra });

/** Waits for `find` to return something, polling the page (the hosted page renders after each answer). */
async function until<T>(find: () => T | null | undefined, what: string): Promise<T> {
  for (let i = 0; i < 100; i += 1) {
    const found = find();
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the hosted decision page never showed ${what}`);
}

/** The hosted page's `<svc-decision-page>` shadow root inside the element's iframe (same origin). */
async function hostedPage(canvas: HTMLElement): Promise<ShadowRoot> {
  const element = canvas.querySelector<SvcDecision>('svc-decision')!;
  await element.updateComplete;
  const frame = element.shadowRoot!.querySelector('iframe')!;
  return until(() => frame.contentDocument?.querySelector('svc-decision-page')?.shadowRoot, 'its page');
}

/** Clicks the page's enabled button named `name`, once it shows. */
async function click(canvas: HTMLElement, name: string): Promise<void> {
  const page = await hostedPage(canvas);
  const button = await until(
    () => Array.from(page.querySelectorAll('button')).find((b) => b.textContent?.trim() === name && !b.disabled),
    `a ${name} button`,
  );
  button.click();
}

/** Types `value` into the page's field `name`, once it shows. */
async function fill(canvas: HTMLElement, name: string, value: string): Promise<void> {
  const page = await hostedPage(canvas);
  const field = await until(() => page.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[name="${name}"]`), `the ${name} field`);
  field.value = value;
}

/** Ticks the page's checkbox `name`. */
async function tick(canvas: HTMLElement, name: string): Promise<void> {
  const page = await hostedPage(canvas);
  (await until(() => page.querySelector<HTMLInputElement>(`input[name="${name}"]`), `the ${name} box`)).click();
}

/** The signing session up to its last screen: Continue (a code is sent; the sandbox shows it), the code, Verify. */
async function signIn(canvas: HTMLElement): Promise<void> {
  await click(canvas, 'Continue');
  const page = await hostedPage(canvas);
  const code = await until(() => page.querySelector('.sandbox code')?.textContent, 'the sandbox code');
  await fill(canvas, 'code', code);
  await click(canvas, 'Verify');
}

/**
 * Until the hosted page says `svc:ready`: the loading view over the iframe. This page's script never gets to define
 * `<svc-decision-page>`, so after 8 s the element gives up (`frame_unavailable`) and shows its error view.
 */
export const Loading = state('loading');

/** Consent, step 1 of 3: who asks, for what. The page posts `svc:ready`, then `svc:state` at each step. */
export const ConsentStep1 = state('consent_step_1', { name: 'Consent: step 1 (about)' });
/** Consent, step 2 of 3: what the person agrees to. */
export const ConsentStep2 = state('consent_step_2', { name: 'Consent: step 2 (purposes)' });
/** Consent, step 3 of 3: tick what you agree to, then agree or decline, which posts `svc:complete`. */
export const ConsentStep3 = state('consent_step_3', { name: 'Consent: step 3 (decision)' });

/** Informed consent, step 1 of 4: the information. */
export const InformedStep1 = state('informed_step_1', { name: 'Informed consent: step 1 (information)' });
/** Informed consent, step 2 of 4: a disclosure to confirm having read. */
export const InformedStep2 = state('informed_step_2', { name: 'Informed consent: step 2 (read)' });
/** Informed consent, step 3 of 4: a question checking understanding (the right answer is the first). */
export const InformedStep3 = state('informed_step_3', { name: 'Informed consent: step 3 (understanding)' });
/** Informed consent, step 4 of 4: the decision (status `evidenced`: the check was passed). */
export const InformedStep4 = state('informed_step_4', { name: 'Informed consent: step 4 (decision)' });

/** An agent's approval waiting for approve, deny or a counter-proposal. */
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
/** The approver made a counter-proposal: `svc-complete` with `outcome: 'countered'`. */
export const ApprovalCountered = state('approval', {
  name: 'Approval: counter',
  play: async ({ canvasElement }) => {
    await click(canvasElement, 'Counter…');
    await fill(canvasElement, 'proposal', 'Book the train instead: 90 EUR.');
    await click(canvasElement, 'Send counter-proposal');
  },
});

/** A signature request (kind `signature_request`): the document, a code sent to the party, then sign, decline or counter. */
export const SignatureRequest = state('signature', { name: 'Signature request' });
/** The party signed: `svc-complete` with `kind: 'signature_request'` and `outcome: 'signed'`. */
export const SignatureSigned = state('signature', {
  name: 'Signature request: sign',
  play: async ({ canvasElement }) => {
    await signIn(canvasElement);
    await fill(canvasElement, 'signed_name', 'Sam Taylor');
    await click(canvasElement, 'Sign');
  },
});
/** The party declined to sign: `svc-complete` with `outcome: 'declined'`. */
export const SignatureDeclined = state('signature', {
  name: 'Signature request: decline',
  play: async ({ canvasElement }) => {
    await signIn(canvasElement);
    await click(canvasElement, 'Decline…');
    await click(canvasElement, 'Decline to sign');
  },
});
/** The party proposed a change: `svc-complete` with `outcome: 'countered'`. */
export const SignatureCountered = state('signature', {
  name: 'Signature request: propose a change',
  play: async ({ canvasElement }) => {
    await signIn(canvasElement);
    await click(canvasElement, 'Counter…');
    await fill(canvasElement, 'proposal', 'Delivery by 28 February 2027.');
    await click(canvasElement, 'Send counter-proposal');
  },
});

/** 33 seconds before the deadline: `svc-deadline` warnings at T-30 s (3 seconds in), T-15 s and T-5 s, then expiry. */
export const DeadlineWarning = state('deadline_warning', { name: 'Deadline warning' });
/** The deadline passes 3 seconds in: `svc-deadline` `expired` and the element's expired view. */
export const Expired = state('expired');
/** The person ticks what they agree to and agrees: `svc-complete` with `outcome: 'granted'` and an exchange token for the server. */
export const Completed = state('consent_step_3', {
  play: async ({ canvasElement }) => {
    await tick(canvasElement, 'purpose-reminders');
    await click(canvasElement, 'Agree');
  },
});
/**
 * The service fails a step (503 `service_unavailable`): the page shows why and posts `svc:error` (not fatal,
 * recoverable by retrying), which the element re-dispatches as `svc-error`.
 */
export const ErrorFromPage = state('error', {
  name: 'Error: from the page',
  play: async ({ canvasElement }) => click(canvasElement, 'Continue'),
});
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
