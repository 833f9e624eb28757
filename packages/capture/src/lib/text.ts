// Notice text as the helper hashes it and writes it into the snapshot: the text an element shows, whitespace
// collapsed, so the same wording hashes the same whatever the page's markup indentation.

// Subtrees whose text is not notice wording: code, form fields (their text is a value, never wording), editable
// regions (typed text), and content the page hides.
const SKIPPED =
  'script,style,template,noscript,input,select,textarea,button,option,optgroup,datalist,object,iframe,svg,' +
  '[hidden],[contenteditable]:not([contenteditable=false])';

/** The raw text an element shows: its text nodes in order, `<br>` as a space, skipped subtrees left out. */
export const visibleText = (el: Element): string =>
  el.matches(SKIPPED)
    ? ''
    : Array.from(el.childNodes, (node) =>
        node.nodeType === 3
          ? (node as Text).data
          : node.nodeType !== 1
            ? ''
            : (node as Element).localName === 'br'
              ? ' '
              : visibleText(node as Element),
      ).join('');

/**
 * Normalises notice text: Unicode NFC, lone surrogates (category Cs in a `u` pattern) replaced by U+FFFD as UTF-8
 * encoding would, every run of white space (including no-break spaces) collapsed to one space, trimmed.
 */
export const normalizeText = (text: string): string =>
  text
    .normalize('NFC')
    .replace(/\p{Cs}/gu, '\uFFFD')
    .replace(/\s+/g, ' ')
    .trim();

/** `sha256:` followed by the lower-case hex SHA-256 of the text's UTF-8 bytes. */
export const sha256Digest = async (text: string): Promise<string> =>
  `sha256:${Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))), (b) =>
    (b | 256).toString(16).slice(1),
  ).join('')}`;
