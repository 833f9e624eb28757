import { css } from 'lit';

/**
 * What only `<svc-data-offers>` adds to the people's list styles (`personListStyles('data-offers')`, whose
 * `--svc-data-offers-*` properties a page may set): the application under the organisation, the terms as a list,
 * the note, and the row's smaller buttons.
 */
export const dataOffersStyles = css`
  [part=application] {
    display: block;
  }

  [part=categories],
  [part=note] {
    margin-block-start: .5rem;
  }

  [part=terms] {
    display: grid;
    gap: .25rem;
    margin-block-start: .5rem;
    padding-inline-start: 1.1rem;
    list-style: disc;
  }

  [part=note] {
    font-style: italic;
  }

  [part=actions] button {
    padding-block: .3rem;
    padding-inline: .8rem;
  }
`;
