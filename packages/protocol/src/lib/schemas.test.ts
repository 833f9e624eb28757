import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runInNewContext } from 'node:vm';
import * as z from 'zod/mini';
import { samplePayloads } from '../testing/fakes.js';
import {
  KINDS,
  MESSAGE_TYPES,
  NON_EMPTY,
  UTC_DATE_TIME,
  UUID_V4,
  type Kind,
  type MessageType,
  approvalStatePayloadSchema,
  brandingSchema,
  consentStatePayloadSchema,
  deadlinePayloadSchema,
  envelopeSchema,
  errorPayloadSchema,
  kindSchema,
  messageSchema,
  payloadSchemas,
  readyPayloadSchema,
  utcDateTimeSchema,
} from './schemas.js';

const ID = '3b241101-e2bb-4255-8caf-4136c566a962';
const TS = '2030-01-01T00:00:00.000Z';

function raw(type: MessageType, kind: Kind, payload: unknown = samplePayloads[kind][type]): Record<string, unknown> {
  return { type, kind, version: 2, payload, ts: TS, message_id: ID };
}

const accepts = (data: unknown) => messageSchema.safeParse(data).success;

describe('messageSchema', () => {
  for (const kind of KINDS) {
    for (const type of MESSAGE_TYPES) {
      it(`accepts a valid ${kind} ${type}`, () => {
        assert.deepEqual(messageSchema.parse(raw(type, kind)), raw(type, kind));
      });
    }
  }

  describe('envelope', () => {
    const valid = raw('svc:resize', 'consent');
    for (const field of ['type', 'kind', 'version', 'payload', 'ts', 'message_id']) {
      it(`requires ${field}`, () => {
        const { [field]: _, ...rest } = valid;
        assert.equal(accepts(rest), false);
        assert.equal(envelopeSchema.safeParse(rest).success, false);
      });
    }

    it('accepts no other field', () => {
      assert.equal(accepts({ ...valid, extra: true }), false);
      assert.equal(envelopeSchema.safeParse({ ...valid, extra: true }).success, false);
    });

    const invalid: [string, Record<string, unknown>][] = [
      ['version 1', { version: 1 }],
      ['version 3', { version: 3 }],
      ['version "2"', { version: '2' }],
      ['an unknown type', { type: 'svc:unknown' }],
      ['a type without prefix', { type: 'resize' }],
      ['an unknown kind', { kind: 'signature' }],
      ['a ts with an offset', { ts: '2030-01-01T01:00:00+01:00' }],
      ['a ts without zone', { ts: '2030-01-01T00:00:00' }],
      ['a date-only ts', { ts: '2030-01-01' }],
      ['a ts as epoch number', { ts: 1893456000000 }],
      ['an impossible ts', { ts: '2030-02-30T00:00:00Z' }],
      ['a UUID v1 message_id', { message_id: 'c232ab00-9414-11ec-b3c8-9f6bdeced846' }],
      ['a UUID v7 message_id', { message_id: '01890a5d-ac96-774b-bcce-b302099a8057' }],
      ['a non-UUID message_id', { message_id: 'abc' }],
      ['a null payload', { payload: null }],
      ['an array payload', { payload: [] }],
    ];
    for (const [name, change] of invalid) {
      it(`rejects ${name}`, () => {
        assert.equal(accepts({ ...valid, ...change }), false);
        assert.equal(envelopeSchema.safeParse({ ...valid, ...change }).success, false);
      });
    }

    it('accepts a UTC ts with or without fractional seconds', () => {
      assert.equal(accepts({ ...valid, ts: '2030-01-01T00:00:00Z' }), true);
      assert.equal(accepts({ ...valid, ts: '2030-01-01T00:00:00.123456Z' }), true);
    });

    it('lets envelopeSchema accept any object payload, leaving it to the payload schemas', () => {
      assert.equal(envelopeSchema.safeParse(raw('svc:resize', 'consent', { anything: 1 })).success, true);
      assert.equal(accepts(raw('svc:resize', 'consent', { anything: 1 })), false);
    });
  });

  describe('kind consistency', () => {
    it('rejects an approval outcome in a consent message and the other way round', () => {
      assert.equal(accepts(raw('svc:complete', 'consent', samplePayloads.approval['svc:complete'])), false);
      assert.equal(accepts(raw('svc:complete', 'approval', samplePayloads.consent['svc:complete'])), false);
    });

    for (const outcome of ['granted', 'declined']) {
      it(`takes consent outcome ${outcome} only in consent messages`, () => {
        const payload = { ...samplePayloads.consent['svc:complete'], outcome };
        assert.equal(accepts(raw('svc:complete', 'consent', payload)), true);
        assert.equal(accepts(raw('svc:complete', 'approval', payload)), false);
      });
    }

    for (const outcome of ['approved', 'denied', 'countered']) {
      it(`takes approval outcome ${outcome} only in approval messages`, () => {
        const payload = { ...samplePayloads.approval['svc:complete'], outcome };
        assert.equal(accepts(raw('svc:complete', 'approval', payload)), true);
        assert.equal(accepts(raw('svc:complete', 'consent', payload)), false);
      });
    }

    for (const outcome of ['signed', 'declined', 'countered']) {
      it(`takes signing outcome ${outcome} in signature_request messages, and signed in no other kind`, () => {
        const payload = { ...samplePayloads.signature_request['svc:complete'], outcome };
        assert.equal(accepts(raw('svc:complete', 'signature_request', payload)), true);
        if (outcome === 'signed') {
          assert.equal(accepts(raw('svc:complete', 'consent', payload)), false);
          assert.equal(accepts(raw('svc:complete', 'approval', payload)), false);
        }
      });
    }

    for (const outcome of ['granted', 'approved', 'denied', 'expired', 'signature_request', '']) {
      it(`rejects outcome ${JSON.stringify(outcome)} in a signature_request completion`, () => {
        const payload = { ...samplePayloads.signature_request['svc:complete'], outcome };
        assert.equal(accepts(raw('svc:complete', 'signature_request', payload)), false);
      });
    }

    it('takes step_index/total_steps only for consent and kind_payload only for approval and signature_request', () => {
      assert.equal(accepts(raw('svc:state', 'approval', samplePayloads.consent['svc:state'])), false);
      assert.equal(accepts(raw('svc:state', 'consent', samplePayloads.approval['svc:state'])), false);
      assert.equal(accepts(raw('svc:state', 'signature_request', samplePayloads.consent['svc:state'])), false);
      assert.equal(accepts(raw('svc:state', 'consent', samplePayloads.signature_request['svc:state'])), false);
      assert.equal(accepts(raw('svc:state', 'signature_request', samplePayloads.approval['svc:state'])), true);
    });

    it('requires the ready payload kind to equal the envelope kind', () => {
      assert.equal(accepts(raw('svc:ready', 'approval', samplePayloads.consent['svc:ready'])), false);
      assert.equal(accepts(raw('svc:ready', 'consent', { ...samplePayloads.consent['svc:ready'], kind: 'approval' })), false);
      assert.equal(accepts(raw('svc:ready', 'signature_request', samplePayloads.approval['svc:ready'])), false);
      assert.equal(accepts(raw('svc:ready', 'approval', samplePayloads.signature_request['svc:ready'])), false);
    });

    it('rejects a payload of another type', () => {
      assert.equal(accepts(raw('svc:resize', 'consent', samplePayloads.consent['svc:cancel'])), false);
    });
  });
});

