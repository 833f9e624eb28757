// The spec's appearance keys of the consent field, validated one by one: a valid value becomes a `--svc-*` custom
// property on the field's host, an invalid one is left out and named, so the element can warn once.

/**
 * The font stacks `fontFamily` chooses from. Every browser that has form-associated custom elements knows
 * `system-ui`, so no older system font names follow it; `ui-monospace` is Safari's only, so `mono` keeps its fallbacks.
 */
export const FONT_FAMILIES = {
  system: 'system-ui, sans-serif',
  inter: 'Inter, "Inter var", system-ui, sans-serif',
  serif: 'Georgia, Cambria, "Times New Roman", Times, serif',
  mono: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
} as const;

/** The space between rows and lines each `density` gives. */
export const DENSITIES = { compact: '0.375rem', regular: '0.75rem', relaxed: '1.125rem' } as const;

/** The appearance of a consent field: exactly the spec's keys; every key is optional. */
export interface Appearance {
  /** Font of the field's text: `system`, `inter`, `serif` or `mono`. */
  fontFamily?: keyof typeof FONT_FAMILIES;
  /** Base font size, a CSS length such as `15px` or `1rem`. */
  fontSize?: string;
  /** Colour of labels and the legend, a CSS colour. */
  text?: string;
  /** Colour of descriptions and notice text, a CSS colour. */
  muted?: string;
  /** Colour of ticked boxes, links and the focus ring, a CSS colour. */
  accent?: string;
  /** Colour of the field's border, a CSS colour. */
  border?: string;
  /** Corner radius of the field, a CSS length. */
  radius?: string;
  /** Spacing: `compact`, `regular` or `relaxed`. */
  density?: keyof typeof DENSITIES;
}

/** The keys of {@link Appearance}, in the spec's order. */
export const APPEARANCE_KEYS = ['fontFamily', 'fontSize', 'text', 'muted', 'accent', 'border', 'radius', 'density'] as const;

/** What {@link resolveAppearance} makes of an appearance: the properties to set and what it left out. */
export interface ResolvedAppearance {
  /** Custom property name -> value, for the valid keys only. */
  properties: Map<string, string>;
  /** One short description per ignored value (unknown key, wrong type, invalid value). */
  ignored: string[];
}

// Values are put into a stylesheet through CSSOM, never as text, but a reference to something else (var(), env(),
// attr(), url()) would escape validation, and CSS-wide keywords would hand the value back to the page.
const REFERENCE = /\b(var|env|attr|url|image|element|paint|src)\s*\(|[;{}\\<>!]/i;
const WIDE_KEYWORD = /^(inherit|initial|unset|revert|revert-layer)$/i;

// The keys that choose from a list; the rest are colours, or lengths for `fontSize` and `radius`.
const CHOICES: Partial<Record<keyof Appearance, Record<string, string>>> = { fontFamily: FONT_FAMILIES, density: DENSITIES };

// The value a key sets, or undefined when it is not valid: a known choice, or a plain length or colour the browser
// accepts (browser only: it asks `CSS.supports`). Lengths are checked against `padding-top`, which takes exactly a
// non-negative length or percentage (math functions included) and no keyword such as `large` or `auto`: what both
// `font-size` and a corner radius take besides their keywords.
function valueOf(key: keyof Appearance, value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const choices = CHOICES[key];
  if (choices) return Object.hasOwn(choices, value) ? choices[value] : undefined;
  const trimmed = value.trim();
  const valid =
    value.length <= 100 &&
    !REFERENCE.test(value) &&
    !WIDE_KEYWORD.test(trimmed) &&
    CSS.supports(key === 'fontSize' || key === 'radius' ? 'padding-top' : 'color', value);
  return valid ? trimmed : undefined;
}

// The custom property an appearance key sets on the host: `--svc-` and the key in kebab case; `density` sets `--svc-space`.
const propertyOf = (key: keyof Appearance): `--svc-${string}` =>
  key === 'density' ? '--svc-space' : `--svc-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

const show = (value: unknown) => {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/**
 * Validates an appearance (the parsed attribute or the property) key by key; browser only (it asks `CSS.supports`).
 * Anything that is not a plain object is ignored as a whole.
 */
export function resolveAppearance(input: unknown): ResolvedAppearance {
  const properties = new Map<string, string>();
  const ignored: string[] = [];
  if (input instanceof InvalidAppearanceJson) {
    ignored.push(`the appearance attribute is not JSON: ${show(input.text)}`);
  } else if (input != null && (typeof input !== 'object' || Array.isArray(input))) {
    ignored.push(`appearance must be an object of ${APPEARANCE_KEYS.join(', ')}, got ${show(input)}`);
  } else {
    for (const [key, value] of Object.entries(input ?? {})) {
      const known = (APPEARANCE_KEYS as readonly string[]).includes(key);
      const resolved = known ? valueOf(key as keyof Appearance, value) : undefined;
      if (resolved !== undefined) properties.set(propertyOf(key as keyof Appearance), resolved);
      else ignored.push(known ? `${key}: ${show(value)}` : `unknown key ${show(key)}`);
    }
  }
  return { properties, ignored };
}

/** Parses the `appearance` attribute: JSON, or the marker object that says it is not JSON. */
export function parseAppearanceAttribute(value: string | null): unknown {
  if (value === null || value.trim() === '') return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return new InvalidAppearanceJson(value);
  }
}

/** What {@link parseAppearanceAttribute} returns for an attribute that is not JSON; ignored with the others. */
export class InvalidAppearanceJson {
  /** The attribute text that did not parse. */
  readonly text: string;

  /** Keeps the text for the warning. */
  constructor(text: string) {
    this.text = text;
  }
}
