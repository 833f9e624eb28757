// <svc-evidence> in every state, in its three views. The element is the real one; the service's answers (`GET
// /api/v1/transfer_register`, `GET /api/v1/residency_posture`, `POST …/evidence_package`, `GET
// /api/v1/evidence_packages` and `…/{id}`, `/.well-known/jwks.json`) come from a story stand-in (the element's
// `fetch`). Its packages are really signed (ES256 with a key Web Crypto makes for the story), so Verify and "Check a
// package file" give the true verdict; one listed package was changed after signing, and does not verify.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import type { EvidencePackage, EvidencePackageSummary, ResidencyCountry, TransferEntry } from '@svc/schemas';
import { html, nothing } from 'lit';
import '@svc/elements';
import { storyService } from './support/service.js';
import './support/event-log.js';

type Answer = 'list' | 'empty' | 'loading' | 'unauthorized' | 'error' | 'viewer';

interface Args {
  view: 'evidence_packages' | 'transfer_register' | 'residency_posture';
  answer: Answer;
  signedIn: boolean;
  readonly: boolean;
  dir: 'ltr' | 'rtl';
  '--svc-evidence-accent'?: string;
  '--svc-evidence-radius'?: string;
  '--svc-evidence-gap'?: string;
}

const CSS_ARGS = ['--svc-evidence-accent', '--svc-evidence-radius', '--svc-evidence-gap'] as const;
const days = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
const APP = 'tp_dev_story_shop';
const KID = 'story-key-1';

const transfer = (n: number, category: string, from: string, to: string, basis: string, adequacy: string): TransferEntry => ({
  id: `trf_story_${n}`,
  application_id: APP,
  category,
  from_country: from,
  to_country: to,
  lawful_basis: basis,
  adequacy,
  created_at: days(-20 + n * 3),
});

const TRANSFERS: TransferEntry[] = [
  transfer(1, 'consent_proof', 'DE', 'US', 'gdpr_art45_adequacy_decision', 'adequacy_decision'),
  transfer(2, 'signature_evidence', 'FR', 'DE', 'gdpr_free_movement_eea', 'intra_eea'),
  transfer(3, 'consent_proof', 'DE', 'IN', 'gdpr_art46_standard_contractual_clauses', 'standard_contractual_clauses'),
];

const place = (country: string, subjects: number, elsewhere = 0): ResidencyCountry => ({
  country,
  storage_locations: [country],
  subjects,
  consent_records: subjects * 2,
  authorization_records: 0,
  notice_records: 1,
  receipts: subjects * 2 + 1,
  decisions: subjects,
  delegation_grants: 0,
  rows_checked: subjects * 4 + elsewhere,
  rows_homed_elsewhere: elsewhere,
  assurance: elsewhere ? 'attention' : 'verified',
});

const COUNTRIES = [place('US', 12), place('DE', 30, 1)];

const encoder = new TextEncoder();
const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** The story's signing key (Web Crypto, ES256) and its JWK Set, made once. */
const keys = crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']).then(async (pair) => ({
  pair,
  jwks: { keys: [{ ...(await crypto.subtle.exportKey('jwk', pair.publicKey)), kid: KID, alg: 'ES256', use: 'sig' }] },
}));

/** An evidence package as the service draws it: a compact JWS (ES256, typ svc-evidence+jwt) over the content. */
async function sign(id: string, format_type: string, drawn_at: string, body: object): Promise<EvidencePackage> {
  const { pair } = await keys;
  const header = b64url(encoder.encode(JSON.stringify({ alg: 'ES256', kid: KID, typ: 'svc-evidence+jwt' })));
  const content = { iss: storyService(), evidence_package_id: id, format_type, country: 'US', drawn_at, ...body };
  const payload = b64url(encoder.encode(JSON.stringify(content)));
  const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, encoder.encode(`${header}.${payload}`));
  return { evidence_package_id: id, format_type, package: `${header}.${payload}.${b64url(new Uint8Array(signature))}` };
}

const reply = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The story's packages: two that verify and one changed after signing (newest first). */
async function storyPackages(): Promise<Map<string, EvidencePackage & { created_at: string }>> {
  const made = new Map<string, EvidencePackage & { created_at: string }>();
  const add = async (id: string, format: string, age: number, body: object, tamper = false) => {
    const created_at = days(-age);
    const drawn = await sign(id, format, created_at, body);
    if (tamper) drawn.package = drawn.package.replace(/\.(.)/, (_, c: string) => `.${c === 'e' ? 'f' : 'e'}`);
    made.set(id, { ...drawn, created_at });
  };
  await add('evp_us_story_register', 'svc.transfer_register.v1', 1, { transfer_register: { total: 3 } });
  await add('evp_us_story_residency', 'svc.residency_posture.v1', 8, { residency_posture: { assurance: 'attention' } });
  await add('evp_us_story_changed', 'svc.transfer_register.v1', 30, { transfer_register: { total: 1 } }, true);
  return made;
}

const summary = (p: EvidencePackage & { created_at: string }): EvidencePackageSummary => ({
  id: p.evidence_package_id,
  format_type: p.format_type,
  kid: KID,
  payload_sha256: '0'.repeat(64),
  created_at: p.created_at,
});

