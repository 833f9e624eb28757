import { css } from 'lit';

/**
 * Styles of `<svc-inbox>`; the colours and sizes a page may change are `--svc-inbox-*` properties. Unset, they follow
 * the hosted pages' design tokens (`--svc-accent`, `--svc-radius`, `--svc-font-family`…), with the same values as
 * fallbacks, so the inbox looks like its siblings on any page, and keeps its own font rather than the page's.
 */
export const inboxStyles = css`
  :host {
    display: block;
    position: relative;
    color: var(--svc-inbox-color, inherit);
    font: var(--svc-inbox-font, 400 100%/1.5 var(--svc-font-family, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif));
    --_accent: var(--svc-inbox-accent, var(--svc-accent, #2f4fb5));
    --_radius: var(--svc-inbox-radius, var(--svc-radius, 0.6rem));
    --_button-radius: var(--svc-inbox-radius, var(--svc-button-radius, 0.45rem));
    --svc-decision-accent: var(--_accent);
    --svc-decision-accent-text: var(--svc-accent-text, #fff);
    --svc-decision-radius: var(--_button-radius);
  }

  :host([hidden]) {
    display: none;
  }

  [part=list] {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: var(--svc-inbox-gap, .75rem);
  }

  [part=row] {
    padding: .75rem 1rem;
    border: var(--svc-inbox-border, 1px solid color-mix(in srgb, currentColor 20%, transparent));
    border-radius: var(--_radius);
  }

  /* Each row opens its decision with a secondary button: a list of rows has no one primary action. */
  [part=title]::part(button) {
    font-weight: 600;
    padding: .55rem 1.1rem;
    border-color: var(--_accent);
    background: transparent;
    color: var(--_accent);
  }

  [part=summary],
  [part=meta] {
    margin: .5rem 0 0;
  }

  [part=more],
  [part=retry] {
    font: inherit;
    cursor: pointer;
    margin-block-start: .75rem;
    font-weight: 600;
    padding: .55rem 1.1rem;
    border: 1px solid var(--_accent);
    border-radius: var(--_button-radius);
    background: transparent;
    color: var(--_accent);
  }

  button:focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }

  [part=status] {
    margin: .5rem 0 0;
  }

  [part=status]:empty {
    margin: 0;
  }

  /* Where the view already says it, the status line only talks to screen readers. */
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
