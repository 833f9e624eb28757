import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { NoticeReading, PurposeReading, SnapshotControl } from './controls.js';
import { SNAPSHOT_MAX_BYTES, TRUNCATED_MARKER, buildSnapshot, utf8Length } from './snapshot.js';

const bytes = (s: string) => new TextEncoder().encode(s).length;

const checkbox = (over: Partial<Extract<SnapshotControl, { tag: 'input' }>> = {}): SnapshotControl => ({
  tag: 'input',
  type: 'checkbox',
  id: 'news',
  name: 'news',
  meaning: undefined,
  checked: false,
  required: false,
  disabled: false,
  ...over,
});
const purpose = (key: string, notices: NoticeReading[], controls: SnapshotControl[] = [checkbox()]): PurposeReading => ({
  key,
  entry: { decision: 'granted', default_checked: false, mandatory: false },
  controls,
  notices,
});

// Any text a page might put in a label, including markup look-alikes, astral and lone-surrogate characters.
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.string({ unit: fc.constantFrom('<', '>', '&', '"', "'", 'a', ' ', 'é', '😀', '\uD800'), maxLength: 3000 }),
  fc.constantFrom('<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '"><svg onload=alert(1)>', '-->'),
);
const readingArb = fc
  .record({
    key: fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/),
    id: fc.string({ maxLength: 150 }),
    label: text,
    notice: text,
    big: fc.nat({ max: 6000 }),
  })
  .map(({ key, id, label, notice, big }) =>
    purpose(
      key,
      [
        { tag: 'label', text: label },
        { tag: 'p', text: notice + 'é'.repeat(big) },
      ],
      [checkbox({ id, name: id })],
    ),
  );

describe('buildSnapshot', () => {
  it('writes each purpose as a fieldset of its controls in their default state and its notice texts', () => {
    const snapshot = buildSnapshot(
      [
        purpose('newsletter', [{ tag: 'label', text: 'Send me the newsletter' }], [checkbox({ checked: true, required: true })]),
        purpose('terms', [{ tag: 'p', text: 'Our terms apply.' }], []),
      ],
      'signup',
    );
    assert.equal(
      snapshot,
      '<div data-svc-snapshot="1" data-form-id="signup">' +
        '<fieldset data-svc-purpose="newsletter"><input type="checkbox" id="news" name="news" checked required><label>Send me the newsletter</label></fieldset>' +
        '<fieldset data-svc-purpose="terms"><p>Our terms apply.</p></fieldset></div>',
    );
  });

  it('writes a select with the meaning of each option and the default one selected', () => {
    const snapshot = buildSnapshot([
      purpose(
        'news',
        [],
        [
          {
            tag: 'select',
            id: '',
            name: 'news',
            required: false,
            disabled: false,
            options: [
              { meaning: 'declined', selected: true, text: 'No' },
              { meaning: 'granted', selected: false, text: 'Yes & more' },
            ],
          },
        ],
      ),
    ]);
    assert.match(
      snapshot,
      /<select name="news"><option data-svc-decision="declined" selected>No<\/option><option data-svc-decision="granted">Yes &amp; more<\/option><\/select>/,
    );
  });

  it('escapes text and attributes, so page text never becomes markup', () => {
    const snapshot = buildSnapshot([
      purpose('k', [{ tag: 'label', text: '<img src=x onerror=alert(1)> & "q"' }], [checkbox({ id: '"><script>' })]),
    ]);
    assert.ok(snapshot.includes('<label>&lt;img src=x onerror=alert(1)&gt; &amp; "q"</label>'));
    assert.ok(snapshot.includes('id="&quot;&gt;&lt;script&gt;"'));
    assert.ok(!/<img|<script|onerror=/.test(snapshot.replace(/&lt;img src=x onerror=alert\(1\)&gt;/, '')));
  });

  it('cuts a snapshot over 16 KB at a purpose boundary, then the texts of the first that does not fit, and marks it', () => {
    const long = 'é'.repeat(6000); // 12000 bytes
    const snapshot = buildSnapshot([
      purpose('a', [{ tag: 'label', text: long }]),
      purpose('b', [{ tag: 'label', text: long }]),
      purpose('c', [{ tag: 'label', text: 'short' }]),
    ]);
    assert.ok(bytes(snapshot) <= SNAPSHOT_MAX_BYTES);
    assert.ok(snapshot.endsWith(`${TRUNCATED_MARKER}</div>`));
    assert.ok(snapshot.includes(`<label>${long}</label>`), 'the first purpose is whole');
    assert.match(snapshot, /<fieldset data-svc-purpose="b"><input[^>]*><label>é+…<\/label><\/fieldset><!--/);
    assert.ok(!snapshot.includes('data-svc-purpose="c"'), 'purposes after the cut are left out');
  });

  it('counts bytes, not characters: 16384 one-byte characters fit where 16384 two-byte ones do not', () => {
    const frame = bytes(buildSnapshot([purpose('k', [{ tag: 'label', text: '' }])]));
    const ascii = buildSnapshot([purpose('k', [{ tag: 'label', text: 'a'.repeat(SNAPSHOT_MAX_BYTES - frame) }])]);
    assert.equal(bytes(ascii), SNAPSHOT_MAX_BYTES);
    assert.ok(!ascii.includes(TRUNCATED_MARKER));
    const twoByte = buildSnapshot([purpose('k', [{ tag: 'label', text: 'é'.repeat(SNAPSHOT_MAX_BYTES - frame) }])]);
    assert.ok(twoByte.includes(TRUNCATED_MARKER));
    assert.ok(bytes(twoByte) <= SNAPSHOT_MAX_BYTES);
  });

  it('never exceeds 16 KB and stays well-formed for arbitrary label and notice text', () => {
    fc.assert(
      fc.property(
        fc.array(readingArb, { maxLength: 8 }),
        fc.option(fc.string({ maxLength: 300 }), { nil: undefined }),
        (purposes, formId) => {
          const snapshot = buildSnapshot(purposes, formId);
          assert.ok(bytes(snapshot) <= SNAPSHOT_MAX_BYTES, `${bytes(snapshot)} bytes`);
          assert.equal(utf8Length(snapshot), bytes(snapshot));
          assert.ok(snapshot.startsWith('<div data-svc-snapshot="1"') && snapshot.endsWith('</div>'));
          // Only the helper's own tags appear: every "<" in page text was escaped.
          for (const tag of snapshot.match(/<\/?[a-z!][^>]*>/g) ?? []) {
            assert.match(tag, /^<(\/?(div|fieldset|input|label|p|select|option)\b|!--svc:truncated--)/, tag);
          }
          assert.equal((snapshot.match(/<fieldset/g) ?? []).length, (snapshot.match(/<\/fieldset>/g) ?? []).length);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('utf8Length', () => {
  it('agrees with TextEncoder for any string, lone surrogates included', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n)), maxLength: 200 }),
        ),
        (s) => assert.equal(utf8Length(s), bytes(s)),
      ),
    );
  });
});
