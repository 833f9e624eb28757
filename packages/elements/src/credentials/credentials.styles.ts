import { css } from 'lit';

/**
 * Styles of `<svc-credentials>`; what a page may change are `--svc-credentials-*` properties, which follow the hosted
 * pages' design tokens (`--svc-accent`, `--svc-radius`, `--svc-font-family`…) when unset, as `<svc-records>` does.
 * Logical properties only, so a right-to-left page mirrors it; rows wrap, so 375 px is enough.
 */
export const credentialsStyles = css`
  :host {
    display: block;
    position: relative;
    color: var(--svc-credentials-color, inherit);
    font: var(--svc-credentials-font, 400 100%/1.5 var(--svc-font-family, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif));
    --_accent: var(--svc-credentials-accent, var(--svc-accent, #2f4fb5));
    --_accent-text: var(--svc-accent-text, #fff);
    --_radius: var(--svc-credentials-radius, var(--svc-radius, 0.6rem));
    --_button-radius: var(--svc-credentials-radius, var(--svc-button-radius, 0.45rem));
    --_border: var(--svc-credentials-border, 1px solid color-mix(in srgb, currentColor 20%, transparent));
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
    gap: var(--svc-credentials-gap, .75rem);
  }

  [part=credential],
  [part=presentation-row] {
    padding-block: .75rem;
    padding-inline: 1rem;
    border: var(--_border);
    border-radius: var(--_radius);
    overflow-wrap: anywhere;
  }

  [part=credential]:focus {
    outline: none;
  }

  [part=name],
  [part=heading] {
    font-weight: 600;
  }

  [part=organisation] {
    font-weight: 400;
  }

  [part=meta],
  [part=note] {
    margin-block-start: .25rem;
    opacity: .8;
  }

  [part=claims] {
    display: grid;
    gap: .35rem;
    margin-block-start: .75rem;
  }

  [part=claim] {
    display: flex;
    flex-wrap: wrap;
    gap: .1rem .75rem;
    padding-block-start: .35rem;
    border-block-start: var(--_border);
  }

  [part=claim-label] {
    font-weight: 600;
  }

  [part=required] {
    font-size: .875em;
    opacity: .8;
  }

  [part=step],
  [part=result] {
    display: grid;
    gap: .75rem;
    margin-block-start: .75rem;
    padding-block: .75rem;
    padding-inline: 1rem;
    border: 1px solid var(--_accent);
    border-radius: var(--_radius);
  }

  :is([part=step], [part=result]):focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }

  .field {
    display: grid;
    gap: .25rem;
    font-weight: 600;
  }

  input,
  textarea {
    font: inherit;
    font-weight: 400;
    padding-block: .4rem;
    padding-inline: .6rem;
    border: var(--_border);
    border-radius: var(--_button-radius);
    color: inherit;
    background: transparent;
    min-inline-size: 0;
  }

  textarea {
    font-family: ui-monospace, monospace;
    font-size: .8em;
    resize: vertical;
  }

  fieldset {
    display: grid;
    gap: .4rem;
    margin: 0;
    padding-block: .5rem;
    padding-inline: .75rem;
    border: var(--_border);
    border-radius: var(--_button-radius);
  }

  legend {
    font-weight: 600;
    padding-inline: .25rem;
  }

  [part=choice] {
    display: flex;
    align-items: baseline;
    gap: .5rem;
  }

  [part=choice] input {
    inline-size: 1.1rem;
    block-size: 1.1rem;
    accent-color: var(--_accent);
  }

  [part=summary] {
    font-weight: 600;
  }

  [part=problem] {
    color: #b3261e;
  }

  [part=actions] {
    display: flex;
    flex-wrap: wrap;
    gap: .5rem;
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

  [part=more],
  [part=retry],
  [part=present] {
    margin-block-start: .75rem;
  }

  :is(button, input):focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }

  [part=status] {
    margin-block-start: .5rem;
  }

  [part=status]:empty {
    margin: 0;
  }

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
