import { css } from 'lit';

/**
 * What only `<svc-evidence>` adds to the people's list styles (`personListStyles('evidence')`, whose
 * `--svc-evidence-*` properties a page may set): the Draw button and the package just drawn, a row's actions and
 * verdict, the file check, the service's refusal. Everything wraps, so 375 px is enough.
 */
export const evidenceStyles = css`
  [part=list] {
    margin-block-start: .75rem;
  }

  [part~=drawn],
  [part=check] {
    display: grid;
    /* A column never wider than the box: a file input's own minimum width would push it past 375 px. */
    grid-template-columns: minmax(0, 1fr);
    gap: .35rem;
    margin-block-start: .75rem;
    padding-block: .75rem;
    padding-inline: 1rem;
    border: var(--_border);
    border-radius: var(--_radius);
    overflow-wrap: anywhere;
  }

  [part=heading],
  [part=check-title] {
    font-weight: 600;
  }

  [part=row-actions] {
    display: flex;
    flex-wrap: wrap;
    gap: .5rem;
    margin-block-start: .5rem;
  }

  [part=row-actions] button,
  [part=draw] {
    padding-block: .3rem;
    padding-inline: .8rem;
  }

  .hint {
    opacity: .8;
  }

  input[type=file] {
    font: inherit;
    max-inline-size: 100%;
    min-inline-size: 0;
  }

  input[type=file]:focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 1px;
  }

  [part~=verdict] {
    font-weight: 600;
  }

  [part~=verified] {
    color: var(--svc-evidence-ok, #1b6e3a);
  }

  [part~=not-verified],
  [part=refusal],
  [part~=attention] {
    color: var(--svc-evidence-error, #b3261e);
  }

  [part=refusal] {
    font-weight: 600;
  }

  code {
    font-family: ui-monospace, monospace;
    overflow-wrap: anywhere;
  }
`;
