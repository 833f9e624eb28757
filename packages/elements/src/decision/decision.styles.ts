import { css } from 'lit';

/**
 * Styles of `<svc-decision>`; every colour and size the page may change is an `--svc-decision-*` property. The
 * shadow root is the element's own, so its parts are selected by their `part` names; the base carries the mode
 * (`embed`, `popup`, `redirect`), the status (`loading`, `expired`, `error`, ...) and `over` as classes.
 */
export const decisionStyles = css`
  :host {
    display: block;
    position: relative;
    color: var(--svc-decision-color, inherit);
    font: var(--svc-decision-font, inherit);
  }

  :host([hidden]) {
    display: none;
  }

  [part=base] {
    position: relative;
  }

  .embed {
    min-height: var(--svc-decision-min-height, 320px);
  }

  iframe {
    display: block;
    box-sizing: border-box;
    width: 100%;
    /* The hosted page reports its height; these bound it, and the frame scrolls past the maximum. */
    height: var(--svc-decision-min-height, 320px);
    min-height: var(--svc-decision-min-height, 320px);
    max-height: var(--svc-decision-max-height, none);
    border: var(--svc-decision-border, 0);
    border-radius: var(--svc-decision-radius, 0);
    background: var(--svc-decision-background, transparent);
  }

  /* Once the decision is over (complete, cancelled, expired, a fatal error) the frame is as tall as the hosted page
     says and no taller: no blank space stays below its last words. */
  .over,
  .over iframe {
    min-height: 0;
  }

  /* Hidden but laid out while loading, so showing it moves nothing. */
  .loading iframe {
    visibility: hidden;
  }

  .expired iframe,
  .error iframe {
    display: none;
  }

  [part=loading] {
    position: absolute;
    inset: 0;
    display: grid;
    place-items: center;
  }

  .spinner {
    width: 2rem;
    height: 2rem;
    border: 3px solid color-mix(in srgb, currentColor 20%, transparent);
    border-top-color: var(--svc-decision-accent, currentColor);
    border-radius: 50%;
    animation: spin .8s linear infinite;
  }

  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation-duration: 2.4s;
    }
  }

  @keyframes spin {
    to {
      transform: rotate(1turn);
    }
  }

  button {
    font: inherit;
    cursor: pointer;
    padding: .625rem 1.25rem;
    border: 1px solid transparent;
    border-radius: var(--svc-decision-radius, .5rem);
    background: var(--svc-decision-accent, #1d4ed8);
    color: var(--svc-decision-accent-text, #fff);
  }

  button:focus-visible,
  a:focus-visible {
    outline: 2px solid var(--svc-decision-focus-ring, var(--svc-decision-accent, #1d4ed8));
    outline-offset: 2px;
  }

  [part=fallback] {
    display: inline-block;
    margin-block-start: .5rem;
    color: var(--svc-decision-link, var(--svc-decision-accent, LinkText));
  }

  [part=status] {
    margin: .5rem 0 0;
  }

  /* Never display: none, even when empty: a live region must stay in the accessibility tree to be heard. */
  [part=status]:empty {
    margin: 0;
  }

  /* In embed mode the hosted page speaks for itself; the status line only talks to screen readers. (A paragraph has
     no padding or border of its own, and a page's ::part(status) rules win over these anyway.) */
  .embed [part=status] {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }

  [part=expired],
  [part=error] {
    padding: 1rem;
    border: var(--svc-decision-border, 1px solid color-mix(in srgb, currentColor 20%, transparent));
    border-radius: var(--svc-decision-radius, .5rem);
  }
`;
