import { css } from 'lit';

/**
 * What only `<svc-data-requests>` adds to the people's list styles (`personListStyles('data-requests')`, whose
 * `--svc-data-requests-*` properties a page may set): "New request" above the list, the form and its fields, a
 * request's type beside its organisation, its due date, and the download button. Rows and the form wrap, so 375 px
 * is enough.
 */
export const dataRequestsStyles = css`
  [part=list] {
    margin-block-start: .75rem;
  }

  [part=form] {
    display: grid;
    gap: .75rem;
    margin-block-start: .75rem;
    padding-block: .75rem;
    padding-inline: 1rem;
    border: var(--_border);
    border-radius: var(--_radius);
    overflow-wrap: anywhere;
  }

  /* The organisation and the type share a line; the meta line sits right under it. */
  [part=organisation] {
    display: inline;
  }

  [part=meta] {
    margin-block-start: 0;
  }

  [part=form-title] {
    font-weight: 600;
  }

  .hint {
    opacity: .8;
  }

  [part=due] {
    margin-block-start: .25rem;
  }

  [part=due].overdue {
    font-weight: 600;
  }

  fieldset {
    display: grid;
    gap: .5rem;
    margin: 0;
    padding: 0;
    border: 0;
  }

  legend,
  label {
    font-weight: 600;
  }

  legend {
    padding: 0;
    margin-block-end: .25rem;
  }

  .choice {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: 0 .5rem;
    align-items: start;
  }

  .choice label {
    display: grid;
  }

  .choice .hint {
    font-weight: 400;
  }

  select,
  textarea {
    font: inherit;
    display: block;
    inline-size: 100%;
    box-sizing: border-box;
    margin-block-start: .25rem;
    padding-block: .4rem;
    padding-inline: .6rem;
    border: var(--_border);
    border-radius: var(--_button-radius);
    background: transparent;
    color: inherit;
  }

  :is(select, textarea, input):focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }

  /* The form is a grid with its own gap. */
  [part=form] > [part=actions] {
    margin-block-start: 0;
  }

  [part=download] {
    margin-block-start: .5rem;
    padding-block: .3rem;
    padding-inline: .8rem;
  }
`;
