import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { MESSAGE_SCHEMAS_BASE_URL, messageJsonSchemas } from './json-schemas.js';
import { MESSAGE_TYPES } from './schemas.js';

// The same path from src/lib and from dist/lib.
const checkedIn = new URL('../../../../schemas/messages/', import.meta.url);
const documents = messageJsonSchemas();

describe('messageJsonSchemas', () => {
  it('generates the envelope, every payload and the whole message', () => {
    const expected = ['envelope.json', ...MESSAGE_TYPES.map((type) => `${type.slice(4)}.json`), 'message.json'];
    assert.deepEqual(Object.keys(documents).sort(), expected.sort());
  });

  for (const [file, document] of Object.entries(documents)) {
    it(`gives ${file} a Draft 2020-12 $schema, its $id and a title`, () => {
      assert.equal(document.$schema, 'https://json-schema.org/draft/2020-12/schema');
      assert.equal(document.$id, `${MESSAGE_SCHEMAS_BASE_URL}${file}`);
      assert.equal(typeof document.title, 'string');
      assert.equal(typeof document.description, 'string');
    });
  }

  it('closes the envelope to exactly the six required fields', () => {
    const envelope = documents['envelope.json'] as { required: string[]; additionalProperties: boolean; properties: Record<string, unknown> };
    const fields = ['type', 'kind', 'version', 'payload', 'ts', 'message_id'];
    assert.deepEqual(envelope.required, fields);
    assert.deepEqual(Object.keys(envelope.properties), fields);
    assert.equal(envelope.additionalProperties, false);
    assert.deepEqual(envelope.properties.version, { type: 'number', const: 2, description: 'The protocol version, always 2.' });
  });

  it('carries the zod checks, such as UUID v4 ids, UTC timestamps and integer heights', () => {
    const envelope = documents['envelope.json'] as { properties: Record<string, { format?: string; pattern?: string }> };
    assert.equal(envelope.properties.message_id?.format, 'uuid');
    assert.match(envelope.properties.message_id?.pattern ?? '', /-4\[0-9a-fA-F\]\{3\}-\[89abAB\]/);
    assert.equal(envelope.properties.ts?.format, 'date-time');
    assert.match(envelope.properties.ts?.pattern ?? '', /Z\)\)\$$/);
    const resize = documents['resize.json'] as { properties: { height: { type: string; minimum: number } } };
    assert.equal(resize.properties.height.type, 'integer');
    assert.equal(resize.properties.height.minimum, 0);
  });

  it('matches the files checked in under schemas/messages (run `pnpm schemas` after changing a schema)', () => {
    const files = readdirSync(checkedIn).filter((file) => file.endsWith('.json')).sort();
    assert.deepEqual(files, Object.keys(documents).sort(), 'schemas/messages is out of date: run `pnpm schemas`');
    for (const file of files) {
      const onDisk: unknown = JSON.parse(readFileSync(new URL(file, checkedIn), 'utf8'));
      assert.deepEqual(onDisk, documents[file], `schemas/messages/${file} is out of date: run \`pnpm schemas\``);
    }
  });
});
