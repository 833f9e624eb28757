// <svc-agreements> in every state and view. The element is the real one; the service's answers (`GET
// /api/v1/me/agreements`, `GET /api/v1/me/collaborations` and `POST .../{sign|decline|leave}`) come from a story
// stand-in (the element's `fetch`) that keeps its rows for the story, so signing or leaving in the story updates the
// row and shows `svc-agreements-change` in the log.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html, nothing } from 'lit';
import '@svc/elements';
import type { AgreementRow, AgreementsView, CollaborationRow } from '@svc/elements';
import { storyService } from './support/service.js';
import './support/event-log.js';

type Answer = 'list' | 'empty' | 'loading' | 'unauthorized' | 'error';

interface Args {
  view: AgreementsView;
  answer: Answer;
  signedIn: boolean;
  dir: 'ltr' | 'rtl';
  '--svc-agreements-accent'?: string;
  '--svc-agreements-radius'?: string;
  '--svc-agreements-gap'?: string;
}

const CSS_ARGS = ['--svc-agreements-accent', '--svc-agreements-radius', '--svc-agreements-gap'] as const;
const days = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
const TEXT = 'Data sharing terms\n\n1. You share your step counts with the study.\n2. You may leave at any time.\n';
const SHA = '5d1c0c6f0f4e5b0c3b5c4a1f2e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d';
const org = { id: 'acct_story_lab', name: 'Health lab' };
const app = { id: 'tp_story_lab', name: 'Study app' };

const agreement = (id: string, extra: Partial<AgreementRow>): AgreementRow => ({
  id,
  title: 'Newsletter terms',
  status: 'pending',
  quorum_status: 'open',
  quorum: 1,
  signed_count: 0,
  multi_party: false,
  organisation: org,
  application: app,
  document: { text: TEXT, sha256: SHA },
  you: { party_id: `pty_${id}`, status: 'pending', decided_at: null },
  parties: [{ name: null, status: 'pending', is_you: true }],
  can_sign: true,
  created_at: days(-2),
  activated_at: null,
  expires_at: days(5),
  ...extra,
});

const AGREEMENTS: AgreementRow[] = [
  agreement('agr_story_joint', {
    title: 'Joint study',
    quorum: 2,
    multi_party: true,
    signed_count: 1,
    status: 'partially_signed',
    parties: [
      { name: null, status: 'pending', is_you: true },
      { name: 'Grace Hopper', status: 'signed', is_you: false },
      { name: null, status: 'pending', is_you: false },
    ],
  }),
  agreement('agr_story_solo', {}),
  agreement('agr_story_done', {
    title: 'Loyalty programme',
    status: 'active',
    quorum_status: 'reached',
    signed_count: 1,
    you: { party_id: 'pty_done', status: 'signed', decided_at: days(-30) },
    parties: [{ name: null, status: 'signed', is_you: true }],
    can_sign: false,
    activated_at: days(-30),
  }),
];

const COLLABORATIONS: CollaborationRow[] = [
  {
    id: 'col_story_steps',
    status: 'pending',
    organisation: org,
    application: app,
    terms: { purpose: 'Step count study', duration: '6 months' },
    member_count: 3,
    signed_count: 1,
    membership: {
      id: 'cmb_story_you',
      role: 'member',
      status: 'pending',
      shared_data_categories: ['health.steps'],
      created_at: days(-3),
      signed_at: null,
      revoked_at: null,
    },
    can_sign: true,
    can_leave: true,
    created_at: days(-3),
    activated_at: null,
    dissolved_at: null,
  },
];

