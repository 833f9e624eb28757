// The chunk the script tag's loader imports for <svc-applications>: the element's class, undefined (the loader defines
// it), and what `window.Svc` gains with it.
export { SvcApplications, SvcApplications as default } from '../applications/applications.component.js';
export { setConfigDefaults } from '../internal/config.js';
