// The chunk the script tag's loader imports for <svc-agreements>: the element's class, undefined (the loader defines
// it), and what `window.Svc` gains with it.
export { SvcAgreements, SvcAgreements as default } from '../agreements/agreements.component.js';
export { setConfigDefaults } from '../internal/config.js';
