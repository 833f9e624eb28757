// <svc-credentials> in every state. The element is the real one; the service's answers (`GET /api/v1/me/credentials`,
// `POST .../presentations`, `GET /api/v1/me/presentations`) come from a story stand-in (the element's `fetch`) that
// keeps what was presented, so presenting in the story shows the result, `svc-credentials-present` in the event log,
// and a new row in the presentations view.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html, nothing } from 'lit';
import '@svc/elements';
import type { CredentialRow, MadePresentation, PresentationRow } from '@svc/elements';
import { storyService } from './support/service.js';
import './support/event-log.js';

type Answer = 'list' | 'empty' | 'loading' | 'unauthorized' | 'error';

interface Args {
  answer: Answer;
  view: 'credentials' | 'presentations';
  signedIn: boolean;
  dir: 'ltr' | 'rtl';
  '--svc-credentials-accent'?: string;
  '--svc-credentials-radius'?: string;
}

const CSS_ARGS = ['--svc-credentials-accent', '--svc-credentials-radius'] as const;
const days = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

const claims = (organisation: string): CredentialRow['claims'] => [
  { path: 'home_country', label: 'Home country', value: 'DE', required: true },
  { path: 'purposes.newsletter', label: 'Purpose: Weekly newsletter', value: true, required: false },
  { path: 'email', label: 'Email', value: 'ada@example.com', required: false },
  { path: 'consented_at', label: 'Consented at', value: days(-12), required: false },
  { path: 'application_id', label: 'Application', value: `tp_${organisation}`, required: false },
];

const CREDENTIALS: CredentialRow[] = [
  {
    id: 'cred_de_story_news',
    credential_type: 'ConsentCredential',
    name: 'Consent credential',
    status: 'active',
    issued_at: days(-12),
    expires_at: days(78),
    revoked_at: null,
    home_country: 'DE',
    organisation: { id: 'org_story_news', name: 'Daily News' },
    application: { id: 'tp_story_news', name: 'Daily News app' },
    holder_bound: false,
    presentable: true,
    claims: claims('news'),
  },
  {
    id: 'cred_de_story_gym',
    credential_type: 'ConsentCredential',
    name: 'Consent credential',
    status: 'revoked',
    issued_at: days(-200),
    expires_at: days(-110),
    revoked_at: days(-150),
    home_country: 'DE',
    organisation: { id: 'org_story_gym', name: 'City Gym' },
    application: { id: 'tp_story_gym', name: 'Members' },
    holder_bound: false,
    presentable: false,
    claims: claims('gym').slice(0, 3),
  },
];

/** The story's stand-in for the person's credentials API; presentations are kept for the story. */
function storyApi(answer: Answer): typeof fetch {
  const history: PresentationRow[] = [
    {
      id: 'prs_story_1',
      credential_id: 'cred_de_story_news',
      credential_name: 'Consent credential',
      organisation: { id: 'org_story_news', name: 'Daily News' },
      audience: 'Bank of Example',
      nonce: null,
      disclosed: [
        { path: 'home_country', label: 'Home country' },
        { path: 'email', label: 'Email' },
      ],
      presented_at: days(-3),
    },
  ];
  return async (input, init) => {
    const url = new URL(String(input));
    if (answer === 'loading') return new Promise<Response>(() => {});
    const reply = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (answer === 'unauthorized') return reply({ message: 'The bearer token is not valid.', code: 'unauthorized' }, 401);
    if (answer === 'error') return reply({ message: 'Internal server error.', code: 'internal_error' }, 500);
    if (answer === 'empty') return reply({ credentials: [], presentations: [], next_cursor: null });
    const present = /\/credentials\/([^/]+)\/presentations$/.exec(url.pathname);
    if (present && init?.method === 'POST') {
      const credential = CREDENTIALS.find((c) => c.id === decodeURIComponent(present[1]!))!;
      const body = JSON.parse(String(init.body)) as { disclose: string[]; audience: string };
      const disclosed = credential.claims
        .filter((c) => c.required || body.disclose.includes(c.path))
        .map(({ path, label }) => ({ path, label }));
      const row: PresentationRow = {
        id: `prs_story_${history.length + 1}`,
        credential_id: credential.id,
        credential_name: credential.name,
        organisation: credential.organisation,
        audience: body.audience,
        nonce: null,
        disclosed,
        presented_at: new Date().toISOString(),
      };
      history.unshift(row);
      const made: MadePresentation = {
        ...row,
        presentation:
          'eyJhbGciOiJFUzI1NiIsInR5cCI6ImRjK3NkLWp3dCJ9.eyJzdG9yeSI6dHJ1ZX0.c2lnbmF0dXJl~WyJzYWx0IiwiZW1haWwiLCJhZGFAZXhhbXBsZS5jb20iXQ~',
        verification: null,
      };
      return reply({ presentation: made }, 201);
    }
    if (url.pathname.endsWith('/presentations')) return reply({ presentations: history, next_cursor: null });
    return reply({ credentials: CREDENTIALS, next_cursor: null });
  };
}

