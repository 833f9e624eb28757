// What the other engines' end-to-end tests stand on: a reference server of their own (temporary data, the
// organisation's sandbox), a capturable flow, and the organisation's site of ../pages (its own loopback origin,
// allowed by the application), another organisation of the same service, plus the person's walk through a hosted
// decision page.
import type { RunningServer } from '@svc/server';
import { createHash } from 'node:crypto';
import { createCaptureFlow, startOrgSite, startOwnService, type OrgSite } from '../pages/org-site.js';
import type { Tab } from './driver.js';

export interface World {
  service: RunningServer & { stop(): Promise<void> };
  site: OrgSite;
  /** The capturable flow of the consent field and the snippet. */
  flowId: string;
  /** Calls the service's API with the sandbox's API token; answers status and JSON body. */
  api: Api;
  /** Creates a consent decision of the sandbox flow for the site's origin; answers its session token. */
  decision(mode: 'embed' | 'popup'): Promise<string>;
  /** Another organisation of the service named `name`, and a call of the API with its token. */
  organisation(name: string): Api;
  stop(): Promise<void>;
}

/** Calls the service's API with one organisation's token; answers status and JSON body. */
export type Api = <T = Record<string, unknown>>(path: string, json?: unknown) => Promise<{ status: number; body: T }>;

/** A call of the API at `baseUrl` with `token`. */
const caller =
  (baseUrl: string, token: string): Api =>
  async (path, json) => {
    const res = await fetch(baseUrl + path, {
      method: json === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    return { status: res.status, body: (await res.json()) as never };
  };

/**
 * Another organisation of `service` (its own account, development application and read/write API token, all named
 * `name`), written straight into storage as ../fixtures.ts's `otherOrganisation` does: the API has no signup.
 */
function otherOrganisation(service: RunningServer, name: string): Api {
  const now = new Date().toISOString();
  const suffix = `eng${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
  const token = createHash('sha256').update(`${service.url} ${suffix}`).digest('base64url');
  const db = service.context.db;
  db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').run(`acct_${suffix}`, name, now);
  db.prepare(
    `INSERT INTO applications (id, account_id, name, environment, created_at, updated_at) VALUES (?, ?, ?, 'development', ?, ?)`,
  ).run(`tp_dev_${suffix}`, `acct_${suffix}`, name, now, now);
  db.prepare(
    `INSERT INTO api_tokens (id, account_id, name, permissions, token_hash, created_at) VALUES (?, ?, ?, '["read","write"]', ?, ?)`,
  ).run(`api_token_${suffix}`, `acct_${suffix}`, `${name} e2e`, createHash('sha256').update(token).digest('hex'), now);
  return caller(service.url, token);
}

export async function startWorld(): Promise<World> {
  const service = await startOwnService();
  const { sandbox } = service;
  const flowId = await createCaptureFlow(service.url, sandbox.api_token);
  const site = await startOrgSite(
    { baseUrl: service.url, publishableKey: sandbox.publishable_key, apiToken: sandbox.api_token },
    sandbox.application_id,
  );
  const api = caller(service.url, sandbox.api_token);
  return {
    service,
    site,
    flowId,
    api,
    async decision(mode) {
      const created = await api<{ decision: { session_token: string } }>('/api/v1/decisions', {
        kind: 'consent',
        subject_ref: sandbox.flow_id,
        delivery_mode: mode,
        embed_origin: site.origin,
      });
      if (created.status !== 201) throw new Error(`creating a decision: ${created.status} ${JSON.stringify(created.body)}`);
      return created.body.decision.session_token;
    },
    organisation: (name) => otherOrganisation(service, name),
    async stop() {
      await site.close();
      await service.stop();
    },
  };
}

/** The person's walk through the sandbox flow's hosted page: intro, sign-in, code, the newsletter ticked, agree. */
export async function grantConsent(tab: Tab): Promise<void> {
  await tab.click((q) => q.button('Continue'));
  await tab.type('ada@example.com', (q) => q.field('Email address'));
  await tab.click((q) => q.button('Continue'));
  const code = (await tab.text((q) => q.all('.sandbox code')[0])).trim();
  await tab.type(code, (q) => q.field('Code'));
  await tab.click((q) => q.button('Verify'));
  await tab.click((q) => q.field('Email newsletter'));
  await tab.click((q) => q.button('Agree'));
}

/** What the site's recorder (../pages/record.js) kept in this tab: svc events and CSP violations. */
export function recorded(tab: Tab): Promise<{ type: string; target?: string; detail: Record<string, unknown> }[]> {
  return tab.evaluate(() => JSON.parse(sessionStorage.getItem('svcEvents') ?? '[]'));
}
