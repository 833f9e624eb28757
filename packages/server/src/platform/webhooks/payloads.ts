// Turns a domain event into the exact JSON body every attempt of its deliveries sends. Emitters (decisions,
// records) fill `data`; fields they leave out get their neutral value (null, [], the event's time) so a receiver
// always sees every field the published schema names.
import { WEBHOOK_EVENT_TYPES, webhookEventSchemas, type WebhookEventType } from '@svc/schemas';
import type { DomainEvent } from '../../infra/events.js';

const deliverable = new Set<string>(WEBHOOK_EVENT_TYPES);

/** Whether webhooks deliver this event type (the subscribable types; `webhook.test` is sent only on request). */
export function isDeliverable(type: string): type is WebhookEventType {
  return deliverable.has(type);
}

/** Fields holding the time of the change; they default to the event's `occurred_at`. */
const TIME_FIELDS = new Set(['decided_at', 'revoked_at']);

type Shape = Record<string, { _zod: { def: { type: string } } }>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function withDefaults(type: keyof typeof webhookEventSchemas, data: Record<string, unknown>, occurredAt: string): Record<string, unknown> {
  const shape = (webhookEventSchemas[type].shape.data as unknown as { shape: Shape }).shape;
  const out: Record<string, unknown> = { ...data };
  // The hosted-decision emitter names the person `subject`; the published name is the spec's `subject_ref`.
  if ('subject_ref' in shape && out.subject_ref === undefined && out.subject !== undefined) {
    out.subject_ref = out.subject;
    delete out.subject;
  }
  if (isObject(out.subject_ref)) out.subject_ref = { email: null, external_id: null, ...out.subject_ref };
  if (Array.isArray(out.purposes)) out.purposes = out.purposes.map((p: unknown) => (isObject(p) ? { basis: null, ...p } : p));
  if ('purpose' in shape) {
    out.outcome ??= 'revoked';
    out.withdrawn ??= typeof out.purpose === 'string' ? [{ key: out.purpose, outcome: out.outcome }] : undefined;
  }
  for (const [key, field] of Object.entries(shape)) {
    if (out[key] !== undefined) continue;
    const kind = field._zod.def.type;
    if (TIME_FIELDS.has(key)) out[key] = occurredAt;
    else if (kind === 'nullable') out[key] = null;
    else if (kind === 'array') out[key] = [];
  }
  return out;
}

/** A delivery body and whether it matches the published schema of its type. */
export interface EventBody {
  body: string;
  problems: string[];
}

/**
 * The body of event `id`: `{id, type, application_id, occurred_at, data}`. A body that does not match its schema
 * is still delivered (the change it reports has committed); `problems` says what is wrong so it can be logged.
 */
export function buildEventBody(
  id: string,
  type: keyof typeof webhookEventSchemas,
  applicationId: string,
  occurredAt: string,
  data: Record<string, unknown>,
): EventBody {
  const event = { id, type, application_id: applicationId, occurred_at: occurredAt, data: withDefaults(type, data, occurredAt) };
  const result = webhookEventSchemas[type].safeParse(event);
  const problems = result.success ? [] : result.error.issues.map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`);
  return { body: JSON.stringify(event), problems };
}

/** {@link buildEventBody} for a domain event. */
export function bodyOfDomainEvent(id: string, event: DomainEvent & { type: WebhookEventType }): EventBody {
  return buildEventBody(id, event.type, event.application_id, event.occurred_at, event.data);
}
