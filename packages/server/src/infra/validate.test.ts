// A cap on the JSON work one request can ask for. A body's structure is counted before it is parsed or validated
// (members of an object, elements of an array, values in all, depth) and one beyond the budget is refused with a
// 422 saying which limit; a body within it that fails validation lists at most MAX_FIELD_ERRORS problems.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../testing.js';
import { fieldErrors, JSON_BUDGET, jsonOverBudget, MAX_FIELD_ERRORS, type Issue } from './validate.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ rateLimits: false });
});
after(() => server.dispose());

type Body = { message: string; code: string; errors?: { path: string; code: string; message: string }[] };

/** POSTs a raw JSON text to the decisions endpoint as a page would (publishable key), answering status, body, size. */
async function post(text: string, headers: Record<string, string> = { 'x-publishable-key': server.sandbox.publishable_key }) {
  const res = await fetch(`${server.url}/api/v1/decisions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: text,
  });
  const raw = await res.text();
  return { status: res.status, body: JSON.parse(raw) as Body, bytes: raw.length };
}

/** `{"k000000001":1,...}`: `keys` members, about 15 bytes each (60,000 make the 0.9 MB body). */
const wide = (keys: number) => `{${Array.from({ length: keys }, (_, i) => `"k${String(i).padStart(9, '0')}":1`).join(',')}}`;
const nested = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;

describe('the JSON work budget of a request body', () => {
  it('refuses a 0.9 MB body of 60,000 keys with 422 body_too_complex, before any validation, in a few hundred bytes', async () => {
    const text = wide(60_000);
    assert.ok(text.length > 900_000 && text.length < 1024 * 1024, `${text.length} bytes: under the body limit`);
    const callers: Record<string, string>[] = [
      { 'x-publishable-key': server.sandbox.publishable_key },
      { authorization: `Bearer ${server.sandbox.api_token}` },
    ];
    for (const headers of callers) {
      const { status, body, bytes } = await post(text, headers);
      assert.equal(status, 422);
      assert.equal(body.code, 'body_too_complex');
      assert.match(body.message, /more than 1000 members/);
      assert.equal(body.errors, undefined, 'no list of 60,000 unknown fields');
      assert.ok(bytes < 512, `answer of ${bytes} bytes`);
    }
  });

  it('refuses a body nested deeper than the budget, an array too long, and too many values in all', async () => {
    const cases: [string, RegExp][] = [
      [`{"metadata":${nested(JSON_BUDGET.depth)}}`, /deeper than 64 levels/],
      [`{"purposes":[${Array.from({ length: JSON_BUDGET.elements + 1 }, () => '1').join(',')}]}`, /more than 10000 elements/],
      [
        `{"a":[${Array.from({ length: 120 }, () => `[${Array.from({ length: 900 }, () => '1').join(',')}]`).join(',')}]}`,
        /more than 100000 values/,
      ],
    ];
    for (const [text, message] of cases) {
      const { status, body } = await post(text);
      assert.equal(status, 422, text.slice(0, 40));
      assert.equal(body.code, 'body_too_complex');
      assert.match(body.message, message);
    }
  });

  it('lets a body within the budget on to validation, whatever its strings contain', async () => {
    const within = await post(`{"metadata":${nested(JSON_BUDGET.depth - 1)}}`);
    assert.equal(within.status, 422);
    assert.equal(within.body.code, 'validation_failed', '63 levels: within the budget, refused by the schema');
    const punctuation = JSON.stringify({ kind: 'consent', subject_ref: `flw_${',{['.repeat(50_000)}"\\`, delivery_mode: 'popup' });
    const strings = await post(punctuation);
    assert.equal(strings.body.code, 'validation_failed', 'commas and brackets inside a string are not structure');
    assert.equal((await post('{"kind":')).body.code, 'malformed_json', 'malformed JSON is still a 400');
  });

  it(`lists at most ${MAX_FIELD_ERRORS} problems, the last saying how many more there were`, async () => {
    const { status, body } = await post(wide(900));
    assert.equal(status, 422);
    assert.equal(body.code, 'validation_failed');
    assert.equal(body.errors?.length, MAX_FIELD_ERRORS + 1);
    const last = body.errors!.at(-1)!;
    assert.equal(last.code, 'too_many_errors');
    assert.match(last.message, /and 80[0-9] more problems/);
  });
});

describe('jsonOverBudget (unit)', () => {
  const small = { depth: 3, members: 2, elements: 3, total: 6 };

  it('counts members, elements, values and depth outside strings only', () => {
    assert.equal(jsonOverBudget('{"a":1,"b":2}', small), undefined);
    assert.match(jsonOverBudget('{"a":1,"b":2,"c":3}', small) ?? '', /more than 2 members/);
    assert.equal(jsonOverBudget('[1,2,3]', small), undefined);
    assert.match(jsonOverBudget('[1,2,3,4]', small) ?? '', /more than 3 elements/);
    assert.equal(jsonOverBudget('[[[1]]]', small), undefined);
    assert.match(jsonOverBudget('[[[[1]]]]', small) ?? '', /deeper than 3 levels/);
    assert.match(jsonOverBudget('[[1,2],[3,4],[5,6]]', small) ?? '', /more than 6 values/);
    assert.equal(jsonOverBudget('{"a,b,c,d":"[[[[,,,,"}', small), undefined, 'structure inside strings');
    assert.equal(jsonOverBudget('["\\",\\",\\",\\"", "\\\\"]', small), undefined, 'escaped quotes and backslashes');
    assert.match(jsonOverBudget('["\\\\",1,2,3]', small) ?? '', /elements/, 'a string ending in an escaped backslash ends');
    assert.equal(jsonOverBudget('"unterminated, [[[[', small), undefined, 'left to JSON.parse to refuse');
  });

  it('caps the field errors built from a zod issue of many unknown keys', () => {
    const keys = Array.from({ length: 5000 }, (_, i) => `k${i}`);
    const errors = fieldErrors([{ code: 'unrecognized_keys', path: [], message: 'Unrecognized keys', keys }] as Issue[]);
    assert.equal(errors.length, MAX_FIELD_ERRORS + 1);
    assert.deepEqual(errors.at(-1), { path: '(body)', code: 'too_many_errors', message: 'and 4900 more problems not listed' });
    const few = fieldErrors([{ code: 'invalid_type', path: ['a'], message: 'Invalid input' }] as Issue[]);
    assert.deepEqual(few, [{ path: 'a', code: 'invalid_type', message: 'Invalid input' }]);
  });
});
