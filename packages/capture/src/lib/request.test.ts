import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { PurposeReading } from './controls.js';
import { composeRequest, pageUrlOf } from './request.js';
import { sha256Digest } from './text.js';

// The capture helper declares the wire shapes itself (it depends on nothing); the service validates them with
// @svc/client's zod schema. Loaded by name at run time, from the workspace, so the helper's build stays free of it.
const schemasModule = '@svc/client/schemas';
const { captureRequest, captureResponse } = (await import(schemasModule)) as {
  captureRequest: { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } };
  captureResponse: { safeParse(v: unknown): { success: boolean } };
};
const valid = (request: unknown) => {
  const result = captureRequest.safeParse(request);
  assert.ok(result.success, JSON.stringify(result.error?.issues));
};

const reading = (key: string, over: Partial<PurposeReading> = {}): PurposeReading => ({
  key,
  entry: { decision: 'declined', default_checked: false, mandatory: false },
  controls: [{ tag: 'input', type: 'checkbox', id: key, name: key, meaning: undefined, checked: false, required: false, disabled: false }],
  notices: [{ tag: 'label', text: `About ${key}` }],
  ...over,
});

describe('composeRequest', () => {
  it('builds a request the service schema accepts, with decisions only for purposes that have a control', async () => {
    const request = composeRequest({
      flowId: 'flw_dev_1',
      purposes: [reading('newsletter'), reading('terms', { entry: undefined, controls: [] })],
      digests: {
        notice_hash: await sha256Digest('x'),
        notice_hashes: { newsletter: await sha256Digest('a'), terms: await sha256Digest('b') },
      },
      formId: 'signup',
      pageUrl: 'https://shop.example/signup',
      locale: 'pt-BR',
      subject: { email: 'ana@example.com', external_id: ' cust_1 ' },
      commit: true,
    });
    valid(request);
    assert.deepEqual(Object.keys(request.decisions), ['newsletter']);
    assert.deepEqual(request.subject, { email: 'ana@example.com', external_id: 'cust_1' });
    assert.equal(request.commit, true);
    assert.match(request.notice_hash!, /^sha256:[0-9a-f]{64}$/);
  });

  it('leaves out what would not validate: a bad locale, a non-email, an over-long form id or page URL, commit false', () => {
    const request = composeRequest({
      flowId: 'flw_1',
      purposes: [reading('a')],
      locale: 'en_US',
      subject: { email: 'ana@localhost' },
      formId: 'f'.repeat(201),
      pageUrl: `https://a.example/${'p'.repeat(2000)}`,
      commit: false,
    });
    valid(request);
    assert.equal(request.locale, undefined);
    assert.equal(request.subject, undefined);
    assert.equal(request.form_id, undefined);
    assert.equal(request.page_url, undefined);
    assert.equal('commit' in request, false);
  });

  it('always validates against the service schema, whatever the page holds', () => {
    const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,30}$/);
    const purposeArb = fc
      .record({
        key,
        decision: fc.constantFrom('granted' as const, 'declined' as const),
        default_checked: fc.boolean(),
        mandatory: fc.boolean(),
        label: fc.string({ maxLength: 4000 }),
        notice: fc.boolean(),
      })
      .map((p) =>
        reading(p.key, {
          entry: p.notice ? undefined : { decision: p.decision, default_checked: p.default_checked, mandatory: p.mandatory },
          controls: p.notice ? [] : reading(p.key).controls,
          notices: [{ tag: 'label', text: p.label }],
        }),
      );
    fc.assert(
      fc.property(
        fc.uniqueArray(purposeArb, { selector: (p) => p.key, maxLength: 12 }),
        fc.record(
          { formId: fc.string(), locale: fc.string(), email: fc.string(), externalId: fc.string({ maxLength: 300 }) },
          { requiredKeys: [] },
        ),
        (purposes, page) => {
          valid(
            composeRequest({
              flowId: 'flw_1',
              purposes,
              formId: page.formId,
              locale: page.locale,
              subject: { email: page.email, external_id: page.externalId },
              pageUrl: pageUrlOf('https://a.example/x?y#z'),
            }),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('pageUrlOf', () => {
  it('drops the query string, the fragment and credentials', () => {
    assert.equal(
      pageUrlOf('https://user:pw@shop.example/signup/step-2?email=ana%40example.com&ref=x#done'),
      'https://shop.example/signup/step-2',
    );
    assert.equal(pageUrlOf('http://127.0.0.1:8000/?wtr-session-id=1'), 'http://127.0.0.1:8000/');
  });

  it('omits pages that are not http(s)', () => {
    assert.equal(pageUrlOf('about:blank'), undefined);
    assert.equal(pageUrlOf('file:///home/ana/form.html'), undefined);
    assert.equal(pageUrlOf('not a url'), undefined);
  });
});

describe('the capture schemas of @svc/client', () => {
  const base = { flow_id: 'flw_1', decisions: { news: { decision: 'granted', default_checked: false, mandatory: false } } };

  it('admit no additional properties, in the request or a decision entry', () => {
    assert.equal(captureRequest.safeParse({ ...base, render_proof: 'x' }).success, false);
    assert.equal(captureRequest.safeParse({ ...base, decisions: { news: { decision: 'granted', checked: true } } }).success, false);
    assert.equal(captureRequest.safeParse({ ...base, subject: { email: 'a@b.co', name: 'Ana' } }).success, false);
  });

  it('require flow_id and decisions, and a decision of granted or declined', () => {
    assert.equal(captureRequest.safeParse({ decisions: base.decisions }).success, false);
    assert.equal(captureRequest.safeParse({ flow_id: 'flw_1' }).success, false);
    assert.equal(captureRequest.safeParse({ ...base, decisions: { news: { decision: 'noticed' } } }).success, false);
    assert.equal(captureRequest.safeParse({ ...base, decisions: { news: { decision: 'granted' } } }).success, true);
  });

  it('check the subject email format', () => {
    assert.equal(captureRequest.safeParse({ ...base, subject: { email: 'not-an-email' } }).success, false);
    assert.equal(captureRequest.safeParse({ ...base, subject: { email: 'ana@example.com', external_id: 'c_1' } }).success, true);
  });

  it('limit the snapshot to 16384 bytes of UTF-8, not characters', () => {
    assert.equal(captureRequest.safeParse({ ...base, snapshot: 'a'.repeat(16384) }).success, true);
    assert.equal(captureRequest.safeParse({ ...base, snapshot: 'a'.repeat(16385) }).success, false);
    const refused = captureRequest.safeParse({ ...base, snapshot: 'é'.repeat(8193) });
    assert.equal(refused.success, false);
    assert.deepEqual(
      refused.error?.issues.map((i) => i.path),
      [['snapshot']],
    );
    assert.equal(captureRequest.safeParse({ ...base, snapshot: 'é'.repeat(8192) }).success, true);
  });

  it('read the {capture} response with a nullable record_id and wording_verdict', () => {
    const capture = { session_token: 'dts_x', attestation_id: 'att_1', committed: false, record_id: null, wording_verdict: null };
    assert.equal(captureResponse.safeParse({ capture }).success, true);
    assert.equal(
      captureResponse.safeParse({ capture: { ...capture, wording_verdict: 'wording_drift', record_id: 'rec_1' } }).success,
      true,
    );
    assert.equal(captureResponse.safeParse({ capture: { ...capture, wording_verdict: 'drift' } }).success, false);
    assert.equal(captureResponse.safeParse({ capture: { ...capture, committed: undefined } }).success, false);
  });
});
