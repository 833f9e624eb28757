import { css } from 'lit';

/**
 * What only `<svc-policies>` adds to the people's list styles (`personListStyles('policies')`, whose
 * `--svc-policies-*` properties a page may set) and the charts' (`chartStyles`): section headings, a row's title and
 * budget, a clean room's queries, the activity's selects and its table, which scrolls within itself at 375 px.
 */
export const policiesStyles = css`
  [part=heading] {
    margin-block: 1rem .5rem;
    font-size: 1.05em;
  }

  [part=title] {
    font-weight: 600;
  }

  [part=budget] {
    margin-block-start: .25rem;
    font-variant-numeric: tabular-nums;
  }

  [part=revoke],
  [part=close],
  [part=toggle-queries] {
    padding-block: .3rem;
    padding-inline: .8rem;
  }

  [part=revoke] {
    margin-block-start: .5rem;
  }

  [part=queries] {
    margin-block-start: .5rem;
    padding-inline-start: 1rem;
    list-style: disc;
  }

  [part=filters] {
    display: flex;
    flex-wrap: wrap;
    gap: .75rem;
    margin-block-end: .75rem;
  }

  [part=filters] label {
    display: grid;
    gap: .25rem;
    font-weight: 600;
  }

  select {
    font: inherit;
    padding-block: .35rem;
    padding-inline: .5rem;
    border: var(--_border);
    border-radius: var(--_button-radius);
    background: transparent;
    color: inherit;
    max-inline-size: 100%;
  }

  select:focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 1px;
  }

  .table-scroll {
    max-inline-size: 100%;
    overflow-x: auto;
  }

  [part=totals] {
    margin-block-start: .5rem;
  }
`;
