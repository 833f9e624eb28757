// <svc-vouches> in every state, in both views. The element is the real one; the service's answers (`GET
// /api/v1/me/vouches`, `POST /api/v1/me/vouches`, `POST .../{id}/revoke`, `GET /api/v1/me/trust_scores`) come from a
// story stand-in (the element's `fetch`) that keeps its vouches for the story, so vouching or withdrawing in the story
// updates the list and shows `svc-vouches-change` in the log.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html, nothing } from 'lit';
import '@svc/elements';
import type { TrustScoreRow, VouchRow } from '@svc/elements';
import { storyService } from './support/service.js';
import './support/event-log.js';

type Answer = 'list' | 'empty' | 'loading' | 'unauthorized' | 'error';

interface Args {
  view: 'vouches' | 'trust_scores';
  answer: Answer;
  signedIn: boolean;
  dir: 'ltr' | 'rtl';
  '--svc-vouches-accent'?: string;
  '--svc-vouches-radius'?: string;
  '--svc-vouches-gap'?: string;
}

const CSS_ARGS = ['--svc-vouches-accent', '--svc-vouches-radius', '--svc-vouches-gap'] as const;
const days = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
const CLUB = { id: 'acct_story_club', name: 'Climbing club' };
const ME = 'prs_story_ada';

const VOUCHES: VouchRow[] = [
  {
    id: 'vch_story_sam',
    direction: 'received',
    organisation: CLUB,
    counterpart: { type: 'person', id: 'prs_story_sam', name: null },
    statement: 'Ada has belayed me for years.',
    status: 'active',
    created_at: days(-12),
    revoked_at: null,
  },
  {
    id: 'vch_story_agent',
    direction: 'given',
    organisation: CLUB,
    counterpart: { type: 'agent', id: 'agt_story_booking', name: 'Booking assistant' },
    statement: null,
    status: 'active',
    created_at: days(-30),
    revoked_at: null,
  },
  {
    id: 'vch_story_old',
    direction: 'given',
    organisation: { id: 'acct_story_market', name: 'Neighbourhood market' },
    counterpart: { type: 'person', id: 'prs_story_lee', name: null },
    statement: 'Fair seller.',
    status: 'revoked',
    created_at: days(-90),
    revoked_at: days(-40),
  },
];

const factor = (name: string, value: number, contribution: number, description: string) => ({
  name,
  weight: 0,
  value,
  contribution,
  cap: 20,
  description,
});

const SCORES: TrustScoreRow[] = [
  {
    id: ME,
    organisation: CLUB,
    subject_id: ME,
    score: 61,
    computed_at: days(0),
    factors: [
      factor('sign_ins_verified', 2, 4, 'Sign-ins you confirmed with a code sent to your email: 2 points each, up to 10.'),
      factor('consents_fulfilled', 1, 1, 'Consents you gave that are in force: 1 point each, up to 10.'),
      factor('consents_revoked', 1, 0, 'Consents you withdrew: withdrawing is your right, so it never lowers your score.'),
      factor('age_days', 45, 1, 'How long this organisation has known you: 1 point per 30 days, up to 10.'),
      factor('vouches_received', 1, 5, 'People who vouch for you now: 5 points each, up to 20.'),
      factor('vouches_revoked', 0, 0, 'Vouches for you that were later withdrawn: 5 points off each, up to 20.'),
    ],
  },
];

