import { css } from 'lit';

/**
 * What only `<svc-vouches>` adds to the people's list styles (`personListStyles('vouches')`, whose `--svc-vouches-*`
 * properties a page may set): the vouch form and its error, a vouch's statement, a score and its factors. Rows and
 * the form wrap, so 375 px is enough.
 */
export const vouchesStyles = css`
  [part=list] {
    margin-block-start: .75rem;
  }

  [part=form] {
    display: grid;
    gap: .35rem;
    margin-block-start: .75rem;
    padding-block: .75rem;
    padding-inline: 1rem;
    border: var(--_border);
    border-radius: var(--_radius);
    overflow-wrap: anywhere;
  }

  [part=form-title],
  label {
    font-weight: 600;
  }

  label {
    margin-block-start: .5rem;
  }

  .hint {
    opacity: .8;
  }

  input,
  textarea {
    font: inherit;
    padding-block: .4rem;
    padding-inline: .6rem;
    border: var(--_border);
    border-radius: var(--_button-radius);
    background: transparent;
    color: inherit;
    max-inline-size: 100%;
    box-sizing: border-box;
  }

  input:focus-visible,
  textarea:focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 1px;
  }

  [aria-invalid=true] {
    border-color: var(--svc-vouches-error, #b3261e);
  }

  [part=field-error] {
    color: var(--svc-vouches-error, #b3261e);
    font-weight: 600;
  }

  [part=statement] {
    margin-block-start: .25rem;
    font-style: italic;
  }

  [part=withdraw] {
    margin-block-start: .5rem;
    padding-block: .3rem;
    padding-inline: .8rem;
  }

  [part=score] {
    font-size: 1.25em;
    font-weight: 700;
  }

  [part=factors] {
    display: grid;
    gap: .4rem;
    margin-block-start: .5rem;
  }

  [part=factor] {
    padding-block-start: .4rem;
    border-block-start: var(--_border);
  }

  code {
    font-family: ui-monospace, monospace;
    overflow-wrap: anywhere;
  }
`;
