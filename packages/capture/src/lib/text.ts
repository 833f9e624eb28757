// Notice text as the helper hashes it and writes it into the snapshot: the text an element shows, whitespace
// collapsed, so the same wording hashes the same whatever the page's markup indentation.

// Subtrees whose text is not notice wording: code, form fields (their text is a value, never wording), editable
// regions (typed text), and content the page hides.
const SKIPPED = new Set([
  'script', 'style', 'template', 'noscript', 'input', 'select', 'textarea', 'button', 'option', 'optgroup',
  'datalist', 'object', 'iframe', 'svg',
]);

const skipped = (el: Element): boolean =>
  SKIPPED.has(el.localName) ||
  el.hasAttribute('hidden') ||
  (el.hasAttribute('contenteditable') && el.getAttribute('contenteditable') !== 'false');

/** The raw text an element shows: its text nodes in order, `<br>` as a space, skipped subtrees left out. */
export const visibleText = (el: Element): string => (skipped(el) ? '' : textOf(el));

function textOf(el: Element): string {
  let text = '';
  for (const node of el.childNodes) {
    if (node.nodeType === 3) text += (node as Text).data;
    else if (node.nodeType === 1) {
      const child = node as Element;
      if (child.localName === 'br') text += ' ';
      else if (!skipped(child)) text += textOf(child);
    }
  }
  return text;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Normalises notice text: Unicode NFC, lone surrogates replaced by U+FFFD (as UTF-8 encoding would), every run
 * of white space (including no-break spaces) collapsed to one space, trimmed.
 */
export function normalizeText(text: string): string {
  return text.normalize('NFC').replace(LONE_SURROGATE, '\uFFFD').replace(/\s+/g, ' ').trim();
}

/** Whether this page can hash: Web Crypto's `subtle` exists only in secure contexts (https, localhost). */
export const canHash = (): boolean => typeof crypto !== 'undefined' && crypto.subtle !== undefined;

/** `sha256:` followed by the lower-case hex SHA-256 of the text's UTF-8 bytes. */
export async function sha256Digest(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return `sha256:${hex}`;
}