const meta: Meta<Args> = {
  title: 'Elements/svc-credentials',
  component: 'svc-credentials',
  args: { answer: 'list', view: 'credentials', signedIn: true, dir: 'ltr' },
  argTypes: {
    answer: {
      control: 'select',
      options: ['list', 'empty', 'loading', 'unauthorized', 'error'],
      description: 'What the story-local service answers.',
    },
    view: { control: 'inline-radio', options: ['credentials', 'presentations'], description: 'The credentials, or what was presented.' },
    signedIn: { control: 'boolean', description: "Whether the page holds the person's access token." },
    dir: { control: 'inline-radio', options: ['ltr', 'rtl'], description: 'The page direction (the element mirrors).' },
    '--svc-credentials-accent': { control: 'color', table: { category: 'CSS custom properties' } },
    '--svc-credentials-radius': { control: 'text', table: { category: 'CSS custom properties' } },
  },
  render: (args) => {
    const style = CSS_ARGS.filter((k) => args[k])
      .map((k) => `${k}: ${args[k]}`)
      .join('; ');
    return html`<div class="story" dir=${args.dir}>
      <svc-credentials trust-url=${storyService()} view=${args.view} .fetch=${storyApi(args.answer)}
        .accessToken=${args.signedIn ? 'story-access-token' : undefined} style=${style || nothing}></svc-credentials>
      <story-event-log></story-event-log>
    </div>`;
  },
  parameters: {
    docs: {
      description: {
        component:
          'Answers come from a story stand-in for `GET /api/v1/me/credentials`, `POST .../presentations` and `GET /api/v1/me/presentations`; ' +
          '"Present" opens the selective-disclosure step (Escape cancels), then shows the presentation and `svc-credentials-present` in the event log.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<Args>;

/** Two credentials: present the valid one, choosing which claims to share and with whom. */
export const Ready: Story = {};
/** What the person presented, to whom, when and which claims. */
export const Presentations: Story = { args: { view: 'presentations' } };
/** Right to left: the element uses logical properties only. */
export const RightToLeft: Story = { name: 'Ready: right to left', args: { dir: 'rtl' } };
/** No credentials: said plainly (the `empty` slot). */
export const Empty: Story = { args: { answer: 'empty' } };
/** While the service has not answered. */
export const Loading: Story = { args: { answer: 'loading' } };
/** No access token yet: the `signed-out` slot. */
export const SignedOut: Story = { name: 'Signed out', args: { signedIn: false } };
/** The service refused the token (401): `svc-error` `unauthorized`, and the `signed-out` slot. */
export const Unauthorized: Story = { name: 'Error: token refused', args: { answer: 'unauthorized' } };
/** The service failed (500): `svc-error` `http`, the `error` slot and a retry button. */
export const ErrorFromService: Story = { name: 'Error: service failed', args: { answer: 'error' } };
