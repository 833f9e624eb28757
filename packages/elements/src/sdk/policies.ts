// The chunk the script tag's loader imports for <svc-policies>: the element's class, undefined (the loader defines it),
// and what `window.Svc` gains with it.
export { SvcPolicies, SvcPolicies as default } from '../policies/policies.component.js';
export { setConfigDefaults } from '../internal/config.js';
