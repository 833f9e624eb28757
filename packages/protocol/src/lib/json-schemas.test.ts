import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { MESSAGE_SCHEMAS_BASE_URL, deadlineVariantsSchema, messageJsonSchemas } from './json-schemas.js';
import { MESSAGE_TYPES, deadlinePayloadSchema } from './schemas.js';

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
    const envelope = documents['envelope.json'] as {
      required: string[];
      additionalProperties: boolean;
      properties: Record<string, unknown>;
    };
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
    const files = readdirSync(checkedIn)
      .filter((file) => file.endsWith('.json'))
      .sort();
    assert.deepEqual(files, Object.keys(documents).sort(), 'schemas/messages is out of date: run `pnpm schemas`');
    for (const file of files) {
      const onDisk: unknown = JSON.parse(readFileSync(new URL(file, checkedIn), 'utf8'));
      assert.deepEqual(onDisk, documents[file], `schemas/messages/${file} is out of date: run \`pnpm schemas\``);
    }
  });
});

// The browser states the deadline payload as one object with a refine; the documents as the spec's two variants.
describe('the documented deadline variants', () => {
  it('take exactly what deadlinePayloadSchema takes, and return the same', () => {
    const payload = fc
      .tuple(
        fc.record({
          remaining_seconds: fc.oneof(
            fc.constantFrom(0, -0, 1, 5, 15, 30, 0.5, -1, 2 ** 53 - 1, 2 ** 53, NaN, Infinity, '0', '5', null),
            fc.integer({ min: -3, max: 40 }),
            fc.double(),
          ),
          level: fc.constantFrom('warning', 'expired', 'critical', '', null),
          deadline_at: fc.constantFrom('2030-01-01T00:00:00Z', '2030-01-01T00:00:00.5Z', '2030-01-01T00:00:00+01:00', null),
        }),
        // Now and then a field goes missing or one too many comes along.
        fc.option(fc.constantFrom('remaining_seconds', 'level', 'deadline_at', 'extra'), { freq: 4 }),
      )
      .map(([data, change]): Record<string, unknown> => {
        const copy: Record<string, unknown> = { ...data };
        if (change === 'extra') copy.extra = 1;
        else if (change !== null) delete copy[change];
        return copy;
      });
    fc.assert(
      fc.property(payload, (data) => {
        const actual = deadlinePayloadSchema.safeParse(data);
        const expected = deadlineVariantsSchema.safeParse(data);
        assert.equal(actual.success, expected.success);
        if (expected.success) assert.deepEqual(actual.data, expected.data);
      }),
      { numRuns: 5000 },
    );
  });
});
