// The playground's stylesheet, served as `/playground/playground.css` (the page allows no inline style).
export const PLAYGROUND_CSS = `:root { color-scheme: light dark; font: 16px/1.5 system-ui, sans-serif; }
body.pg { margin: 0; padding: 1.5rem 1rem; display: grid; justify-items: center; }
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
button { font: inherit; padding: 0.45rem 0.9rem; border-radius: 0.4rem; border: 1px solid #1d4ed8; background: #1d4ed8; color: #fff; cursor: pointer; }
button:disabled { opacity: 0.6; cursor: default; }
button:focus-visible, input:focus-visible, a:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
.grid { display: grid; grid-template-columns: minmax(18rem, 30rem) 1fr; gap: 1rem; align-items: start; }
@media (max-width: 50rem) { .grid { grid-template-columns: 1fr; } }
svc-decision { display: block; --svc-decision-border: 1px solid color-mix(in srgb, CanvasText 20%, transparent); --svc-decision-radius: 0.6rem; }
.log { max-height: 24rem; overflow: auto; }
.log ol { list-style: none; padding: 0; margin: 0; font-family: ui-monospace, monospace; font-size: 0.8rem; display: grid; gap: 0.35rem; }
.log li { border-left: 3px solid #1d4ed8; padding: 0.2rem 0.5rem; overflow-wrap: anywhere; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0 0 1rem; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
dd ul { margin: 0; padding-left: 1.2rem; }
.signup { display: grid; gap: 0.5rem; max-width: 30rem; }
.signup input[type=email] { font: inherit; padding: 0.4rem 0.5rem; }
.signup button { justify-self: start; }
`;
