import type { PurposeReading, SnapshotControl } from './controls.js';

// The snapshot is an HTML fragment rebuilt from what the helper read, never a clone of the page: one
// <fieldset data-svc-purpose> per purpose with its controls in their default state and its notice texts, and no
// values, scripts, event handlers, classes or styles. Text is escaped, so the fragment parses as exactly that.

/** The capture snapshot limit: 16 KB, counted in bytes of UTF-8 as the request carries it. */
export const SNAPSHOT_MAX_BYTES = 16384;

/** Appended inside the root element when purposes or texts had to be cut to stay within the limit. */
export const TRUNCATED_MARKER = '<!--svc:truncated-->';

const ATTRIBUTE_MAX = 100;
const ELLIPSIS = '\u2026';
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

const escapeText = (text: string) => text.replace(/[&<>]/g, (c) => ENTITIES[c]!);
const attribute = (name: string, value: string | undefined) =>
  value ? ` ${name}="${value.slice(0, ATTRIBUTE_MAX).replace(/[&<>"]/g, (c) => ENTITIES[c]!)}"` : '';
const flag = (name: string, on: boolean) => (on ? ` ${name}` : '');

/** Bytes of the string's UTF-8 encoding (a lone surrogate counts as U+FFFD, 3 bytes, as encoders write it). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit < 0xdc00 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

// Longest prefix of `text` (whole code points) whose escaped form, plus an ellipsis, fits in `max` bytes.
function fit(text: string, max: number): string {
  if (utf8Length(escapeText(text)) <= max) return text;
  let kept = '';
  let used = utf8Length(ELLIPSIS);
  for (const char of text) {
    const size = utf8Length(escapeText(char));
    if (used + size > max) break;
    kept += char;
    used += size;
  }
  return used <= max ? kept + ELLIPSIS : '';
}

type Cut = (text: string) => string;

function control(c: SnapshotControl, cut: Cut): string {
  const common = attribute('id', c.id) + attribute('name', c.name);
  if (c.tag === 'input') {
    return `<input type="${c.type}"${common}${attribute('data-svc-decision', c.meaning)}${flag('checked', c.checked)}${flag('required', c.required)}${flag('disabled', c.disabled)}>`;
  }
  const options = c.options.map((o) => `<option${attribute('data-svc-decision', o.meaning)}${flag('selected', o.selected)}>${escapeText(cut(o.text))}</option>`);
  return `<select${common}${flag('required', c.required)}${flag('disabled', c.disabled)}>${options.join('')}</select>`;
}

function block(purpose: PurposeReading, cut: Cut): string {
  const controls = purpose.controls.map((c) => control(c, cut)).join('');
  const notices = purpose.notices.map((n) => `<${n.tag}>${escapeText(cut(n.text))}</${n.tag}>`).join('');
  return `<fieldset${attribute('data-svc-purpose', purpose.key)}>${controls}${notices}</fieldset>`;
}

/**
 * Writes the sanitised snapshot of the purposes, at most {@link SNAPSHOT_MAX_BYTES}. When the whole does not fit,
 * purposes are kept whole in document order while they fit, the first that does not fit keeps its controls with its
 * texts cut (ending in an ellipsis), later ones are left out, and {@link TRUNCATED_MARKER} closes the fragment.
 */
export function buildSnapshot(purposes: readonly PurposeReading[], formId?: string): string {
  const head = `<div data-svc-snapshot="1"${attribute('data-form-id', formId)}>`;
  const tail = '</div>';
  const whole = head + purposes.map((p) => block(p, (t) => t)).join('') + tail;
  if (utf8Length(whole) <= SNAPSHOT_MAX_BYTES) return whole;

  let budget = SNAPSHOT_MAX_BYTES - utf8Length(head + TRUNCATED_MARKER + tail);
  let body = '';
  for (const purpose of purposes) {
    const full = block(purpose, (t) => t);
    const size = utf8Length(full);
    if (size <= budget) {
      body += full;
      budget -= size;
      continue;
    }
    const skeleton = utf8Length(block(purpose, () => ''));
    if (skeleton <= budget) {
      let left = budget - skeleton;
      body += block(purpose, (text) => {
        const kept = fit(text, left);
        left -= utf8Length(escapeText(kept));
        return kept;
      });
    }
    break;
  }
  return head + body + TRUNCATED_MARKER + tail;
}
