// The published JSON Schema documents besides the receipt's: the browser messages of protocol v2 at
// `/schemas/messages/{file}` and the webhook delivery bodies at `/schemas/webhooks/{file}`, byte for byte as
// `pnpm schemas` checks them in under schemas/ (same generators, same layout), as the receipt schema is served.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from '../../infra/context.js';
import { notFound } from '../../infra/errors.js';
import { route } from '../../infra/http/route.js';
import { WEBHOOK_SCHEMAS_BASE_URL, webhookJsonSchemas } from '../../platform/webhooks/json-schemas.js';

/** `{schema_url}`: where every published schema lives, so each document's `$id` is this plus its path. */
export const SCHEMA_URL = new URL(WEBHOOK_SCHEMAS_BASE_URL).origin;

/** One group of documents under `/schemas/{group}/`, generated once on first request. */
interface Group {
  name: string;
  baseUrl: string;
  generate(): Promise<Record<string, Record<string, unknown>>>;
  summary: string;
}

const groups: Group[] = [
  {
    name: 'messages',
    baseUrl: `${SCHEMA_URL}/schemas/messages/`,
    // Loaded on the first request: the generator is Node-side only, and loading @svc/server must read no file.
    generate: async () => (await import('@svc/protocol/json-schemas')).messageJsonSchemas(),
    summary: 'A JSON Schema of the browser messages (protocol v2): envelope.json, message.json, or a payload by type (ready.json ...)',
  },
  {
    name: 'webhooks',
    baseUrl: WEBHOOK_SCHEMAS_BASE_URL,
    generate: async () => webhookJsonSchemas(),
    summary: 'A JSON Schema of a webhook delivery body: event.json, or one event type (consent.granted.json ...)',
  },
];

/** The group's documents as the bytes `pnpm schemas` writes (two-space JSON and a newline), by file name. */
async function publishedTexts(group: Group): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (const [file, document] of Object.entries(await group.generate())) {
    if (document.$id !== group.baseUrl + file) throw new Error(`schemas/${group.name}/${file}: $id ${String(document.$id)}`);
    texts.set(file, `${JSON.stringify(document, null, 2)}\n`);
  }
  return texts;
}

/** Serves each group's documents at `/schemas/{group}/{file}` as `application/schema+json`, readable from any page. */
export function publishedSchemaRoutes(app: OpenAPIHono<Env>): void {
  for (const group of groups) {
    let texts: Promise<Map<string, string>> | undefined;
    route(
      app,
      {
        method: 'get',
        path: `/schemas/${group.name}/{file}`,
        summary: group.summary,
        tag: 'Receipts',
        response: { status: 200, description: 'application/schema+json' },
        errors: [404],
      },
      async (c) => {
        texts ??= publishedTexts(group);
        const text = (await texts).get(c.req.param('file') ?? '');
        if (text === undefined) throw notFound(`No schema ${c.req.param('file')} under /schemas/${group.name}/.`);
        c.header('Cache-Control', 'public, max-age=3600');
        c.header('Access-Control-Allow-Origin', '*');
        return c.body(text, 200, { 'Content-Type': 'application/schema+json' });
      },
    );
  }
}
