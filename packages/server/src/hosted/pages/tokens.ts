// The one look of every hosted page (decision, sign-in and consent, device, inbox, playground): design tokens as CSS
// custom properties and the decision page's button style. Plain strings, so the server's stylesheets and the page
// bundles' constructable stylesheets use the same text. `<svc-inbox>` falls back to the same values (a test checks).

/** Light values of the tokens; `DARK_TOKENS` overrides the colours under `prefers-color-scheme: dark`. */
export const TOKENS = {
  '--svc-accent': '#2f4fb5',
  '--svc-accent-text': '#fff',
  '--svc-danger': '#b42318',
  '--svc-border': 'color-mix(in srgb, CanvasText 22%, transparent)',
  '--svc-muted': 'color-mix(in srgb, CanvasText 70%, Canvas)',
  '--svc-radius': '0.6rem',
  '--svc-button-radius': '0.45rem',
  '--svc-font-family': 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  '--svc-focus-ring': '3px solid var(--svc-accent)',
  '--svc-space-1': '0.25rem',
  '--svc-space-2': '0.6rem',
  '--svc-space-3': '1rem',
} as const;

export const DARK_TOKENS = { '--svc-accent': '#8ea7ff', '--svc-accent-text': '#0b1020', '--svc-danger': '#ff8a80' } as const;

const declarations = (tokens: Record<string, string>) =>
  Object.entries(tokens)
    .map(([name, value]) => `${name}: ${value};`)
    .join(' ');

/** The tokens declared on `selector` (`:root` for a document, `:host` for a shadow root), dark values included. */
export function tokensCss(selector: string): string {
  return `${selector} { ${declarations(TOKENS)} }
@media (prefers-color-scheme: dark) { ${selector} { ${declarations(DARK_TOKENS)} } }
`;
}

/**
 * The buttons: secondary by default (outlined in the accent), `.primary` filled (one per page: the action the page
 * is for), `.link` for a quiet way out. `a.button` looks the same, for links that act as buttons.
 */
export const BUTTON_CSS = `button, a.button {
  font: inherit; font-weight: 600; cursor: pointer; padding: 0.55rem 1.1rem; border-radius: var(--svc-button-radius);
  border: 1px solid var(--svc-accent); background: transparent; color: var(--svc-accent); text-decoration: none;
  display: inline-block; line-height: 1.5;
}
button.primary, a.button.primary { background: var(--svc-accent); color: var(--svc-accent-text); }
button.link { border: none; padding: 0.55rem 0.25rem; text-decoration: underline; font-weight: 500; color: var(--svc-muted); }
button[disabled] { opacity: 0.6; cursor: progress; }
button:focus-visible, a:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible {
  outline: var(--svc-focus-ring); outline-offset: 2px;
}
`;
