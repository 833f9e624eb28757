// Stand-ins of the providers' documented APIs on loopback, for the mailing tests: Mailchimp Marketing API v3
// (`GET /lists/{id}`, `GET /lists/{id}/members`, `GET|PUT|PATCH /lists/{id}/members/{hash}`, `POST /lists/{id}/webhooks`,
// `DELETE /lists/{id}/webhooks/{id}`) and Brevo API v3 (`GET /contacts/lists/{id}`, `POST /contacts`,
// `GET|PUT /contacts/{identifier}`, `POST /webhooks`, `DELETE /webhooks/{id}`). Each keeps its members in memory,
// records every request, and can be made to answer 503 (the provider down).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hashSecret, newSecret, randomBase62 } from '../../infra/ids.js';
import type { TestServer } from '../../testing.js';

export interface StandInRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface StandIn {
  /** The API root to give as `api_base_url`. */
  url: string;
  requests: StandInRequest[];
  /** Members by lower-cased email: Mailchimp's status and permissions, or Brevo's contact. */
  members: Map<string, Record<string, unknown>>;
  webhooks: Map<string, Record<string, unknown>>;
  /** When true every call answers 503; `writes`: only PUT, PATCH and POST of members or contacts do. */
  down: boolean | 'writes';
  close(): Promise<void>;
}

type Handler = (s: StandIn, method: string, parts: string[], body: unknown) => [number, unknown];

/** The outage message; like some real refusals, it names the address the request carried. */
const down = (body: unknown) => {
  const email = (body as { email_address?: string; email?: string } | undefined)?.email_address;
  return `Down for maintenance.${email ? ` ${email} was not changed.` : ''}`;
};

async function start(root: string, handle: Handler): Promise<StandIn> {
  const state = { requests: [], members: new Map(), webhooks: new Map(), down: false } as unknown as StandIn;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const path = new URL(req.url ?? '/', 'http://x').pathname.slice(root.length);
      const body = text ? (JSON.parse(text) as unknown) : undefined;
      state.requests.push({ method: req.method ?? '', path, headers: req.headers, body });
      const write = req.method !== 'GET' && req.method !== 'DELETE' && /members|contacts$|contacts\/[^/]+@/.test(path);
      const [status, answer] =
        state.down === true || (state.down === 'writes' && write)
          ? [503, { title: 'Service Unavailable', detail: down(body), message: down(body) }]
          : handle(state, req.method ?? '', path.split('/').filter(Boolean).map(decodeURIComponent), body);
      if (answer === undefined) res.writeHead(status).end();
      else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${root}`;
  state.close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return state;
}

const mcMissing: [number, unknown] = [
  404,
  { title: 'Resource Not Found', status: 404, detail: 'The requested resource could not be found.' },
];

/** A Mailchimp stand-in with audience `list_id` whose marketing permission is `permission_id`. */
export function startMailchimp(listId: string, permissionId: string): Promise<StandIn> {
  return start('/3.0', (s, method, parts, body) => {
    const [lists, list, kind, id] = parts;
    if (lists !== 'lists' || list !== listId) return mcMissing;
    if (!kind && method === 'GET') return [200, { id: listId, name: 'Newsletter', marketing_permissions: true }];
    if (kind === 'webhooks' && method === 'POST') {
      const made = { id: `wh${s.webhooks.size + 1}`, ...(body as object) };
      s.webhooks.set(made.id, made);
      return [200, made];
    }
    if (kind === 'webhooks' && method === 'DELETE') return s.webhooks.delete(id ?? '') ? [204, undefined] : mcMissing;
    if (kind === 'members' && !id) return [200, { members: [...s.members.values()].slice(0, 1) }];
    if (kind !== 'members') return mcMissing;
    const found = [...s.members.entries()].find(([, m]) => m.id === id);
    if (method === 'GET' || (method === 'PATCH' && !found)) return found ? [200, found[1]] : mcMissing;
    const b = body as { email_address?: string; status?: string; status_if_new?: string; marketing_permissions?: object[] };
    const email = found?.[0] ?? b.email_address!.toLowerCase();
    const member = found?.[1] ?? {
      id,
      email_address: email,
      status: b.status_if_new,
      marketing_permissions: [{ marketing_permission_id: permissionId, text: 'Email', enabled: false }],
    };
    if (b.status) member.status = b.status;
    if (b.marketing_permissions) member.marketing_permissions = b.marketing_permissions;
    s.members.set(email, member);
    return [200, member];
  });
}

/** A Brevo stand-in with list `list_id` (a number). */
export function startBrevo(listId: number): Promise<StandIn> {
  return start('/v3', (s, method, parts, body) => {
    const missing: [number, unknown] = [404, { code: 'document_not_found', message: 'Contact does not exist' }];
    const [first, second, third] = parts;
    if (first === 'webhooks' && method === 'POST') {
      const id = s.webhooks.size + 1;
      s.webhooks.set(String(id), body as Record<string, unknown>);
      return [201, { id }];
    }
    if (first === 'webhooks' && method === 'DELETE') return s.webhooks.delete(second ?? '') ? [204, undefined] : missing;
    if (first !== 'contacts') return missing;
    if (second === 'lists') return Number(third) === listId ? [200, { id: listId, name: 'Newsletter', totalSubscribers: 0 }] : missing;
    if (!second && method === 'POST') {
      const b = body as { email: string; listIds?: number[] };
      const email = b.email.toLowerCase();
      const contact = s.members.get(email) ?? { id: s.members.size + 1, email, listIds: [], listUnsubscribed: [], emailBlacklisted: false };
      contact.listIds = [...new Set([...(contact.listIds as number[]), ...(b.listIds ?? [])])];
      s.members.set(email, contact);
      return [201, { id: contact.id }];
    }
    const contact = s.members.get((second ?? '').toLowerCase());
    if (!contact) return missing;
    if (method === 'GET') return [200, contact];
    const b = body as { unlinkListIds?: number[] };
    contact.listIds = (contact.listIds as number[]).filter((l) => !b.unlinkListIds?.includes(l));
    return [204, undefined];
  });
}

/** A second account with an API token holding `admin` (written straight into the cell's database); answers the token. */
export function otherAdminToken(server: TestServer): string {
  const db = server.context.db;
  const now = new Date(server.context.clock.now()).toISOString();
  const id = `acct_other_${randomBase62(8)}`;
  db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').run(id, 'Other', now);
  const token = newSecret();
  db.prepare(
    `INSERT INTO api_tokens (id, account_id, name, permissions, token_hash, created_at) VALUES (?, ?, 'Theirs', '["admin"]', ?, ?)`,
  ).run(`api_token_${id}`, id, hashSecret(token), now);
  return token;
}
