// <svc-receipts> in every state and both views. The element is the real one, and so is its offline check: the
// story's stand-in service (the element's `fetch`) answers `GET /api/v1/me/{authorization,disclosure}_receipts` with
// receipts signed in the browser by a key made for the story, and `/.well-known/jwks.json` with that key, so each
// receipt says valid (or tampered, with `tampered` on). Drop one of them, saved as a file, on the drop zone to check it.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { CompactSign, exportJWK, generateKeyPair } from 'jose';
import { html, nothing } from 'lit';
import '@svc/elements';
import type { AuthorizationReceiptRow, DisclosureReceiptRow } from '@svc/elements';
import { storyService } from './support/service.js';
import './support/event-log.js';

type Answer = 'list' | 'empty' | 'loading' | 'unauthorized' | 'error';

interface Args {
  view: 'authorization' | 'disclosure';
  answer: Answer;
  signedIn: boolean;
  tampered: boolean;
  dir: 'ltr' | 'rtl';
  '--svc-receipts-accent'?: string;
  '--svc-receipts-gap'?: string;
}

const CSS_ARGS = ['--svc-receipts-accent', '--svc-receipts-gap'] as const;
const days = (d: number) => new Date(Date.UTC(2026, 5, 1) + d * 86_400_000).toISOString();

// The story's receipts hold strings and integers only, so their RFC 8785 bytes are JSON with sorted keys.
const sorted = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sorted)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([k, v]) => [k, sorted(v)]),
        )
      : value;

const story = (async () => {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'story-key', alg: 'ES256', use: 'sig' }] };
  const sign = async (receipt: Record<string, unknown>) => {
    const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(sorted(receipt))))
      .setProtectedHeader({ alg: 'ES256', kid: 'story-key' })
      .sign(privateKey);
    const [header, , signature] = jws.split('.');
    return { receipt, signature: `${header}..${signature}` } as AuthorizationReceiptRow['signed_receipt'];
  };
  const receipt = (id: string, type: string, extra: Record<string, unknown>) => ({
    schema_version: 'svc-cr/2.13',
    conforms_to: 'ISO/IEC TS 27560:2023',
    record_id: id,
    record_type: type,
    party_identification: [{ party_id: 'tp_story', party_name: 'City Bank app', party_role: 'controller' }],
    event: [{ event_time: days(-20), entity_id: 'prs_story', event_type: 'explicit', event_state: 'authority granted' }],
    ...extra,
  });
  const bounds = (limits: Record<string, Record<string, unknown>>) =>
    (['scope', 'action', 'value', 'time', 'escalation', 'reputation', 'jurisdiction', 'sequence'] as const).map((bound) =>
      limits[bound] ? { bound, configured: true, limit: limits[bound]! } : { bound, configured: false, limit: null },
    );
  const authorizations: AuthorizationReceiptRow[] = [
    {
      id: 'ar_story_grant',
      kind: 'grant',
      outcome: 'granted',
      organisation: { id: 'acct_story_bank', name: 'City Bank' },
      application: { id: 'tp_story', name: 'City Bank app' },
      delegate: { id: 'agt_story', name: 'Budget assistant', type: 'software_agent' },
      recorded_at: days(-20),
      bounds: bounds({
        scope: { scopes: ['payments:write'] },
        value: { max_per_transaction: 500, currency: 'EUR' },
        sequence: { max_actions_per_day: 20 },
      }),
      actions: {
        allowed: 1,
        denied: 1,
        escalated: 0,
        recent: [
          {
            id: 'act_2',
            at: days(-1),
            scope: 'payments:write',
            action: 'write',
            value: 900,
            currency: 'EUR',
            jurisdiction: null,
            outcome: 'denied',
            bound: 'value',
          },
          {
            id: 'act_1',
            at: days(-3),
            scope: 'payments:write',
            action: 'write',
            value: 40,
            currency: 'EUR',
            jurisdiction: null,
            outcome: 'allowed',
            bound: null,
          },
        ],
      },
      signed_receipt: await sign(receipt('ar_story_grant', 'authorization_record', { pii_principal_id: 'prs_story' })),
    },
  ];
  const disclosures: DisclosureReceiptRow[] = [
    {
      id: 'cr_story_chat',
      record_type: 'consent_record',
      organisation: { id: 'acct_story_shop', name: 'Corner shop' },
      application: { id: 'tp_story_shop', name: 'Shop chat' },
      disclosed_at: days(-4),
      agents: [
        {
          agent_id: 'agt_story_chat',
          agent_name: 'Chat helper',
          agent_type: 'assistant',
          operator_name: 'Helpers Ltd',
          role: 'Answers questions',
        },
      ],
      signed_receipt: await sign(receipt('cr_story_chat', 'consent_record', { pii_principal_id: 'prs_story' })),
    },
  ];
  return { jwks, authorizations, disclosures };
})();

