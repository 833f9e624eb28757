import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { WEBHOOK_EVENT_TYPES } from '@svc/schemas';
import { WEBHOOK_SCHEMAS_BASE_URL, webhookJsonSchemas } from './json-schemas.js';

// The same path from src/webhooks and from dist/webhooks.
const checkedIn = new URL('../../../../../schemas/webhooks/', import.meta.url);
const documents = webhookJsonSchemas();

describe('webhookJsonSchemas', () => {
  it('generates one document per event type, the test event and the union', () => {
    const expected = [...WEBHOOK_EVENT_TYPES.map((t) => `${t}.json`), 'webhook.test.json', 'event.json'];
    assert.deepEqual(Object.keys(documents).sort(), expected.sort());
  });

  for (const [file, document] of Object.entries(documents)) {
    it(`gives ${file} a Draft 2020-12 $schema, its $id, a title and the envelope fields`, () => {
      assert.equal(document.$schema, 'https://json-schema.org/draft/2020-12/schema');
      assert.equal(document.$id, `${WEBHOOK_SCHEMAS_BASE_URL}${file}`);
      assert.equal(typeof document.title, 'string');
      assert.equal(typeof document.description, 'string');
      if (file === 'event.json') return;
      assert.deepEqual(document.required, ['id', 'type', 'application_id', 'occurred_at', 'data']);
      const properties = document.properties as Record<string, { const?: string; pattern?: string }>;
      assert.equal(properties.type?.const, file.slice(0, -'.json'.length));
      assert.equal(properties.id?.pattern, '^evt_[A-Za-z0-9]{8,64}$');
      assert.deepEqual(document.additionalProperties, {}, 'open: receivers ignore fields they do not know');
    });
  }

  it('carries what the spec says a consent.granted carries', () => {
    const data = (
      documents['consent.granted.json']!.properties as Record<string, { properties: Record<string, unknown>; required: string[] }>
    ).data!;
    for (const field of ['consent_token', 'user_id', 'flow_id', 'subject_ref', 'purposes']) assert.ok(data.required.includes(field), field);
    const revoked = (documents['consent.revoked.json']!.properties as Record<string, { required: string[] }>).data!;
    for (const field of ['subject_ref', 'purposes', 'withdrawn']) assert.ok(revoked.required.includes(field), field);
  });

  it('matches the files checked in under schemas/webhooks (run `pnpm schemas` after changing a schema)', () => {
    const files = readdirSync(checkedIn)
      .filter((file) => file.endsWith('.json'))
      .sort();
    assert.deepEqual(files, Object.keys(documents).sort(), 'schemas/webhooks is out of date: run `pnpm schemas`');
    for (const file of files) {
      const onDisk: unknown = JSON.parse(readFileSync(new URL(file, checkedIn), 'utf8'));
      assert.deepEqual(onDisk, documents[file], `schemas/webhooks/${file} is out of date: run \`pnpm schemas\``);
    }
  });
});
