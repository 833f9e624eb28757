// <svc-applications> in every state, in both views. The element is the real one; the service's answers (`GET
// /api/v1/applications`, `GET|POST|DELETE .../{id}/allowed_origins`, `GET .../{id}/oauth_clients`, `GET|POST|DELETE
// /api/v1/api_tokens`, `POST .../{id}/rotate`) come from a story stand-in (the element's `fetch`) that keeps its
// origins and tokens for the story, so a change in the story updates the list and shows `svc-applications-change` in
// the log. A new token's value is made up here, and shown once.
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import type { AllowedOrigin, ApiToken, OAuthClient } from '@svc/schemas';
import { html, nothing } from 'lit';
import '@svc/elements';
import type { ApplicationRow } from '@svc/elements';
import { storyService } from './support/service.js';
import './support/event-log.js';

type Answer = 'list' | 'empty' | 'loading' | 'unauthorized' | 'error' | 'refused';

interface Args {
  view: 'applications' | 'api_tokens';
  answer: Answer;
  readonly: boolean;
  signedIn: boolean;
  dir: 'ltr' | 'rtl';
  '--svc-applications-accent'?: string;
  '--svc-applications-radius'?: string;
  '--svc-applications-gap'?: string;
}

const CSS_ARGS = ['--svc-applications-accent', '--svc-applications-radius', '--svc-applications-gap'] as const;
const days = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

const base = { active: true, application_type: 'web', visibility: 'private', browser_commit_enabled: false, home_country: 'US' };
const APPS: ApplicationRow[] = [
  {
    ...base,
    id: 'app_story_shop',
    name: 'Shop',
    environment: 'production',
    region: 'us',
    publishable_keys: [{ key: 'pk_live_story_shop', created_at: days(-200) }],
    created_at: days(-200),
    updated_at: days(-3),
  },
  {
    ...base,
    id: 'app_story_dev',
    name: 'Shop (development)',
    environment: 'development',
    region: 'dev',
    publishable_keys: [{ key: 'pk_test_story_shop', created_at: days(-210) }],
    created_at: days(-210),
    updated_at: days(-1),
  },
];

const ORIGINS: Record<string, AllowedOrigin[]> = {
  app_story_shop: [
    { origin: 'https://shop.example', last_seen_at: days(0), created_at: days(-200) },
    { origin: 'https://www.shop.example', last_seen_at: null, created_at: days(-20) },
  ],
  app_story_dev: [{ origin: 'http://localhost:3000', last_seen_at: days(-1), created_at: days(-210) }],
};

const client = (app: string, name: string, uris: string[]): OAuthClient => ({
  client_id: `oc_story_${app}`,
  application_id: app,
  name,
  client_type: 'confidential',
  token_endpoint_auth_method: 'client_secret_basic',
  redirect_uris: uris,
  grant_types: ['authorization_code', 'refresh_token'],
  id_token_signed_response_alg: 'ES256',
  created_at: days(-200),
  secret_rotated_at: null,
});
const CLIENTS: Record<string, OAuthClient[]> = {
  app_story_shop: [client('shop', 'Shop sign-in', ['https://shop.example/auth/callback'])],
  app_story_dev: [],
};

const token = (id: string, name: string, permissions: ApiToken['permissions'], used: number | null): Omit<ApiToken, 'token'> => ({
  id,
  name,
  permissions,
  created_at: days(-100),
  expires_at: id.endsWith('ci') ? days(90) : null,
  last_used_at: used === null ? null : days(used),
  rate_limit: null,
});
const TOKENS = [
  token('api_token_story_backend', 'Backend', ['write'], 0),
  token('api_token_story_ci', 'CI', ['read', 'audit:verify'], -2),
  token('api_token_story_old', 'Old export job', ['read'], null),
];

/** A made-up value: the story never holds a real one. */
const value = () => `svc_story_${crypto.randomUUID().replaceAll('-', '')}`;

/** The story's stand-in for the organisation's API: the answer the story names; changes change its copy. */
function storyApi(answer: Answer): typeof fetch {
  const origins = structuredClone(ORIGINS);
  let tokens = TOKENS.map((t) => ({ ...t }));
  const reply = (body: unknown, status = 200) =>
    new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const refused = () => reply({ message: 'This API token lacks the "write" permission.', code: 'insufficient_permissions' }, 403);
  return async (input, init) => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    if (answer === 'loading') return new Promise<Response>(() => {});
    if (answer === 'unauthorized')
      return reply({ message: 'The bearer token is not valid: not an API token, nor a current access token.', code: 'unauthorized' }, 401);
    if (answer === 'error') return reply({ message: 'Internal server error.', code: 'internal_error' }, 500);
    if (answer === 'refused' && method !== 'GET') return refused();
    const path = url.pathname.replace(/^.*\/api\/v1/, '');
    const app = /^\/applications\/([^/]+)\/(allowed_origins|oauth_clients)(?:\/(.+))?$/.exec(path);
    if (app) {
      const [, id, what, origin] = app as unknown as [string, string, string, string | undefined];
      if (what === 'oauth_clients') return reply({ oauth_clients: CLIENTS[id] ?? [], next_cursor: null });
      const list = (origins[id] ??= []);
      if (method === 'DELETE') {
        origins[id] = list.filter((o) => o.origin !== decodeURIComponent(origin ?? ''));
        return reply(null, 204);
      }
      if (method === 'POST') return addOrigin(list, JSON.parse(String(init?.body)).allowed_origin.origin, reply);
      return reply({ allowed_origins: list, next_cursor: null });
    }
    if (path === '/applications') return reply({ applications: answer === 'empty' ? [] : APPS, next_cursor: null });
    const one = /^\/api_tokens\/([^/]+)(\/rotate)?$/.exec(path);
    if (one && method === 'DELETE') {
      tokens = tokens.filter((t) => t.id !== one[1]);
      return reply(null, 204);
    }
    const found = tokens.find((t) => t.id === one?.[1]);
    if (one?.[2] && found) return reply({ api_token: { ...found, token: value() } });
    if (method === 'POST') {
      const { name, permissions } = JSON.parse(String(init?.body)).api_token;
      const made = { ...token(`api_token_story_${tokens.length + 1}`, name, permissions, null), created_at: days(0) };
      tokens.push(made);
      return reply({ api_token: { ...made, token: value() } }, 201);
    }
    return reply({ api_tokens: answer === 'empty' ? [] : tokens, next_cursor: null });
  };
}