/** The story's stand-in for the person's receipts API and the service's JWK Set. */
function storyApi(answer: Answer, tampered: boolean): typeof fetch {
  return async (input) => {
    const url = new URL(String(input));
    const reply = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    const { jwks, authorizations, disclosures } = await story;
    if (url.pathname === '/.well-known/jwks.json') return reply(jwks);
    if (answer === 'loading') return new Promise<Response>(() => {});
    if (answer === 'unauthorized') return reply({ message: 'The bearer token is not valid.', code: 'unauthorized' }, 401);
    if (answer === 'error') return reply({ message: 'Internal server error.', code: 'internal_error' }, 500);
    const disclosure = url.pathname.endsWith('/disclosure_receipts');
    const key = disclosure ? 'disclosure_receipts' : 'authorization_receipts';
    const rows = answer === 'empty' ? [] : disclosure ? disclosures : authorizations;
    const shown = tampered ? JSON.parse(JSON.stringify(rows).replace('prs_story', 'prs_st0ry')) : rows;
    return reply({ [key]: shown, next_cursor: null });
  };
}

const meta: Meta<Args> = {
  title: 'Elements/svc-receipts',
  component: 'svc-receipts',
  args: { view: 'authorization', answer: 'list', signedIn: true, tampered: false, dir: 'ltr' },
  argTypes: {
    view: {
      control: 'inline-radio',
      options: ['authorization', 'disclosure'],
      description: 'What was done in the person’s name, or agents disclosed to them.',
    },
    answer: {
      control: 'select',
      options: ['list', 'empty', 'loading', 'unauthorized', 'error'],
      description: 'What the story-local service answers.',
    },
    signedIn: { control: 'boolean', description: "Whether the page holds the person's access token." },
    tampered: { control: 'boolean', description: 'Change a byte of each receipt after signing: the check says tampered.' },
    dir: { control: 'inline-radio', options: ['ltr', 'rtl'], description: 'The page direction (the element mirrors).' },
    '--svc-receipts-accent': { control: 'color', table: { category: 'CSS custom properties' } },
    '--svc-receipts-gap': { control: 'text', table: { category: 'CSS custom properties' } },
  },
  render: (args) => {
    const style = CSS_ARGS.filter((k) => args[k])
      .map((k) => `${k}: ${args[k]}`)
      .join('; ');
    return html`<div class="story" dir=${args.dir}>
      <svc-receipts trust-url=${storyService()} view=${args.view} .fetch=${storyApi(args.answer, args.tampered)}
        .accessToken=${args.signedIn ? 'story-access-token' : undefined} style=${style || nothing}></svc-receipts>
      <story-event-log></story-event-log>
    </div>`;
  },
};
export default meta;

type Story = StoryObj<Args>;

/** A grant to an agent with its bounds and the actions it took, checked offline: valid. */
export const Ready: Story = {};
/** The agents an organisation disclosed to the person. */
export const Disclosures: Story = { args: { view: 'disclosure' } };
/** Each receipt changed after signing: the check says tampered. */
export const Tampered: Story = { args: { tampered: true } };
/** Right to left: the element uses logical properties only. */
export const RightToLeft: Story = { name: 'Ready: right to left', args: { dir: 'rtl' } };
/** Nothing done in the person's name yet. */
export const Empty: Story = { args: { answer: 'empty' } };
/** While the service has not answered. */
export const Loading: Story = { args: { answer: 'loading' } };
/** No access token yet: the `signed-out` slot (the drop zone still checks files). */
export const SignedOut: Story = { name: 'Signed out', args: { signedIn: false } };
/** The service refused the token (401). */
export const Unauthorized: Story = { name: 'Error: token refused', args: { answer: 'unauthorized' } };
/** The service failed (500): the `error` slot and a retry button. */
export const ErrorFromService: Story = { name: 'Error: service failed', args: { answer: 'error' } };