/** The story's stand-in for the person's agreements API: the answer the story names; actions change its copy. */
function storyApi(answer: Answer): typeof fetch {
  const agreements = AGREEMENTS.map((a) => ({ ...a }));
  const collaborations = COLLABORATIONS.map((c) => ({ ...c }));
  return async (input, init) => {
    const url = new URL(String(input));
    if (answer === 'loading') return new Promise<Response>(() => {});
    const reply = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (answer === 'unauthorized')
      return reply({ message: 'The bearer token is not valid: not an API token, nor a current access token.', code: 'unauthorized' }, 401);
    if (answer === 'error') return reply({ message: 'Internal server error.', code: 'internal_error' }, 500);
    const collab = url.pathname.includes('collaborations');
    if (answer === 'empty') return reply(collab ? { collaborations: [], next_cursor: null } : { agreements: [], next_cursor: null });
    const action = /\/([^/]+)\/(sign|decline|leave)$/.exec(url.pathname);
    if (action && init?.method === 'POST') {
      const id = decodeURIComponent(action[1]!);
      if (collab) {
        const i = collaborations.findIndex((c) => c.id === id);
        const left = action[2] === 'leave';
        const m = { ...collaborations[i]!.membership, status: left ? 'revoked' : 'signed', [left ? 'revoked_at' : 'signed_at']: days(0) };
        collaborations[i] = { ...collaborations[i]!, membership: m as CollaborationRow['membership'], can_sign: false, can_leave: !left };
        return reply({ collaboration: collaborations[i] });
      }
      const i = agreements.findIndex((a) => a.id === id);
      const status = action[2] === 'sign' ? 'signed' : 'declined';
      agreements[i] = { ...agreements[i]!, can_sign: false, you: { ...agreements[i]!.you, status, decided_at: days(0) } };
      return reply({ agreement: agreements[i] });
    }
    if (collab) return reply({ collaborations, next_cursor: null });
    const multi = url.searchParams.get('multi_party') === 'true';
    return reply({ agreements: multi ? agreements.filter((a) => a.multi_party) : agreements, next_cursor: null });
  };
}

const meta: Meta<Args> = {
  title: 'Elements/svc-agreements',
  component: 'svc-agreements',
  args: { view: 'agreements', answer: 'list', signedIn: true, dir: 'ltr' },
  argTypes: {
    view: { control: 'inline-radio', options: ['agreements', 'multi_party', 'collaborations'], description: 'Which list.' },
    answer: {
      control: 'select',
      options: ['list', 'empty', 'loading', 'unauthorized', 'error'],
      description: 'What the story-local service answers.',
    },
    signedIn: { control: 'boolean', description: "Whether the page holds the person's access token." },
    dir: { control: 'inline-radio', options: ['ltr', 'rtl'], description: 'The page direction (the element mirrors).' },
    '--svc-agreements-accent': { control: 'color', table: { category: 'CSS custom properties' } },
    '--svc-agreements-radius': { control: 'text', table: { category: 'CSS custom properties' } },
    '--svc-agreements-gap': { control: 'text', table: { category: 'CSS custom properties' } },
  },
  render: (args) => {
    const style = CSS_ARGS.filter((k) => args[k])
      .map((k) => `${k}: ${args[k]}`)
      .join('; ');
    return html`<div class="story" dir=${args.dir}>
      <svc-agreements trust-url=${storyService()} view=${args.view} .fetch=${storyApi(args.answer)}
        .accessToken=${args.signedIn ? 'story-access-token' : undefined} style=${style || nothing}></svc-agreements>
      <story-event-log></story-event-log>
    </div>`;
  },
  parameters: {
    docs: {
      description: {
        component:
          'Answers come from a story stand-in for `GET /api/v1/me/agreements`, `GET /api/v1/me/collaborations` and `POST .../{sign|decline|leave}`; ' +
          'each action asks first, showing what is signed (Escape cancels), updates the row in place and shows `svc-agreements-change` in the event log.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<Args>;

/** A multi-party agreement half signed, one to sign alone, one signed: read the document, sign or decline. */
export const Ready: Story = {};
/** Only the multi-party agreements, each party's outcome listed. */
export const MultiParty: Story = { name: 'Multi-party', args: { view: 'multi_party' } };
/** A collaboration forming: what the person shares; sign or leave. */
export const Collaborations: Story = { args: { view: 'collaborations' } };
/** Right to left: the element uses logical properties only. */
export const RightToLeft: Story = { name: 'Ready: right to left', args: { dir: 'rtl' } };
/** Nothing to sign: said plainly (the `empty` slot). */
export const Empty: Story = { args: { answer: 'empty' } };
/** While the service has not answered. */
export const Loading: Story = { args: { answer: 'loading' } };
/** No access token yet: the `signed-out` slot. */
export const SignedOut: Story = { name: 'Signed out', args: { signedIn: false } };
/** The service refused the token (401): `svc-error` `unauthorized`, and the `signed-out` slot. */
export const Unauthorized: Story = { name: 'Error: token refused', args: { answer: 'unauthorized' } };
/** The service failed (500): `svc-error` `http`, the `error` slot and a retry button. */
export const ErrorFromService: Story = { name: 'Error: service failed', args: { answer: 'error' } };
