// The chunk the script tag's loader imports for <svc-governance>: the element's class, undefined (the loader defines
// it), and what `window.Svc` gains with it.
export { SvcGovernance, SvcGovernance as default } from '../governance/governance.component.js';
export { setConfigDefaults } from '../internal/config.js';
