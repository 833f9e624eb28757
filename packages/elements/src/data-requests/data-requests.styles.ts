import { css } from 'lit';

/**
 * Styles of `<svc-data-requests>`; the colours and sizes a page may change are `--svc-data-requests-*` properties.
 * Unset, they follow the hosted pages' design tokens (`--svc-accent`, `--svc-radius`, `--svc-font-family`…), as
 * `<svc-records>` does, and keep their own font rather than the page's. Logical properties only, so a right-to-left
 * page mirrors it; rows and the form wrap, so 375 px is enough.
 */
export const dataRequestsStyles = css`
  :host {
    display: block;
    position: relative;
    color: var(--svc-data-requests-color, inherit);
    font: var(--svc-data-requests-font, 400 100%/1.5 var(--svc-font-family, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif));
    --_accent: var(--svc-data-requests-accent, var(--svc-accent, #2f4fb5));
    --_accent-text: var(--svc-accent-text, #fff);
    --_radius: var(--svc-data-requests-radius, var(--svc-radius, 0.6rem));
    --_button-radius: var(--svc-data-requests-radius, var(--svc-button-radius, 0.45rem));
    --_border: var(--svc-data-requests-border, 1px solid color-mix(in srgb, currentColor 20%, transparent));
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
    gap: var(--svc-data-requests-gap, .75rem);
    margin-block-start: .75rem;
  }

  [part=request],
  [part=form],
  [part=confirm] {
    padding-block: .75rem;
    padding-inline: 1rem;
    border: var(--_border);
    border-radius: var(--_radius);
    overflow-wrap: anywhere;
  }

  [part=request]:focus {
    outline: none;
  }

  [part=organisation],
  [part=form-title] {
    font-weight: 600;
  }

  [part=meta],
  .hint {
    opacity: .8;
  }

  [part=due] {
    margin-block-start: .25rem;
  }

  [part=due].overdue {
    font-weight: 600;
  }

  [part=form] {
    display: grid;
    gap: .75rem;
    margin-block-start: .75rem;
  }

  fieldset {
    display: grid;
    gap: .5rem;
    margin: 0;
    padding: 0;
    border: 0;
  }

  legend,
  label {
    font-weight: 600;
  }

  legend {
    padding: 0;
    margin-block-end: .25rem;
  }

  .choice {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: 0 .5rem;
    align-items: start;
  }

  .choice label {
    display: grid;
  }

  .choice .hint {
    font-weight: 400;
  }

  select,
  textarea {
    font: inherit;
    display: block;
    inline-size: 100%;
    box-sizing: border-box;
    margin-block-start: .25rem;
    padding-block: .4rem;
    padding-inline: .6rem;
    border: var(--_border);
    border-radius: var(--_button-radius);
    background: transparent;
    color: inherit;
  }

  [part=confirm] {
    margin-block-start: .75rem;
    border: 1px solid var(--_accent);
  }

  [part=confirm]:focus-visible,
  :is(select, textarea, input):focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }

  [part=actions] {
    display: flex;
    flex-wrap: wrap;
    gap: .5rem;
  }

  [part=confirm] [part=actions] {
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

  button.primary {
    background: var(--_accent);
    color: var(--_accent-text);
  }

  button[disabled] {
    opacity: .6;
    cursor: progress;
  }

  [part=download] {
    margin-block-start: .5rem;
    padding-block: .3rem;
    padding-inline: .8rem;
  }

  [part=more],
  [part=retry] {
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
