// The playground's stylesheet, served as `/playground/playground.css` (the page allows no inline style), after the
// hosted pages' `/assets/page.css`, whose tokens, font and buttons it uses.
export const PLAYGROUND_CSS = `body.pg { margin: 0; padding: 1.5rem 1rem; display: grid; justify-items: center; }
body.pg > * { width: min(72rem, 100%); }
h1 { font-size: 1.6rem; margin: 0 0 0.25rem; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 0.5rem; }
h3 { font-size: 1rem; margin: 0 0 0.5rem; }
p { margin: 0 0 0.75rem; }
code { font-family: ui-monospace, monospace; font-size: 0.9em; }
.note { border-left: 4px solid #b45309; padding: 0.5rem 0.75rem; background: color-mix(in srgb, #b45309 10%, Canvas); }
section { border-top: 1px solid color-mix(in srgb, CanvasText 20%, transparent); }
.controls { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: end; margin-bottom: 0.75rem; }
fieldset { border: 1px solid color-mix(in srgb, CanvasText 25%, transparent); border-radius: 0.5rem; padding: 0.4rem 0.75rem; margin: 0; }
fieldset label { margin-right: 0.75rem; }
legend { font-weight: 600; }
.grid { display: grid; grid-template-columns: minmax(18rem, 30rem) 1fr; gap: 1rem; align-items: start; }
@media (max-width: 50rem) { .grid { grid-template-columns: 1fr; } }
svc-decision { display: block; --svc-decision-border: 1px solid var(--svc-border); --svc-decision-radius: var(--svc-radius); --svc-decision-accent: var(--svc-accent); --svc-decision-accent-text: var(--svc-accent-text); --svc-decision-font: inherit; }
/* Before any decision exists the element would only spin: the empty state stands in its place. */
svc-decision[hidden] { display: none; }
.empty { border: 1px dashed var(--svc-border); border-radius: var(--svc-radius); padding: var(--svc-space-3); color: var(--svc-muted); }
.empty p:last-child { margin: 0; }
.log { max-height: 24rem; overflow: auto; }
.log ol { list-style: none; padding: 0; margin: 0; font-family: ui-monospace, monospace; font-size: 0.8rem; display: grid; gap: 0.35rem; }
.log li { border-left: 3px solid var(--svc-accent); padding: 0.2rem 0.5rem; overflow-wrap: anywhere; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0 0 1rem; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
dd ul { margin: 0; padding-left: 1.2rem; }
.signup { display: grid; gap: 0.5rem; max-width: 30rem; }
.signup input[type=email] { font: inherit; padding: 0.4rem 0.5rem; }
.signup button { justify-self: start; }
`;
