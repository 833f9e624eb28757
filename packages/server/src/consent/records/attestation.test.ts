import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { DecisionEntry, FlowPurpose } from '@svc/schemas';
import { addDuration, capturabilityProblems, evaluateDecisions, looksLikePhone, personalDataPaths } from './attestation.js';

const purpose = (key: string, basis: FlowPurpose['basis'], mechanism: FlowPurpose['mechanism']): FlowPurpose => ({
  key,
  label: key,
  basis,
  mechanism,
  required: false,
});
const config = {
  purposes: [
    purpose('explicit', 'consent', 'explicit'),
    purpose('informed', 'consent', 'informed'),
    purpose('objectable', 'legitimate_interest', 'opt_out'),
    purpose('li_notice', 'legitimate_interest', 'notice'),
    purpose('contract', 'contract', 'notice'),
    purpose('law', 'legal_obligation', 'notice'),
  ],
};
const both = (entry: DecisionEntry) => ({ explicit: entry, informed: entry });

describe('evaluateDecisions: the capture attestation table', () => {
  it('records consent as granted or declined, legitimate interest as noticed or objected, notice-only as noticed', () => {
    const result = evaluateDecisions(config, { ...both({ decision: 'granted' }), objectable: { decision: 'declined' } });
    assert.deepEqual(result, {
      ok: true,
      outcomes: [
        { key: 'explicit', outcome: 'granted', basis: 'consent' },
        { key: 'informed', outcome: 'granted', basis: 'consent' },
        { key: 'objectable', outcome: 'objected', basis: 'legitimate_interest' },
        { key: 'li_notice', outcome: 'noticed', basis: 'legitimate_interest' },
        { key: 'contract', outcome: 'noticed', basis: 'contract' },
        { key: 'law', outcome: 'noticed', basis: 'legal_obligation' },
      ],
    });
    const declined = evaluateDecisions(config, both({ decision: 'declined', default_checked: false, mandatory: false }));
    assert.ok(declined.ok && declined.outcomes[0]!.outcome === 'declined');
  });

  it('refuses default-ticked or mandatory consent whatever the decision, naming the purpose', () => {
    for (const entry of [{ default_checked: true }, { mandatory: true }, { default_checked: true, mandatory: true }]) {
      for (const decision of ['granted', 'declined'] as const) {
        const result = evaluateDecisions(config, { ...both({ decision: 'granted' }), informed: { decision, ...entry } });
        assert.equal(result.ok, false);
        if (!result.ok) {
          assert.deepEqual(
            result.refusals.map((r) => [r.purpose, r.code]),
            [['informed', entry.default_checked ? 'default_checked' : 'mandatory']],
          );
        }
      }
    }
  });

  it('lets a legitimate interest be default-ticked, and needs no decision for it or for notice-only purposes', () => {
    const result = evaluateDecisions(config, {
      ...both({ decision: 'granted' }),
      objectable: { decision: 'granted', default_checked: true, mandatory: true },
    });
    assert.ok(result.ok);
  });

  it('refuses unknown keys, missing consent purposes and a declined notice-only purpose, all at once', () => {
    const result = evaluateDecisions(config, {
      explicit: { decision: 'granted' },
      nope: { decision: 'granted' },
      law: { decision: 'declined' },
    });
    assert.equal(result.ok, false);
    if (!result.ok)
      assert.deepEqual(
        result.refusals.map((r) => `${r.purpose}:${r.code}`),
        ['nope:unknown_purpose', 'informed:purpose_missing', 'law:notice_only_purpose'],
      );
  });

  it('never grants a purpose that was not decided granted (property)', () => {
    const entry = fc.record({
      decision: fc.constantFrom('granted' as const, 'declined' as const),
      default_checked: fc.option(fc.boolean(), { nil: undefined }),
      mandatory: fc.option(fc.boolean(), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...config.purposes.map((p) => p.key), 'x'), entry), (decisions) => {
        const result = evaluateDecisions(config, decisions);
        if (!result.ok) return result.refusals.length > 0;
        return result.outcomes.every(
          (o) =>
            o.outcome !== 'granted' ||
            (decisions[o.key]?.decision === 'granted' && !decisions[o.key]?.default_checked && !decisions[o.key]?.mandatory),
        );
      }),
    );
  });
});

