import type { PurposeReading, SnapshotControl, SnapshotOption } from './controls.js';

// The snapshot is an HTML fragment rebuilt from what the helper read, never a clone of the page: one
// <fieldset data-svc-purpose> per purpose with its controls in their default state and its notice texts, and no
// values, scripts, event handlers, classes or styles. Text is escaped, so the fragment parses as exactly that.

/** The capture snapshot limit: 16 KB, counted in bytes of UTF-8 as the request carries it. */
export const SNAPSHOT_MAX_BYTES = 16384;
/** Appended inside the root element when purposes or texts had to be cut to stay within the limit. */
export const TRUNCATED_MARKER = '<!--svc:truncated-->';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escape = (text: string, special = /[&<>]/g) => text.replace(special, (c) => ENTITIES[c]!);

/** Bytes of the string's UTF-8 encoding (a lone surrogate counts as U+FFFD, 3 bytes, as encoders write it). */
export const utf8Length = (text: string): number => new TextEncoder().encode(text).length;

// `<name attr="value" flag>` and, when `inner` is given, its content and end tag. Attribute values are cut to 100
// characters and escaped; a false or empty attribute is left out, a true one written bare.
function element(name: string, attributes: Record<string, string | boolean | undefined>, inner?: string): string {
  let html = `<${name}`;
  for (const [key, value] of Object.entries(attributes)) {
    if (value) html += value === true ? ` ${key}` : ` ${key}="${escape(value.slice(0, 100), /[&<>"]/g)}"`;
  }
  return inner === undefined ? `${html}>` : `${html}>${inner}</${name}>`;
}

// Writes a text already escaped: whole, cut, or left out while measuring what the controls alone take.
type Cut = (escaped: string) => string;

// An input, or a select with its options: attributes of the other kind are absent, so left out.
function control(c: SnapshotControl, cut: Cut): string {
  const { type, meaning, checked, options } = c as Partial<
    Record<'type' | 'meaning', string> & { checked: boolean; options: SnapshotOption[] }
  >;
  const { id, name, required, disabled } = c;
  return element(
    c.tag,
    { type, id, name, 'data-svc-decision': meaning, checked, required, disabled },
    options?.map((o) => element('option', { 'data-svc-decision': o.meaning, selected: o.selected }, cut(escape(o.text)))).join(''),
  );
}

const block = (purpose: PurposeReading, cut: Cut): string =>
  element(
    'fieldset',
    { 'data-svc-purpose': purpose.key },
    purpose.controls.map((c) => control(c, cut)).join('') + purpose.notices.map((n) => element(n.tag, {}, cut(escape(n.text)))).join(''),
  );

const whole: Cut = (text) => text;

// Longest prefix of an escaped text (whole code points, no entity cut through) that fits in `max` bytes together
// with the ellipsis; nothing when even the ellipsis does not fit.
function fit(text: string, max: number): string {
  if (utf8Length(text) <= max) return text;
  if (max < 3) return '';
  // encodeInto stops before the first code point that would overflow the buffer; `read` counts UTF-16 units.
  const { read } = new TextEncoder().encodeInto(text, new Uint8Array(max - 3));
  return `${text.slice(0, read).replace(/&\w*$/, '')}\u2026`;
}

/**
 * Writes the sanitised snapshot of the purposes, at most {@link SNAPSHOT_MAX_BYTES}. When the whole does not fit,
 * purposes are kept whole in document order while they fit, the first that does not fit keeps its controls with its
 * texts cut (ending in an ellipsis), later ones are left out, and {@link TRUNCATED_MARKER} closes the fragment.
 */
export function buildSnapshot(purposes: readonly PurposeReading[], formId?: string): string {
  const head = element('div', { 'data-svc-snapshot': '1', 'data-form-id': formId });
  const all = head + purposes.map((p) => block(p, whole)).join('') + '</div>';
  if (utf8Length(all) <= SNAPSHOT_MAX_BYTES) return all;
  let budget = SNAPSHOT_MAX_BYTES - utf8Length(head + TRUNCATED_MARKER + '</div>');
  let body = '';
  for (const purpose of purposes) {
    const full = block(purpose, whole);
    const size = utf8Length(full);
    if (size > budget) {
      budget -= utf8Length(block(purpose, () => ''));
      if (budget >= 0) {
        body += block(purpose, (text) => {
          const kept = fit(text, budget);
          budget -= utf8Length(kept);
          return kept;
        });
      }
      break;
    }
    body += full;
    budget -= size;
  }
  return head + body + TRUNCATED_MARKER + '</div>';
}
