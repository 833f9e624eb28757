import { css } from 'lit';

/**
 * What only `<svc-agents>` adds to the people's list styles (`personListStyles('agents')`, whose `--svc-agents-*`
 * properties a page may set): a row's status badge, an agent's manifests and score, a grant's bounds, the row's
 * buttons, the chart and its table. Rows, buttons and the table wrap or scroll within themselves, so 375 px is enough.
 */
export const agentsStyles = css`
  [part=list] {
    margin-block-start: .75rem;
  }

  [part=heading] {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: .25rem .5rem;
  }

  .name {
    font-weight: 600;
  }

  [part=badge] {
    padding-inline: .5rem;
    border: 1px solid currentColor;
    border-radius: 999px;
    font-size: .875em;
  }

  [part=badge][data-status=suspended],
  [part=badge][data-status=pending],
  [part=badge][data-status=countered] {
    color: var(--svc-agents-warning, #8a5a00);
  }

  [part=badge][data-status=revoked],
  [part=badge][data-status=denied],
  [part=badge][data-status=expired] {
    color: var(--svc-agents-danger, #b3261e);
  }

  [part=trust-score],
  [part=manifests],
  [part=scopes],
  [part=bounds],
  [part=reason] {
    margin-block-start: .35rem;
  }

  [part=manifests] ul,
  [part=bounds] {
    padding-inline-start: 1.25rem;
    list-style: disc;
  }

  .label {
    font-weight: 600;
  }

  [part=list] > li > [part=actions] {
    margin-block-start: .5rem;
  }

  [part=suspend],
  [part=resume],
  [part=revoke] {
    padding-block: .3rem;
    padding-inline: .8rem;
  }

  [part=overview] {
    margin-block-start: .5rem;
    max-inline-size: 100%;
    overflow-x: auto;
  }

  [part=overview]:focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }

  code {
    font-family: ui-monospace, monospace;
    overflow-wrap: anywhere;
  }
`;
