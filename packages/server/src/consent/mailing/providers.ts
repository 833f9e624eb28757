// The providers' official clients behind one small interface. Every call to a provider goes through its client:
// Mailchimp's `@mailchimp/mailchimp_marketing` (a fresh ApiClient per connection: the package's default export is a
// process-wide singleton whose config one connection would overwrite for another) and Brevo's `@getbrevo/brevo`.
// `api_base_url` replaces the client's base path, so a stand-in of the documented API can answer.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { MailingProvider } from '@svc/schemas';

/** What the service reads and writes at a mailing tool. */
export interface MailingClient {
  /** Checks the list (and Mailchimp's marketing permission) exists; throws a ProviderError otherwise. */
  verify(): Promise<void>;
  /** Registers the inbound webhook with API-sourced events off; returns the provider's webhook id. */
  registerWebhook(url: string): Promise<string>;
  unregisterWebhook(id: string): Promise<void>;
  /** Writes the purpose's state to the member's marketing permission (and list membership where the provider ties them). */
  write(email: string, enabled: boolean): Promise<void>;
  /** Reads the member back: `off` when unsubscribed or the permission is off, `on`, or `absent`. */
  readBack(email: string): Promise<'on' | 'off' | 'absent'>;
}

/** A provider's refusal or an unreachable provider, with the provider's own message. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
  }
}

/** How a connection reaches its provider. */
export interface ClientConfig {
  provider: MailingProvider;
  apiKey: string;
  apiBaseUrl: string | null;
  listId: string;
  marketingPermissionId: string | null;
  /** Per-request timeout. */
  timeoutMs: number;
}

export function mailingClient(config: ClientConfig): MailingClient {
  return config.provider === 'mailchimp' ? mailchimpClient(config) : brevoClient(config);
}

// ---- Mailchimp Marketing API v3 -----------------------------------------------------------------------------------

interface MailchimpMember {
  status?: string;
  marketing_permissions?: { marketing_permission_id: string; enabled: boolean }[];
}
interface MailchimpLists {
  getList(listId: string, opts?: object): Promise<{ id: string; marketing_permissions?: boolean }>;
  getListMembersInfo(listId: string, opts?: object): Promise<{ members: MailchimpMember[] }>;
  getListMember(listId: string, hash: string, opts?: object): Promise<MailchimpMember>;
  setListMember(listId: string, hash: string, body: object, opts?: object): Promise<MailchimpMember>;
  updateListMember(listId: string, hash: string, body: object, opts?: object): Promise<MailchimpMember>;
  createListWebhook(listId: string, body: object): Promise<{ id: string }>;
  deleteListWebhook(listId: string, webhookId: string): Promise<unknown>;
}
interface MailchimpApiClient {
  basePath: string;
  timeout: number;
  setConfig(config: { apiKey: string }): void;
  lists: MailchimpLists;
}

const require = createRequire(import.meta.url);

/**
 * The hosts of each provider's own API. A production application's `api_base_url` must name one: the service then
 * calls only the provider (a host the organisation controls could resolve to a private address between the check
 * and the call, and neither official client takes the outbound agent that checks the address it connects to).
 */
const PROVIDER_HOSTS: Record<MailingProvider, RegExp> = {
  mailchimp: /^[a-z]+\d+\.api\.mailchimp\.com$/,
  brevo: /^api\.brevo\.com$/,
};

/** Why `url` may not be a production application's `api_base_url` for `provider`, or undefined when it may. */
export function productionBaseUrlRefusal(provider: MailingProvider, url: string): { code: string; message: string } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { code: 'invalid_api_base_url', message: 'must be an absolute URL' };
  }
  if (parsed.protocol !== 'https:') return { code: 'insecure_api_base_url', message: 'must be an https URL for a production application' };
  if (parsed.port !== '' || parsed.username !== '' || parsed.password !== '' || !PROVIDER_HOSTS[provider].test(parsed.hostname)) {
    const example = provider === 'mailchimp' ? 'https://us21.api.mailchimp.com/3.0' : 'https://api.brevo.com/v3';
    return { code: 'non_provider_api_base_url', message: `must be the provider's own API for a production application (e.g. ${example})` };
  }
  return undefined;
}

/** Mailchimp's subscriber hash: the MD5 of the lower-cased email, as its API requires (not a security use). */
export function subscriberHash(email: string): string {
  return createHash('md5').update(email.trim().toLowerCase(), 'utf8').digest('hex');
}

/** The data centre's API root from the key's `-us21` suffix, unless `api_base_url` names another. */
function mailchimpBase(config: ClientConfig): string {
  if (config.apiBaseUrl) return config.apiBaseUrl.replace(/\/+$/, '');
  const dc = /-([a-z]+\d+)$/.exec(config.apiKey)?.[1];
  if (!dc) throw new ProviderError('A Mailchimp API key ends in its data centre (e.g. "-us21").', 422);
  return `https://${dc}.api.mailchimp.com/3.0`;
}

async function mailchimpCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const e = err as { status?: number; message?: string; response?: { body?: { detail?: string; title?: string } } };
    const body = e.response?.body;
    throw new ProviderError(String(body?.detail ?? body?.title ?? e.message ?? 'Mailchimp did not answer.').slice(0, 300), e.status);
  }
}

/** Mailchimp's member as read back: `off` when unsubscribed, cleaned or the connection's permission is off. */
async function mailchimpReadBack(
  lists: MailchimpLists,
  list: string,
  permission: string | null,
  email: string,
): Promise<'on' | 'off' | 'absent'> {
  let member: MailchimpMember;
  try {
    member = await mailchimpCall(() => lists.getListMember(list, subscriberHash(email)));
  } catch (err) {
    if (err instanceof ProviderError && err.status === 404) return 'absent';
    throw err;
  }
  if (member.status === 'unsubscribed' || member.status === 'cleaned') return 'off';
  if (permission === null) return 'on';
  const p = member.marketing_permissions?.find((m) => m.marketing_permission_id === permission);
  return p?.enabled === false ? 'off' : 'on';
}

