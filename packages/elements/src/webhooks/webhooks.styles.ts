import { css } from 'lit';

/**
 * What only `<svc-webhooks>` adds to the list styles (`personListStyles('webhooks')`, whose `--svc-webhooks-*`
 * properties a page may set): the application select, the chart's frame, the endpoint form and its refusal, a
 * signing secret shown once, an endpoint's deliveries with their filter. Everything wraps, so 375 px is enough.
 */
export const webhooksStyles = css`
  [part=list] {
    margin-block-start: .75rem;
  }

  [part=heading] {
    font-weight: 600;
  }

  [part=overview] {
    margin-block-start: .75rem;
    overflow-x: auto;
  }

  .field {
    display: flex;
    flex-wrap: wrap;
    gap: .35rem .75rem;
    align-items: center;
    margin-block-start: .5rem;
  }

  label,
  .section-title {
    font-weight: 600;
  }

  .hint {
    opacity: .8;
  }

  [part=endpoint] [part=actions] button,
  [part=redeliver] {
    padding-block: .3rem;
    padding-inline: .8rem;
  }

  [part=deliveries] {
    margin-block-start: .75rem;
    padding-block-start: .5rem;
    border-block-start: var(--_border);
  }

  .deliveries {
    display: grid;
    gap: .35rem;
    margin-block-start: .5rem;
  }

  [part=delivery] {
    padding-block: .4rem;
    padding-inline-start: .6rem;
    border-inline-start: 3px solid color-mix(in srgb, currentColor 25%, transparent);
  }

  [part=delivery].failed {
    border-inline-start-color: var(--svc-webhooks-error, #b3261e);
  }

  [part=delivery]:focus {
    outline: none;
  }

  [part=delivery]:focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }

  [part=delivery-error] {
    color: var(--svc-webhooks-error, #b3261e);
  }

  [part=redeliver] {
    margin-block-start: .35rem;
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

  [part=new] {
    margin-block-start: .75rem;
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
  select:focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 1px;
  }

  [aria-invalid=true] {
    border-color: var(--svc-webhooks-error, #b3261e);
  }

  [part=field-error] {
    color: var(--svc-webhooks-error, #b3261e);
    font-weight: 600;
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
