import { css } from 'lit';

/**
 * What only `<svc-agreements>` adds to the people's list styles (`personListStyles('agreements')`, whose
 * `--svc-agreements-*` properties a page may set): the document to read in a bounded, scrolling box that keeps its
 * lines, the parties and the terms as small lists, and the row's smaller buttons.
 */
export const agreementsStyles = css`
  [part=title] {
    font-weight: 600;
  }

  [part=document] {
    margin-block-start: .5rem;
  }

  [part=document-text] {
    max-block-size: 16rem;
    overflow: auto;
    margin-block: .5rem 0;
    padding-block: .5rem;
    padding-inline: .75rem;
    border: var(--_border);
    border-radius: var(--_radius);
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    font: inherit;
  }

  [part=fingerprint] {
    font-size: .85em;
    overflow-wrap: anywhere;
  }

  [part=parties],
  [part=terms] {
    display: grid;
    gap: .25rem;
    margin-block-start: .5rem;
    padding-inline-start: 1.1rem;
    list-style: disc;
  }

  [part=agreement] > [part=actions] button,
  [part=collaboration] > [part=actions] button {
    padding-block: .3rem;
    padding-inline: .8rem;
  }
`;
