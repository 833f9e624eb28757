// <svc-connections> in every state and view. The element is the real one; the service's answers (`GET
// /api/v1/me/{connections|device_links|trust_pairings}` and their actions) come from a story stand-in (the element's
// `fetch`) that keeps its rows for the story, so disconnecting, linking (the code `ABCD-EFGH`) or unpairing in the
// story updates the row and shows `svc-connections-change` in the log.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html, nothing } from 'lit';
import '@svc/elements';
import type { ConnectionRow, DeviceLinkRow, TrustPairingRow } from '@svc/elements';
import { storyService } from './support/service.js';
import './support/event-log.js';

type Answer = 'list' | 'empty' | 'loading' | 'unauthorized' | 'error';
type View = 'connections' | 'device_links' | 'trust_pairings';

interface Args {
  view: View;
  answer: Answer;
  signedIn: boolean;
  dir: 'ltr' | 'rtl';
  '--svc-connections-accent'?: string;
  '--svc-connections-radius'?: string;
  '--svc-connections-gap'?: string;
}

const CSS_ARGS = ['--svc-connections-accent', '--svc-connections-radius', '--svc-connections-gap'] as const;
const days = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
const BANK = { id: 'acct_story_bank', name: 'City Bank' };
const CLINIC = { id: 'acct_story_clinic', name: 'Health clinic' };

const connection = (id: string, extra: Partial<ConnectionRow>): ConnectionRow => ({
  id,
  status: 'active',
  user_id: 'prs_story',
  application_id: `app_${id}`,
  application_name: 'Banking app',
  trust_tier: 'connected',
  connected_at: days(-40),
  last_active_at: days(-1),
  created_at: days(-40),
  updated_at: days(-1),
  disconnected_at: null,
  active_policies: [],
  suspensions: [],
  organisation: BANK,
  ...extra,
});

const CONNECTIONS: ConnectionRow[] = [
  connection('con_story_bank', {
    trust_tier: 'delegated',
    active_policies: [
      {
        type: 'consent_record',
        id: 'cr_story',
        flow_id: 'flw_story',
        purposes: ['newsletter', 'offers'],
        granted_at: days(-40),
        expires_at: null,
      },
      {
        type: 'delegation_grant',
        id: 'dlg_story',
        status: 'active',
        delegate_type: 'agent',
        delegate_id: 'agt_story',
        delegated_scopes: ['payments:read'],
        expires_at: null,
      },
    ],
  }),
  connection('con_story_clinic', { application_name: 'Patient portal', organisation: CLINIC, trust_tier: 'connected' }),
  connection('con_story_old', {
    application_name: 'Old shop',
    status: 'disconnected',
    trust_tier: null,
    disconnected_at: days(-3),
  }),
];

const link = (id: string, extra: Partial<DeviceLinkRow>): DeviceLinkRow => ({
  id,
  status: 'pending',
  device_name: 'Phone',
  attempts_remaining: 5,
  created_at: days(0),
  expires_at: new Date(Date.now() + 600_000).toISOString(),
  claimed_at: null,
  trust_pairing_id: null,
  organisation: BANK,
  ...extra,
});

const LINKS: DeviceLinkRow[] = [
  link('dlk_story_phone', {}),
  link('dlk_story_tablet', { device_name: 'Tablet', status: 'claimed', claimed_at: days(-2), trust_pairing_id: 'pair_story' }),
];

const pairing = (id: string, extra: Partial<TrustPairingRow>): TrustPairingRow => ({
  id,
  status: 'active',
  user_id: 'prs_story',
  device_link_id: 'dlk_story_tablet',
  initiator: { device_name: 'Tablet', client_id: 'client_bank' },
  claimant: { device_name: 'Laptop', client_id: 'client_trust' },
  created_at: days(-2),
  revoked_at: null,
  organisation: BANK,
  ...extra,
});

const PAIRINGS: TrustPairingRow[] = [pairing('pair_story', {}), pairing('pair_story_old', { status: 'revoked', revoked_at: days(-9) })];

