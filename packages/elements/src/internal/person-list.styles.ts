import { type CSSResult, css, unsafeCSS } from 'lit';

/**
 * What every person-facing list looks like (`<svc-records>`, `<svc-delegations>`, …): each row a card, the hosted
 * pages' buttons (outlined, the one that does what a step is for filled), the confirm step, the live region. What a
 * page may change are `--svc-<name>-*` properties (`color`, `font`, `accent`, `radius`, `border`, `gap`); unset,
 * they follow the hosted pages' design tokens (`--svc-accent`, `--svc-radius`, `--svc-font-family`…) with the same
 * values as fallbacks, and keep their own font rather than the page's. Logical properties only, so a right-to-left
 * page mirrors it; rows wrap, so 375 px is enough. An element adds its own rules after these.
 */
export function personListStyles(name: string): CSSResult {
  const prefix = unsafeCSS(`--svc-${name}`);
  return css`
    :host {
      display: block;
      position: relative;
      color: var(${prefix}-color, inherit);
      font: var(${prefix}-font, 400 100%/1.5 var(--svc-font-family, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif));
      --_accent: var(${prefix}-accent, var(--svc-accent, #2f4fb5));
      --_accent-text: var(--svc-accent-text, #fff);
      --_radius: var(${prefix}-radius, var(--svc-radius, 0.6rem));
      --_button-radius: var(${prefix}-radius, var(--svc-button-radius, 0.45rem));
      --_border: var(${prefix}-border, 1px solid color-mix(in srgb, currentColor 20%, transparent));
    }

    :host([hidden]) {
      display: none;
    }

    ul {
      list-style: none;
      margin: 0;
      padding: 0;
    }

    p {
      margin: 0;
    }

    [part=list] {
      display: grid;
      gap: var(${prefix}-gap, .75rem);
    }

    [part=list] > li {
      padding-block: .75rem;
      padding-inline: 1rem;
      border: var(--_border);
      border-radius: var(--_radius);
      overflow-wrap: anywhere;
    }

    [part=list] > li:focus {
      outline: none;
    }

    [part=organisation] {
      display: block;
      font-weight: 600;
    }

    [part=meta] {
      margin-block-start: .25rem;
      opacity: .8;
    }

    [part=confirm] {
      margin-block-start: .75rem;
      padding-block: .75rem;
      padding-inline: 1rem;
      border: 1px solid var(--_accent);
      border-radius: var(--_radius);
    }

    [part=confirm]:focus-visible,
    button:focus-visible {
      outline: 3px solid var(--_accent);
      outline-offset: 2px;
    }

    [part=actions] {
      display: flex;
      flex-wrap: wrap;
      gap: .5rem;
      margin-block-start: .75rem;
    }

    button {
      font: inherit;
      font-weight: 600;
      line-height: 1.5;
      cursor: pointer;
      padding-block: .55rem;
      padding-inline: 1.1rem;
      border: 1px solid var(--_accent);
      border-radius: var(--_button-radius);
      background: transparent;
      color: var(--_accent);
    }

    button.primary {
      background: var(--_accent);
      color: var(--_accent-text);
    }

    button[disabled] {
      opacity: .6;
      cursor: progress;
    }

    [part=more],
    [part=retry] {
      margin-block-start: .75rem;
    }

    [part=status] {
      margin-block-start: .5rem;
    }

    [part=status]:empty {
      margin: 0;
    }

    .vh,
    :is(.idle, .empty, .signed-out, .error) [part=status] {
      position: absolute;
      width: 1px;
      height: 1px;
      margin: -1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
      white-space: nowrap;
    }
  `;
}
