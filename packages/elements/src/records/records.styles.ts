import { css } from 'lit';

/**
 * What only `<svc-records>` adds to the people's list styles (`personListStyles('records')`, whose
 * `--svc-records-*` properties a page may set): a record's title, its purposes, and their withdraw buttons.
 */
export const recordsStyles = css`
  [part=title] {
    display: block;
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

  [part=withdraw] {
    padding-block: .3rem;
    padding-inline: .8rem;
  }

  [part=withdraw-all] {
    margin-block-start: .75rem;
  }
`;
