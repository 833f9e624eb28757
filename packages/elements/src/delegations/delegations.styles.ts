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

  [part=grant] > [part=actions] button {
    padding-block: .3rem;
    padding-inline: .8rem;
  }
`;
