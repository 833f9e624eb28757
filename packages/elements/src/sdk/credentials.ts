// The chunk the script tag's loader imports for <svc-credentials>: the element's class, undefined (the loader
// defines it), and what `window.Svc` gains with it.
export { SvcCredentials, SvcCredentials as default } from '../credentials/credentials.component.js';
export { setConfigDefaults } from '../internal/config.js';