/** The story's stand-in for the person's vouches API: the answer the story names; vouching and withdrawing change its copy. */
function storyApi(answer: Answer): typeof fetch {
  const vouches = VOUCHES.map((v) => ({ ...v }));
  return async (input, init) => {
    const url = new URL(String(input));
    if (answer === 'loading') return new Promise<Response>(() => {});
    const reply = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (answer === 'unauthorized')
      return reply({ message: 'The bearer token is not valid: not an API token, nor a current access token.', code: 'unauthorized' }, 401);
    if (answer === 'error') return reply({ message: 'Internal server error.', code: 'internal_error' }, 500);
    if (url.pathname.endsWith('/trust_scores')) return reply({ trust_scores: answer === 'empty' ? [] : SCORES, next_cursor: null });
    const revoke = /\/vouches\/([^/]+)\/revoke$/.exec(url.pathname);
    if (revoke) {
      const index = vouches.findIndex((v) => v.id === decodeURIComponent(revoke[1]!));
      vouches[index] = { ...vouches[index]!, status: 'revoked', revoked_at: days(0) };
      return reply({ vouch: vouches[index] });
    }
    if (init?.method === 'POST') {
      const { vouchee_id, statement } = JSON.parse(String(init.body)) as { vouchee_id: string; statement?: string };
      if (vouchee_id === ME) return reply({ message: 'A person cannot vouch for themselves.', code: 'self_vouch' }, 422);
      const agent = vouchee_id.startsWith('agt_');
      const made: VouchRow = {
        id: `vch_story_${vouches.length}`,
        direction: 'given',
        organisation: CLUB,
        counterpart: { type: agent ? 'agent' : 'person', id: vouchee_id, name: agent ? 'An agent' : null },
        statement: statement ?? null,
        status: 'active',
        created_at: days(0),
        revoked_at: null,
      };
      vouches.unshift(made);
      return reply({ vouch: made }, 201);
    }
    return reply({ vouches: answer === 'empty' ? [] : vouches, next_cursor: null });
  };
}

const meta: Meta<Args> = {
  title: 'Elements/svc-vouches',
  component: 'svc-vouches',
  args: { view: 'vouches', answer: 'list', signedIn: true, dir: 'ltr' },
  argTypes: {
    view: { control: 'inline-radio', options: ['vouches', 'trust_scores'], description: 'What the element lists.' },
    answer: {
      control: 'select',
      options: ['list', 'empty', 'loading', 'unauthorized', 'error'],
      description: 'What the story-local service answers.',
    },
    signedIn: { control: 'boolean', description: "Whether the page holds the person's access token." },
    dir: { control: 'inline-radio', options: ['ltr', 'rtl'], description: 'The page direction (the element mirrors).' },
    '--svc-vouches-accent': { control: 'color', table: { category: 'CSS custom properties' } },
    '--svc-vouches-radius': { control: 'text', table: { category: 'CSS custom properties' } },
    '--svc-vouches-gap': { control: 'text', table: { category: 'CSS custom properties' } },
  },
  render: (args) => {
    const style = CSS_ARGS.filter((k) => args[k])
      .map((k) => `${k}: ${args[k]}`)
      .join('; ');
    return html`<div class="story" dir=${args.dir}>
      <svc-vouches view=${args.view} trust-url=${storyService()} .fetch=${storyApi(args.answer)}
        .accessToken=${args.signedIn ? 'story-access-token' : undefined} style=${style || nothing}></svc-vouches>
      <story-event-log></story-event-log>
    </div>`;
  },
  parameters: {
    docs: {
      description: {
        component:
          'Answers come from a story stand-in for `/api/v1/me/vouches` and `/api/v1/me/trust_scores`. Vouch for `prs_story_kim` (or ' +
          '`agt_…`); your own id, `prs_story_ada`, is refused at the field. Withdrawing asks first (Escape cancels); each change shows ' +
          '`svc-vouches-change` in the event log.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<Args>;

/** A vouch received, one given to an agent, one withdrawn: vouch for someone, or withdraw. */
export const Ready: Story = {};
/** The trust scores view: the score at each organisation, its factors in plain words, and the id to share. */
export const TrustScores: Story = { name: 'Trust scores', args: { view: 'trust_scores' } };
/** Right to left: the element uses logical properties only. */
export const RightToLeft: Story = { name: 'Ready: right to left', args: { dir: 'rtl' } };
/** No vouches yet: said plainly (the `empty` slot), and the form to vouch is still there. */
export const Empty: Story = { args: { answer: 'empty' } };
/** While the service has not answered. */
export const Loading: Story = { args: { answer: 'loading' } };
/** No access token yet: the `signed-out` slot. */
export const SignedOut: Story = { name: 'Signed out', args: { signedIn: false } };
/** The service refused the token (401): `svc-error` `unauthorized`, and the `signed-out` slot. */
export const Unauthorized: Story = { name: 'Error: token refused', args: { answer: 'unauthorized' } };
/** The service failed (500): `svc-error` `http`, the `error` slot and a retry button. */
export const ErrorFromService: Story = { name: 'Error: service failed', args: { answer: 'error' } };
