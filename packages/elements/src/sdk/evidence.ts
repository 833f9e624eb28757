// The chunk the script tag's loader imports for <svc-evidence>: the element's class, undefined (the loader defines it),
// and what `window.Svc` gains with it.
export { SvcEvidence, SvcEvidence as default } from '../evidence/evidence.component.js';
export { setConfigDefaults } from '../internal/config.js';
