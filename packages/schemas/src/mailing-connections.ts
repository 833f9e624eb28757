import { z } from 'zod/mini';
import { dateTime, listOf } from './common.js';

/** The mailing tools a connection can reach, each through its official Node client. */
export const mailingProvider = z.enum(['mailchimp', 'brevo']);
export type MailingProvider = z.infer<typeof mailingProvider>;

const ref = z.string().check(z.minLength(1), z.maxLength(100));

/** `POST /api/v1/mailing_connections`: a Mailchimp audience or a Brevo list bound to one purpose of one flow. */
export const createMailingConnectionRequest = z.strictObject({
  mailing_connection: z.strictObject({
    provider: mailingProvider,
    /** The provider's API key; sealed at rest and never returned. */
    api_key: z.string().check(z.minLength(1), z.maxLength(500)),
    /** Another host for the provider's API (Mailchimp: up to `/3.0`; Brevo: up to `/v3`); https for production applications. */
    api_base_url: z.optional(z.url({ protocol: /^https?$/ }).check(z.maxLength(2000))),
    /** Mailchimp audience id or Brevo list id. */
    list_id: ref,
    flow_id: ref,
    /** The flow's purpose key whose events the connection writes and whose withdrawals it receives. */
    purpose: ref,
    /** Mailchimp: the audience's marketing permission (GDPR field) the purpose is written to. */
    marketing_permission_id: z.optional(ref),
  }),
});
export type CreateMailingConnectionRequest = z.input<typeof createMailingConnectionRequest>;

/** A mailing connection as the API returns it (never its API key). */
export const mailingConnection = z.object({
  id: z.string(),
  provider: mailingProvider,
  list_id: z.string(),
  flow_id: z.string(),
  purpose: z.string(),
  marketing_permission_id: z.nullable(z.string()),
  /** The inbound URL registered at the provider; it carries the connection's secret. */
  webhook_url: z.string(),
  status: z.enum(['active', 'disconnected']),
  created_at: dateTime(),
});
export type MailingConnection = z.infer<typeof mailingConnection>;

/** `{mailing_connection: {...}}`. */
export const mailingConnectionEnvelope = z.object({ mailing_connection: mailingConnection });
/** `{mailing_connections: [...], next_cursor}`. */
export const mailingConnectionList = listOf('mailing_connections', mailingConnection);

/** What a mailing tool's inbound call is answered with. */
export const mailingHookResult = z.object({ status: z.enum(['applied', 'ignored']) });
