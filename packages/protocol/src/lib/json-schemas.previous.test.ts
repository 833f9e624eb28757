// Hosts that validate with the JSON Schemas published before `signature_request` joined the kinds: the documents as
// they were then are kept under test/fixtures/messages-before-signature/ (envelope.json, ready.json, complete.json,
// message.json). The kind came additively, in version 2: such a host drops every message of the new kind, and for
// every other message its documents say exactly what the current ones say.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { samplePayloads } from '../testing/fakes.js';
import { messageJsonSchemas } from './json-schemas.js';
import { createMessage } from './message.js';
import { MESSAGE_TYPES, type Kind, messageSchema } from './schemas.js';

// ajv comes with the OpenAPI validator the workspace already has; it is not a dependency of its own.
const fromValidator = createRequire(createRequire(import.meta.url).resolve('@seriousme/openapi-schema-validator'));
type Validate = ((data: unknown) => boolean) & { errors?: unknown };
type Ajv = { compile(schema: object): Validate };
const Ajv2020 = (fromValidator('ajv/dist/2020.js') as { default: new (options: object) => Ajv }).default;
const addFormats = (fromValidator('ajv-formats') as { default: (ajv: Ajv) => void }).default;

const previousDir = new URL('../../test/fixtures/messages-before-signature/', import.meta.url);
const FILES = ['envelope.json', 'ready.json', 'complete.json', 'message.json'] as const;
type File = (typeof FILES)[number];

/** One validator per document; each document gets its own ajv, since the old and new ones share their `$id`s. */
function validators(read: (file: File) => object): Record<File, Validate> {
  const entries = FILES.map((file) => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    return [file, ajv.compile(read(file))] as const;
  });
  return Object.fromEntries(entries) as Record<File, Validate>;
}

const previous = validators((file) => JSON.parse(readFileSync(new URL(file, previousDir), 'utf8')) as object);
const current = validators((file) => messageJsonSchemas()[file]!);

const signed = { ...samplePayloads.signature_request['svc:complete'], outcome: 'signed' as const };

describe('a host validating with the documents published before signature_request', () => {
  it('are the documents as then published: consent and approval only, no signed outcome', () => {
    const envelope = JSON.parse(readFileSync(new URL('envelope.json', previousDir), 'utf8')) as {
      properties: { kind: { enum: string[] } };
    };
    assert.deepEqual(envelope.properties.kind.enum, ['consent', 'approval']);
    assert.doesNotMatch(readFileSync(new URL('complete.json', previousDir), 'utf8'), /"signed"/);
  });

  for (const type of MESSAGE_TYPES) {
    it(`drops a signature_request ${type}, which the current documents and schemas take`, () => {
      const message = createMessage(type, 'signature_request', samplePayloads.signature_request[type]);
      assert.equal(previous['envelope.json'](message), false);
      assert.equal(previous['message.json'](message), false);
      assert.equal(current['envelope.json'](message), true, JSON.stringify(current['envelope.json'].errors));
      assert.equal(current['message.json'](message), true, JSON.stringify(current['message.json'].errors));
      assert.equal(messageSchema.safeParse(message).success, true);
    });
  }

  it('drops the signing payloads: a ready of kind signature_request and a signed completion', () => {
    assert.equal(previous['ready.json'](samplePayloads.signature_request['svc:ready']), false);
    assert.equal(current['ready.json'](samplePayloads.signature_request['svc:ready']), true);
    assert.equal(previous['complete.json'](signed), false);
    assert.equal(current['complete.json'](signed), true);
    // A declined or countered signing completion has the shape a consent or approval one has: the payload document
    // alone takes it, as it did; the envelope's kind is what an older host refuses.
    for (const outcome of ['declined', 'countered']) {
      assert.equal(previous['complete.json']({ ...signed, outcome }), true);
      const message = createMessage('svc:complete', 'signature_request', { ...signed, outcome } as never);
      assert.equal(previous['message.json'](message), false);
    }
  });

  it('gives every other message, valid or not, the verdict the current documents give', () => {
    const kinds: Kind[] = ['consent', 'approval'];
    // JSON-like data only: the documents are applied to parsed JSON, not to getters or proxies.
    const value = fc.oneof(fc.jsonValue(), fc.constantFrom('signature_request', 'signed', 'declined', 'countered'));
    const message = fc
      .record({
        kind: fc.constantFrom(...kinds),
        type: fc.constantFrom(...MESSAGE_TYPES),
        payloadOf: fc.constantFrom(...kinds, 'signature_request' as const),
      })
      .map(({ kind, type, payloadOf }) => {
        const valid = createMessage(type, kind, samplePayloads[kind][type] as never) as Record<string, unknown>;
        return { ...valid, payload: structuredClone(samplePayloads[payloadOf][type]) } as Record<string, unknown>;
      });
    const changed = fc
      .tuple(
        message,
        fc.option(fc.tuple(fc.constantFrom('type', 'kind', 'version', 'ts', 'message_id', 'extra'), value), { freq: 3 }),
        fc.option(fc.tuple(fc.constantFrom('outcome', 'kind', 'from', 'height', 'level', 'code', 'extra'), value), { freq: 3 }),
      )
      .map(([data, envelopeChange, payloadChange]) => {
        const copy: Record<string, unknown> = { ...data, payload: { ...(data.payload as object) } };
        if (envelopeChange) copy[envelopeChange[0]] = envelopeChange[1];
        if (payloadChange) (copy.payload as Record<string, unknown>)[payloadChange[0]] = payloadChange[1];
        return copy;
      });
    let accepted = 0;
    fc.assert(
      fc.property(changed, (data) => {
        for (const file of ['envelope.json', 'message.json'] as const) {
          // A change that made it a signature_request message: dropped, as above.
          const expected = data.kind === 'signature_request' ? false : current[file](data);
          assert.equal(previous[file](data), expected, `${file}: ${JSON.stringify(data)}`);
        }
        if (previous['message.json'](data)) accepted += 1;
      }),
      { numRuns: 3000 },
    );
    // Not a run of nothing but rejections: many messages pass both.
    assert.ok(accepted > 150, `only ${accepted} messages were valid`);
  });
});
