// The consent field's pure parts in Node: writing direction, its own words, how a purpose is presented, the render
// answer's shape and URL, and reading a render proof's expiry.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isRenderData, proofExpiry, renderUrl, rowKind } from './render-data.js';
import { directionOf, stringsFor } from './strings.js';

describe('consent field helpers', () => {
  it('writes ar, he, fa, ur (and right-to-left scripts) right to left, others left to right, nothing without a locale', () => {
    for (const locale of [
      'ar',
      'ar-EG',
      'ar_EG',
      'AR',
      'he',
      'he-IL',
      'iw',
      'fa',
      'ur-PK',
      'ps',
      'sd',
      'yi',
      'dv',
      'ug',
      'ckb',
      'bal',
      'ks',
      'az-Arab',
      'pa-Arab',
      'ar-EG-!!',
    ]) {
      assert.equal(directionOf(locale), 'rtl', locale);
    }
    for (const locale of ['en', 'fr-CA', 'de', 'zh-Hant', 'az-Latn', 'ku-Latn', 'uz-Cyrl', 'sw', '!!'])
      assert.equal(directionOf(locale), 'ltr', locale);
    assert.equal(directionOf(undefined), undefined);
    assert.equal(directionOf(' '), undefined);
  });

  it('speaks a locale’s language when it knows it, English otherwise', () => {
    assert.equal(stringsFor('fr-CA').policy, 'Politique de confidentialité');
    assert.equal(stringsFor('he').mark, 'נרשם על ידי svc');
    assert.equal(stringsFor('sw').mark, 'Recorded by svc');
    assert.equal(stringsFor(undefined).mark, 'Recorded by svc');
  });

  it('presents consent as a box, legitimate interest with a right to object as a ticked box, the rest as text', () => {
    assert.equal(rowKind({ basis: 'consent', mechanism: 'explicit' }), 'consent');
    assert.equal(rowKind({ basis: 'consent', mechanism: 'informed' }), 'consent');
    assert.equal(rowKind({ basis: 'legitimate_interest', mechanism: 'opt_out' }), 'object');
    assert.equal(rowKind({ basis: 'legitimate_interest', mechanism: 'notice' }), 'notice');
    assert.equal(rowKind({ basis: 'contract', mechanism: 'notice' }), 'notice');
    assert.equal(rowKind({ basis: 'legal_obligation', mechanism: 'notice' }), 'notice');
  });

  it('builds the render URL with the locale, encoding the flow id', () => {
    assert.equal(renderUrl('https://svc.example/', 'flw_dev_1', 'pt-BR'), 'https://svc.example/api/v1/flows/flw_dev_1/render?locale=pt-BR');
    assert.equal(renderUrl('https://svc.example/base', 'a/b', undefined), 'https://svc.example/base/api/v1/flows/a%2Fb/render');
  });

  it('accepts the render answer’s shape and refuses what the field could not render', () => {
    const good = {
      flow_id: 'flw_1',
      version: 1,
      locale: 'en',
      title: 'T',
      description: null,
      policy_url: null,
      notice_hash: 'sha256:00',
      render_proof: 'a.b.c',
      purposes: [{ key: 'k', label: 'L', description: 'D', basis: 'consent', mechanism: 'explicit', required: false }],
    };
    assert.equal(isRenderData(good), true);
    assert.equal(isRenderData({ ...good, render_proof: '' }), false);
    assert.equal(isRenderData({ ...good, purposes: [{ ...good.purposes[0], basis: 'vibes' }] }), false);
    assert.equal(isRenderData({ ...good, purposes: [{ ...good.purposes[0], label: 3 }] }), false);
    assert.equal(isRenderData(null), false);
  });

  it('reads a render proof’s expiry from the answer, else its JWS payload, and nothing from a malformed one', () => {
    const payload = Buffer.from(JSON.stringify({ exp: 1_900_000_000, jti: 'x' })).toString('base64url');
    assert.equal(proofExpiry({ render_proof: `eyJhbGciOiJFUzI1NiJ9.${payload}.sig` }), 1_900_000_000_000);
    assert.equal(proofExpiry({ render_proof: 'x.y.z', render_proof_expires_at: '2030-01-01T00:00:00Z' }), Date.UTC(2030, 0, 1));
    assert.equal(proofExpiry({ render_proof: 'nope' }), undefined);
    assert.equal(proofExpiry({ render_proof: 'a.!!!.c' }), undefined);
    assert.equal(proofExpiry({ render_proof: `a.${Buffer.from('{"exp":"soon"}').toString('base64url')}.c` }), undefined);
  });
});
