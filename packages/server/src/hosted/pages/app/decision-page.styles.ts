import { css, unsafeCSS } from 'lit';
import { BUTTON_CSS, tokensCss } from '../tokens.js';

/** Styles of `<svc-decision-page>`: constructable stylesheets, so the page's `style-src 'self'` holds. */
export const decisionPageStyles = css`
  ${unsafeCSS(tokensCss(':host'))}
  :host {
    display: block;
    font: inherit;
    font-family: var(--svc-font-family);
    color: CanvasText;
  }
  .base { padding: 1.25rem; border: 1px solid var(--svc-border); border-radius: var(--svc-radius); background: Canvas; }
  .frame { border: none; padding: 1rem; }
  header { margin-bottom: 1rem; }
  .brand { margin: 0; color: var(--svc-muted); font-size: 0.9rem; }
  h1 { font-size: 1.35rem; line-height: 1.25; margin: 0.2rem 0 0; }
  h2 { font-size: 1.1rem; margin: 0 0 0.75rem; }
  h2:focus, h1:focus { outline: none; }
  h2:focus-visible, h1:focus-visible { outline: var(--svc-focus-ring); outline-offset: 3px; }
  p { margin: 0 0 0.75rem; }
  .progress { color: var(--svc-muted); font-size: 0.85rem; margin: 0.25rem 0 0; }
  .deadline { color: var(--svc-danger); font-weight: 600; }
  ul.purposes { list-style: none; padding: 0; margin: 0 0 1rem; display: grid; gap: 0.6rem; }
  ul.purposes li { border: 1px solid var(--svc-border); border-radius: var(--svc-radius); padding: 0.6rem 0.75rem; }
  .purpose__label { font-weight: 600; }
  .purpose__description, .hint { color: var(--svc-muted); font-size: 0.9rem; display: block; }
  .purpose__basis { font-size: 0.8rem; color: var(--svc-muted); }
  .check { display: flex; gap: 0.6rem; align-items: flex-start; }
  .check input { margin-top: 0.3rem; width: 1.1rem; height: 1.1rem; flex: none; }
  fieldset { border: none; padding: 0; margin: 0 0 1rem; }
  legend { font-weight: 600; margin-bottom: 0.5rem; padding: 0; }
  .field { display: grid; gap: 0.3rem; margin-bottom: 1rem; }
  label { font-weight: 500; }
  input[type='email'], input[type='text'], textarea {
    font: inherit; padding: 0.55rem 0.65rem; border: 1px solid var(--svc-border); border-radius: 0.4rem;
    background: Canvas; color: CanvasText;
  }
  textarea { min-height: 5rem; resize: vertical; }
  ${unsafeCSS(BUTTON_CSS)}
  .error { color: var(--svc-danger); font-weight: 500; }
  .sandbox { border: 1px dashed var(--svc-border); border-radius: 0.4rem; padding: 0.5rem 0.75rem; font-size: 0.9rem; }
  .sandbox code { font-size: 1.1rem; letter-spacing: 0.15em; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.35rem 1rem; margin: 0 0 1rem; }
  dt { font-weight: 600; }
  dd { margin: 0; overflow-wrap: anywhere; }
  .disclosure { white-space: pre-line; }
  .document {
    white-space: pre-wrap; overflow-wrap: anywhere; max-height: 22rem; overflow: auto; margin: 0 0 0.75rem;
    padding: 0.75rem 0.9rem; border: 1px solid var(--svc-border); border-radius: 0.4rem; line-height: 1.5;
  }
  .document:focus-visible { outline: var(--svc-focus-ring); outline-offset: 2px; }
  .digest { font-size: 0.8rem; overflow-wrap: anywhere; }
  details { margin: 0 0 1rem; }
  summary { cursor: pointer; font-weight: 500; margin-bottom: 0.5rem; }
  summary:focus-visible { outline: var(--svc-focus-ring); outline-offset: 2px; }
  .sr-only {
    position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0);
    white-space: nowrap; border: 0;
  }
`;
