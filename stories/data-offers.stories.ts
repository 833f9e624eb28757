// <svc-data-offers> in every state, in both views. The element is the real one; the service's answers (`GET
// /api/v1/me/data_offers`, `POST .../{accept|decline}`, `GET /api/v1/me/data_licenses`, `POST .../revoke`) come from a
// story stand-in (the element's `fetch`) that keeps its offers and licences for the story, so answering in the story
// updates the row and shows `svc-data-offers-answer` in the event log.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html, nothing } from 'lit';
import '@svc/elements';
import type { DataLicenseRow, DataOfferRow } from '@svc/elements';
import { storyService } from './support/service.js';
import './support/event-log.js';

type Answer = 'list' | 'empty' | 'loading' | 'unauthorized' | 'error';

interface Args {
  answer: Answer;
  view: 'offers' | 'licenses';
  signedIn: boolean;
  dir: 'ltr' | 'rtl';
  '--svc-data-offers-accent'?: string;
  '--svc-data-offers-radius'?: string;
  '--svc-data-offers-gap'?: string;
}

const CSS_ARGS = ['--svc-data-offers-accent', '--svc-data-offers-radius', '--svc-data-offers-gap'] as const;
const days = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

const offer = (id: string, extra: Partial<DataOfferRow>): DataOfferRow => ({
  id,
  status: 'countered',
  turn: 'person',
  answerable: true,
  organisation: { id: 'acct_story_fit', name: 'Fit Labs' },
  application: { id: 'tp_story_fit', name: 'Fit app' },
  policy: { id: `pol_${id}`, template_id: 'data_offer', title: 'My activity data', data_categories: ['steps', 'sleep'] },
  terms: { price: { amount: 600, currency: 'EUR' }, months: 6 },
  counter_count: 1,
  rounds: [
    { action: 'offer', by: 'person', terms: { price: { amount: 1000, currency: 'EUR' }, months: 12 }, message: null, at: days(-3) },
    {
      action: 'counter',
      by: 'organisation',
      terms: { price: { amount: 600, currency: 'EUR' }, months: 6 },
      message: 'We can do 6 euros.',
      at: days(-1),
    },
  ],
  expires_at: days(4),
  offered_at: days(-3),
  decided_at: null,
  decline_reason: null,
  created_at: days(-3),
  updated_at: days(-1),
  ...extra,
});

const OFFERS: DataOfferRow[] = [
  offer('dof_story_fit', {}),
  offer('dof_story_shop', {
    status: 'offered',
    turn: 'organisation',
    answerable: false,
    organisation: { id: 'acct_story_shop', name: 'Corner Shop' },
    application: { id: 'tp_story_shop', name: 'Loyalty card' },
    policy: { id: 'pol_story_shop', template_id: 'data_offer', title: 'My purchases', data_categories: ['purchase_history'] },
    terms: { price: { amount: 250, currency: 'EUR' }, months: 3, commercial_use: false },
    counter_count: 0,
    rounds: [],
  }),
  offer('dof_story_lab', {
    status: 'declined',
    turn: null,
    answerable: false,
    organisation: { id: 'acct_story_lab', name: 'Sleep Lab' },
    decided_at: days(-20),
    decline_reason: 'Too little for a year of sleep data.',
  }),
];

const LICENSES: DataLicenseRow[] = [
  {
    id: 'dlic_story_lab',
    status: 'active',
    revocable: true,
    organisation: { id: 'acct_story_lab', name: 'Sleep Lab' },
    application: { id: 'tp_story_lab', name: 'Study portal' },
    agreement: { id: 'agr_story_lab', title: 'Sleep study 2026', signed_at: days(-60) },
    terms: { purpose: 'research', commercial_use: false },
    max_access_count: 12,
    access_count: 4,
    remaining_accesses: 8,
    last_accessed_at: days(-2),
    revoked_at: null,
    created_at: days(-60),
  },
  {
    id: 'dlic_story_ins',
    status: 'revoked',
    revocable: false,
    organisation: { id: 'acct_story_ins', name: 'Home Insurance' },
    application: { id: 'tp_story_ins', name: 'Quotes' },
    agreement: { id: 'agr_story_ins', title: 'Smart meter readings', signed_at: days(-400) },
    terms: {},
    max_access_count: null,
    access_count: 31,
    remaining_accesses: null,
    last_accessed_at: days(-40),
    revoked_at: days(-30),
    created_at: days(-400),
  },
];

