// Helpers for the capture, render and form platform tests: capturable flows and browser-like calls over HTTP.
import assert from 'node:assert/strict';
import type { FlowConfigInput, FlowRender } from '@svc/schemas';
import type { TestServer } from '../../testing.js';

/** A capturable flow: one purpose of each kind, a consent duration and no step beyond the decision. */
export const captureFlowConfig: FlowConfigInput = {
  locale: 'en',
  policy_url: 'https://example.com/privacy',
  consent_duration: 'P1Y',
  purposes: [
    {
      key: 'newsletter',
      label: 'Email newsletter',
      description: 'A monthly email about new features.',
      basis: 'consent',
      mechanism: 'explicit',
    },
    {
      key: 'partners',
      label: 'Offers from partners',
      description: 'We share your email with partners.',
      basis: 'consent',
      mechanism: 'explicit',
    },
    {
      key: 'analytics',
      label: 'Product analytics',
      description: 'Measuring use of the product. You may object.',
      basis: 'legitimate_interest',
      mechanism: 'opt_out',
    },
    {
      key: 'service',
      label: 'Providing the service',
      description: 'Processing your account data.',
      basis: 'contract',
      mechanism: 'notice',
      required: true,
    },
  ],
  steps: [{ type: 'review' }],
};

/** Creates and activates a flow (sandbox application unless `application_id` is given); returns its id. */
export async function createActiveFlow(
  server: TestServer,
  config: FlowConfigInput = captureFlowConfig,
  extra: { title?: string; application_id?: string } = {},
): Promise<string> {
  const created = await server.api('/api/v1/flows', {
    method: 'POST',
    json: {
      flow: {
        pattern: 'standard',
        title: extra.title ?? 'Signup consent',
        description: 'Consent asked in the signup form.',
        config,
        ...(extra.application_id ? { application_id: extra.application_id } : {}),
      },
    },
  });
  const body = (await created.json()) as { flow: { id: string } };
  assert.equal(created.status, 201, JSON.stringify(body));
  const activated = await server.api(`/api/v1/flows/${body.flow.id}/activate`, { method: 'POST' });
  assert.equal(activated.status, 200, await activated.text());
  return body.flow.id;
}

/** The server's own origin, an allowed origin of the sandbox application. */
export const originOf = (server: TestServer) => new URL(server.url).origin;

/** An application with browser commit on, the test server's own origin allowed, and an active capture flow of its own. */
export async function createCommitApplication(server: TestServer): Promise<{ id: string; key: string; flow: string }> {
  const created = await server.api('/api/v1/applications', {
    method: 'POST',
    json: { application: { name: 'Commit shop', browser_commit_enabled: true } },
  });
  const { application, publishable_key } = (await created.json()) as { application: { id: string }; publishable_key: string };
  await server.api(`/api/v1/applications/${application.id}/allowed_origins`, {
    method: 'POST',
    json: { allowed_origin: { origin: originOf(server) } },
  });
  const flow = await createActiveFlow(server, captureFlowConfig, { application_id: application.id });
  return { id: application.id, key: publishable_key, flow };
}

/** Headers of a browser call with the sandbox publishable key from `origin` (default: the allowed one). */
export function browserHeaders(
  server: TestServer,
  origin: string | null = originOf(server),
  key = server.sandbox.publishable_key,
): Record<string, string> {
  return { 'x-publishable-key': key, ...(origin ? { origin } : {}) };
}

/** `GET /api/v1/flows/{id}/render` as the consent field calls it. */
export function renderRequest(
  server: TestServer,
  flowId: string,
  options: { origin?: string | null; key?: string; query?: string } = {},
): Promise<Response> {
  return fetch(`${server.url}/api/v1/flows/${flowId}/render${options.query ?? ''}`, {
    headers: browserHeaders(server, options.origin === undefined ? originOf(server) : options.origin, options.key),
  });
}

/** Renders a flow and asserts 200. */
export async function render(server: TestServer, flowId: string, options: { origin?: string; key?: string } = {}): Promise<FlowRender> {
  const res = await renderRequest(server, flowId, options);
  const body = (await res.json()) as FlowRender;
  assert.equal(res.status, 200, JSON.stringify(body));
  return body;
}

/** `POST /api/v1/captures` as a page does, with an optional render proof. */
export function captureRequest(
  server: TestServer,
  body: unknown,
  options: { origin?: string | null; proof?: string; key?: string } = {},
): Promise<Response> {
  return fetch(`${server.url}/api/v1/captures`, {
    method: 'POST',
    headers: {
      ...browserHeaders(server, options.origin === undefined ? originOf(server) : options.origin, options.key),
      'content-type': 'application/json',
      ...(options.proof !== undefined ? { 'x-svc-render-proof': options.proof } : {}),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The capture answer. */
export interface CaptureAnswer {
  capture: { session_token: string; attestation_id: string; committed: boolean; record_id: string | null; wording_verdict: string | null };
}

/** Posts a capture and asserts 201. */
export async function capture(
  server: TestServer,
  body: unknown,
  options: { origin?: string | null; proof?: string; key?: string } = {},
): Promise<CaptureAnswer['capture']> {
  const res = await captureRequest(server, body, options);
  const json = (await res.json()) as CaptureAnswer;
  assert.equal(res.status, 201, JSON.stringify(json));
  return json.capture;
}

/** Decisions valid for {@link captureFlowConfig}: newsletter granted, partners declined (unticked), analytics ticked. */
export const validDecisions = {
  newsletter: { decision: 'granted', default_checked: false, mandatory: false },
  partners: { decision: 'declined', default_checked: false, mandatory: false },
  analytics: { decision: 'granted', default_checked: true },
};

/** `POST /api/v1/decisions/{token}/authorize` with the sandbox admin token. */
export function authorize(
  server: TestServer,
  token: string,
  body: unknown = { subject: { email: 'ada@example.com' } },
  path = 'decisions',
): Promise<Response> {
  return server.api(`/api/v1/${path}/${token}/authorize`, { method: 'POST', json: body });
}

/** Asserts a 4xx answer with `code` and returns its body. */
export async function expectError(
  res: Response,
  status: number,
  code: string,
): Promise<{ message: string; code: string; errors?: { path: string; code: string; message: string }[] }> {
  const body = (await res.json()) as { message: string; code: string; errors?: { path: string; code: string; message: string }[] };
  assert.equal(res.status, status, JSON.stringify(body));
  assert.equal(body.code, code, JSON.stringify(body));
  assert.ok(body.message.length > 0);
  return body;
}

/** Number of consent records in the server's database. */
export function recordCount(server: TestServer): number {
  return server.context.db.prepare('SELECT count(*) FROM consent_records').pluck().get() as number;
}
