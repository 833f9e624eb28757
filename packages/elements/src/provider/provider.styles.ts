import { css } from 'lit';

/** Styles of `<svc-provider>`: it adds no box of its own, so it never changes the page's layout. */
export const providerStyles = css`
  :host {
    display: contents;
  }
`;
