import { css } from 'lit';

/**
 * Styles of `<svc-records>`; the colours and sizes a page may change are `--svc-records-*` properties. Unset, they
 * follow the hosted pages' design tokens (`--svc-accent`, `--svc-radius`, `--svc-font-family`…), with the same values
 * as fallbacks, as `<svc-inbox>` does, and keep their own font rather than the page's. Logical properties only, so a
 * right-to-left page mirrors it; rows wrap, so 375 px is enough.
 */
export const recordsStyles = css`
  :host {
    display: block;
    position: relative;
    color: var(--svc-records-color, inherit);
    font: var(--svc-records-font, 400 100%/1.5 var(--svc-font-family, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif));
    --_accent: var(--svc-records-accent, var(--svc-accent, #2f4fb5));
    --_accent-text: var(--svc-accent-text, #fff);
    --_radius: var(--svc-records-radius, var(--svc-radius, 0.6rem));
    --_button-radius: var(--svc-records-radius, var(--svc-button-radius, 0.45rem));
    --_border: var(--svc-records-border, 1px solid color-mix(in srgb, currentColor 20%, transparent));
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
    gap: var(--svc-records-gap, .75rem);
  }

  [part=record] {
    padding-block: .75rem;
    padding-inline: 1rem;
    border: var(--_border);
    border-radius: var(--_radius);
    overflow-wrap: anywhere;
  }

  [part=record]:focus {
    outline: none;
  }

  [part=organisation],
  [part=title] {
    display: block;
  }

  [part=organisation] {
    font-weight: 600;
  }

  [part=meta] {
    margin-block-start: .25rem;
    opacity: .8;
  }

  [part=purposes] {
    display: grid;
    gap: .5rem;
    margin-block-start: .75rem;
  }

  [part=purpose] {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: .25rem .75rem;
    padding-block-start: .5rem;
    border-block-start: var(--_border);
  }

  [part=purpose-label] {
    font-weight: 600;
  }

  [part=outcome] {
    display: block;
    font-weight: 400;
  }

  [part=confirm] {
    margin-block-start: .75rem;
    padding-block: .75rem;
    padding-inline: 1rem;
    border: 1px solid var(--_accent);
    border-radius: var(--_radius);
  }

  [part=confirm]:focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }

  [part=actions] {
    display: flex;
    flex-wrap: wrap;
    gap: .5rem;
    margin-block-start: .75rem;
  }

  /* The hosted pages' buttons: outlined by default, the one that does what the step is for filled. */
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

  [part=withdraw] {
    padding-block: .3rem;
    padding-inline: .8rem;
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
  [part=retry],
  [part=withdraw-all] {
    margin-block-start: .75rem;
  }

  button:focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
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