describe('payload schemas', () => {
  // Each row: a message type and kind, the change to its sample payload, and whether the result is valid.
  const cases: [MessageType, Kind, string, Record<string, unknown>, boolean][] = [
    ['svc:ready', 'consent', 'a missing session_token', { session_token: undefined }, false],
    ['svc:ready', 'consent', 'an empty session_token', { session_token: '' }, false],
    ['svc:ready', 'consent', 'a null deadline_at', { deadline_at: null }, true],
    ['svc:ready', 'consent', 'a deadline_at with offset', { deadline_at: '2030-01-01T00:10:00+02:00' }, false],
    ['svc:ready', 'consent', 'mode redirect', { mode: 'redirect' }, true],
    ['svc:ready', 'consent', 'mode inline', { mode: 'inline' }, false],
    ['svc:ready', 'consent', 'locale pt-BR', { locale: 'pt-BR' }, true],
    ['svc:ready', 'consent', 'locale "english"', { locale: 'english' }, false],
    ['svc:ready', 'consent', 'locale "en_GB"', { locale: 'en_GB' }, false],
    ['svc:ready', 'consent', 'empty branding', { branding: {} }, true],
    ['svc:ready', 'consent', 'an unknown branding key', { branding: { font: 'x' } }, false],
    ['svc:ready', 'consent', 'a javascript: logo_url', { branding: { logo_url: 'javascript:alert(1)' } }, false],
    ['svc:ready', 'consent', 'an ftp: logo_url', { branding: { logo_url: 'ftp://acme.example/logo.svg' } }, false],
    ['svc:ready', 'consent', 'a relative logo_url', { branding: { logo_url: '/logo.svg' } }, false],
    ['svc:ready', 'consent', 'a scheme-relative logo_url', { branding: { logo_url: '//acme.example/logo.svg' } }, false],
    // z.httpUrl() trims the URL, and parses it as browsers do (a space in the path, a newline the parser drops).
    ['svc:ready', 'consent', 'a logo_url with leading space', { branding: { logo_url: ' https://acme.example/logo.svg' } }, true],
    ['svc:ready', 'consent', 'a logo_url with a space inside', { branding: { logo_url: 'https://acme.example/my logo.svg' } }, true],
    ['svc:ready', 'consent', 'a logo_url with a newline in the host', { branding: { logo_url: 'https://acme.exa\nmple/logo.svg' } }, true],
    ['svc:ready', 'consent', 'a data: logo_url', { branding: { logo_url: 'data:image/svg+xml,<svg/>' } }, false],
    [
      'svc:ready',
      'consent',
      'an http logo_url with port and query',
      { branding: { logo_url: 'http://cdn.acme.example:8443/l.svg?v=2#x' } },
      true,
    ],
    ['svc:ready', 'consent', 'an upper-case HTTPS logo_url', { branding: { logo_url: 'HTTPS://ACME.EXAMPLE' } }, true],
    ['svc:ready', 'consent', 'an accent that is not a hex colour', { branding: { accent: 'red;}' } }, false],
    ['svc:ready', 'consent', 'an uppercase accent', { branding: { accent: '#A0B1C2' } }, true],
    ['svc:ready', 'consent', 'a null branding', { branding: null }, false],
    ['svc:ready', 'consent', 'an extra field', { theme: 'dark' }, false],
    ['svc:state', 'consent', 'the last step', { step_index: 2, total_steps: 3 }, true],
    ['svc:state', 'consent', 'step_index equal to total_steps', { step_index: 3, total_steps: 3 }, false],
    ['svc:state', 'consent', 'a negative step_index', { step_index: -1 }, false],
    ['svc:state', 'consent', 'a fractional step_index', { step_index: 0.5 }, false],
    ['svc:state', 'consent', 'zero total_steps', { step_index: 0, total_steps: 0 }, false],
    ['svc:state', 'consent', 'a missing total_steps', { total_steps: undefined }, false],
    ['svc:state', 'consent', 'an empty from', { from: '' }, false],
    ['svc:state', 'consent', 'consent fields and kind_payload together', { kind_payload: {} }, false],
    ['svc:state', 'approval', 'an empty kind_payload', { kind_payload: {} }, true],
    ['svc:state', 'approval', 'an array kind_payload', { kind_payload: [] }, false],
    ['svc:state', 'approval', 'a missing kind_payload', { kind_payload: undefined }, false],
    ['svc:complete', 'consent', 'outcome declined', { outcome: 'declined' }, true],
    ['svc:complete', 'consent', 'an empty exchange_token', { exchange_token: '' }, false],
    ['svc:complete', 'consent', 'a completed_at with offset', { completed_at: '2030-01-01T00:05:00-05:00' }, false],
    ['svc:cancel', 'consent', 'cancelled_by host', { cancelled_by: 'host' }, true],
    ['svc:cancel', 'consent', 'cancelled_by frame', { cancelled_by: 'frame' }, true],
    ['svc:cancel', 'consent', 'cancelled_by server', { cancelled_by: 'server' }, false],
    ['svc:cancel', 'consent', 'an empty reason', { reason: '' }, false],
    ['svc:error', 'consent', 'a string recoverable_via', { recoverable_via: 'reload' }, true],
    ['svc:error', 'consent', 'a missing recoverable_via', { recoverable_via: undefined }, false],
    ['svc:error', 'consent', 'fatal as a string', { fatal: 'true' }, false],
    ['svc:error', 'consent', 'an empty code', { code: '' }, false],
    ['svc:resize', 'consent', 'a fractional height', { height: 10.5 }, false],
    ['svc:resize', 'consent', 'a negative height', { height: -1 }, false],
    ['svc:resize', 'consent', 'a height as a string', { height: '640px' }, false],
    ['svc:resize', 'consent', 'an infinite height', { height: Infinity }, false],
    ['svc:resize', 'consent', 'a height of 1.5', { height: 1.5 }, false],
    ['svc:resize', 'consent', 'a height of 2**53', { height: 2 ** 53 }, false],
    ['svc:resize', 'consent', 'a height of 2**53 - 1', { height: 2 ** 53 - 1 }, true],
    ['svc:resize', 'consent', 'a NaN height', { height: NaN }, false],
    ['svc:state', 'consent', 'a total_steps of 2**53', { step_index: 0, total_steps: 2 ** 53 }, false],
    ['svc:state', 'approval', 'a Date kind_payload', { kind_payload: new Date(0) }, false],
    ['svc:state', 'approval', 'a null kind_payload', { kind_payload: null }, false],
    ['svc:deadline', 'consent', 'a warning at 5 seconds', { remaining_seconds: 5 }, true],
    ['svc:deadline', 'consent', 'a warning with no seconds left', { remaining_seconds: 0 }, false],
    ['svc:deadline', 'consent', 'an expired with seconds left', { remaining_seconds: 5, level: 'expired' }, false],
    ['svc:deadline', 'consent', 'an expired with a fraction of a second left', { remaining_seconds: 0.5, level: 'expired' }, false],
    ['svc:deadline', 'consent', 'a warning with fractional seconds', { remaining_seconds: 4.5 }, false],
    ['svc:deadline', 'consent', 'a warning with negative seconds', { remaining_seconds: -5 }, false],
    ['svc:deadline', 'consent', 'a warning with seconds as a string', { remaining_seconds: '5' }, false],
    ['svc:deadline', 'consent', 'a missing level', { level: undefined }, false],
    ['svc:deadline', 'consent', 'level critical', { level: 'critical' }, false],
    ['svc:deadline', 'consent', 'a null deadline_at', { deadline_at: null }, false],
    ['svc:deadline', 'approval', 'an expired at 0 seconds', {}, true],
  ];
  for (const [type, kind, name, change, valid] of cases) {
    it(`${valid ? 'accepts' : 'rejects'} ${type} (${kind}) with ${name}`, () => {
      const payload: Record<string, unknown> = { ...samplePayloads[kind][type], ...change };
      for (const key of Object.keys(change)) if (change[key] === undefined) delete payload[key];
      assert.equal(payloadSchemas[type].safeParse(payload).success, valid);
      assert.equal(accepts(raw(type, kind, payload)), valid);
    });
  }
});