const reply = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The story's stand-in for the person's connections API: the answer the story names; actions change its copies. */
function storyApi(answer: Answer): typeof fetch {
  const rows = { connections: [...CONNECTIONS], device_links: [...LINKS], trust_pairings: [...PAIRINGS] };
  return async (input, init) => {
    if (answer === 'loading') return new Promise<Response>(() => {});
    if (answer === 'unauthorized')
      return reply({ message: 'The bearer token is not valid: not an API token, nor a current access token.', code: 'unauthorized' }, 401);
    if (answer === 'error') return reply({ message: 'Internal server error.', code: 'internal_error' }, 500);
    const [, , , , family, id, action] = new URL(String(input)).pathname.split('/') as string[];
    const list = rows[family as View] as { id: string }[];
    if (answer === 'empty') return reply({ [family!]: [], next_cursor: null });
    if (!id) return reply({ [family!]: list, next_cursor: null });
    const index = list.findIndex((row) => row.id === decodeURIComponent(id));
    if (init?.method !== 'POST') return reply({ device_link: list[index] });
    if (action === 'disconnect') {
      const at = days(0);
      rows.connections[index] = {
        ...rows.connections[index]!,
        status: 'disconnected',
        trust_tier: null,
        active_policies: [],
        disconnected_at: at,
      };
      return reply({
        connection: { id, status: 'disconnected', disconnected_at: at },
        warnings: ['Consent record cr_story: consent to newsletter, offers is withdrawn.'],
      });
    }
    if (action === 'claim') {
      const body = JSON.parse(String(init.body)) as { code: string; device_name: string };
      if (body.code.replace('-', '').toUpperCase() !== 'ABCDEFGH')
        return reply(
          { message: 'The code matches no device link of yours. 4 more wrong codes lock your pending device links.', code: 'invalid_code' },
          422,
        );
      rows.device_links[index] = {
        ...rows.device_links[index]!,
        status: 'claimed',
        claimed_at: days(0),
        trust_pairing_id: 'pair_story_new',
      };
      return reply(
        {
          trust_pairing: pairing('pair_story_new', {
            initiator: { device_name: 'Phone', client_id: 'c' },
            claimant: { device_name: body.device_name, client_id: 'c' },
          }),
        },
        201,
      );
    }
    if (action === 'cancel') {
      rows.device_links[index] = { ...rows.device_links[index]!, status: 'cancelled' };
      return reply({ device_link: rows.device_links[index] });
    }
    rows.trust_pairings[index] = { ...rows.trust_pairings[index]!, status: 'revoked', revoked_at: days(0) };
    return reply({ trust_pairing: rows.trust_pairings[index] });
  };
}

const meta: Meta<Args> = {
  title: 'Elements/svc-connections',
  component: 'svc-connections',
  args: { view: 'connections', answer: 'list', signedIn: true, dir: 'ltr' },
  argTypes: {
    view: { control: 'inline-radio', options: ['connections', 'device_links', 'trust_pairings'], description: 'What the element lists.' },
    answer: {
      control: 'select',
      options: ['list', 'empty', 'loading', 'unauthorized', 'error'],
      description: 'What the story-local service answers.',
    },
    signedIn: { control: 'boolean', description: "Whether the page holds the person's access token." },
    dir: { control: 'inline-radio', options: ['ltr', 'rtl'], description: 'The page direction (the element mirrors).' },
    '--svc-connections-accent': { control: 'color', table: { category: 'CSS custom properties' } },
    '--svc-connections-radius': { control: 'text', table: { category: 'CSS custom properties' } },
    '--svc-connections-gap': { control: 'text', table: { category: 'CSS custom properties' } },
  },
  render: (args) => {
    const style = CSS_ARGS.filter((k) => args[k])
      .map((k) => `${k}: ${args[k]}`)
      .join('; ');
    return html`<div class="story" dir=${args.dir}>
      <svc-connections trust-url=${storyService()} view=${args.view} .fetch=${storyApi(args.answer)}
        .accessToken=${args.signedIn ? 'story-access-token' : undefined} style=${style || nothing}></svc-connections>
      <story-event-log></story-event-log>
    </div>`;
  },
  parameters: {
    docs: {
      description: {
        component:
          'Answers come from a story stand-in for `GET /api/v1/me/{connections|device_links|trust_pairings}` and their actions; ' +
          'disconnecting and unpairing ask first (Escape cancels); a pending device link takes the code `ABCD-EFGH`. Each updates ' +
          'the row in place and shows `svc-connections-change` in the event log.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<Args>;

/** A bank app holding consent and a grant, a clinic's portal, a disconnected shop: disconnect one. */
export const Ready: Story = {};
/** A phone waiting for its code (`ABCD-EFGH`) and a linked tablet. */
export const DeviceLinks: Story = { name: 'Device links', args: { view: 'device_links' } };
/** A tablet paired with a laptop, and an old pairing. */
export const TrustPairings: Story = { name: 'Paired devices', args: { view: 'trust_pairings' } };
/** Right to left: the element uses logical properties only. */
export const RightToLeft: Story = { name: 'Ready: right to left', args: { dir: 'rtl' } };
/** Connected to nothing: said plainly (the `empty` slot). */
export const Empty: Story = { args: { answer: 'empty' } };
/** While the service has not answered. */
export const Loading: Story = { args: { answer: 'loading' } };
/** No access token yet: the `signed-out` slot. */
export const SignedOut: Story = { name: 'Signed out', args: { signedIn: false } };
/** The service refused the token (401): `svc-error` `unauthorized`, and the `signed-out` slot. */
export const Unauthorized: Story = { name: 'Error: token refused', args: { answer: 'unauthorized' } };
/** The service failed (500): `svc-error` `http`, the `error` slot and a retry button. */
export const ErrorFromService: Story = { name: 'Error: service failed', args: { answer: 'error' } };
