import { css } from 'lit';

// Colours come from the theme (private `--_*` defaults) unless the page or the appearance sets `--svc-*`. Every
// box property is logical (inline/block), so right-to-left locales mirror the layout by themselves. The recording
// mark takes nothing from the page or the appearance: it resets every property and uses fixed colours and size.
export const consentFieldStyles = css`
  :host {
    display: block;
    box-sizing: border-box;
  }

  :host([hidden]) {
    display: none;
  }

  /* A separate rule: a browser without :state() drops only this one (the duplicate renders nothing anyway). */
  :host(:state(duplicate)) {
    display: none;
  }

  .field {
    --_text: #1f2328;
    --_muted: #4d5560;
    --_accent: #0b57d0;
    --_border: #c6cbd1;
    --_mark-text: #2b3036;
    --_mark-back: #eef0f2;
    --_space: var(--svc-space, .75rem);
    box-sizing: border-box;
    min-inline-size: 0;
    margin: 0;
    padding-block: var(--_space);
    padding-inline: calc(var(--_space) * 1.5);
    border: 1px solid var(--svc-border, var(--_border));
    border-radius: var(--svc-radius, .5rem);
    color: var(--svc-text, var(--_text));
    font-family: var(--svc-font-family, system-ui, sans-serif);
    font-size: var(--svc-font-size, 1rem);
    line-height: 1.45;
    text-align: start;
  }

  .field--dark {
    --_text: #f0f2f4;
    --_muted: #c3c9d0;
    --_accent: #8ab4f8;
    --_border: #5c6570;
    --_mark-text: #eef0f2;
    --_mark-back: #262b31;
  }

  @media (prefers-color-scheme: dark) {
    .field--auto {
      --_text: #f0f2f4;
      --_muted: #c3c9d0;
      --_accent: #8ab4f8;
      --_border: #5c6570;
      --_mark-text: #eef0f2;
      --_mark-back: #262b31;
    }
  }

  .field__legend {
    padding-inline: .25em;
    font-weight: 600;
  }

  .field__description,
  .row__description,
  .row__hint,
  .field__message {
    margin: 0;
    color: var(--svc-muted, var(--_muted));
    font-size: .875em;
  }

  .field__rows {
    display: grid;
    gap: var(--_space);
    margin-block: var(--_space);
  }

  .row {
    display: grid;
    grid-template-columns: 1.25em minmax(0, 1fr);
    column-gap: .625em;
    align-items: start;
  }

  /* Everything in a row but its box (below, same specificity, later) sits in the second column. */
  .row>* {
    grid-column: 2;
    margin: 0;
  }

  .row__control {
    grid-row: 1;
    grid-column: 1;
    inline-size: 1.125em;
    block-size: 1.125em;
    margin: .17em 0 0;
    accent-color: var(--svc-accent, var(--_accent));
  }

  .row--notice .row__label {
    font-weight: 500;
  }

  .row__control:focus-visible,
  .field__policy a:focus-visible {
    outline: 2px solid var(--svc-accent, var(--_accent));
    outline-offset: 2px;
  }

  .row__control:disabled + .row__label {
    opacity: .7;
  }

  .field__policy {
    margin: 0 0 var(--_space);
    font-size: .875em;
  }

  .field__policy a {
    color: var(--svc-accent, var(--_accent));
    border-radius: 2px;
  }

  /* Nothing from the page or the appearance reaches the mark: every property (inherited ones included) is reset,
     then set to fixed values; only its visibility follows the field, so a hidden field is noticed at submit. */
  .mark {
    all: initial;
    display: inline-flex;
    align-items: center;
    gap: 4px;
    visibility: inherit;
    padding: 2px 8px;
    border: 1px solid #8a939d;
    border-radius: 999px;
    background: var(--_mark-back);
    color: var(--_mark-text);
    font: 500 12px/16px system-ui, sans-serif;
    white-space: nowrap;
  }

  .mark svg {
    flex: none;
    inline-size: 12px;
    block-size: 12px;
    fill: currentColor;
  }
`;