// The schemas state some rules with fewer zod kinds than the obvious spelling (see schemas.ts): each must accept
// exactly what the kind it stands in for accepts.
describe('rules stated with fewer schema kinds', () => {
  it("uses zod's own date-time and UUID v4 patterns", () => {
    const pattern = (schema: z.ZodMiniType) => (schema._zod.def as { pattern?: RegExp }).pattern;
    assert.equal(UTC_DATE_TIME.source, pattern(z.iso.datetime())?.source);
    assert.equal(UUID_V4.source, pattern(z.uuidv4())?.source);
    assert.equal(UTC_DATE_TIME.flags + UUID_V4.flags, '');
  });

  const values: unknown[] = [
    undefined,
    null,
    true,
    false,
    0,
    1,
    'true',
    '',
    ' ',
    '\n',
    'a',
    '\uD800',
    '\u{1F600}',
    'consent',
    'approval',
    'Consent',
    'signature',
    '2030-01-01T00:00:00Z',
    '2030-01-01T00:00:00.123456Z',
    '2030-01-01T00:00Z',
    '2030-01-01T00:00:00+00:00',
    '2032-02-29T00:00:00Z',
    '2030-02-29T00:00:00Z',
    '2030-01-01T24:00:00Z',
    '3b241101-e2bb-4255-8caf-4136c566a962',
    '3B241101-E2BB-4255-8CAF-4136C566A962',
    'c232ab00-9414-11ec-b3c8-9f6bdeced846',
    '3b241101-e2bb-4255-cfaf-4136c566a962',
    {},
    [],
    new Date(0),
  ];
  const cases: [string, z.ZodMiniType, z.ZodMiniType][] = [
    ['a non-empty string', z.string().check(z.regex(NON_EMPTY)), z.string().check(z.minLength(1))],
    ['a UTC date-time', utcDateTimeSchema, z.iso.datetime()],
    ['a nullable UTC date-time', readyPayloadSchema.shape.deadline_at, z.nullable(z.iso.datetime())],
    ['a UUID v4', envelopeSchema.shape.message_id, z.uuidv4()],
    ['a kind', kindSchema, z.enum(KINDS)],
    ['a message type', envelopeSchema.shape.type, z.enum(MESSAGE_TYPES)],
    ['a boolean', errorPayloadSchema.shape.fatal, z.boolean()],
    ['a nullable non-empty string', errorPayloadSchema.shape.recoverable_via, z.nullable(z.string().check(z.minLength(1)))],
  ];
  for (const [name, schema, reference] of cases) {
    it(`accepts exactly what zod accepts as ${name}`, () => {
      for (const value of values) {
        const label = typeof value === 'string' ? JSON.stringify(value) : String(value);
        assert.equal(schema.safeParse(value).success, reference.safeParse(value).success, label);
      }
    });
  }
});

