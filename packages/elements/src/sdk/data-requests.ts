// The chunk the script tag's loader imports for <svc-data-requests>: the element's class, undefined (the loader
// defines it), and what `window.Svc` gains with it.
export { SvcDataRequests, SvcDataRequests as default } from '../data-requests/data-requests.component.js';
export { setConfigDefaults } from '../internal/config.js';
