// Helpers for the request-limit tests: applications of their own, what the server stored, the 429 they expect, and
// the window passing without waiting on the wall clock.
import assert from 'node:assert/strict';
import { mock } from 'node:test';
import type { TestServer } from '../../testing.js';
import { captureFlowConfig, createActiveFlow, originOf, validDecisions } from '../../consent/captures/test-support.js';

/** A development application with its own publishable key, the server's origin allowed, and an active capture flow. */
export interface OwnApplication {
  id: string;
  key: string;
  flowId: string;
}

export async function ownApplication(server: TestServer, name: string): Promise<OwnApplication> {
  const made = await server.api('/api/v1/applications', { method: 'POST', json: { application: { name } } });
  assert.equal(made.status, 201, await made.clone().text());
  const { application, publishable_key: key } = (await made.json()) as { application: { id: string }; publishable_key: string };
  const origin = await server.api(`/api/v1/applications/${application.id}/allowed_origins`, {
    method: 'POST',
    json: { allowed_origin: { origin: originOf(server) } },
  });
  assert.equal(origin.status, 201, await origin.clone().text());
  const flowId = await createActiveFlow(server, captureFlowConfig, { application_id: application.id });
  return { id: application.id, key, flowId };
}

/** The rows a publishable-key or API call could have written. */
const TABLES = ['captures', 'decisions', 'consent_records', 'audit_events', 'activity_events', 'idempotency_keys'];

export function stored(server: TestServer): Record<string, number> {
  return Object.fromEntries(
    TABLES.map((table) => [table, server.context.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number]),
  );
}

/** A browser's capture with an application's key, from the allowed origin, optionally as another client address. */
export function captureAs(
  server: TestServer,
  app: OwnApplication,
  options: { forwardedFor?: string; idempotencyKey?: string } = {},
): Promise<Response> {
  return fetch(`${server.url}/api/v1/captures`, {
    method: 'POST',
    headers: {
      'x-publishable-key': app.key,
      origin: originOf(server),
      'content-type': 'application/json',
      ...(options.forwardedFor ? { 'x-forwarded-for': options.forwardedFor } : {}),
      ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
    },
    body: JSON.stringify({ flow_id: app.flowId, decisions: validDecisions }),
  });
}

/**
 * Asserts a 429 of `policy`: code `rate_limited`, `Retry-After` in whole seconds within the window, and the IETF
 * `RateLimit-Policy` / `RateLimit` headers naming it with nothing left. Answers the Retry-After seconds.
 */
export async function assertLimited(res: Response, policy: { name: string; limit: number; windowSeconds: number }): Promise<number> {
  const body = (await res.json()) as { code: string; message: string };
  assert.equal(res.status, 429, JSON.stringify(body));
  assert.equal(body.code, 'rate_limited');
  assert.match(body.message, /Too many requests/);
  const retryAfter = Number(res.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= policy.windowSeconds, `Retry-After ${retryAfter}`);
  assert.equal(res.headers.get('ratelimit-policy'), `"${policy.name}";q=${policy.limit};w=${policy.windowSeconds}`);
  assert.equal(res.headers.get('ratelimit'), `"${policy.name}";r=0;t=${retryAfter}`);
  return retryAfter;
}

/**
 * Runs `then` once `seconds` have passed for the limiter. rate-limiter-flexible's memory store reads `Date.now()`,
 * not the server's clock, so the test moves `Date` alone forward (node:test's mock timers; real timers keep running)
 * and puts it back afterwards.
 */
export async function afterWaiting<T>(seconds: number, then: () => Promise<T>): Promise<T> {
  mock.timers.enable({ apis: ['Date'], now: Date.now() });
  try {
    mock.timers.tick(seconds * 1000);
    return await then();
  } finally {
    mock.timers.reset();
  }
}
