// The chunk the script tag's loader imports for <svc-delegations>: the element's class, undefined (the loader defines
// it), and what `window.Svc` gains with it.
export { SvcDelegations, SvcDelegations as default } from '../delegations/delegations.component.js';
export { setConfigDefaults } from '../internal/config.js';