/** The story's stand-in for the organisation's API: the answer the story names; drawing adds to its packages. */
function storyApi(answer: Answer): typeof fetch {
  const packages = storyPackages();
  let drawn = 0;
  return async (input, init) => {
    const path = new URL(String(input)).pathname;
    if (path.endsWith('/.well-known/jwks.json')) return reply((await keys).jwks);
    if (answer === 'loading') return new Promise<Response>(() => {});
    if (answer === 'unauthorized')
      return reply({ message: 'The bearer token is not valid: not an API token, nor a current access token.', code: 'unauthorized' }, 401);
    if (answer === 'error') return reply({ message: 'Internal server error.', code: 'internal_error' }, 500);
    const empty = answer === 'empty';
    const kept = await packages;
    if (init?.method === 'POST') {
      if (answer === 'viewer')
        return reply({ message: 'This API token lacks the "admin" permission.', code: 'insufficient_permissions' }, 403);
      const format = path.includes('residency') ? 'svc.residency_posture.v1' : 'svc.transfer_register.v1';
      const made = await sign(`evp_us_story_new_${(drawn += 1)}`, format, days(0), { note: 'drawn in the story' });
      kept.set(made.evidence_package_id, { ...made, created_at: days(0) });
      return reply(made, 201);
    }
    const one = /\/evidence_packages\/([^/]+)$/.exec(path);
    if (one) {
      const found = kept.get(decodeURIComponent(one[1]!));
      if (!found) return reply({ message: 'No such evidence package.', code: 'not_found' }, 404);
      const { created_at: _, ...envelope } = found;
      return reply(envelope);
    }
    if (path.endsWith('/evidence_packages'))
      return reply({
        evidence_packages: empty
          ? []
          : [...kept.values()]
              .reverse()
              .map(summary)
              .sort((a, b) => b.created_at.localeCompare(a.created_at)),
        next_cursor: null,
      });
    if (path.endsWith('/transfer_register')) return reply({ transfers: empty ? [] : TRANSFERS, next_cursor: null });
    if (path.endsWith('/residency_posture'))
      return reply({
        residency_posture: { drawn_at: days(0), assurance: empty ? 'verified' : 'attention', countries: empty ? [] : COUNTRIES },
      });
    return reply({ message: 'No such thing.', code: 'not_found' }, 404);
  };
}

const meta: Meta<Args> = {
  title: 'Elements/svc-evidence',
  component: 'svc-evidence',
  args: { view: 'evidence_packages', answer: 'list', signedIn: true, readonly: false, dir: 'ltr' },
  argTypes: {
    view: {
      control: 'inline-radio',
      options: ['evidence_packages', 'transfer_register', 'residency_posture'],
      description: 'What the element shows: the packages drawn, the transfer register, or the residency posture.',
    },
    answer: {
      control: 'select',
      options: ['list', 'empty', 'loading', 'unauthorized', 'error', 'viewer'],
      description: 'What the story-local service answers (`viewer` refuses a draw as it would refuse a token that may not).',
    },
    signedIn: { control: 'boolean', description: "Whether the page holds the console's token." },
    readonly: { control: 'boolean', description: 'A viewer: no Draw button (Download and Verify stay).' },
    dir: { control: 'inline-radio', options: ['ltr', 'rtl'], description: 'The page direction (the element mirrors).' },
    '--svc-evidence-accent': { control: 'color', table: { category: 'CSS custom properties' } },
    '--svc-evidence-radius': { control: 'text', table: { category: 'CSS custom properties' } },
    '--svc-evidence-gap': { control: 'text', table: { category: 'CSS custom properties' } },
  },
  render: (args) => {
    const style = CSS_ARGS.filter((k) => args[k])
      .map((k) => `${k}: ${args[k]}`)
      .join('; ');
    return html`<div class="story" dir=${args.dir}>
      <svc-evidence view=${args.view} ?readonly=${args.readonly} trust-url=${storyService()} .fetch=${storyApi(args.answer)}
        .accessToken=${args.signedIn ? 'story-console-token' : undefined} style=${style || nothing}></svc-evidence>
      <story-event-log></story-event-log>
    </div>`;
  },
  parameters: {
    docs: {
      description: {
        component:
          'Answers come from a story stand-in for the organisation API, whose packages are really signed (a key Web Crypto makes for ' +
          'the story). Verify a package (the oldest was changed after signing, and does not verify), download one and check the file, ' +
          'or draw a new package from the register or the posture; each draw shows `svc-evidence-change` in the event log.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<Args>;

/** Three packages drawn before: download, verify (one was changed and does not verify), or check a file. */
export const Ready: Story = {};
/** The transfer register: each route, its lawful basis and adequacy verdict; draw its package. */
export const TransferRegister: Story = { name: 'Transfer register', args: { view: 'transfer_register' } };
/** The residency posture: each country's assurance, one needing attention; draw its package. */
export const ResidencyPosture: Story = { name: 'Residency posture', args: { view: 'residency_posture' } };
/** Right to left: the element uses logical properties only. */
export const RightToLeft: Story = { name: 'Transfer register: right to left', args: { view: 'transfer_register', dir: 'rtl' } };
/** A viewer's console: no Draw button; Download and Verify stay. */
export const ReadOnly: Story = { name: 'Read-only (viewer)', args: { view: 'transfer_register', readonly: true } };
/** A token that may not draw, without `readonly`: the draw is refused in the service's words. */
export const Refused: Story = { name: 'Error: draw refused', args: { view: 'transfer_register', answer: 'viewer' } };
/** Nothing drawn yet: said plainly (the `empty` slot), and the file check is still there. */
export const Empty: Story = { args: { answer: 'empty' } };
/** While the service has not answered. */
export const Loading: Story = { args: { answer: 'loading' } };
/** No token yet: the `signed-out` slot. */
export const SignedOut: Story = { name: 'Signed out', args: { signedIn: false } };
/** The service refused the token (401): `svc-error` `unauthorized`, and the `signed-out` slot. */
export const Unauthorized: Story = { name: 'Error: token refused', args: { answer: 'unauthorized' } };
/** The service failed (500): `svc-error` `http`, the `error` slot and a retry button. */
export const ErrorFromService: Story = { name: 'Error: service failed', args: { answer: 'error' } };
