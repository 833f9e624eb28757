// A tiny rollup transform that collapses the whitespace and comments of the `css` tagged templates in the
// elements' `*.styles.js` modules (CSS in `static styles` ships as written, indentation and comments included).
// It only removes what CSS ignores: comments, runs of whitespace, whitespace next to `{ } ; ,` and after `:` in
// declarations, and the last `;` of a block. Whitespace before `:` (a descendant combinator in `.a :hover`) and around
// `+ - > ~` (calc(), combinators, media ranges) is kept as one space. Quoted strings are left as they are. A
// template with `${...}` is left alone. The literal is the last statement of a styles module, so no mapping after it
// moves; the source map keeps pointing at the unminified source.

/** Minifies one CSS text. */
export function minifyCss(css) {
  let out = '';
  // Split into quoted strings (kept verbatim) and the rest.
  const parts = css.split(/('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")/);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (i % 2 === 1) {
      out += part;
      continue;
    }
    out += part
      .replace(/\/\*[\s\S]*?\*\//g, ' ')
      .replace(/\s+/g, ' ')
      .replace(/\s*([{};,])\s*/g, '$1')
      .replace(/:\s+/g, ':');
  }
  return out.replace(/;}/g, '}').trim();
}

/** The rollup plugin: applies `minifyCss` to every `css\`...\`` without substitutions in `*.styles.js`. */
export function minifyCssLiterals() {
  return {
    name: 'minify-css-literals',
    transform(code, id) {
      if (!/\.styles\.js$/.test(id)) return null;
      let changed = false;
      const next = code.replace(/\bcss\s*`((?:[^`\\$]|\\[\s\S]|\$(?!\{))*)`/g, (whole, body) => {
        changed = true;
        return `css\`${minifyCss(body)}\``;
      });
      return changed ? { code: next, map: null } : null;
    },
  };
}
