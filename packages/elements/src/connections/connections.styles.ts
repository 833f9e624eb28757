import { css } from 'lit';

/**
 * What only `<svc-connections>` adds to the people's list styles (`personListStyles('connections')`, whose
 * `--svc-connections-*` properties a page may set): what governs a connection as a list, what a disconnection
 * stopped, the code form of a device link, and the rows' smaller buttons.
 */
export const connectionsStyles = css`
  [part=application] {
    display: block;
    font-weight: 600;
  }

  [part=organisation] {
    font-weight: 400;
  }

  [part=policies],
  [part=warnings] {
    display: grid;
    gap: .25rem;
    margin-block-start: .5rem;
    padding-inline-start: 1.1rem;
    list-style: disc;
  }

  [part=claim-form] {
    display: grid;
    gap: .5rem;
    margin-block-start: .75rem;
  }

  label {
    display: grid;
    gap: .25rem;
    font-weight: 600;
  }

  input {
    font: inherit;
    padding-block: .4rem;
    padding-inline: .6rem;
    border: var(--_border);
    border-radius: var(--_button-radius);
    max-inline-size: 100%;
  }

  input:focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }

  [part=list] > li > [part=actions] button {
    padding-block: .3rem;
    padding-inline: .8rem;
  }
`;