function mailchimpClient(config: ClientConfig): MailingClient {
  const ApiClient = require('@mailchimp/mailchimp_marketing/src/ApiClient.js') as new () => MailchimpApiClient;
  const client = new ApiClient();
  client.basePath = mailchimpBase(config);
  client.timeout = config.timeoutMs;
  client.setConfig({ apiKey: config.apiKey }); // no `server`: the base path is already the data centre's
  const { lists } = client;
  const list = config.listId;
  const permission = config.marketingPermissionId;
  return {
    async verify() {
      const found = await mailchimpCall(() => lists.getList(list));
      if (permission === null) return;
      if (!found.marketing_permissions)
        throw new ProviderError(`Audience ${list} has no marketing permissions (GDPR fields) enabled.`, 422);
      // Marketing permissions are listed on members; an audience with members must know the id.
      const { members } = await mailchimpCall(() => lists.getListMembersInfo(list, { count: 1 }));
      const known = members[0]?.marketing_permissions;
      if (known && !known.some((p) => p.marketing_permission_id === permission)) {
        throw new ProviderError(`Audience ${list} has no marketing permission ${permission}.`, 422);
      }
    },
    async registerWebhook(url) {
      const body = {
        url,
        events: { subscribe: false, unsubscribe: true, profile: true, cleaned: false, upemail: false, campaign: false },
        sources: { user: true, admin: true, api: false },
      };
      return (await mailchimpCall(() => lists.createListWebhook(list, body))).id;
    },
    async unregisterWebhook(id) {
      await mailchimpCall(() => lists.deleteListWebhook(list, id));
    },
    async write(email, enabled) {
      // A permission of its own when the audience has one; else the subscription status carries the purpose.
      const state =
        permission === null
          ? { status: enabled ? 'subscribed' : 'unsubscribed' }
          : { marketing_permissions: [{ marketing_permission_id: permission, enabled }] };
      const hash = subscriberHash(email);
      if (enabled) {
        await mailchimpCall(() => lists.setListMember(list, hash, { email_address: email, status_if_new: 'subscribed', ...state }));
        return;
      }
      // A withdrawal only changes a member that exists: nobody is added to an audience to be told no.
      try {
        await mailchimpCall(() => lists.updateListMember(list, hash, state));
      } catch (err) {
        if (!(err instanceof ProviderError && err.status === 404)) throw err;
      }
    },
    readBack: (email) => mailchimpReadBack(lists, list, permission, email),
  };
}

// ---- Brevo API v3 -------------------------------------------------------------------------------------------------

async function brevoCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const e = err as { statusCode?: number; message?: string; body?: { message?: string } };
    throw new ProviderError(String(e.body?.message ?? e.message ?? 'Brevo did not answer.').slice(0, 300), e.statusCode);
  }
}

function brevoClient(config: ClientConfig): MailingClient {
  // Required on first use: the package is some 580 modules, which every start of the service would otherwise load.
  const { BrevoClient } = require('@getbrevo/brevo') as typeof import('@getbrevo/brevo');
  const client = new BrevoClient({
    apiKey: config.apiKey,
    ...(config.apiBaseUrl ? { baseUrl: config.apiBaseUrl.replace(/\/+$/, '') } : {}),
    timeoutInSeconds: Math.max(1, Math.ceil(config.timeoutMs / 1000)),
    maxRetries: 0, // the outbox retries on its own schedule
  });
  const listId = Number(config.listId);
  const numericList = () => {
    if (!Number.isSafeInteger(listId)) throw new ProviderError('A Brevo list id is a number.', 422);
    return listId;
  };
  return {
    async verify() {
      const list = numericList();
      await brevoCall(() => client.contacts.getList({ listId: list }));
    },
    async registerWebhook(url) {
      // Brevo has no "source" filter: a marketing webhook on `unsubscribed` alone, which Brevo sends when the
      // person unsubscribes from a campaign (not for API changes); `contactUpdated` and `listAddition` also fire for
      // changes made through the API, so they are not asked for.
      const made = await brevoCall(() =>
        client.webhooks.createWebhook({ url, type: 'marketing', events: ['unsubscribed'], description: 'svc consent withdrawals' }),
      );
      return String((made as { id?: number | string }).id ?? '');
    },
    async unregisterWebhook(id) {
      await brevoCall(() => client.webhooks.deleteWebhook({ webhookId: Number(id) }));
    },
    async write(email, enabled) {
      const list = numericList();
      if (enabled) {
        await brevoCall(() => client.contacts.createContact({ email, listIds: [list], updateEnabled: true }));
        return;
      }
      try {
        await brevoCall(() => client.contacts.updateContact({ identifier: email, unlinkListIds: [list] }));
      } catch (err) {
        if (!(err instanceof ProviderError && err.status === 404)) throw err; // no contact: nothing to withdraw
      }
    },
    async readBack(email) {
      const list = numericList();
      let contact: { listIds?: number[]; listUnsubscribed?: number[]; emailBlacklisted?: boolean };
      try {
        contact = (await brevoCall(() => client.contacts.getContactInfo({ identifier: email }))) as typeof contact;
      } catch (err) {
        if (err instanceof ProviderError && err.status === 404) return 'absent';
        throw err;
      }
      if (contact.emailBlacklisted || contact.listUnsubscribed?.includes(list)) return 'off';
      // Not on the list but not unsubscribed from it either: nothing confirms a withdrawal.
      return contact.listIds?.includes(list) ? 'on' : 'absent';
    },
  };
}
