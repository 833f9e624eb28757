import { css } from 'lit';

/**
 * What only `<svc-credentials>` adds to the people's list styles (`personListStyles('credentials')`, whose
 * `--svc-credentials-*` properties a page may set): a credential's name beside its issuer, its claims, the
 * selective-disclosure step and its result, and the Present button.
 */
export const credentialsStyles = css`
  [part=name],
  [part=heading] {
    font-weight: 600;
  }

  /* "from <issuer>" follows the credential's name on its line. */
  [part=organisation] {
    display: inline;
    font-weight: 400;
  }

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

  :is([part=step], [part=result], input):focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }

  /* The step and the result are grids with their own gap. */
  :is([part=step], [part=result]) > [part=actions] {
    margin-block-start: 0;
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

  [part=present] {
    margin-block-start: .75rem;
  }
`;