describe('capturabilityProblems', () => {
  it('needs a consent duration and no sign-in, verification or comprehension step', () => {
    assert.deepEqual(capturabilityProblems({ consent_duration: 'P1Y', steps: [{ type: 'review' }], purposes: config.purposes }), []);
    assert.deepEqual(
      capturabilityProblems({
        consent_duration: 'P1Y',
        steps: [{ type: 'disclosure', title: 'What we do', body: 'We send a newsletter.' }, { type: 'review' }],
        purposes: config.purposes,
      }),
      [],
    );
    assert.equal(capturabilityProblems({ steps: [], purposes: config.purposes }).length, 1);
    assert.equal(
      capturabilityProblems({
        consent_duration: 'P1Y',
        steps: [{ type: 'sign_in', method: 'email' }, { type: 'verify' }],
        purposes: config.purposes,
      }).length,
      2,
    );
    assert.equal(
      capturabilityProblems({ consent_duration: 'P1Y', steps: [{ type: 'sign_in', method: 'email' }], purposes: config.purposes }).length,
      1,
    );
    assert.equal(
      capturabilityProblems({
        consent_duration: 'P1Y',
        steps: [{ type: 'comprehension_check', question: 'What do we send?', choices: ['A newsletter', 'Nothing'], answer: 0 }],
        purposes: config.purposes,
      }).length,
      1,
    );
  });
});

describe('personalDataPaths (client_facts)', () => {
  it('finds emails and phone numbers at any depth and under personal key names', () => {
    assert.deepEqual(personalDataPaths({ a: { b: ['x', 'write to ada@example.com'] } }), [{ path: 'client_facts.a.b.1', kind: 'email' }]);
    assert.deepEqual(personalDataPaths({ contact: { Phone: 12345 } }), [{ path: 'client_facts.contact.Phone', kind: 'phone' }]);
    assert.deepEqual(personalDataPaths({ email: '' }), []);
    assert.deepEqual(personalDataPaths({ e_mail: 'someone' }), [{ path: 'client_facts.e_mail', kind: 'email' }]);
  });

  it('recognises phone numbers as people write them, and not ids, dates, versions or amounts', () => {
    for (const phone of [
      '+44 20 7946 0958',
      'call 020-7946-0958 now',
      '0049 30 1234567',
      '0612345678',
      '(030) 1234567',
      '+4915112345678',
    ]) {
      assert.equal(looksLikePhone(phone), true, phone);
    }
    for (const other of [
      '550e8400-e29b-41d4-a716-446655440000',
      '2026-05-01T10:00:00Z',
      '2026-05-01 10:00',
      '1735689600000',
      'order 123456789',
      '10.0.19045',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
      'price 1234.56',
      'tp_dev_12345678901',
      'flw_dev_ab12345678',
      'v2-1234-5',
    ]) {
      assert.equal(looksLikePhone(other), false, other);
    }
  });
});

describe('addDuration', () => {
  it('adds ISO 8601 durations calendar-wise in UTC', () => {
    assert.equal(addDuration('2026-01-15T10:00:00.000Z', 'P1Y'), '2027-01-15T10:00:00.000Z');
    assert.equal(addDuration('2024-02-29T00:00:00.000Z', 'P1Y'), '2025-03-01T00:00:00.000Z');
    assert.equal(addDuration('2026-01-31T00:00:00.000Z', 'P1M'), '2026-03-03T00:00:00.000Z');
    assert.equal(addDuration('2026-01-01T00:00:00.000Z', 'P2W'), '2026-01-15T00:00:00.000Z');
    assert.equal(addDuration('2026-01-01T00:00:00.000Z', 'PT36H'), '2026-01-02T12:00:00.000Z');
    assert.equal(addDuration('2026-01-01T00:00:00.000Z', 'P1Y2M3DT4H5M6.5S'), '2027-03-04T04:05:06.500Z');
    assert.throws(() => addDuration('2026-01-01T00:00:00.000Z', '1 year'), RangeError);
  });
});
