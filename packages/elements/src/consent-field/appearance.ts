// The spec's appearance keys of the consent field, validated one by one: a valid value becomes a `--svc-*` custom
// property on the field's host, an invalid one is left out and named, so the element can warn once.

/** The font stacks `fontFamily` chooses from. */
export const FONT_FAMILIES = {
  system: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif',
  inter: 'Inter, "Inter var", system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
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

/** The custom property each appearance key sets on the host. */
export const APPEARANCE_PROPERTIES: Record<keyof Appearance, `--svc-${string}`> = {
  fontFamily: '--svc-font-family',
  fontSize: '--svc-font-size',
  text: '--svc-text',
  muted: '--svc-muted',
  accent: '--svc-accent',
  border: '--svc-border',
  radius: '--svc-radius',
  density: '--svc-space',
};

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
// One length token or one math function; keywords such as `large` or `auto` are not lengths.
const LENGTH_TOKEN = /^(?:[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?[a-z%]*|(?:calc|min|max|clamp)\(.*\))$/i;

const plain = (value: string) => value.length > 0 && value.length <= 100 && !REFERENCE.test(value) && !WIDE_KEYWORD.test(value.trim());

/** Whether `value` is a CSS colour the browser accepts (no references to other values). */
export function isColor(value: unknown): value is string {
  return typeof value === 'string' && plain(value) && CSS.supports('color', value);
}

/** Whether `value` is one CSS length (or math function) the browser accepts for `property`. */
export function isLength(value: unknown, property: string): value is string {
  return typeof value === 'string' && plain(value) && LENGTH_TOKEN.test(value.trim()) && CSS.supports(property, value);
}

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
  if (input === undefined || input === null) return { properties, ignored };
  if (input instanceof InvalidAppearanceJson) {
    ignored.push(`the appearance attribute is not JSON: ${show(input.text)}`);
    return { properties, ignored };
  }
  if (typeof input !== 'object' || Array.isArray(input)) {
    ignored.push(`appearance must be an object of ${APPEARANCE_KEYS.join(', ')}, got ${show(input)}`);
    return { properties, ignored };
  }
  for (const [key, value] of Object.entries(input)) {
    if (!(APPEARANCE_KEYS as readonly string[]).includes(key)) {
      ignored.push(`unknown key ${show(key)}`);
      continue;
    }
    const name = key as keyof Appearance;
    let resolved: string | undefined;
    switch (name) {
      case 'fontFamily':
        resolved = typeof value === 'string' && Object.hasOwn(FONT_FAMILIES, value) ? FONT_FAMILIES[value as keyof typeof FONT_FAMILIES] : undefined;
        break;
      case 'density':
        resolved = typeof value === 'string' && Object.hasOwn(DENSITIES, value) ? DENSITIES[value as keyof typeof DENSITIES] : undefined;
        break;
      case 'fontSize':
        resolved = isLength(value, 'font-size') ? value.trim() : undefined;
        break;
      case 'radius':
        resolved = isLength(value, 'border-top-left-radius') ? value.trim() : undefined;
        break;
      default:
        resolved = isColor(value) ? value.trim() : undefined;
    }
    if (resolved === undefined) ignored.push(`${key}: ${show(value)}`);
    else properties.set(APPEARANCE_PROPERTIES[name], resolved);
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
