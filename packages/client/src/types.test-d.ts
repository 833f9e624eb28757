// Type tests, checked by `tsc -b` (never run): each `@ts-expect-error` must meet an error, or the build fails.
import {
  connect,
  createClient,
  createDecision,
  getDecision,
  getMe,
  isSvcError,
  listApiTokens,
  type SvcClient,
  type SvcPublishableClient,
} from './index.js';

const baseUrl = 'http://127.0.0.1:4010';
declare const unknownError: unknown;

export async function publishableKeyClient(): Promise<void> {
  const browser = createClient({ baseUrl, publishableKey: 'pk_test_abc' });
  browser satisfies SvcPublishableClient;
  await browser.decisions.create({ kind: 'consent', subject_ref: 'flw_dev_1', delivery_mode: 'embed', embed_origin: 'https://shop.example' });

  // @ts-expect-error a publishable key cannot read the calling identity
  await browser.me();
  // @ts-expect-error nor manage API tokens
  browser.apiTokens.list();
  // @ts-expect-error nor applications
  await browser.applications.get('tp_dev_1');
  // @ts-expect-error nor flows
  await browser.flows.list().page();
  // @ts-expect-error nor read a decision
  await browser.decisions.get('dts_1');
  // @ts-expect-error nor exchange one
  await browser.decisions.exchange('dts_1', 'x');
  // @ts-expect-error nor verify consent tokens
  await browser.consentTokens.verify('ct');
  // @ts-expect-error nor move the test clock
  await browser.testClock.advance(60);
}

export async function standaloneFunctions(): Promise<void> {
  const page = connect({ baseUrl, publishableKey: 'pk_test_abc' });
  await createDecision(page, { kind: 'consent', subject_ref: 'flw_dev_1', delivery_mode: 'redirect' });
  // @ts-expect-error a publishable connection is not accepted by server-only functions
  await getMe(page);
  // @ts-expect-error
  await getDecision(page, 'dts_1');
  // @ts-expect-error
  listApiTokens(page);

  const server = connect({ baseUrl, apiToken: 'secret' });
  await getMe(server);
  // The full client is a connection too.
  await getDecision(createClient({ baseUrl, apiToken: 'secret' }), 'dts_1');
}

export function credentials(): void {
  createClient({ baseUrl, apiToken: 'secret' }) satisfies SvcClient;
  createClient({ baseUrl, accessToken: 'at', delegationGrantId: 'dlg_dev_1' }) satisfies SvcClient;
  createClient({ baseUrl, apiToken: 'secret', delegationGrantId: 'dlg_dev_1' }) satisfies SvcClient;

  // @ts-expect-error a client takes one credential
  createClient({ baseUrl, apiToken: 'secret', publishableKey: 'pk_test_abc' });
  // @ts-expect-error
  createClient({ baseUrl, apiToken: 'secret', accessToken: 'at' });
  // @ts-expect-error a delegation grant needs a bearer credential
  createClient({ baseUrl, publishableKey: 'pk_test_abc', delegationGrantId: 'dlg_dev_1' });
  // @ts-expect-error no credential at all
  createClient({ baseUrl });
  // @ts-expect-error options are checked
  createClient({ baseUrl, apiToken: 'secret', timeoutMs: '100' });
}

export async function requestShapes(svc: SvcClient): Promise<void> {
  // @ts-expect-error kind is required
  await svc.decisions.create({ subject_ref: 'flw_dev_1', delivery_mode: 'redirect' });
  // @ts-expect-error delivery modes are embed, popup and redirect
  await svc.decisions.create({ kind: 'consent', subject_ref: 'flw_dev_1', delivery_mode: 'iframe' });
  // @ts-expect-error the request admits no additional properties
  await svc.decisions.create({ kind: 'consent', subject_ref: 'flw_dev_1', delivery_mode: 'redirect', flow_id: 'flw_dev_1' });
  // @ts-expect-error permissions are read, write and admin
  await svc.apiTokens.create({ name: 'x', permissions: ['superuser'] });
  // @ts-expect-error the envelope is the client's job, not the caller's
  await svc.apiTokens.create({ api_token: { name: 'x' } });
  // @ts-expect-error an origin is registered as an object
  await svc.applications.allowedOrigins.create('tp_dev_1', 'https://shop.example');
  // @ts-expect-error purposes need a basis and a mechanism
  await svc.flows.create({ pattern: 'standard', title: 'T', config: { purposes: [{ key: 'k', label: 'L' }] } });
  // @ts-expect-error the environment is part of an application's id and cannot change
  await svc.applications.update('tp_dev_1', { environment: 'production' });
  // @ts-expect-error seconds are a number
  await svc.testClock.advance('60');
  // @ts-expect-error only writes take an idempotency key
  await svc.me({ idempotencyKey: 'k' });
  await svc.decisions.create({ kind: 'consent', subject_ref: 'flw_dev_1', delivery_mode: 'redirect' }, { idempotencyKey: 'k' });
}

export async function responseShapes(svc: SvcClient): Promise<void> {
  // Create and rotate return the raw value; a list never does.
  const issued: string = (await svc.apiTokens.create({ name: 'x' })).token;
  const page = await svc.apiTokens.list({ limit: 2 }).page();
  // @ts-expect-error a listed token has no guaranteed value
  const listed: string = page.items[0]!.token;
  // @ts-expect-error items may be missing under noUncheckedIndexedAccess
  const first: string = page.items[0].name;
  for await (const token of svc.apiTokens.list()) token.permissions satisfies ('read' | 'write' | 'admin')[];
  void [issued, listed, first];
}

export function errors(): void {
  if (!isSvcError(unknownError)) return;
  switch (unknownError.code) {
    case 'ERR_SVC_RATE_LIMIT':
      unknownError.retryAfter satisfies number | undefined;
      break;
    case 'ERR_SVC_VALIDATION':
      unknownError.errors satisfies readonly { path: string; code: string; message: string }[];
      // @ts-expect-error only a rate limit error carries retryAfter
      void unknownError.retryAfter;
      break;
    // @ts-expect-error codes are a closed set
    case 'ERR_SVC_TEAPOT':
      break;
  }
}
