import { css } from 'lit';

/**
 * What only `<svc-delegations>` adds to the people's list styles (`personListStyles('delegations')`, whose
 * `--svc-delegations-*` properties a page may set): the delegate first, the organisation under it, the bounds as a
 * list, and the grant's smaller buttons.
 */
export const delegationsStyles = css`
  [part=delegate] {
    font-weight: 600;
  }

  [part=organisation] {
    font-weight: 400;
  }

  [part=bounds] {
    display: grid;
    gap: .25rem;
    margin-block-start: .5rem;
    padding-inline-start: 1.1rem;
    list-style: disc;
  }

  .make {
    margin-block-end: var(--svc-delegations-gap, .75rem);
  }

  [part=form] {
    margin-block-start: .75rem;
    padding-block: .75rem;
    padding-inline: 1rem;
    border: var(--_border);
    border-radius: var(--_radius);
  }

  fieldset {
    display: grid;
    gap: .75rem;
    margin: 0;
    padding: 0;
    border: 0;
    min-inline-size: 0;
  }

  [part=field] {
    display: grid;
    gap: .25rem;
  }

  label {
    font-weight: 600;
  }

  .hint {
    opacity: .8;
  }

  input,
  select {
    font: inherit;
    color: inherit;
    background: transparent;
    inline-size: 100%;
    box-sizing: border-box;
    padding-block: .45rem;
    padding-inline: .6rem;
    border: var(--_border);
    border-radius: var(--_button-radius);
  }

  input:focus-visible,
  select:focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 1px;
  }

  [aria-invalid=true] {
    border-color: #b3261e;
  }

  [part=field-error],
  [part=form-error] {
    color: #b3261e;
    font-weight: 600;
  }

  [part=grant] > [part=actions] button {
    padding-block: .3rem;
    padding-inline: .8rem;
  }
`;
