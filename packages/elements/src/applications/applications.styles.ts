import { css } from 'lit';

/**
 * What only `<svc-applications>` adds to the list styles (`personListStyles('applications')`, whose
 * `--svc-applications-*` properties a page may set): an application's sections, the origin and token forms and their
 * refusals, a token value shown once. Everything wraps, so 375 px is enough.
 */
export const applicationsStyles = css`
  [part=list] {
    margin-block-start: .75rem;
  }

  [part=heading] {
    font-weight: 600;
    font-size: 1.1em;
  }

  section {
    margin-block-start: .75rem;
  }

  [part=section-title],
  label,
  legend {
    font-weight: 600;
  }

  .hint {
    opacity: .8;
  }

  [part=origins],
  [part=clients],
  [part=keys],
  .uris {
    display: grid;
    gap: .35rem;
    margin-block-start: .35rem;
  }

  [part=origin],
  [part=client] {
    padding-block-start: .35rem;
    border-block-start: var(--_border);
  }

  [part=origin]:focus {
    outline: none;
  }

  [part=client] > p:first-child {
    font-weight: 600;
  }

  .uris {
    padding-inline-start: 1rem;
  }

  [part=remove],
  [part=rotate],
  [part=revoke],
  [part=add] {
    padding-block: .3rem;
    padding-inline: .8rem;
  }

  [part=remove] {
    margin-inline-start: .5rem;
  }

  [part=origin-form] {
    display: grid;
    gap: .35rem;
    margin-block-start: .75rem;
  }

  .inline {
    display: flex;
    flex-wrap: wrap;
    gap: .5rem;
  }

  .inline input {
    flex: 1 1 12rem;
  }

  [part=form],
  [part=secret] {
    display: grid;
    gap: .35rem;
    margin-block-start: .75rem;
    padding-block: .75rem;
    padding-inline: 1rem;
    border: var(--_border);
    border-radius: var(--_radius);
    overflow-wrap: anywhere;
  }

  [part=secret] {
    border-color: var(--_accent);
  }

  [part=secret]:focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }

  [part=secret-value] {
    display: block;
    padding-block: .5rem;
    padding-inline: .75rem;
    border: var(--_border);
    border-radius: var(--_button-radius);
    user-select: all;
  }

  fieldset {
    display: flex;
    flex-wrap: wrap;
    gap: .25rem 1rem;
    margin: 0;
    margin-block-start: .5rem;
    padding-block: .5rem;
    padding-inline: .75rem;
    border: var(--_border);
    border-radius: var(--_button-radius);
  }

  label.check {
    font-weight: 400;
    display: inline-flex;
    gap: .35rem;
    align-items: center;
  }

  input:not([type=checkbox]) {
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

  input:focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 1px;
  }

  [aria-invalid=true] {
    border-color: var(--svc-applications-error, #b3261e);
  }

  [part=field-error],
  [part=form-error] {
    color: var(--svc-applications-error, #b3261e);
    font-weight: 600;
  }

  [part=permissions] {
    display: flex;
    flex-wrap: wrap;
    gap: .35rem;
    margin-block-start: .25rem;
  }

  .tag {
    padding-block: .05rem;
    padding-inline: .5rem;
    border: var(--_border);
    border-radius: 999px;
    font-size: .9em;
  }

  code {
    font-family: ui-monospace, monospace;
    overflow-wrap: anywhere;
  }
`;
