import { css } from 'lit';

/**
 * What only `<svc-receipts>` adds to the people's list styles (`personListStyles('receipts')`, whose
 * `--svc-receipts-*` properties a page may set): the offline check line, the bounds, the actions and the drop zone.
 */
export const receiptsStyles = css`
  [part=check] {
    font-weight: 600;
    margin-block-end: .5rem;
  }

  [part=check][data-verdict=tampered],
  [part=check][data-verdict=not_this_service],
  [part=check][data-verdict=malformed] {
    color: #a4262c;
  }

  [part=bounds] {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(10rem, 1fr));
    gap: .25rem .75rem;
    margin-block: .75rem 0;
  }

  [part=bound] dt {
    font-weight: 600;
  }

  [part=bound] dd {
    margin: 0;
  }

  [part=bound][data-configured=false] dd {
    opacity: .7;
  }

  [part=actions],
  [part=agents] {
    margin-block-start: .75rem;
    padding-block-start: .5rem;
    border-block-start: var(--_border);
  }

  [part=drop] {
    display: grid;
    gap: .5rem;
    margin-block-start: 1rem;
    padding: 1rem;
    border: 2px dashed color-mix(in srgb, currentColor 30%, transparent);
    border-radius: var(--_radius);
  }

  [part=drop].over {
    border-color: var(--_accent);
  }

  [part=drop] label {
    font-weight: 600;
  }

  [part=file-verdict] {
    font-weight: 600;
  }
`;
