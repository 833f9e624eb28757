import { css } from 'lit';

/**
 * What only `<svc-governance>` adds to the list styles (`personListStyles('governance')`, whose `--svc-governance-*`
 * properties a page may set): the settings and their form, the change log's changes, the audit toolbar and the
 * verdict. Everything wraps, so 375 px is enough.
 */
export const governanceStyles = css`
  [part=list] {
    margin-block-start: .75rem;
  }

  [part=base] {
    overflow-wrap: anywhere;
  }

  [part~=title] {
    font-weight: 700;
    margin-block-start: 1rem;
  }

  [part=settings] dl {
    display: grid;
    gap: .4rem;
    margin-block: .5rem 0;
    margin-inline: 0;
  }

  [part=settings] dl > div {
    display: flex;
    flex-wrap: wrap;
    column-gap: 1rem;
    padding-block-end: .4rem;
    border-block-end: var(--_border);
  }

  dt {
    font-weight: 600;
    flex: 1 1 14rem;
  }

  dd {
    margin: 0;
    flex: 1 1 8rem;
    overflow-wrap: anywhere;
  }

  [part=edit],
  [part=disable],
  [part=enable] {
    margin-block-start: .5rem;
    padding-block: .3rem;
    padding-inline: .8rem;
  }

  [part=form] {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: .35rem;
    margin-block-start: .75rem;
    padding-block: .75rem;
    padding-inline: 1rem;
    border: var(--_border);
    border-radius: var(--_radius);
  }

  label {
    font-weight: 600;
    margin-block-start: .5rem;
  }

  .flag {
    display: flex;
    gap: .5rem;
    align-items: baseline;
    margin-block-start: .5rem;
  }

  .flag label {
    margin: 0;
  }

  .hint {
    opacity: .8;
  }

  input,
  select {
    font: inherit;
    padding-block: .4rem;
    padding-inline: .6rem;
    border: var(--_border);
    border-radius: var(--_button-radius);
    background: transparent;
    color: inherit;
    max-inline-size: 100%;
    box-sizing: border-box;
  }

  input:focus-visible,
  select:focus-visible,
  [part=form-error]:focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 1px;
  }

  [part=refusal],
  [part=form-error],
  [part~=breaks] {
    color: var(--svc-governance-error, #b3261e);
    font-weight: 600;
    margin-block-start: .5rem;
  }

  [part~=verifies] {
    color: var(--svc-governance-ok, #1b6e3a);
    font-weight: 600;
    margin-block-start: .5rem;
  }

  /*
   * A grid of one 0-minimum track, and a paint-contained select: WebKit sizes a select to its longest option and
   * passes that width on to its ancestors' overflow, which would scroll a 375 px page sideways.
   */
  [part=toolbar] {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    justify-items: start;
    gap: .5rem;
  }

  [part=toolbar] label {
    margin: 0;
  }

  [part=toolbar] select {
    inline-size: 100%;
    max-inline-size: 32rem;
    contain: paint;
  }

  [part=changes] {
    display: grid;
    gap: .25rem;
    margin-block-start: .4rem;
  }

  [part~=broken] {
    border-color: var(--svc-governance-error, #b3261e);
    border-inline-start-width: 4px;
  }

  [part=description],
  [part=actor] {
    margin-block-start: .25rem;
  }
`;
