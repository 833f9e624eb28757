import { css } from 'lit';

/** Styles of `<svc-inbox>`; the colours and sizes a page may change are `--svc-inbox-*` properties. */
export const inboxStyles = css`
  :host {
    display: block;
    position: relative;
    color: var(--svc-inbox-color, inherit);
    font: var(--svc-inbox-font, inherit);
    --svc-decision-accent: var(--svc-inbox-accent, #1d4ed8);
    --svc-decision-radius: var(--svc-inbox-radius, .5rem);
  }

  :host([hidden]) {
    display: none;
  }

  [part=list] {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: var(--svc-inbox-gap, .75rem);
  }

  [part=row] {
    padding: .75rem 1rem;
    border: var(--svc-inbox-border, 1px solid color-mix(in srgb, currentColor 20%, transparent));
    border-radius: var(--svc-inbox-radius, .5rem);
  }

  [part=summary],
  [part=meta] {
    margin: .5rem 0 0;
  }

  [part=more],
  [part=retry] {
    font: inherit;
    cursor: pointer;
    margin-block-start: .75rem;
    padding: .5rem 1rem;
    border: 1px solid var(--svc-inbox-accent, #1d4ed8);
    border-radius: var(--svc-inbox-radius, .5rem);
    background: transparent;
    color: inherit;
  }

  button:focus-visible {
    outline: 2px solid var(--svc-inbox-accent, #1d4ed8);
    outline-offset: 2px;
  }

  [part=status] {
    margin: .5rem 0 0;
  }

  [part=status]:empty {
    margin: 0;
  }

  /* Where the view already says it, the status line only talks to screen readers. */
  :is(.idle, .empty, .signed-out, .error) [part=status] {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
`;