/** The service's origin check, roughly: scheme, host and port only. */
function addOrigin(list: AllowedOrigin[], origin: string, reply: (body: unknown, status?: number) => Response): Response {
  let parsed: URL | undefined;
  try {
    parsed = new URL(origin);
  } catch {
    // Said below.
  }
  if (!parsed || parsed.origin !== origin.replace(/\/$/, '').toLowerCase())
    return reply(
      { message: 'allowed_origin.origin: must be a scheme, host and optional port, without a path.', code: 'invalid_origin' },
      422,
    );
  const known = list.find((o) => o.origin === parsed.origin);
  if (known) return reply({ allowed_origin: known });
  const made = { origin: parsed.origin, last_seen_at: null, created_at: days(0) };
  list.push(made);
  return reply({ allowed_origin: made }, 201);
}

const meta: Meta<Args> = {
  title: 'Elements/svc-applications',
  component: 'svc-applications',
  args: { view: 'applications', answer: 'list', readonly: false, signedIn: true, dir: 'ltr' },
  argTypes: {
    view: { control: 'inline-radio', options: ['applications', 'api_tokens'], description: 'What the element lists.' },
    answer: {
      control: 'select',
      options: ['list', 'empty', 'loading', 'unauthorized', 'error', 'refused'],
      description: 'What the story-local service answers (`refused`: reads, but refuses every change with 403).',
    },
    readonly: { control: 'boolean', description: "A viewer's console: no change controls." },
    signedIn: { control: 'boolean', description: "Whether the page holds the console's token." },
    dir: { control: 'inline-radio', options: ['ltr', 'rtl'], description: 'The page direction (the element mirrors).' },
    '--svc-applications-accent': { control: 'color', table: { category: 'CSS custom properties' } },
    '--svc-applications-radius': { control: 'text', table: { category: 'CSS custom properties' } },
    '--svc-applications-gap': { control: 'text', table: { category: 'CSS custom properties' } },
  },
  render: (args) => {
    const style = CSS_ARGS.filter((k) => args[k])
      .map((k) => `${k}: ${args[k]}`)
      .join('; ');
    return html`<div class="story" dir=${args.dir}>
      <svc-applications view=${args.view} ?readonly=${args.readonly} trust-url=${storyService()} .fetch=${storyApi(args.answer)}
        .accessToken=${args.signedIn ? 'story-console-token' : undefined} style=${style || nothing}></svc-applications>
      <story-event-log></story-event-log>
    </div>`;
  },
  parameters: {
    docs: {
      description: {
        component:
          'Answers come from a story stand-in for the organisation API. Allow an origin such as `https://blog.shop.example` (one with a ' +
          'path is refused at the field), remove one (asks first; Escape cancels). In the API tokens view, create a token: its made-up ' +
          'value is shown once, until dismissed; rotate and revoke ask first. Each change shows `svc-applications-change` in the log.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<Args>;

/** Two applications, their allowed origins and OAuth clients: allow an origin, or remove one. */
export const Ready: Story = {};
/** The API tokens: create one (its value shown once), rotate or revoke one. */
export const ApiTokens: Story = { name: 'API tokens', args: { view: 'api_tokens' } };
/** A viewer's console: the same lists, no change controls. */
export const ReadOnly: Story = { name: 'Read-only (viewer)', args: { readonly: true } };
/** A viewer's console without `readonly`: every change is refused (403), said with the service's message. */
export const Refused: Story = { name: 'Refused: viewer role', args: { view: 'api_tokens', answer: 'refused' } };
/** Right to left: the element uses logical properties only. */
export const RightToLeft: Story = { name: 'Ready: right to left', args: { dir: 'rtl' } };
/** No applications yet: said plainly (the `empty` slot). */
export const Empty: Story = { args: { answer: 'empty' } };
/** While the service has not answered. */
export const Loading: Story = { args: { answer: 'loading' } };
/** No token yet: the `signed-out` slot. */
export const SignedOut: Story = { name: 'Signed out', args: { signedIn: false } };
/** The service refused the token (401): `svc-error` `unauthorized`, and the `signed-out` slot. */
export const Unauthorized: Story = { name: 'Error: token refused', args: { answer: 'unauthorized' } };
/** The service failed (500): `svc-error` `http`, the `error` slot and a retry button. */
export const ErrorFromService: Story = { name: 'Error: service failed', args: { answer: 'error' } };