/** The story's stand-in for the person's data deals API: the answer the story names; answers change its copies. */
function storyApi(answer: Answer): typeof fetch {
  const offers = OFFERS.map((o) => ({ ...o }));
  const licenses = LICENSES.map((l) => ({ ...l }));
  return async (input, init) => {
    const url = new URL(String(input));
    if (answer === 'loading') return new Promise<Response>(() => {});
    const reply = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (answer === 'unauthorized')
      return reply({ message: 'The bearer token is not valid: not an API token, nor a current access token.', code: 'unauthorized' }, 401);
    if (answer === 'error') return reply({ message: 'Internal server error.', code: 'internal_error' }, 500);
    const licensesView = url.pathname.includes('/data_licenses');
    if (answer === 'empty') return reply(licensesView ? { data_licenses: [], next_cursor: null } : { data_offers: [], next_cursor: null });
    const moved = /\/(data_offers|data_licenses)\/([^/]+)\/(accept|decline|revoke)$/.exec(url.pathname);
    if (moved && init?.method === 'POST') {
      const [, , id, action] = moved;
      if (action === 'revoke') {
        const i = licenses.findIndex((l) => l.id === id);
        licenses[i] = { ...licenses[i]!, status: 'revoked', revocable: false, revoked_at: new Date().toISOString() };
        return reply({ data_license: licenses[i] });
      }
      const i = offers.findIndex((o) => o.id === id);
      const status = action === 'accept' ? ('accepted' as const) : ('declined' as const);
      offers[i] = { ...offers[i]!, status, turn: null, answerable: false, decided_at: new Date().toISOString() };
      return reply({ data_offer: offers[i] });
    }
    return reply(licensesView ? { data_licenses: licenses, next_cursor: null } : { data_offers: offers, next_cursor: null });
  };
}

const meta: Meta<Args> = {
  title: 'Elements/svc-data-offers',
  component: 'svc-data-offers',
  args: { answer: 'list', view: 'offers', signedIn: true, dir: 'ltr' },
  argTypes: {
    answer: {
      control: 'select',
      options: ['list', 'empty', 'loading', 'unauthorized', 'error'],
      description: 'What the story-local service answers.',
    },
    view: { control: 'inline-radio', options: ['offers', 'licenses'], description: 'The offers for the data, or the licences over it.' },
    signedIn: { control: 'boolean', description: "Whether the page holds the person's access token." },
    dir: { control: 'inline-radio', options: ['ltr', 'rtl'], description: 'The page direction (the element mirrors).' },
    '--svc-data-offers-accent': { control: 'color', table: { category: 'CSS custom properties' } },
    '--svc-data-offers-radius': { control: 'text', table: { category: 'CSS custom properties' } },
    '--svc-data-offers-gap': { control: 'text', table: { category: 'CSS custom properties' } },
  },
  render: (args) => {
    const style = CSS_ARGS.filter((k) => args[k])
      .map((k) => `${k}: ${args[k]}`)
      .join('; ');
    return html`<div class="story" dir=${args.dir}>
      <svc-data-offers trust-url=${storyService()} view=${args.view} .fetch=${storyApi(args.answer)}
        .accessToken=${args.signedIn ? 'story-access-token' : undefined} style=${style || nothing}></svc-data-offers>
      <story-event-log></story-event-log>
    </div>`;
  },
  parameters: {
    docs: {
      description: {
        component:
          'Answers come from a story stand-in for `GET /api/v1/me/data_offers`, `POST .../accept|decline`, `GET /api/v1/me/data_licenses` ' +
          'and `POST .../revoke`; accepting answers at once, declining and revoking ask first (Escape cancels), then the row updates ' +
          'in place and `svc-data-offers-answer` shows in the event log.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<Args>;

/** Three offers: one waits for the person's answer (accept or decline), one for the organisation's, one declined. */
export const Offers: Story = {};
/** The licences over the person's data: how often used, under which agreement; revoke asks first. */
export const Licenses: Story = { args: { view: 'licenses' } };
/** Right to left: the element uses logical properties only. */
export const RightToLeft: Story = { name: 'Offers: right to left', args: { dir: 'rtl' } };
/** Nothing to list: said plainly (the `empty` slot), in the words of each view. */
export const Empty: Story = { args: { answer: 'empty' } };
/** While the service has not answered. */
export const Loading: Story = { args: { answer: 'loading' } };
/** No access token yet: the `signed-out` slot. */
export const SignedOut: Story = { name: 'Signed out', args: { signedIn: false } };
/** The service refused the token (401): `svc-error` `unauthorized`, and the `signed-out` slot. */
export const Unauthorized: Story = { name: 'Error: token refused', args: { answer: 'unauthorized' } };
/** The service failed (500): `svc-error` `http`, the `error` slot and a retry button. */
export const ErrorFromService: Story = { name: 'Error: service failed', args: { answer: 'error' } };
