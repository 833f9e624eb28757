// The chunk the script tag's loader imports for <svc-connections>: the element's class, undefined (the loader defines
// it), and what `window.Svc` gains with it.
export { SvcConnections, SvcConnections as default } from '../connections/connections.component.js';
export { setConfigDefaults } from '../internal/config.js';