describe('integers, objects and URLs', () => {
  it('refuses, without throwing, integers that the object refines could not compare', () => {
    const hostile = {
      valueOf: () => {
        throw new Error('compared');
      },
    };
    for (const step_index of [Symbol('s'), hostile, 1n]) {
      assert.equal(consentStatePayloadSchema.safeParse({ from: 'a', to: 'b', step_index, total_steps: 2 }).success, false);
      assert.equal(consentStatePayloadSchema.safeParse({ from: 'a', to: 'b', step_index: 0, total_steps: step_index }).success, false);
    }
  });

  it('takes as a deadline payload a warning with whole seconds left or an expiry with none, nothing else', () => {
    const seconds = [0, -0, 1, 5, 30, 0.5, -1, 2 ** 53, NaN, '0', null];
    for (const remaining_seconds of seconds) {
      for (const level of ['warning', 'expired', 'critical', undefined]) {
        const payload = { remaining_seconds, level, deadline_at: '2030-01-01T00:00:00Z' };
        const valid =
          typeof remaining_seconds === 'number' &&
          Number.isSafeInteger(remaining_seconds) &&
          ((level === 'warning' && remaining_seconds > 0) || (level === 'expired' && remaining_seconds === 0));
        assert.equal(deadlinePayloadSchema.safeParse(payload).success, valid, JSON.stringify(payload));
      }
    }
  });

  it('takes any object of string keys as an any-object field, returning a copy without an own __proto__ key', () => {
    for (const schema of [envelopeSchema.shape.payload, approvalStatePayloadSchema.shape.kind_payload]) {
      const polluting = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
      const result = schema.safeParse(polluting);
      assert.ok(result.success);
      assert.deepEqual(Reflect.ownKeys(result.data), ['a']);
      assert.equal(Object.getPrototypeOf(result.data), Object.prototype);
      // As z.record(z.string(), z.unknown()) does: an object of another realm, and the own keys of an object whose
      // prototype is not Object.prototype.
      assert.deepEqual(schema.safeParse(runInNewContext('({ a: 1 })')), { success: true, data: { a: 1 } });
      assert.deepEqual(schema.safeParse(Object.create({ inherited: 1 })), { success: true, data: {} });
    }
  });

  it('reads an any-object field once: a getter cannot change the copy', () => {
    for (const schema of [envelopeSchema.shape.payload, approvalStatePayloadSchema.shape.kind_payload]) {
      let reads = 0;
      const value = Object.defineProperty({}, 'a', { enumerable: true, get: () => ++reads });
      const result = schema.safeParse(value);
      assert.ok(result.success);
      assert.deepEqual(result.data, { a: 1 });
      assert.equal(Object.getOwnPropertyDescriptor(result.data, 'a')?.value, 1);
    }
  });

  describe('logo_url', () => {
    const logoUrl = brandingSchema.shape.logo_url;
    const accepted = [
      'https://acme.example/logo.svg',
      'http://acme.example',
      'HTTPS://ACME.EXAMPLE/LOGO.SVG',
      'https://cdn.acme-corp.example:443/a/b/c.png?size=2&x=%20#top',
      'https://a.b.example:65535/',
      'https://a.b.example:0/',
      'http://svc.localhost:3000/logo.png',
      'https://acme.example?query',
      'https://acme.example#fragment',
      'https://acme.example/a@b/c:d',
      `https://${'a'.repeat(63)}.example/`,
      // IDN hosts, as punycode or as written (the URL parser turns them into punycode).
      'https://xn--bcher-kva.example/logo.svg',
      'https://bücher.example/logo.svg',
      // Written loosely, but what the URL parser takes: a space in the path, user info, an extra slash, a backslash,
      // an empty port.
      'https://acme.example/my logo.svg',
      'https://user:pass@acme.example/logo.svg',
      'https:///acme.example/logo.svg',
      'https://acme.example\\logo.svg',
      'https://ACME.example:/logo.svg',
    ];
    const refused = [
      'javascript:alert(1)',
      'JAVASCRIPT://acme.example/%0Aalert(1)',
      'data:image/png;base64,AAAA',
      'ftp://acme.example/logo.svg',
      'file:///etc/passwd',
      '/logo.svg',
      'logo.svg',
      '//acme.example/logo.svg',
      'http:acme.example',
      'https:/acme.example',
      'https://',
      'https://localhost/logo.svg',
      'https://127.0.0.1/logo.svg',
      'https://[::1]/logo.svg',
      'https://acme.example:65536/',
      'https://acme.example:99999/',
      'https://acme.example./logo.svg',
      'https://-acme.example/',
      'https://acme-.example/',
      'https://acme.e/',
      'https://acme.example1/',
      'https://xn--zz.example/',
      `https://${'a'.repeat(64)}.example/`,
      `https://${'abcdefghi.'.repeat(25)}example/`,
      '',
    ];
    for (const url of accepted) {
      it(`accepts ${JSON.stringify(url)} unchanged`, () => {
        assert.deepEqual(logoUrl.safeParse(url), { success: true, data: url });
      });
    }
    for (const url of refused) {
      it(`refuses ${JSON.stringify(url)}`, () => {
        assert.equal(logoUrl.safeParse(url).success, false);
      });
    }

    // z.httpUrl() trims the URL and drops the tabs and newlines the URL parser drops, so what it returns is the URL
    // browsers fetch.
    const rewritten = [
      [' https://acme.example/logo.svg', 'https://acme.example/logo.svg'],
      ['https://acme.example/logo.svg ', 'https://acme.example/logo.svg'],
      ['https://acme.exa\nmple/logo.svg', 'https://acme.example/logo.svg'],
      ['https://acme.example/\tlogo.svg', 'https://acme.example/logo.svg'],
    ];
    for (const [url, data] of rewritten) {
      it(`accepts ${JSON.stringify(url)} as ${JSON.stringify(data)}`, () => {
        assert.deepEqual(logoUrl.safeParse(url), { success: true, data });
      });
    }
  });
});
